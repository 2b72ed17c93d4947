// The board as SVG. Where each cell is drawn, the hexagons, the frame and the outline of a
// tile laid in each direction come from the server (meta.board, from genial.geometry);
// what is legal and what it scores comes from the engine. This module only draws.
import { svgEl } from "./dom.js";
import { t } from "./i18n.js";
import { markedCells } from "./marks.js";
import { cellKey } from "./placements.js";

// A colour's symbol (genial.svg's drawing, sent by the server in a 200×200 box) at (cx, cy).
export function symbol(meta, color, cx, cy, radius, parent) {
  const c = meta.colors[color];
  const g = svgEl(
    "g",
    {
      transform: `translate(${cx.toFixed(2)} ${cy.toFixed(2)}) scale(${(radius / 100).toFixed(4)})`,
      class: `sym sym-${c.name}`,
      style: `color:${c.fill}`,
    },
    parent,
  );
  g.innerHTML = c.svg;
  return g;
}

// A small picture of one colour's symbol on a dark hexagon (tracks, log, lobby).
export function icon(meta, color, size = 18) {
  const svg = svgEl("svg", {
    viewBox: "-100 -100 200 200",
    width: size,
    height: size,
    class: "icon",
    "aria-hidden": "true",
  });
  svgEl("polygon", { points: "0,-100 86.6,-50 86.6,50 0,100 -86.6,50 -86.6,-50", fill: "#221e1b" }, svg);
  symbol(meta, color, 0, 0, 62, svg);
  return svg;
}

// A tile (two colours) laid in a direction, its first half at (x, y), scaled by `scale`.
export function drawTile(meta, parent, x, y, direction, colors, { scale = 1, cls = "tile" } = {}) {
  const d = meta.board.directions[direction];
  const s = meta.board.size;
  const g = svgEl("g", { class: cls, transform: `translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${scale})` }, parent);
  svgEl("path", { d: d.outline, class: "tile-body" }, g);
  const [ox, oy] = d.offset;
  svgEl(
    "line",
    {
      x1: (ox / 3).toFixed(2),
      y1: (oy / 3).toFixed(2),
      x2: ((ox * 2) / 3).toFixed(2),
      y2: ((oy * 2) / 3).toFixed(2),
      class: "tile-seam",
    },
    g,
  );
  if (colors[0] !== undefined) symbol(meta, colors[0], 0, 0, s * 0.6, g);
  if (colors[1] !== undefined) symbol(meta, colors[1], ox, oy, s * 0.6, g);
  return g;
}

// A small sample of the outline a mark of `kind` has on the board, for a legend.
export function markSwatch(kind) {
  const svg = svgEl("svg", { viewBox: "0 0 26 14", width: 26, height: 14, class: "swatch", "aria-hidden": "true" });
  svgEl("rect", { width: 26, height: 14, rx: 3, class: "swatch-board" }, svg); // the board behind
  const g = svgEl("g", { class: `mark-outline ${kind}` }, svg);
  svgEl("rect", { x: 4, y: 3.5, width: 18, height: 7, rx: 2, class: "mark-rim" }, g);
  return svg;
}

