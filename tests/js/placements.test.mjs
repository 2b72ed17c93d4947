// The page's placement index (python/genial/web/static/placements.js), on placements shaped
// as the server sends them (genial.web.views.placements: columns, decoded by the page).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  anchorsFacing,
  bestDirectionAt,
  cycle,
  decodePlacements,
  indexPlacements,
  neighbour,
  placementAt,
  turn,
} from "../../python/genial/web/static/placements.js";

const A = { move: "R0,0+B1,0", rank: 0, anchors: [[0, 0, 0]] };
const B = { move: "R0,0+B0,1", rank: 1, anchors: [[0, 0, 1]] };
// A double is found from either half.
const D = {
  move: "G2,2+G3,2",
  rank: 2,
  anchors: [
    [2, 2, 0],
    [3, 2, 3],
  ],
};

test("the server's columns decode into one placement each, best first", () => {
  const got = {
    colors: [0, 4],
    moves: ["R0,0+B1,0", "B0,0+R0,1"],
    cells: [0, 0, 1, 0, 0, 1, 0, 0],
    toward: [0, 4],
    back: null,
    points: [2, 0, 1, 3],
    bonus: [0, 1],
    notes: [0, 1],
    note_texts: [[], ["Ingenious! 1 bonus tile"]],
  };
  const [a, b] = decodePlacements(got);
  assert.deepEqual(a, {
    rank: 0,
    move: "R0,0+B1,0",
    cells: [
      [0, 0],
      [1, 0],
    ],
    colors: [0, 4],
    points: [2, 0],
    total: 2,
    gains: { 0: 2, 4: 0 },
    bonus: 0,
    notes: [],
    anchors: [[0, 0, 0]],
  });
  // The second: its first colour on (0, 1), the second half toward direction 4.
  assert.deepEqual(b.cells, [
    [0, 1],
    [0, 0],
  ]);
  assert.deepEqual([b.rank, b.total, b.gains[0], b.gains[4], b.bonus], [1, 4, 1, 3, 1]);
  assert.deepEqual(b.notes, ["Ingenious! 1 bonus tile"]);
  assert.deepEqual(b.anchors, [[0, 1, 4]]);
  assert.equal(indexPlacements([a, b]).get("0,1,4"), b);
});

test("a double's points add up on its colour, and it lies both ways round", () => {
  const got = {
    colors: [3, 3],
    moves: ["G2,2+G3,2"],
    cells: [2, 2, 3, 2],
    toward: [0],
    back: [3],
    points: [1, 2],
    bonus: [0],
    notes: [0],
    note_texts: [["wins the game at once"]],
  };
  const [d] = decodePlacements(got);
  assert.deepEqual(d.gains, { 3: 3 });
  assert.deepEqual(d.anchors, [
    [2, 2, 0],
    [3, 2, 3],
  ]);
  assert.deepEqual(d.notes, ["wins the game at once"]);
  assert.deepEqual(decodePlacements({ ...got, moves: [], cells: [], toward: [], back: [] }), []);
});

test("a placement is found by its first half and direction, and only there", () => {
  const index = indexPlacements([A, B, D]);
  assert.equal(placementAt(index, 0, 0, 0), A);
  assert.equal(placementAt(index, 0, 0, 1), B);
  assert.equal(placementAt(index, 0, 0, 2), null);
  assert.equal(placementAt(index, 1, 0, 3), null);
  assert.equal(placementAt(index, 2, 2, 0), D);
  assert.equal(placementAt(index, 3, 2, 3), D);
});

test("the best direction at a cell is the best-ranked placement there", () => {
  const index = indexPlacements([B, A]);
  assert.equal(bestDirectionAt(index, 0, 0, 6), 0);
  assert.equal(bestDirectionAt(index, 5, 5, 6), null);
  const worseFirst = indexPlacements([{ ...A, rank: 7 }, B]);
  assert.equal(bestDirectionAt(worseFirst, 0, 0, 6), 1);
});

test("lit cells are the first halves facing the tile's direction", () => {
  assert.deepEqual([...anchorsFacing([A, B, D], 0)].sort(), ["0,0", "2,2"]);
  assert.deepEqual([...anchorsFacing([A, B, D], 3)], ["3,2"]);
  assert.equal(anchorsFacing([A, B, D], 4).size, 0);
});

test("cycling goes best first and wraps both ways", () => {
  const list = [A, B, D];
  assert.equal(cycle([], -1, 1), null);
  const first = cycle(list, -1, 1);
  assert.deepEqual([first.at, first.q, first.r, first.direction], [0, 0, 0, 0]);
  assert.equal(cycle(list, 2, 1).placement, A);
  assert.equal(cycle(list, 0, -1).placement, D);
  assert.equal(cycle(list, -1, -1).placement, B);
});

test("neighbours and turning use the directions the server sends", () => {
  const dirs = [{ delta: [1, 0] }, { delta: [0, 1] }, { delta: [-1, 1] }];
  assert.deepEqual(neighbour(dirs, 2, -3, 1), [2, -2]);
  assert.deepEqual(neighbour(dirs, 0, 0, 2), [-1, 1]);
  assert.equal(turn(0, 1, 6), 1);
  assert.equal(turn(5, 1, 6), 0);
  assert.equal(turn(0, -1, 6), 5);
});
