// genial in the browser: the lobby, and the router to the game and replay pages.
import { api, claimInvite, h, inviteLink, saveSeats, seatsFor, toast } from "./api.js";
import { icon } from "./tracks.js";

const main = document.getElementById("main");

async function start() {
  document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
  let meta;
  try {
    meta = await api("/api/meta");
  } catch (e) {
    main.replaceChildren(h("p", { class: "error" }, `The server did not answer: ${e.message}`));
    return;
  }
  const path = location.pathname;
  const m = path.match(/^\/game\/([^/]+)$/);
  if (m) {
    const { showGame } = await import("./game.js");
    await showGame(main, meta, decodeURIComponent(m[1]));
  } else if (path === "/replay") {
    const { showReplay } = await import("./replay.js");
    await showReplay(main, meta);
  } else {
    await showLobby(main, meta);
  }
}

// ----- the lobby --------------------------------------------------------------------------------

const PHASES = { place: "to place", bonus: "bonus placement", swap_offer: "swap offer", over: "over" };
const VARIANT_NAMES = { standard: "Standard", solo: "Solo", team: "Team", duel: "Duel" };

function seatEditor(meta, index, initial) {
  const kind = h("select", { "aria-label": `Seat ${index + 1} player`, name: `seat-${index}`, class: "seat-kind" },
    h("option", { value: "human" }, "Human"),
    meta.bots.map((b) => h("option", { value: `bot:${b.name}` }, `Bot: ${b.name}`)));
  kind.value = initial;
  const name = h("input", { type: "text", maxlength: "40", placeholder: `Player ${index + 1}`, "aria-label": `Seat ${index + 1} name`, class: "seat-name" });
  const opts = h("div", { class: "bot-options" });
  const refresh = () => {
    opts.replaceChildren();
    const bot = kind.value.startsWith("bot:") ? meta.bots.find((b) => `bot:${b.name}` === kind.value) : null;
    name.hidden = !!bot;
    // The levels as they come, unless the operator lets games set bot options.
    if (!bot || !(meta.bot_limits && meta.bot_limits.options)) return;
    for (const [k, v] of Object.entries(bot.options)) {
      const input = h("input", {
        name: k, value: String(v), "data-type": typeof v, "aria-label": `${bot.name} ${k}`,
        type: typeof v === "number" ? "number" : "text", step: typeof v === "number" && !Number.isInteger(v) ? "any" : "1", min: "0",
      });
      opts.append(h("label", { class: "opt" }, h("span", {}, k.replace("_", " ")), input));
    }
  };
  kind.addEventListener("change", refresh);
  refresh();
  const row = h("div", { class: "seat-row", "data-seat": index }, h("span", { class: "seat-no" }, `${index + 1}`), kind, name, opts);
  row.value = () => {
    if (kind.value === "human") return { kind: "human", name: name.value.trim() || undefined };
    const bot = meta.bots.find((b) => `bot:${b.name}` === kind.value);
    const options = {};
    for (const input of opts.querySelectorAll("input")) {
      const def = bot.options[input.name];
      const raw = input.value.trim();
      if (raw === "" || raw === String(def)) continue;
      options[input.name] = input.dataset.type === "number" ? Number(raw) : raw;
    }
    return { kind: "bot", bot: bot.name, options };
  };
  return row;
}

function defaultBot(meta) {
  const names = meta.bots.map((b) => b.name);
  return `bot:${names.includes("greedy") ? "greedy" : names[0]}`;
}