export class BoardView {
  // meta: /api/meta; opts.onCell(q, r, kind) with kind "hover" | "click" | "leave".
  constructor(container, meta, opts = {}) {
    this.meta = meta;
    this.geo = meta.board;
    this.opts = opts;
    this.at = new Map(this.geo.cells.map((c) => [cellKey(c[0], c[1]), c]));
    this.direction = new Map(this.geo.directions.map((d, i) => [d.delta.join(","), i]));
    this.svg = svgEl(
      "svg",
      { viewBox: this.geo.view_box, class: "board", role: "img", "aria-label": t("Game board") },
      container,
    );
    const defs = svgEl("defs", {}, this.svg);
    const glow = svgEl("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
    svgEl("feGaussianBlur", { stdDeviation: "1.2", result: "b" }, glow);
    const merge = svgEl("feMerge", {}, glow);
    svgEl("feMergeNode", { in: "b" }, merge);
    svgEl("feMergeNode", { in: "SourceGraphic" }, merge);
    const shade = svgEl("radialGradient", { id: "board-shade", cx: "50%", cy: "45%", r: "60%" }, defs);
    svgEl("stop", { offset: "0%", "stop-color": "#3a332d" }, shade);
    svgEl("stop", { offset: "100%", "stop-color": "#1f1b18" }, shade);
    svgEl("polygon", { points: this.geo.frame, class: "frame", fill: "url(#board-shade)" }, this.svg);
    this.gCells = svgEl("g", { class: "cells" }, this.svg);
    this.gTiles = svgEl("g", { class: "tiles" }, this.svg);
    this.gLast = svgEl("g", { class: "last" }, this.svg);
    this.gMarks = svgEl("g", { class: "marks", "pointer-events": "none" }, this.svg);
    // The marks' outlines above every mark's tile: two moves on the same hexes both show.
    this.gOutlines = svgEl("g", { class: "mark-outlines", "pointer-events": "none" }, this.svg);
    this.gGhost = svgEl("g", { class: "ghost", "pointer-events": "none" }, this.svg);
    this.gCursor = svgEl("g", { class: "cursor", "pointer-events": "none" }, this.svg);
    this.cells = new Map();
    this.radius = null;
    this.svg.addEventListener("pointerleave", () => opts.onCell?.(null, null, "leave"));
  }

  center(q, r) {
    const c = this.at.get(cellKey(q, r));
    return c ? [c[2], c[3]] : null;
  }

  // The direction from cell a to its neighbour b (an index into meta.board.directions).
  directionOf(a, b) {
    return this.direction.get(`${b[0] - a[0]},${b[1] - a[1]}`);
  }

  // Draws the cells of the playing zone (`radius`: the zone the server names) and the
  // printed symbols.
  setZone(radius) {
    if (this.radius === radius) return;
    this.radius = radius;
    this.gCells.replaceChildren();
    this.cells.clear();
    const printed = new Map(this.geo.printed.map(([q, r, c]) => [cellKey(q, r), c]));
    // The view frames the playing zone (a smaller board fills the width, on a phone too),
    // with a cell's width of margin.
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [, , x, y, zone] of this.geo.cells) {
      if (zone > radius) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
    if (x0 <= x1) {
      const m = this.geo.size * 1.6;
      const [left, top] = [x0 - m, y0 - m];
      this.svg.setAttribute("viewBox", `${left} ${top} ${x1 + m - left} ${y1 + m - top}`);
    }
    for (const [q, r, x, y, zone] of this.geo.cells) {
      const inZone = zone <= radius;
      const poly = svgEl(
        "polygon",
        {
          points: this.geo.hexagon,
          transform: `translate(${x} ${y})`,
          class: inZone ? "cell free" : "cell outside",
          "data-cell": cellKey(q, r),
        },
        this.gCells,
      );
      if (!inZone) continue;
      const c = printed.get(cellKey(q, r));
      if (c !== undefined) {
        poly.setAttribute("class", `cell printed ${this.meta.colors[c].name}`);
        poly.style.stroke = this.meta.colors[c].fill;
        symbol(this.meta, c, x, y, this.geo.size * 0.55, this.gCells).setAttribute("pointer-events", "none");
      }
      poly.addEventListener("pointerenter", () => this.opts.onCell?.(q, r, "hover"));
      poly.addEventListener("click", () => this.opts.onCell?.(q, r, "click"));
      this.cells.set(cellKey(q, r), poly);
    }
  }

  // Placed tiles: pairs of cells with their colours; `recent`: pairs to mark; `latest`:
  // the last one.
  setTiles(tiles, colours, recent = [], latest = null) {
    this.gTiles.replaceChildren();
    this.gLast.replaceChildren();
    for (const [a, b] of tiles) {
      this.drawPair(this.gTiles, a, b, [colours.get(cellKey(...a)), colours.get(cellKey(...b))], "tile");
    }
    for (const [a, b] of recent) {
      const mine = latest && cellKey(...a) === cellKey(...latest[0]) && cellKey(...b) === cellKey(...latest[1]);
      const [x, y] = this.center(...a);
      svgEl(
        "path",
        {
          d: this.geo.directions[this.directionOf(a, b)].rim,
          transform: `translate(${x} ${y})`,
          class: mine ? "recent latest" : "recent",
        },
        this.gLast,
      );
    }
    for (const [k, poly] of this.cells) {
      poly.classList.toggle("taken", colours.has(k) && !poly.classList.contains("printed"));
    }
  }

  drawPair(parent, a, b, colors, cls) {
    const [x, y] = this.center(...a);
    const g = drawTile(this.meta, parent, x, y, this.directionOf(a, b), colors, { cls });
    g.setAttribute("data-tile", `${cellKey(...a)}|${cellKey(...b)}`);
    return g;
  }

  // Cells where the selected tile may be laid (its first half), lit up.
  setLegal(keys) {
    for (const [k, poly] of this.cells) poly.classList.toggle("legal", keys.has(k));
  }

  // Moves under study (marks.js's marksOf: {kind, cells, colors, points}), each drawn as
  // its tile with an outline of its kind (style.css: .mark-outline.played, .best,
  // .candidate), and its hexes given the class mark-<kind>.
  setMarks(marks) {
    this.gMarks.replaceChildren();
    this.gOutlines.replaceChildren();
    const on = markedCells(marks);
    for (const [k, poly] of this.cells) {
      for (const cls of [...poly.classList]) if (cls.startsWith("mark-")) poly.classList.remove(cls);
      for (const kind of on.get(k) ?? []) poly.classList.add(`mark-${kind}`);
    }
    for (const m of marks) {
      const [a, b] = m.cells;
      if (!this.center(...a) || !this.center(...b)) continue;
      const g = this.drawPair(this.gMarks, a, b, m.colors, `mark-tile ${m.kind}`);
      g.setAttribute("data-mark", m.kind);
      const d = this.geo.directions[this.directionOf(a, b)];
      const [x, y] = this.center(...a);
      const outline = svgEl(
        "g",
        { class: `mark-outline ${m.kind}`, transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` },
        this.gOutlines,
      );
      svgEl("path", { d: d.rim, class: "mark-rim" }, outline);
      if (m.points) this.badges(g, d, m.colors, m.points);
    }
  }

  // The tile under consideration on cells a, b with colours; ok: legal; points: of each half.
  setGhost(a, b, colors, ok, points) {
    this.gGhost.replaceChildren();
    if (!a || !this.center(...a) || !this.center(...b)) return;
    const g = this.drawPair(this.gGhost, a, b, colors, ok ? "ghost-tile ok" : "ghost-tile bad");
    const d = this.geo.directions[this.directionOf(a, b)];
    svgEl("path", { d: d.rim, class: ok ? "ghost-rim ok" : "ghost-rim bad" }, g);
    if (ok && points) this.badges(g, d, colors, points);
  }

  // The points of each half of a tile drawn in `g` (laid in direction `d`), as badges.
  badges(g, d, colors, points) {
    const s = this.geo.size;
    const [ox, oy] = d.offset;
    for (const [x, y, p, c] of [
      [0, 0, points[0], colors[0]],
      [ox, oy, points[1], colors[1]],
    ]) {
      const badge = svgEl(
        "g",
        { class: "badge", transform: `translate(${(x + s * 0.5).toFixed(2)} ${(y - s * 0.62).toFixed(2)})` },
        g,
      );
      svgEl("circle", { r: (s * 0.5).toFixed(2), fill: "#fff", stroke: this.meta.colors[c].fill }, badge);
      const t = svgEl(
        "text",
        { "text-anchor": "middle", dy: (s * 0.2).toFixed(2), "font-size": (s * 0.58).toFixed(2) },
        badge,
      );
      t.textContent = `+${p}`;
    }
  }

  setCursor(q, r) {
    this.gCursor.replaceChildren();
    if (q === null || q === undefined) return;
    const [x, y] = this.center(q, r);
    svgEl(
      "polygon",
      {
        points: this.geo.cursor,
        transform: `translate(${x} ${y})`,
        class: "cursor-hex",
        "data-cell": cellKey(q, r),
      },
      this.gCursor,
    );
  }
}
