// The game page: board, rack, tracks, seats, moves and the end, kept live over a WebSocket.
// Every text and fact shown comes from the server's state (genial.web.views); the page
// sends back the player's choice: a move's text as the server sent it, "swap" or "keep".
import { api, gamePath } from "./api.js";
import { BoardView, icon } from "./board.js";
import { Connection, liveUrl } from "./connection.js";
import { download, h, toast } from "./dom.js";
import { fairnessCard, recordSeen, verifyButton } from "./fairness.js";
import { current, nt, t } from "./i18n.js";
import { glyph } from "./icons.js";
import { inviteCard } from "./invite.js";
import { cellKey } from "./placements.js";
import { Placer } from "./rack.js";
import { startReview } from "./review.js";
import { claimInvite, saveSeats, seatsFor } from "./seats.js";
import { rankingView, tracksView } from "./tracks.js";

const ARROWS = { ArrowLeft: "west", ArrowRight: "east", ArrowUp: "north-west", ArrowDown: "south-east" };

export async function showGame(root, meta, id) {
  // An invite link carries a one-time code in the fragment (never sent to the server in a
  // URL); this page exchanges it for a seat token of its own. "#t=" opens a seat this
  // player already holds (their token, carried to another device).
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("invite")) {
    try {
      await claimInvite(id, frag.get("invite"));
    } catch (e) {
      toast(e.message, "error");
    }
    history.replaceState(null, "", location.pathname);
  }
  const held = seatsFor(id);
  if (frag.get("t")) {
    const token = frag.get("t");
    try {
      const v = await api(gamePath(id), { token });
      if (v.you !== null) {
        held.mine[v.you] = token;
        delete held.invites[v.you];
        saveSeats(id, held);
      }
    } catch (e) {
      toast(e.message, "error");
    }
    history.replaceState(null, "", location.pathname);
  }
  const page = new GamePage(root, meta, id, held);
  page.start();
}

class GamePage {
  constructor(root, meta, id, held) {
    this.root = root;
    this.meta = meta;
    this.id = id;
    this.held = held;
    this.views = new Map(); // seat (or "watch") -> latest state
    this.connections = [];
    this.down = new Set(); // connections currently lost
    this.busy = false;
    this.lastVersion = -1;
    this.endShown = false;
    this.placer = new Placer(this);
    this.lost = []; // seats whose token this browser held until the server refused it
  }

  get mySeats() {
    return Object.keys(this.held.mine)
      .map(Number)
      .sort((a, b) => a - b);
  }

  // The seat this screen acts for: the one to move if it is ours, else our first.
  get seat() {
    const any = this.views.values().next().value;
    const mine = this.mySeats;
    if (!mine.length) return null;
    if (any && mine.includes(any.current)) return any.current;
    return mine[0];
  }

  get state() {
    const s = this.seat;
    return this.views.get(s === null ? "watch" : s) || this.views.values().next().value;
  }

  get online() {
    return this.down.size === 0;
  }

