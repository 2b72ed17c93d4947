// The moves under study on the board (python/genial/web/static/marks.js), on payloads shaped
// as the server sends them (genial.web.study.review's log and decisions, .analysis's tiles).
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardOf, markedCells, marksOf, placedBefore, stepIndex } from "../../python/genial/web/static/marks.js";

const PRINTED = [
  [0, -5, 0],
  [5, -5, 1],
];
// A log as the review sends it: a placement, a swap, two placements.
const LOG = [
  {
    n: 0,
    cells: [
      [0, -4],
      [1, -4],
    ],
    colors: [2, 3],
  },
  { n: 1, swapped: true },
  {
    n: 2,
    cells: [
      [0, -3],
      [1, -3],
    ],
    colors: [4, 4],
  },
  {
    n: 3,
    cells: [
      [2, -4],
      [2, -3],
    ],
    colors: [0, 5],
  },
];

test("the board before a decision holds the tiles laid before it, not the move decided", () => {
  assert.deepEqual(
    placedBefore(LOG, 0).map((e) => e.n),
    [],
  );
  assert.deepEqual(
    placedBefore(LOG, 2).map((e) => e.n),
    [0],
  );
  assert.deepEqual(
    placedBefore(LOG, 3).map((e) => e.n),
    [0, 2],
  );
  assert.deepEqual(
    placedBefore(LOG, 99).map((e) => e.n),
    [0, 2, 3],
  );
});

test("a board's tiles and colours: the printed symbols, then each half laid", () => {
  const { tiles, colours } = boardOf(PRINTED, placedBefore(LOG, 3));
  assert.deepEqual(tiles, [LOG[0].cells, LOG[2].cells]);
  assert.deepEqual(
    [...colours],
    [
      ["0,-5", 0],
      ["5,-5", 1],
      ["0,-4", 2],
      ["1,-4", 3],
      ["0,-3", 4],
      ["1,-3", 4],
    ],
  );
});

test("marks: one per move with cells, in order; a swap or a missing move marks nothing", () => {
  const played = { move: "R0,0+B1,0", cells: LOG[3].cells, colors: [0, 5], points: [1, 2] };
  const best = {
    move: "Y0,0+Y0,1",
    cells: [
      [2, -3],
      [3, -3],
    ],
    colors: [1, 1],
  };
  const swap = { move: "swap", cells: null, colors: null };
  const marks = marksOf([
    ["played", played],
    ["best", best],
    ["candidate", swap],
    ["candidate", null],
  ]);
  assert.deepEqual(marks, [
    { kind: "played", cells: played.cells, colors: [0, 5], points: [1, 2] },
    { kind: "best", cells: best.cells, colors: [1, 1], points: null },
  ]);
  // A hex under both moves carries both kinds.
  assert.deepEqual(
    [...markedCells(marks)],
    [
      ["2,-4", ["played"]],
      ["2,-3", ["played", "best"]],
      ["3,-3", ["best"]],
    ],
  );
  assert.deepEqual([...markedCells([])], []);
});

test("the arrow keys step through a list and stop at its ends", () => {
  assert.equal(stepIndex("ArrowDown", 0, 3), 1);
  assert.equal(stepIndex("ArrowDown", 2, 3), 2);
  assert.equal(stepIndex("ArrowUp", 0, 3), 0);
  assert.equal(stepIndex("ArrowUp", 2, 3), 1);
  assert.equal(stepIndex("Home", 2, 3), 0);
  assert.equal(stepIndex("End", 0, 3), 2);
  assert.equal(stepIndex("Enter", 1, 3), null);
  assert.equal(stepIndex("ArrowDown", 0, 0), null);
});
