// The position editor's pure step (analysis.js draws it): laying and lifting tiles by clicks.
import { cellKey } from "./placements.js";

// One click on `cell` while setting up. A click on a laid tile lifts it; a first click on a
// free cell waits for the second; a second click on a neighbour of the first (`adjacent`,
// from the server's board geometry) lays a tile in the colours `paint`, its first colour on
// the first cell; any other click starts over from the clicked cell. Returns the new tiles
// and the cell waiting for its neighbour (or null); the arguments are left unchanged.
export function clickCell(tiles, pending, cell, paint, adjacent) {
  const k = cellKey(...cell);
  const at = tiles.findIndex((t) => cellKey(...t.cells[0]) === k || cellKey(...t.cells[1]) === k);
  if (at >= 0) return { tiles: tiles.filter((_, i) => i !== at), pending: null };
  if (pending && adjacent(pending, cell)) {
    return { tiles: [...tiles, { cells: [pending, cell], colors: [...paint] }], pending: null };
  }
  return { tiles, pending: cell };
}