  start() {
    this.build();
    this.connect();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  // One live connection per seat this browser holds (or one to watch).
  connect() {
    const seats = this.mySeats;
    const slots = seats.length ? seats.map((s) => [s, this.held.mine[s]]) : [["watch", null]];
    for (const [slot, token] of slots) {
      const conn = new Connection(liveUrl(location, this.id, current()), token, {
        onState: (msg) => {
          // A seat given to someone else: the server now sends this page what a spectator sees.
          if (slot !== "watch" && msg.you === null) return this.seatLost(slot);
          recordSeen(this.id, msg); // the racks shown, for the deal's check at the end
          this.views.set(slot, msg);
          this.render();
        },
        onStatus: (up) => {
          if (up) this.down.delete(slot);
          else this.down.add(slot);
          this.render();
        },
        onFatal: (message, status) => (status === 403 && slot !== "watch" ? this.seatLost(slot) : this.fatal(message)),
      });
      this.connections.push(conn);
      conn.start();
    }
  }

  // The token this browser kept for `seat` holds it no more (another player gave the seat a
  // new invite): it is dropped from this browser, the page says what happened and watches on.
  seatLost(seat) {
    if (!(seat in this.held.mine)) return;
    delete this.held.mine[seat];
    saveSeats(this.id, this.held);
    this.lost.push(Number(seat));
    for (const conn of this.connections) conn.stop();
    this.connections = [];
    this.views.clear();
    this.down.clear();
    this.placer.tile = null;
    toast(t("Your seat in this game was given to someone else: you are watching now."), "error");
    this.connect();
  }

  lostCard(st) {
    if (!this.lost.length) return null;
    const names = this.lost.map((s) => (st.seats[s] ? st.seats[s].name : t("seat {n}", { n: s + 1 })));
    return h(
      "div",
      { class: "card seat-lost", role: "alert", "data-seats": this.lost.join(" ") },
      h("h3", {}, t("You no longer hold your seat")),
      h(
        "p",
        {},
        t(
          "{names}'s seat was handed on with a new invite (its holder was away longer than this table allows, or left), so the key this browser kept for it stopped working and was removed. You are watching the game now; to play again, ask a player for a new invite link.",
          { names: names.join(" & ") },
        ),
      ),
    );
  }

  fatal(message) {
    this.root.replaceChildren(
      h(
        "div",
        { class: "card error-card" },
        h("h2", {}, t("This game cannot be shown")),
        h("p", {}, message),
        h("a", { class: "button", href: "/" }, t("Back to the lobby")),
      ),
    );
  }

  // ----- layout -------------------------------------------------------------------------------

  build() {
    this.statusEl = h("div", { class: "status", role: "status", "aria-live": "polite" });
    this.previewEl = h("div", { class: "preview", "aria-live": "polite" });
    this.hintEl = h("div", { class: "hint muted", id: "hint-text", "aria-live": "polite" });
    this.rackEl = h("div", { class: "rack", role: "listbox", "aria-label": t("Your rack") });
    this.buttonsEl = h("div", { class: "buttons" });
    this.seatsEl = h("div", { class: "players" });
    this.tracksEl = h("div", { class: "tracks-box" });
    this.logEl = h("ol", { class: "log", "aria-label": t("Last moves") });
    this.inviteEl = h("div", { class: "invites" });
    this.fairEl = h("div", { class: "fairness-box" });
    this.overlay = h("div", { class: "overlay", hidden: true });
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, this.meta, { onCell: (q, r, kind) => this.placer.onCell(q, r, kind) });
    const touchFirst = globalThis.matchMedia?.("(hover: none)").matches;
    this.gameEl = h(
      "div",
      { class: "game", "data-game": this.id },
      h(
        "div",
        { class: "play-area" },
        this.statusEl,
        boardBox,
        h("div", { class: "dock" }, this.rackEl, this.previewEl, this.hintEl, this.buttonsEl),
      ),
      h(
        "aside",
        { class: "sidebar" },
        this.seatsEl,
        this.tracksEl,
        this.inviteEl,
        this.fairEl,
        h("details", { class: "card log-card", open: !touchFirst }, h("summary", {}, t("Moves")), this.logEl),
      ),
    );
    this.root.replaceChildren(this.gameEl, this.overlay);
  }

  // ----- state -> page ------------------------------------------------------------------------

