// The invite card: one link per friend's seat, wide enough to read and copy, and "joined"
// once the friend has claimed it (the seat's `joined` in the server's state).

import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { claimInvite, inviteLink } from "./seats.js";

export function inviteCard(page, st) {
  const seats = Object.keys(page.held.invites)
    .map(Number)
    .sort((a, b) => a - b);
  if (!seats.length) return null;
  return h(
    "div",
    { class: "card invite-card" },
    h("h3", {}, t("Invite friends")),
    h("p", { class: "muted" }, t("Each link seats one player, once: send it only to that player.")),
    ...seats.map((s) => {
      const link = inviteLink(location.origin, page.id, page.held.invites[s]);
      const seat = st.seats[s];
      const joined = !!seat.joined;
      return h(
        "div",
        { class: `invite${joined ? " joined" : ""}`, "data-seat": s },
        h(
          "div",
          { class: "invite-head" },
          h("strong", {}, seat.name),
          h(
            "span",
            { class: `invite-state ${joined ? "joined" : "waiting"}` },
            joined ? t("joined") : t("not joined yet"),
          ),
        ),
        joined
          ? null
          : h("input", {
              type: "text",
              readonly: true,
              value: link,
              "aria-label": t("Invite link for {name}", { name: seat.name }),
              onfocus: (e) => e.target.select(),
            }),
        joined
          ? null
          : h(
              "div",
              { class: "invite-actions" },
              h(
                "button",
                {
                  type: "button",
                  onclick: async () => {
                    try {
                      await navigator.clipboard.writeText(link);
                      toast(t("Link copied"));
                    } catch {
                      toast(t("Select the link and copy it"));
                    }
                  },
                },
                t("Copy link"),
              ),
              h(
                "button",
                {
                  type: "button",
                  class: "ghost",
                  title: t("Play this seat at this screen too"),
                  onclick: async () => {
                    try {
                      await claimInvite(page.id, page.held.invites[s]);
                      location.reload();
                    } catch (e) {
                      toast(e.message, "error");
                    }
                  },
                },
                t("Play here"),
              ),
            ),
      );
    }),
  );
}
