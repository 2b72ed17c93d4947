// Score tracks as HTML: six rows per track, each colour with its symbol, so that nothing
// depends on colour alone. Values come from the engine (state.tracks).
import { h } from "./api.js";
import { el, symbol } from "./board.js";

export function icon(meta, c, size = 18) {
  const svg = el("svg", { viewBox: "-100 -100 200 200", width: size, height: size, class: "icon", "aria-hidden": "true" });
  el("polygon", { points: "0,-100 86.6,-50 86.6,50 0,100 -86.6,50 -86.6,-50", fill: "#221e1b" }, svg);
  symbol(meta, c, 0, 0, 62, meta.colors[c].fill, svg);
  return svg;
}

export function trackTitles(state, names) {
  const seat = (i) => names[i] || `Seat ${i + 1}`;
  if (state.variant === "team") return [`Team A · ${seat(0)} & ${seat(2)}`, `Team B · ${seat(1)} & ${seat(3)}`];
  if (state.variant === "duel") return [`${seat(1)}  ◀  ▶  ${seat(0)}`];
  if (state.variant === "solo") return [seat(0)];
  return names.map((_, i) => seat(i));
}

// The tracks of every seat (or team), as one element. `owners[i]`: seats of track i.
export function tracksView(meta, state, names, { gains = null } = {}) {
  const titles = trackTitles(state, names);
  const box = h("div", { class: "tracks" });
  const duel = state.variant === "duel";
  state.tracks.forEach((values, t) => {
    const owners = state.variant === "team" ? [t, t + 2] : duel ? [0, 1] : [t];
    const toMove = !state.over && owners.includes(state.current) && !duel;
    const lowest = Math.min(...values);
    const card = h("section", { class: `track-card${toMove ? " to-move" : ""}`, "data-track": t },
      h("header", {},
        h("span", { class: "track-title" }, titles[t]),
        toMove ? h("span", { class: "pill" }, "to move") : null,
        state.ranks && state.over && !duel ? h("span", { class: "pill rank" }, `#${state.ranks[owners[0]] + 1}`) : null));
    for (let c = 0; c < 6; c++) {
      const v = values[c];
      const row = h("div", { class: "track-row", "data-color": meta.colors[c].name, "data-value": v,
                             title: `${meta.colors[c].name}: ${v}` });
      row.append(icon(meta, c, 16));
      const bar = h("div", { class: `bar${duel ? " duel" : ""}` });
      const lo = duel ? -state.track_max : 0;
      const hi = duel ? state.track_max : state.track_max;
      for (let x = lo + (duel ? 0 : 1); x <= hi; x++) {
        const filled = duel ? (x !== 0 && ((v > 0 && x > 0 && x <= v) || (v < 0 && x < 0 && x >= v))) : x <= v;
        const cls = ["slot"];
        if (filled) cls.push("on");
        if (x === v && (x !== 0 || duel)) cls.push("at");
        if (x === 0) cls.push("zero");
        if (!duel && state.track_max > 18 && x === 18) cls.push("half");
        const slot = h("span", { class: cls.join(" ") });
        if (filled) slot.style.background = meta.colors[c].fill;
        bar.append(slot);
      }
      if (duel) {
        const tok = state.tokens[c];
        row.append(h("span", { class: `token${tok === 1 ? " held" : ""}`, title: tok === 1 ? "token of seat 2" : "" },
          tok === 1 ? icon(meta, c, 14) : null));
      }
      row.append(bar);
      if (duel) {
        const tok = state.tokens[c];
        row.append(h("span", { class: `token${tok === 0 ? " held" : ""}`, title: tok === 0 ? "token of seat 1" : "" },
          tok === 0 ? icon(meta, c, 14) : null));
      }
      const mine = gains && (duel || owners.includes(state.you));
      row.append(h("span", { class: "value" }, h("span", { class: !duel && v === lowest ? "lowest" : "" }, String(v)),
        mine && gains[c] ? h("span", { class: "gain" }, `+${gains[c]}`) : null));
      card.append(row);
    }
    box.append(card);
  });
  return box;
}

// Why the ranking came out as it did: each seat's results as the ranking compares them.
export function rankingView(meta, state, names) {
  const seat = (i) => names[i] || `Seat ${i + 1}`;
  const group = (g) => state.variant === "team" ? `Team ${g[0] % 2 === 0 ? "A" : "B"} (${g.map(seat).join(" & ")})` : g.map(seat).join(" = ");
  const box = h("div", { class: "ranking" });
  const list = h("ol", { class: "places" });
  const seen = new Set();
  state.ranking.forEach((g, i) => {
    const label = group(g);
    if (seen.has(label)) return;
    seen.add(label);
    list.append(h("li", { class: `place place-${i + 1}` }, h("span", { class: "medal" }, `${i + 1}`),
      h("strong", {}, label), g.length > 1 && state.variant !== "team" ? h("em", {}, " shared") : null));
  });
  box.append(list);
  const duel = state.variant === "duel";
  for (const ex of state.explanation || []) {
    if (state.variant === "team" && ex.above.every((s) => ex.below.includes(s))) continue;
    const [a, b] = ex.rows;
    const table = h("table", { class: "why" });
    const cap = duel ? "Markers on each side, nearest to the middle first" : "Scores from the lowest colour up";
    table.append(h("caption", {}, cap));
    for (const [g, row] of [[ex.above, a], [ex.below, b]]) {
      const tr = h("tr", {}, h("th", {}, group(g)));
      const width = Math.max(a.length, b.length, duel ? 0 : 6);
      for (let i = 0; i < width; i++) {
        const v = row[i];
        tr.append(h("td", { class: i === ex.decided_at ? "decided" : "" }, v === undefined ? "–" : String(v)));
      }
      if (duel) tr.append(h("td", { class: `count${ex.decided_at === -1 ? " decided" : ""}` }, `${row.length} markers`));
      table.append(tr);
    }
    let text;
    if (ex.decided_at === null) text = "Equal results: the places are shared.";
    else if (ex.decided_at === -1) text = `More markers on ${group(ex.above)}'s side decided.`;
    else if (ex.decided_at === 0) text = "The lowest colour decided.";
    else text = `The lowest ${ex.decided_at} ${ex.decided_at === 1 ? "colour was" : "colours were"} tied; the next one decided.`;
    box.append(table, h("p", { class: "why-text" }, text));
  }
  return box;
}