  render() {
    const st = this.state;
    if (!st) return;
    this.root.classList.toggle("offline", !this.online);
    Object.assign(this.gameEl.dataset, {
      version: st.version,
      phase: st.phase,
      current: st.current,
      moves: st.moves,
      over: st.over,
      you: st.you ?? "",
      others: (st.others || []).join(" "),
      connection: this.online ? "up" : "down",
    });
    const changed = st.version !== this.lastVersion;
    if (changed) {
      this.lastVersion = st.version;
      this.hintEl.textContent = "";
    }
    this.placer.update(st, changed);
    document.title = `${this.myTurn(st) ? `▶ ${t("Your turn")} · ` : ""}genial · ${st.title}`;
    this.board.setZone(st.radius);
    const colours = new Map(st.cells.map(([q, r, c]) => [cellKey(q, r), c]));
    const { recent, latest } = this.recent(st);
    this.board.setTiles(st.tiles, colours, recent, latest);
    this.renderStatus(st);
    this.renderRack(st);
    this.renderButtons(st);
    this.renderSeats(st);
    this.renderTracks(st, this.placer.previewGains());
    this.renderLog(st);
    this.inviteEl.replaceChildren(...[this.lostCard(st), this.inheritedCard(st), inviteCard(this, st)].filter(Boolean));
    this.fairEl.replaceChildren(...[fairnessCard(this.id, st)].filter(Boolean));
    this.placer.highlight();
    this.scheduleHandOn(st);
    if (st.over && !this.endShown) this.showEnd(st);
    if (!st.over) this.hideEnd();
  }

  // The seat may act now: its turn, the game on, and the connection up (a lost connection
  // cannot vouch for the turn).
  myTurn(st) {
    return !!st && !st.over && st.you !== null && st.current === st.you && this.online;
  }

  // The placements since this seat's last move (or the last round, for a spectator).
  recent(st) {
    const placed = st.log.filter((e) => e.cells);
    if (!placed.length) return { recent: [], latest: null };
    let since = Math.max(0, st.log.length - st.players);
    if (st.you !== null) {
      const mine = st.log.findLastIndex((e) => e.seat === st.you);
      if (mine >= 0 && mine + 1 < st.log.length) since = mine + 1;
    }
    const recent = st.log
      .slice(since)
      .filter((e) => e.cells)
      .map((e) => e.cells);
    return { recent, latest: placed[placed.length - 1].cells };
  }

  renderStatus(st) {
    const kind = this.online ? st.status.kind : "offline";
    const text = this.online ? st.status.text : t("Connection lost: reconnecting…");
    this.statusEl.className = `status ${kind}`;
    const parts = [h("span", { class: "status-text" }, text)];
    if (this.online && st.swap_why && st.phase !== "swap_offer") {
      parts.push(h("span", { class: "swap-why" }, t("Swap open: {why}", { why: st.swap_why })));
    }
    this.statusEl.replaceChildren(
      ...parts,
      h("span", { class: "bag", title: t("tiles left in the bag") }, t("bag {bag}", { bag: st.bag })),
    );
  }

  renderRack(st) {
    this.placer.renderRack(st, this.rackEl);
  }

  renderTracks(st, gains) {
    this.tracksEl.replaceChildren(
      tracksView(this.meta, st.track_views, { gains }),
      h("p", { class: "scoring muted" }, st.scoring),
    );
  }

  refreshPlaceButton() {
    const btn = this.buttonsEl.querySelector("#place");
    if (btn) btn.disabled = !this.placer.targetPlacement();
  }

  renderButtons(st) {
    const my = this.myTurn(st);
    const others = my ? st.others || [] : [];
    const btns = [];
    if (my && st.phase !== "swap_offer") {
      btns.push(
        h(
          "button",
          {
            type: "button",
            id: "rotate",
            title: t("Rotate (R)"),
            onclick: () => this.placer.rotate(1),
            disabled: this.placer.tile === null,
          },
          glyph("rotate"),
          t("Rotate"),
        ),
        h(
          "button",
          {
            type: "button",
            id: "place",
            class: "primary",
            title: t("Place (Enter)"),
            disabled: !this.placer.targetPlacement(),
            onclick: () => this.placer.place(),
          },
          glyph("check"),
          t("Place"),
        ),
      );
    }
    if (others.includes("swap")) {
      const offer = st.phase === "swap_offer";
      btns.push(
        h(
          "button",
          {
            type: "button",
            id: "swap",
            class: offer ? "primary" : "",
            title: t("Swap (S)"),
            onclick: () => this.send("swap"),
          },
          offer ? t("Swap rack") : t("Swap rack instead"),
        ),
      );
    }
    if (others.includes("keep")) {
      btns.push(
        h(
          "button",
          { type: "button", id: "keep", title: t("Keep (K)"), onclick: () => this.send("keep") },
          t("Keep rack"),
        ),
      );
    }
    if (my && st.hints) {
      btns.push(
        h(
          "button",
          { type: "button", id: "hint", class: "ghost", title: t("Hint (H)"), onclick: () => this.placer.hint() },
          t("Hint"),
        ),
      );
    }
    if (st.can_undo && this.online) {
      btns.push(
        h(
          "button",
          { type: "button", id: "undo", class: "ghost", title: t("Undo (U)"), onclick: () => this.undo() },
          glyph("undo"),
          t("Undo"),
        ),
      );
    }
    if (st.you !== null && !st.over && st.moves > 0 && st.hints) {
      // A seat may review its own decisions while the game goes on (from its view alone).
      const token = this.held.mine[st.you];
      btns.push(
        h(
          "button",
          { type: "button", id: "review-mine", class: "ghost", onclick: () => startReview({ game: this.id }, token) },
          t("Review my moves"),
        ),
      );
    }
    this.buttonsEl.replaceChildren(...btns);
  }

