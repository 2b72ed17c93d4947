// The placements of one rack tile as the server sends them (best first, each with its move
// text, cells, points and the ways to lay it), indexed for the board: which placement lies
// under the pointer in the tile's current direction. Pure functions, tested under node.

export const cellKey = (q, r) => `${q},${r}`;

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
