// The analysis board's notation links (python/genial/web/static/notation.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { notationOfSearch, notationPath } from "../../python/genial/web/static/notation.js";

const TEXT = "standard/3 R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR,GB 7";

test("a notation's path reads back to the same text", () => {
  const path = notationPath(TEXT);
  assert.ok(path.startsWith("/analysis?position="));
  assert.ok(!/[ +;]/.test(path.slice("/analysis?".length)), path);
  assert.equal(notationOfSearch(path.slice("/analysis".length)), TEXT);
});

test("a hand-typed link keeps its plus signs, and spaces come as %20", () => {
  assert.equal(notationOfSearch(`?position=${TEXT.replaceAll(" ", "%20")}`), TEXT);
  assert.equal(notationOfSearch(`?x=1&position=${encodeURIComponent(TEXT)}&y=2`), TEXT);
});

test("no position, an empty one, and a broken escape", () => {
  assert.equal(notationOfSearch(""), null);
  assert.equal(notationOfSearch("?positions=x"), null);
  assert.equal(notationOfSearch("?position="), "");
  assert.equal(notationOfSearch("?position=RB%E0%A4%A"), "RB%E0%A4%A");
});
