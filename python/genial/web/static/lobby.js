// The lobby: a new game's form (variants, seats and bots as /api/meta describes them) and
// the games of this server (as the server summarises them).
import { api } from "./api.js";
import { icon } from "./board.js";
import { h, toast } from "./dom.js";
import { nt, t } from "./i18n.js";
import { claimInvite, claimSeats, saveSeats, seatsFor } from "./seats.js";

// A seat's choice as the request sends it. Pure: tested under node.
export function seatRequest(kind, name, bot, inputs) {
  if (kind === "human") return { kind: "human", name: name.trim() || undefined };
  // An engine the operator offers, by its name (the server never takes a command).
  if (kind === "engine") return { kind: "bot", engine: bot.name };
  const options = {};
  for (const { key, value, type } of inputs) {
    const raw = value.trim();
    if (raw === "" || raw === String(bot.options[key])) continue;
    options[key] = type === "number" ? Number(raw) : raw;
  }
  return { kind: "bot", bot: bot.name, options };
}

// The seed field's text as the request sends it: digits as text (a 63-bit seed would be
// rounded as a JavaScript number), nothing for a random seed, or an error message.
export function seedField(text) {
  const digits = text.trim();
  if (digits === "") return { seed: undefined };
  if (!/^[0-9]{1,20}$/.test(digits))
    return { error: t("The seed is a whole number (digits only), or empty for a random one.") };
  return { seed: digits };
}

function seatEditor(meta, index, initial) {
  const kind = h(
    "select",
    { "aria-label": t("Seat {n} player", { n: index + 1 }), name: `seat-${index}`, class: "seat-kind" },
    h("option", { value: "human" }, t("Human")),
    meta.bots.map((b) => h("option", { value: `bot:${b.name}` }, t("Bot: {name}", { name: b.name }))),
    (meta.engines || []).map((e) => h("option", { value: `engine:${e.name}` }, t("Engine: {name}", { name: e.name }))),
  );
  kind.value = initial;
  const name = h("input", {
    type: "text",
    maxlength: "40",
    placeholder: t("Player {n}", { n: index + 1 }),
    "aria-label": t("Seat {n} name", { n: index + 1 }),
    class: "seat-name",
  });
  const opts = h("div", { class: "bot-options" });
  const about = h("p", { class: "bot-about muted" });
  const chosen = () => meta.bots.find((b) => `bot:${b.name}` === kind.value) || null;
  const engine = () => (meta.engines || []).find((e) => `engine:${e.name}` === kind.value) || null;
  const refresh = () => {
    opts.replaceChildren();
    const bot = chosen();
    name.hidden = !!bot || !!engine();
    // From the core's bot catalogue; an engine is the operator's.
    about.textContent = bot?.description || (engine() ? t("An engine offered by this server's operator.") : "");
    // The bots as they come (levels), unless the operator lets games set bot options.
    if (!bot || !meta.bot_limits?.options) return;
    for (const [k, v] of Object.entries(bot.options)) {
      const spec = (bot.option_specs || []).find((o) => o.name === k);
      const input = h("input", {
        name: k,
        value: String(v),
        "data-type": typeof v,
        "aria-label": `${bot.name} ${k}`,
        type: typeof v === "number" ? "number" : "text",
        step: typeof v === "number" && !Number.isInteger(v) ? "any" : "1",
        min: spec?.min ?? "0",
        max: spec?.max ?? undefined,
        title: spec?.help,
      });
      opts.append(h("label", { class: "opt" }, h("span", {}, k.replace("_", " ")), input));
    }
  };
  kind.addEventListener("change", refresh);
  refresh();
  const row = h(
    "div",
    { class: "seat-row", "data-seat": index },
    h("span", { class: "seat-no" }, `${index + 1}`),
    kind,
    name,
    about,
    opts,
  );
  row.value = () => {
    const inputs = [...opts.querySelectorAll("input")].map((i) => ({
      key: i.name,
      value: i.value,
      type: i.dataset.type,
    }));
    if (engine()) return seatRequest("engine", name.value, engine(), []);
    return seatRequest(kind.value === "human" ? "human" : "bot", name.value, chosen(), inputs);
  };
  return row;
}

