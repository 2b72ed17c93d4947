// The board as SVG: pointy-top hexagons in axial (q, r) coordinates, like genial.svg.
// Only geometry lives here (where a cell is drawn, which cells are neighbours); every
// rule (what is legal, what it scores) comes from the server, that is from the engine.

const NS = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
export const FULL_RADIUS = 7;
// Neighbour directions, clockwise from east (the order of genial.actions).
export const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
// Screen order of DIRS for rotating clockwise: east, south-east, south-west, west, north-west, north-east.
export const CLOCKWISE = [0, 5, 4, 3, 2, 1];

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export const key = (q, r) => `${q},${r}`;
export const dist = (q, r) => Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));

export function center(q, r, size) {
  return [size * SQRT3 * (q + r / 2), size * 1.5 * r];
}

export function corners(cx, cy, size) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * 60 * k;
    pts.push([cx + size * Math.sin(a), cy - size * Math.cos(a)]);
  }
  return pts;
}

const fmt = (pts) => pts.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");

// The outline of a two-hex tile: both hexagons as one piece, with the notch where they meet.
export function tilePath(a, b, size, inset = 0.94) {
  const [ax, ay] = center(a[0], a[1], size);
  const [bx, by] = center(b[0], b[1], size);
  const ca = corners(ax, ay, size * inset);
  const cb = corners(bx, by, size * inset);
  // The two corners of each hexagon that face the other one are consecutive (clockwise).
  const facing = (pts, ox, oy) => {
    let best = 0, bestD = Infinity;
    for (let k = 0; k < 6; k++) {
      const m = [(pts[k][0] + pts[(k + 1) % 6][0]) / 2, (pts[k][1] + pts[(k + 1) % 6][1]) / 2];
      const d = Math.hypot(m[0] - ox, m[1] - oy);
      if (d < bestD) { bestD = d; best = k; }
    }
    return best;
  };
  const k = facing(ca, bx, by), j = facing(cb, ax, ay);
  const A = (i) => ca[(k + i) % 6], B = (i) => cb[(j + i) % 6];
  const mid = (p, q) => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  const poly = [A(2), A(3), A(4), A(5), mid(A(0), B(1)), B(2), B(3), B(4), B(5), mid(B(0), A(1))];
  return "M" + poly.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join("L") + "Z";
}

// A colour's symbol (genial.svg's drawing, sent by the server in a 200×200 box) at (cx, cy).
export function symbol(meta, color, cx, cy, radius, ink, parent) {
  const g = el("g", {
    transform: `translate(${cx.toFixed(2)} ${cy.toFixed(2)}) scale(${(radius / 100).toFixed(4)})`,
    class: `sym sym-${meta.colors[color].name}`,
    style: `color:${ink}`,
  }, parent);
  g.innerHTML = meta.colors[color].svg;
  return g;
}