  renderSeats(st) {
    clearInterval(this.clockTimer);
    this.seatsEl.replaceChildren(
      ...st.seats.map((s) => {
        const mine = this.mySeats.includes(s.seat);
        let who;
        if (s.kind === "bot") who = h("span", { class: "kind bot" }, s.role);
        else if (!this.online) who = h("span", { class: "kind unknown" }, "…");
        else
          who = h(
            "span",
            { class: `kind ${s.online ? "online" : "away"}` },
            s.online ? `● ${t("online")}` : `○ ${t("away")}`,
          );
        const toMove = st.current === s.seat && !st.over;
        return h(
          "div",
          { class: `player${toMove ? " to-move" : ""}${mine ? " me" : ""}`, "data-seat": s.seat },
          h(
            "span",
            { class: "name" },
            s.name,
            mine ? h("em", {}, ` ${t("(you)")}`) : null,
            s.team ? h("small", {}, ` · ${s.team}`) : null,
          ),
          who,
          h(
            "span",
            { class: "rack-size", title: t("tiles in rack") },
            nt("{n} tile", "{n} tiles", st.rack_sizes[s.seat]),
          ),
          this.clockView(st, s),
          this.handOnButton(st, s),
        );
      }),
      // The table's away time and clock, in the server's words: every seat knows them.
      ...(st.table_text ? [h("p", { class: "table-text" }, st.table_text)] : []),
    );
  }

  // A seat is handed on by its holder (this browser, if it holds the seat's token), or by
  // another player once the server says it may be (its holder away for the table's time, or
  // gone): the server decides, the page offers what it says.
  handOnButton(st, s) {
    // Only at a table of people (against bots alone there is nobody to hand a seat to).
    if (s.kind !== "human" || st.over || st.seats.filter((x) => x.kind === "human").length < 2) return null;
    const own = this.held.mine[s.seat];
    const mine = Object.values(this.held.mine)[0];
    if (!own && (!mine || s.hand_on_in_s !== 0)) return null;
    const label = own ? t("Give this seat to someone else") : t("Hand this seat on");
    const ask = own
      ? t("Give {name}'s seat to someone else? This browser stops holding it, and every player sees it.", {
          name: s.name,
        })
      : t("Hand {name}'s seat on to someone new? Their key stops working, and every player sees it.", {
          name: s.name,
        });
    return h(
      "button",
      {
        type: "button",
        class: `ghost hand-on${own ? " own" : ""}`,
        "data-seat": s.seat,
        onclick: async () => {
          if (!confirm(ask)) return;
          try {
            const got = await api(gamePath(this.id, "/replace"), {
              method: "POST",
              token: own || mine,
              body: { seat: s.seat },
            });
            this.held.invites[s.seat] = got.invite;
            if (own) delete this.held.mine[s.seat];
            saveSeats(this.id, this.held);
            if (own) location.reload();
            else this.render();
          } catch (e) {
            toast(e.message, "error");
          }
        },
      },
      label,
    );
  }