// One edition option of the server's list (meta.rule_options): a switch or a choice of
// values, with the values the chosen variant allows (the others are disabled).
function ruleControl(option) {
  const input = option.flag
    ? h("input", { type: "checkbox", name: option.name, checked: option.default })
    : h(
        "select",
        { name: option.name, "aria-label": option.label },
        option.values.map((v) => h("option", { value: v.value, selected: v.value === option.default }, v.label)),
      );
  const label = option.flag
    ? h("label", { class: "check" }, input, h("span", {}, option.label))
    : h("label", {}, h("span", {}, option.label), input);
  const value = () => (option.flag ? input.checked : input.value);
  const allow = (allowed) => {
    if (!option.flag) for (const o of input.options) o.disabled = !allowed.includes(o.value);
    input.disabled = allowed.length < 2;
    if (!allowed.includes(value())) {
      if (option.flag) input.checked = allowed[0];
      else input.value = allowed[0];
    }
  };
  return { name: option.name, label, value, allow };
}

export async function showLobby(root, meta) {
  document.title = `${meta.product.name} · ${meta.product.description}`;
  const variant = h(
    "select",
    { name: "variant", "aria-label": t("Variant") },
    meta.variants.map((v) => h("option", { value: v.name }, v.title)),
  );
  const players = h("select", { name: "players", "aria-label": t("Players") });
  const rules = meta.rule_options.map(ruleControl);
  const seed = h("input", {
    type: "text",
    inputmode: "numeric",
    name: "seed",
    placeholder: t("random seed"),
    "aria-label": t("Seed"),
    autocomplete: "off",
  });
  const seedLabel = h("label", { class: "seed" }, h("span", {}, t("Seed")), seed);
  // With this many people seated the server draws the seed itself (meta.fair_seed).
  const seedNote = h("p", { class: "muted seed-note", hidden: true }, meta.fair_seed.text);
  const hotseat = h("input", { type: "checkbox", name: "hotseat" });
  const hints = h("input", { type: "checkbox", name: "hints", checked: true });
  // The game clock: each person's time for the whole game (a player out of time loses).
  const clock = h(
    "select",
    { name: "clock_minutes", "aria-label": t("Game clock") },
    meta.clock_minutes.choices.map((m) =>
      h(
        "option",
        { value: String(m), selected: m === meta.clock_minutes.default },
        m ? nt("{n} minute each", "{n} minutes each", m) : t("no clock"),
      ),
    ),
  );
  // How long a player must be away before another may hand their seat on (the table's choice).
  const away = h(
    "select",
    { name: "away_minutes", "aria-label": t("Hand on a seat after its player is away for") },
    meta.away_minutes.choices.map((m) =>
      h(
        "option",
        { value: String(m), selected: m === meta.away_minutes.default },
        m ? nt("{n} minute", "{n} minutes", m) : t("never"),
      ),
    ),
  );
  const description = h("p", { class: "muted variant-text" });
  const seats = h("div", { class: "seats" });
  let editors = [];

  const people = () => editors.filter((e) => e.querySelector(".seat-kind").value === "human").length;
  const refreshSeed = () => {
    const fair = people() >= meta.fair_seed.humans;
    seedLabel.hidden = fair;
    seed.disabled = fair;
    seedNote.hidden = !fair;
  };
  const rebuildSeats = () => {
    const n = Number(players.value);
    const old = editors.map((e) => e.querySelector(".seat-kind").value);
    editors = [];
    seats.replaceChildren();
    for (let i = 0; i < n; i++) {
      const e = seatEditor(meta, i, old[i] || (i === 0 ? "human" : `bot:${meta.default_bot}`));
      editors.push(e);
      seats.append(e);
    }
    refreshSeed();
  };
  seats.addEventListener("change", refreshSeed);
  const refreshVariant = () => {
    const v = meta.variants.find((x) => x.name === variant.value);
    const before = players.value;
    players.replaceChildren(...v.player_counts.map((n, i) => h("option", { value: String(n) }, v.player_labels[i])));
    if (v.player_counts.map(String).includes(before)) players.value = before;
    description.textContent = v.description;
    for (const r of rules) r.allow(v.option_values[r.name]);
    rebuildSeats();
  };
  variant.addEventListener("change", refreshVariant);
  players.addEventListener("change", rebuildSeats);
  refreshVariant();

  const form = h(
    "form",
    { class: "card new-game", id: "new-game" },
    h("h2", {}, t("New game")),
    h(
      "div",
      { class: "grid" },
      h("label", {}, h("span", {}, t("Variant")), variant),
      h("label", {}, h("span", {}, t("Players")), players),
    ),
    description,
    h("h3", {}, t("Seats")),
    seats,
    h(
      "details",
      { class: "options" },
      h("summary", {}, t("Edition options and seed")),
      ...rules.map((r) => r.label),
      seedLabel,
      seedNote,
      h("label", { class: "check" }, hotseat, h("span", {}, t("All human seats play at this screen (pass and play)"))),
      h("label", {}, h("span", {}, t("A player away this long may have their seat handed on")), away),
      h("label", { class: "check" }, hints, h("span", {}, t("Hints, and reviewing one's own moves, before the end"))),
      h("label", {}, h("span", {}, t("Game clock (a player whose time runs out loses)")), clock),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "create" }, t("Start game"))),
  );

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seedValue = seed.disabled ? { seed: undefined } : seedField(seed.value);
    if (seedValue.error) {
      toast(seedValue.error, "error");
      return;
    }
    const body = {
      variant: variant.value,
      players: Number(players.value),
      ...Object.fromEntries(rules.map((r) => [r.name, r.value()])),
      seats: editors.map((e) => e.value()),
      seed: seedValue.seed,
      away_minutes: Number(away.value),
      hints: hints.checked,
      clock_minutes: Number(clock.value),
    };
    try {
      const made = await api("/api/games", { method: "POST", body });
      const held = claimSeats(made);
      saveSeats(made.id, held);
      // Pass and play: this screen takes every other seat too, through its invite.
      if (hotseat.checked) for (const code of Object.values(held.invites)) await claimInvite(made.id, code);
      location.href = `/game/${encodeURIComponent(made.id)}`;
    } catch (e) {
      toast(e.message, "error");
    }
  });

  const list = h("div", { class: "card games" }, h("h2", {}, t("Games")), h("p", { class: "muted" }, t("Loading…")));
  const load = h(
    "div",
    { class: "card load" },
    h("h2", {}, t("Records")),
    h("p", { class: "muted" }, t("Step through a saved game (a genial JSON record) move by move.")),
    h("a", { class: "button", href: "/replay" }, t("Open a record…")),
  );
  root.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      h(
        "section",
        { class: "hero" },
        h("h1", {}, meta.product.name),
        h("p", { class: "tagline" }, t("A game engine and table {product}.", { product: meta.product.description })),
        h("p", {}, t("Raise your lowest colour. Play against bots or send friends an invite link.")),
        h(
          "div",
          { class: "hero-tiles", "aria-hidden": "true" },
          meta.colors.map((c) => icon(meta, c.index, 30)),
        ),
      ),
      h("div", { class: "lobby-grid" }, form, h("div", { class: "side" }, list, load)),
    ),
  );

  try {
    const { games } = await api("/api/games");
    renderGames(list, games);
  } catch (e) {
    list.replaceChildren(h("h2", {}, t("Games")), h("p", { class: "error" }, e.message));
  }
}

