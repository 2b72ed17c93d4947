// Moves under study drawn on the board: the review's move played and best move at a
// decision, the analysis board's candidates and the move its game went on with. Every
// position and move comes from the server's payloads (genial.web.study.review and
// .analysis); these pure functions only pick what to draw. Tested under node.
import { cellKey } from "./placements.js";

// What BoardView.setTiles draws for the tiles laid (each {cells, colors}, as the payloads
// give them) on the printed board (meta.board.printed: [q, r, colour]): the cell pairs and
// the colour on every cell.
export function boardOf(printed, placed) {
  const colours = new Map(printed.map(([q, r, c]) => [cellKey(q, r), c]));
  for (const t of placed) {
    colours.set(cellKey(...t.cells[0]), t.colors[0]);
    colours.set(cellKey(...t.cells[1]), t.colors[1]);
  }
  return { tiles: placed.map((t) => t.cells), colours };
}

// The tiles laid by the first `ply` moves of a game's log (one entry per move, in order; a
// swap or keep lays none): the board on which move `ply` was decided.
export function placedBefore(log, ply) {
  return log.slice(0, Math.max(0, ply)).filter((e) => e.cells);
}

// The marks to draw, from [kind, move] pairs (a move as the payloads explain it: cells,
// colours, points; a swap, a keep or a missing move marks nothing), in the order given:
// the later is drawn over the earlier.
export function marksOf(pairs) {
  return pairs
    .filter(([, e]) => e?.cells)
    .map(([kind, e]) => ({ kind, cells: e.cells, colors: e.colors, points: e.points ?? null }));
}

// Each marked hex ("q,r") with the kinds of the marks on it.
export function markedCells(marks) {
  const out = new Map();
  for (const m of marks) {
    for (const [q, r] of m.cells) {
      const k = cellKey(q, r);
      if (!out.has(k)) out.set(k, []);
      if (!out.get(k).includes(m.kind)) out.get(k).push(m.kind);
    }
  }
  return out;
}

// The index shown after a key press in a list of `n` entries now at `at` (null: nothing
// moves for that key).
export function stepIndex(key, at, n) {
  if (n <= 0) return null;
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: n - 1 }[key];
  return to === undefined ? null : Math.max(0, Math.min(n - 1, to));
}
