// The position editor's clicks (python/genial/web/static/setup.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { clickCell } from "../../python/genial/web/static/setup.js";

// Neighbours for the test: cells one step apart along q or r (the page asks the server's geometry).
const adjacent = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;

test("two neighbouring clicks lay a tile in the chosen colours, first colour first", () => {
  let s = clickCell([], null, [0, 0], [2, 5], adjacent);
  assert.deepEqual(s, { tiles: [], pending: [0, 0] });
  s = clickCell(s.tiles, s.pending, [0, 1], [2, 5], adjacent);
  assert.deepEqual(s, {
    tiles: [
      {
        cells: [
          [0, 0],
          [0, 1],
        ],
        colors: [2, 5],
      },
    ],
    pending: null,
  });
});

test("a click away from the waiting cell starts over there", () => {
  const s = clickCell([], [0, 0], [3, 3], [1, 1], adjacent);
  assert.deepEqual(s, { tiles: [], pending: [3, 3] });
});

test("a click on either half of a laid tile lifts it, and nothing else", () => {
  const tiles = [
    {
      cells: [
        [0, 0],
        [0, 1],
      ],
      colors: [0, 0],
    },
    {
      cells: [
        [2, 0],
        [2, 1],
      ],
      colors: [1, 2],
    },
  ];
  const s = clickCell(tiles, [5, 5], [0, 1], [0, 0], adjacent);
  assert.deepEqual(s, { tiles: [tiles[1]], pending: null });
  assert.equal(tiles.length, 2); // the arguments are left unchanged
});