  // A person's time left on the game clock; the running one counts down here each second
  // from what the server last said (it keeps the time and ends the game at zero).
  clockView(st, s) {
    if (!st.clock || st.clock.left[s.seat] === null) return null;
    const running = st.clock.running === s.seat;
    const el = h("span", { class: `clock${running ? " running" : ""}`, "data-seat": s.seat, title: st.clock.text });
    const since = performance.now();
    const show = () => {
      const left = Math.max(0, st.clock.left[s.seat] - (running ? (performance.now() - since) / 1000 : 0));
      const whole = Math.ceil(left);
      el.textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    };
    show();
    if (running) {
      clearInterval(this.clockTimer);
      this.clockTimer = setInterval(show, 1000);
    }
    return el;
  }

  // A seat that may be handed on later (its holder away, not yet for the table's time):
  // the page asks for the state again then, as nothing changes in the game to push it.
  scheduleHandOn(st) {
    clearTimeout(this.handOnTimer);
    const waits = st.seats.map((s) => s.hand_on_in_s).filter((w) => typeof w === "number" && w > 0);
    if (!waits.length || st.over || !this.mySeats.length) return;
    this.handOnTimer = setTimeout(() => this.refresh(), (Math.min(...waits) + 1) * 1000);
  }

  async refresh() {
    const seat = this.seat;
    const slot = seat === null ? "watch" : seat;
    try {
      const fresh = await api(gamePath(this.id), { token: seat === null ? undefined : this.held.mine[seat] });
      if (fresh.version >= (this.views.get(slot)?.version ?? -1)) this.views.set(slot, fresh);
      this.render();
    } catch {
      /* the live connection brings the next state */
    }
  }

  inheritedCard(st) {
    if (!st.inherited) return null;
    return h("div", { class: "card inherited", role: "note" }, h("p", {}, st.inherited));
  }

  renderLog(st) {
    this.logEl.replaceChildren(
      ...st.log
        .slice()
        .reverse()
        .map((e) =>
          h(
            "li",
            { value: e.n + 1 },
            h("span", { class: "log-who" }, e.who),
            e.cells
              ? h(
                  "span",
                  { class: "log-tile" },
                  e.colors.map((c) => icon(this.meta, c, 14)),
                )
              : null,
            h("span", {}, e.text),
            // The server's notes, in the page's language: "Ingenious!" first when the move earned a bonus.
            e.notes.map((n, i) => h("em", { class: e.bonus && i === 0 ? "ingenious" : "" }, ` ${n}`)),
          ),
        ),
    );
  }

  // ----- acting ---------------------------------------------------------------------------------

  async send(move) {
    const st = this.state;
    if (this.busy || !st || st.you === null || !this.online) return;
    this.busy = true;
    this.root.classList.add("busy");
    try {
      const ack = await api(gamePath(this.id, "/move"), {
        method: "POST",
        token: this.held.mine[st.you],
        body: { version: st.version, move },
      });
      this.placer.cycleAt = -1;
      this.board.setCursor(null);
      if (ack.result?.bonus) toast(t("Ingenious! You earned a bonus placement."), "good");
    } catch (e) {
      toast(e.message, "error");
    } finally {
      this.busy = false;
      this.root.classList.remove("busy");
    }
  }

  async undo() {
    const st = this.state;
    if (this.busy || !st || !st.can_undo) return;
    this.busy = true;
    try {
      await api(gamePath(this.id, "/undo"), {
        method: "POST",
        token: this.held.mine[st.you],
        body: { version: st.version },
      });
      this.endShown = false;
      toast(t("Move taken back"));
    } catch (e) {
      toast(e.message, "error");
    } finally {
      this.busy = false;
    }
  }

