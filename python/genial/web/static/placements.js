// The placements of one rack tile as the server sends them (best first, as columns: move
// texts, cells, points and the ways to lay each), indexed for the board: which placement
// lies under the pointer in the tile's current direction. Pure functions, tested under node.

export const cellKey = (q, r) => `${q},${r}`;

// One object per placement from the columns of `GET /api/games/{id}/options`
// (genial.web.views.placements): its rank, move text, cells and colours (the tile's first
// colour on the first cell), the points of each half and their sum, the points per colour
// (`gains`, keyed by colour index), the bonus placements it earns, its notes, and the ways
// to lay it as [q, r, direction]: the first half on (q, r), the second in that direction.
export function decodePlacements(got) {
  const out = [];
  const [first, second] = got.colors;
  for (let i = 0; i < got.moves.length; i++) {
    const c = got.cells.slice(4 * i, 4 * i + 4);
    const points = [got.points[2 * i], got.points[2 * i + 1]];
    const gains = { [first]: points[0] };
    gains[second] = (gains[second] || 0) + points[1];
    const anchors = [[c[0], c[1], got.toward[i]]];
    if (got.back) anchors.push([c[2], c[3], got.back[i]]);
    out.push({
      rank: i,
      move: got.moves[i],
      cells: [
        [c[0], c[1]],
        [c[2], c[3]],
      ],
      colors: [first, second],
      points,
      total: points[0] + points[1],
      gains,
      bonus: got.bonus[i],
      notes: got.note_texts[got.notes[i]],
      anchors,
    });
  }
  return out;
}

// Placements by "q,r,direction" of their first half (a double is found both ways round).
export function indexPlacements(placements) {
  const index = new Map();
  for (const p of placements) {
    for (const [q, r, d] of p.anchors) index.set(`${q},${r},${d}`, p);
  }
  return index;
}

export function placementAt(index, q, r, direction) {
  return index.get(`${q},${r},${direction}`) || null;
}

// The best direction (the placement ranked first) with the tile's first half on (q, r),
// or null where the tile fits no way round.
export function bestDirectionAt(index, q, r, directions) {
  let best = null;
  for (let d = 0; d < directions; d++) {
    const p = placementAt(index, q, r, d);
    if (p && (best === null || p.rank < best.rank)) best = { direction: d, rank: p.rank };
  }
  return best === null ? null : best.direction;
}

// The first halves of the tile that have a placement in `direction`, as "q,r" keys.
export function anchorsFacing(placements, direction) {
  const keys = new Set();
  for (const p of placements) {
    for (const [q, r, d] of p.anchors) if (d === direction) keys.add(cellKey(q, r));
  }
  return keys;
}

// The n-th placement best first (wrapping both ways), as where to put the tile.
export function cycle(placements, at, step) {
  if (!placements.length) return null;
  const n = placements.length;
  const i = (((at + step) % n) + n) % n;
  const [q, r, direction] = placements[i].anchors[0];
  return { at: i, q, r, direction, placement: placements[i] };
}

// The cell next to (q, r) in a direction of the board (`meta.board.directions`).
export function neighbour(directions, q, r, direction) {
  const [dq, dr] = directions[direction].delta;
  return [q + dq, r + dr];
}

// The next direction clockwise (step 1) or back (step -1).
export function turn(direction, step, count) {
  return (((direction + step) % count) + count) % count;
}