function renderGames(box, games) {
  box.replaceChildren(h("h2", {}, t("Games")));
  if (!games.length) {
    box.append(h("p", { class: "muted" }, t("No games yet: start one.")));
    return;
  }
  const ul = h("ul", { class: "game-list" });
  for (const g of games) {
    const held = Object.keys(seatsFor(g.id).mine).length > 0;
    const who = g.seats.map((s) =>
      h("span", { class: `who ${s.kind}${s.online ? " online" : ""}` }, s.kind === "bot" ? s.role : s.name),
    );
    ul.append(
      h(
        "li",
        { class: "game-item", "data-game": g.id },
        h(
          "div",
          { class: "game-head" },
          h("strong", {}, g.title || g.variant),
          h("span", { class: "muted" }, ` · ${nt("{n} player", "{n} players", g.players)}`),
          (g.tags || []).map((tag) => h("span", { class: "tag" }, tag)),
        ),
        h("div", { class: "game-who" }, who),
        h("div", { class: "game-status muted" }, g.status || ""),
        h(
          "a",
          { class: `button${held && !g.over ? " primary" : ""}`, href: `/game/${encodeURIComponent(g.id)}` },
          g.over ? t("View") : held ? t("Resume") : t("Watch"),
        ),
      ),
    );
  }
  box.append(ul);
}
