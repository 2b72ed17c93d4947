// Score tracks as HTML: six rows per track, each colour with its symbol, so that nothing
// depends on colour alone. What each track is (title, seats, scale, lowest colours, duel
// tokens, rank) comes from the server (state.track_views); this module draws it.
import { icon } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

// The marker slots of one colour: [value, filled, at-marker] from the track's min to max
// (zero left out of an unsigned track). Pure: tested under node.
export function slots(track, v) {
  const out = [];
  for (let x = track.signed ? track.min : 1; x <= track.max; x++) {
    const filled = track.signed ? x !== 0 && ((v > 0 && x > 0 && x <= v) || (v < 0 && x < 0 && x >= v)) : x <= v;
    out.push({ x, filled, at: x === v && (x !== 0 || track.signed) });
  }
  return out;
}

function token(meta, tok, c, side) {
  const held = tok && tok.side === side;
  return h(
    "span",
    { class: `token${held ? " held" : ""}`, title: held ? tok.title : "" },
    held ? icon(meta, c, 14) : null,
  );
}

// Every track (`views`: state.track_views); `gains`: per-colour points of a placement under
// consideration, shown on the tracks the viewer scores on.
export function tracksView(meta, views, { gains = null } = {}) {
  const box = h("div", { class: "tracks" });
  views.forEach((track, i) => {
    const card = h(
      "section",
      { class: `track-card${track.to_move ? " to-move" : ""}`, "data-track": i },
      h(
        "header",
        {},
        h("span", { class: "track-title" }, track.title),
        track.to_move ? h("span", { class: "pill" }, t("to move")) : null,
        track.rank ? h("span", { class: "pill rank" }, `#${track.rank}`) : null,
      ),
    );
    const shown = gains && track.mine ? gains : track.gains;
    track.values.forEach((v, c) => {
      const row = h("div", {
        class: "track-row",
        "data-color": meta.colors[c].name,
        "data-value": v,
        title: `${meta.colors[c].title}: ${v}`,
      });
      row.append(icon(meta, c, 16));
      const bar = h("div", { class: `bar${track.signed ? " duel" : ""}` });
      for (const s of slots(track, v)) {
        const cls = ["slot"];
        if (s.filled) cls.push("on");
        if (s.at) cls.push("at");
        if (s.x === 0) cls.push("zero");
        if (track.marks.includes(s.x)) cls.push("half");
        const slot = h("span", { class: cls.join(" ") });
        if (s.filled) slot.style.background = meta.colors[c].fill;
        bar.append(slot);
      }
      const tok = track.tokens[c];
      if (track.signed) row.append(token(meta, tok, c, "left"));
      row.append(bar);
      if (track.signed) row.append(token(meta, tok, c, "right"));
      row.append(
        h(
          "span",
          { class: "value" },
          h("span", { class: track.lowest[c] ? "lowest" : "" }, String(v)),
          shown?.[c] ? h("span", { class: "gain" }, `+${shown[c]}`) : null,
        ),
      );
      card.append(row);
    });
    box.append(card);
  });
  return box;
}

// Why the ranking came out as it did (state.ending, built by the server).
export function rankingView(ending) {
  const box = h("div", { class: "ranking" });
  box.append(
    h(
      "ol",
      { class: "places" },
      ending.ranking.map((p) =>
        h(
          "li",
          { class: `place place-${p.place}` },
          h("span", { class: "medal" }, String(p.place)),
          h("strong", {}, p.label),
          p.shared ? h("em", {}, ` ${t("shared")}`) : null,
        ),
      ),
    ),
  );
  for (const step of ending.steps) {
    const table = h("table", { class: "why" }, h("caption", {}, step.caption));
    for (const row of step.rows) {
      table.append(
        h(
          "tr",
          {},
          h("th", {}, row.label),
          row.cells.map((v, i) => h("td", { class: i === step.decided ? "decided" : "" }, v)),
        ),
      );
    }
    box.append(table, h("p", { class: "why-text" }, step.text));
  }
  return box;
}