  async downloadRecord() {
    const st = this.state;
    try {
      const token = st.you !== null ? this.held.mine[st.you] : undefined;
      const res = await fetch(gamePath(this.id, "/record"), { headers: token ? { "X-Seat-Token": token } : {} });
      const text = await res.text();
      if (!res.ok) throw new Error(JSON.parse(text).error);
      download(`genial-${this.id}.json`, text);
    } catch (e) {
      toast(e.message, "error");
    }
  }

  // ----- the end ---------------------------------------------------------------------------------

  showEnd(st) {
    this.endShown = true;
    const end = st.ending;
    const card = h(
      "div",
      { class: "card end-card", role: "dialog", "aria-label": t("Game over") },
      h("h2", {}, end.title),
      h("p", { class: "muted" }, end.reason),
      h("p", { class: "end-summary" }, end.summary),
      end.ranking.length ? rankingView(end) : null,
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          { type: "button", id: "download", onclick: () => this.downloadRecord() },
          glyph("download"),
          t("Download record"),
        ),
        h(
          "a",
          { class: "button", id: "replay-link", href: `/replay#game=${encodeURIComponent(this.id)}` },
          glyph("play"),
          t("Replay"),
        ),
        h(
          "button",
          { type: "button", id: "review-button", onclick: () => startReview({ game: this.id }) },
          t("Review"),
        ),
        st.can_undo
          ? h(
              "button",
              { type: "button", class: "ghost", onclick: () => this.undo() },
              glyph("undo"),
              t("Undo last move"),
            )
          : null,
        st.you !== null && this.held.mine[st.you]
          ? h(
              "button",
              { type: "button", id: "rematch", class: "primary", onclick: () => this.rematch(st) },
              t("Rematch"),
            )
          : null,
        h("a", { class: "button primary", href: "/" }, t("New game")),
        h("button", { type: "button", class: "ghost", onclick: () => this.hideEnd() }, t("Look at the board")),
      ),
      verifyButton(this.id, st, Object.fromEntries(this.meta.colors.map((c) => [c.letter, c.index]))),
    );
    this.overlay.replaceChildren(card);
    this.overlay.hidden = false;
  }

  // The same table again with a new bag: made by the first player who asks, joined by the
  // others with their own seats' tokens (the server keeps each seat for its old holder).
  async rematch(st) {
    try {
      const got = await api(gamePath(this.id, "/rematch"), { method: "POST", token: this.held.mine[st.you], body: {} });
      const held = seatsFor(got.id);
      held.mine[got.seat] = got.token;
      saveSeats(got.id, held);
      location.href = `/game/${encodeURIComponent(got.id)}`;
    } catch (e) {
      toast(e.message, "error");
    }
  }

  hideEnd() {
    this.overlay.hidden = true;
  }

  // ----- keys -------------------------------------------------------------------------------------

  onKey(ev) {
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const st = this.state;
    if (!st) return;
    const k = ev.key;
    const p = this.placer;
    const others = this.myTurn(st) ? st.others || [] : [];
    if (/^[1-9]$/.test(k)) {
      p.pick(Number(k) - 1);
      ev.preventDefault();
    } else if (k === "r" || k === "R") {
      p.rotate(ev.shiftKey ? -1 : 1);
      ev.preventDefault();
    } else if (k === "n" || k === "N") {
      p.cycle(1);
      ev.preventDefault();
    } else if (k === "p" || k === "P") {
      p.cycle(-1);
      ev.preventDefault();
    } else if ((k === "s" || k === "S") && others.includes("swap")) {
      this.send("swap");
    } else if ((k === "k" || k === "K") && others.includes("keep")) {
      this.send("keep");
    } else if ((k === "h" || k === "H") && this.myTurn(st) && st.hints) {
      p.hint();
    } else if ((k === "u" || k === "U") && st.can_undo) {
      this.undo();
    } else if (k === "Escape") {
      p.putBack();
    } else if (k === "Enter" || k === " ") {
      if (p.targetPlacement()) {
        p.place();
        ev.preventDefault();
      }
    } else if (ARROWS[k] && this.myTurn(st)) {
      ev.preventDefault();
      p.step(ARROWS[k]);
    }
  }
}