export class BoardView {
  // meta: /api/meta; opts.onCell(q, r, kind) with kind "hover" | "click" | "leave".
  constructor(container, meta, opts = {}) {
    this.meta = meta;
    this.size = 10;
    this.opts = opts;
    const s = this.size;
    const w = s * SQRT3 * (2 * FULL_RADIUS + 1) + s * 1.4;
    const h = s * (3 * FULL_RADIUS + 2) + s * 1.4;
    this.svg = el("svg", {
      viewBox: `${(-w / 2).toFixed(2)} ${(-h / 2).toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)}`,
      class: "board",
      role: "img",
      "aria-label": "Ingenious board",
    }, container);
    const defs = el("defs", {}, this.svg);
    const glow = el("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
    el("feGaussianBlur", { stdDeviation: "1.2", result: "b" }, glow);
    const merge = el("feMerge", {}, glow);
    el("feMergeNode", { in: "b" }, merge);
    el("feMergeNode", { in: "SourceGraphic" }, merge);
    const shade = el("radialGradient", { id: "board-shade", cx: "50%", cy: "45%", r: "60%" }, defs);
    el("stop", { offset: "0%", "stop-color": "#3a332d" }, shade);
    el("stop", { offset: "100%", "stop-color": "#1f1b18" }, shade);
    // The board's frame: a large hexagon (flat sides left and right, as the printed board).
    const frame = corners(0, 0, s * (FULL_RADIUS + 0.95) * SQRT3);
    el("polygon", { points: fmt(frame.map(([x, y]) => [x, y])), class: "frame", fill: "url(#board-shade)",
                    transform: "rotate(30)" }, this.svg);
    this.gCells = el("g", { class: "cells" }, this.svg);
    this.gMarks = el("g", { class: "marks" }, this.svg);
    this.gTiles = el("g", { class: "tiles" }, this.svg);
    this.gLast = el("g", { class: "last" }, this.svg);
    this.gGhost = el("g", { class: "ghost", "pointer-events": "none" }, this.svg);
    this.gCursor = el("g", { class: "cursor", "pointer-events": "none" }, this.svg);
    this.cells = new Map();
    this.radius = null;
    this.svg.addEventListener("pointerleave", () => opts.onCell && opts.onCell(null, null, "leave"));
  }

  // Draws the cells for a zone radius (5, 6 or 7) and the printed symbols.
  setZone(radius) {
    if (this.radius === radius) return;
    this.radius = radius;
    this.gCells.replaceChildren();
    this.cells.clear();
    const s = this.size;
    const printed = new Map(this.meta.printed.map(([q, r, c]) => [key(q, r), c]));
    for (let r = -FULL_RADIUS; r <= FULL_RADIUS; r++) {
      for (let q = -FULL_RADIUS; q <= FULL_RADIUS; q++) {
        const d = dist(q, r);
        if (d > FULL_RADIUS) continue;
        const [cx, cy] = center(q, r, s);
        const inZone = d <= radius;
        const poly = el("polygon", {
          points: fmt(corners(cx, cy, s * 0.93)),
          class: inZone ? "cell free" : "cell outside",
          "data-cell": key(q, r),
        }, this.gCells);
        if (inZone) {
          const c = printed.get(key(q, r));
          if (c !== undefined) {
            poly.setAttribute("class", `cell printed ${this.meta.colors[c].name}`);
            poly.style.stroke = this.meta.colors[c].fill;
            symbol(this.meta, c, cx, cy, s * 0.55, this.meta.colors[c].fill, this.gCells)
              .setAttribute("pointer-events", "none");
          }
          poly.addEventListener("pointerenter", () => this.opts.onCell && this.opts.onCell(q, r, "hover"));
          poly.addEventListener("click", () => this.opts.onCell && this.opts.onCell(q, r, "click"));
          this.cells.set(key(q, r), poly);
        }
      }
    }
  }

  // Tiles: list of [[q, r], [q, r]] pairs; colours: Map "q,r" -> colour; last: pairs to mark.
  setTiles(tiles, colours, recent = [], latest = null) {
    const s = this.size;
    this.gTiles.replaceChildren();
    this.gLast.replaceChildren();
    for (const [a, b] of tiles) this.drawTile(this.gTiles, a, b, colours.get(key(...a)), colours.get(key(...b)), "tile");
    for (const [a, b] of recent) {
      const mine = latest && key(...a) === key(...latest[0]) && key(...b) === key(...latest[1]);
      el("path", { d: tilePath(a, b, s, 1.0), class: mine ? "recent latest" : "recent" }, this.gLast);
    }
    for (const [k, poly] of this.cells) {
      const taken = colours.has(k) && !poly.classList.contains("printed");
      poly.classList.toggle("taken", taken);
    }
  }

  drawTile(parent, a, b, ca, cb, cls) {
    const s = this.size;
    const g = el("g", { class: cls, "data-tile": `${key(...a)}|${key(...b)}` }, parent);
    el("path", { d: tilePath(a, b, s), class: "tile-body" }, g);
    const [ax, ay] = center(a[0], a[1], s);
    const [bx, by] = center(b[0], b[1], s);
    el("line", { x1: ((ax * 2 + bx) / 3).toFixed(2), y1: ((ay * 2 + by) / 3).toFixed(2),
                 x2: ((ax + bx * 2) / 3).toFixed(2), y2: ((ay + by * 2) / 3).toFixed(2), class: "tile-seam" }, g);
    for (const [[q, r], c] of [[a, ca], [b, cb]]) {
      if (c === undefined) continue;
      const [cx, cy] = center(q, r, s);
      symbol(this.meta, c, cx, cy, s * 0.6, this.meta.colors[c].fill, g);
    }
    return g;
  }

  // Cells where the selected tile may be laid (its first half), lit up.
  setLegal(keys) {
    for (const [k, poly] of this.cells) poly.classList.toggle("legal", keys.has(k));
  }

  // The tile under consideration: a, b cells; ca, cb colours; ok: legal; points: [pa, pb] or null.
  setGhost(a, b, ca, cb, ok, points) {
    this.gGhost.replaceChildren();
    if (!a) return;
    const s = this.size;
    const g = this.drawTile(this.gGhost, a, b, ca, cb, ok ? "ghost-tile ok" : "ghost-tile bad");
    el("path", { d: tilePath(a, b, s, 1.0), class: ok ? "ghost-rim ok" : "ghost-rim bad" }, g);
    if (ok && points) {
      for (const [[q, r], p, c] of [[a, points[0], ca], [b, points[1], cb]]) {
        const [cx, cy] = center(q, r, s);
        const badge = el("g", { class: "badge", transform: `translate(${(cx + s * 0.5).toFixed(2)} ${(cy - s * 0.62).toFixed(2)})` }, g);
        el("circle", { r: (s * 0.5).toFixed(2), fill: "#fff", stroke: this.meta.colors[c].fill }, badge);
        const t = el("text", { "text-anchor": "middle", dy: (s * 0.2).toFixed(2), "font-size": (s * 0.58).toFixed(2) }, badge);
        t.textContent = `+${p}`;
      }
    }
  }

  setCursor(q, r) {
    this.gCursor.replaceChildren();
    if (q === null || q === undefined) return;
    const [cx, cy] = center(q, r, this.size);
    el("polygon", { points: fmt(corners(cx, cy, this.size * 1.0)), class: "cursor-hex", "data-cell": key(q, r) }, this.gCursor);
  }
}