async function showLobby(root, meta) {
  document.title = "Ingenious · genial";
  const variant = h("select", { name: "variant", "aria-label": "Variant" },
    meta.variants.map((v) => h("option", { value: v.name }, VARIANT_NAMES[v.name] || v.name)));
  const players = h("select", { name: "players", "aria-label": "Players" });
  const swap = h("select", { name: "swap_timing", "aria-label": "Swap timing" },
    meta.swap_timings.map((s) => h("option", { value: s }, s === "after_placement" ? "after placing (books)" : "instead of placing (older editions)")));
  const contact = h("input", { type: "checkbox", name: "require_contact" });
  const seed = h("input", { type: "number", name: "seed", min: "0", placeholder: "random", "aria-label": "Seed" });
  const hotseat = h("input", { type: "checkbox", name: "hotseat" });
  const description = h("p", { class: "muted variant-text" });
  const seats = h("div", { class: "seats" });
  let editors = [];

  const rebuildSeats = () => {
    const n = Number(players.value);
    const old = editors.map((e) => e.querySelector(".seat-kind").value);
    editors = [];
    seats.replaceChildren();
    for (let i = 0; i < n; i++) {
      const e = seatEditor(meta, i, old[i] || (i === 0 ? "human" : defaultBot(meta)));
      editors.push(e);
      seats.append(e);
    }
  };
  const refreshVariant = () => {
    const v = meta.variants.find((x) => x.name === variant.value);
    const before = players.value;
    players.replaceChildren(...v.player_counts.map((n) => h("option", { value: String(n) }, `${n} player${n > 1 ? "s" : ""}`)));
    if (v.player_counts.map(String).includes(before)) players.value = before;
    description.textContent = v.description;
    swap.disabled = v.name === "solo";
    rebuildSeats();
  };
  variant.addEventListener("change", refreshVariant);
  players.addEventListener("change", rebuildSeats);
  refreshVariant();

  const form = h("form", { class: "card new-game", id: "new-game" },
    h("h2", {}, "New game"),
    h("div", { class: "grid" },
      h("label", {}, h("span", {}, "Variant"), variant),
      h("label", {}, h("span", {}, "Players"), players)),
    description,
    h("h3", {}, "Seats"),
    seats,
    h("details", { class: "options" },
      h("summary", {}, "Edition options and seed"),
      h("label", {}, h("span", {}, "Swap"), swap),
      h("label", { class: "check" }, contact, h("span", {}, "Tiles must touch tiles already placed (older editions)")),
      h("label", {}, h("span", {}, "Seed"), seed),
      h("label", { class: "check" }, hotseat, h("span", {}, "All human seats play at this screen (pass and play)"))),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "create" }, "Start game")));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      variant: variant.value,
      players: Number(players.value),
      swap_timing: swap.value,
      require_contact: contact.checked,
      seats: editors.map((e) => e.value()),
    };
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      const made = await api("/api/games", { method: "POST", body });
      await claim(made, hotseat.checked);
      location.href = `/game/${encodeURIComponent(made.id)}`;
    } catch (e) {
      toast(e.message, "error");
    }
  });

  const list = h("div", { class: "card games" }, h("h2", {}, "Games"), h("p", { class: "muted" }, "Loading…"));
  const load = h("div", { class: "card load" },
    h("h2", {}, "Records"),
    h("p", { class: "muted" }, "Step through a saved game (a genial JSON record) move by move."),
    h("a", { class: "button", href: "/replay" }, "Open a record…"));
  root.replaceChildren(h("div", { class: "lobby" },
    h("section", { class: "hero" },
      h("h1", {}, "Ingenious"),
      h("p", {}, "Reiner Knizia's game of colours: raise your lowest colour. Play against bots or send friends an invite link."),
      h("div", { class: "hero-tiles", "aria-hidden": "true" }, [0, 1, 2, 3, 4, 5].map((c) => icon(meta, c, 30)))),
    h("div", { class: "lobby-grid" }, form, h("div", { class: "side" }, list, load))));

  try {
    const { games } = await api("/api/games");
    renderGames(list, games);
  } catch (e) {
    list.replaceChildren(h("h2", {}, "Games"), h("p", { class: "error" }, e.message));
  }
}

// Keeps the creator's seat token and the other seats' invite codes (links for friends);
// for pass-and-play, this screen takes every seat through its invite.
async function claim(made, hotseat) {
  const seats = { mine: {}, invites: {} };
  if (made.token) seats.mine[made.seat] = made.token;
  for (const s of made.seats) if (s.invite) seats.invites[s.seat] = s.invite;
  saveSeats(made.id, seats);
  if (hotseat) for (const code of Object.values(seats.invites)) await claimInvite(made.id, code);
}

function renderGames(box, games) {
  box.replaceChildren(h("h2", {}, "Games"));
  if (!games.length) {
    box.append(h("p", { class: "muted" }, "No games yet: start one."));
    return;
  }
  const ul = h("ul", { class: "game-list" });
  for (const g of games) {
    const held = Object.keys(seatsFor(g.id).mine).length > 0;
    const who = g.seats.map((s) => h("span", { class: `who ${s.kind}${s.online ? " online" : ""}` },
      s.kind === "bot" ? `bot · ${s.label}` : s.name));
    const status = g.over
      ? `finished · ${g.ranking ? "winner " + g.ranking[0].map((i) => g.seats[i].name).join(" = ") : ""}`
      : `move ${g.moves + 1} · ${g.seats[g.current].name} ${PHASES[g.phase] || g.phase}`;
    ul.append(h("li", { class: "game-item", "data-game": g.id },
      h("div", { class: "game-head" },
        h("strong", {}, `${VARIANT_NAMES[g.variant] || g.variant}`),
        h("span", { class: "muted" }, ` · ${g.players}p`),
        g.require_contact ? h("span", { class: "tag" }, "contact") : null,
        g.swap_timing !== "after_placement" ? h("span", { class: "tag" }, "swap instead") : null),
      h("div", { class: "game-who" }, who),
      h("div", { class: "game-status muted" }, status),
      h("a", { class: `button${held && !g.over ? " primary" : ""}`, href: `/game/${encodeURIComponent(g.id)}` },
        g.over ? "View" : held ? "Resume" : "Watch")));
  }
  box.append(ul);
}

export { inviteLink };
start();
