// The page's language (python/genial/web/static/i18n.js): lookups, plural forms from the
// server's table, placeholders, numbers written with Intl, and the choice of language.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chosen, current, fixed, nt, num, pct, t, use } from "../../python/genial/web/static/i18n.js";

// Polish's rule as the server turns it into a table (genial.translation.page_catalogue).
const POLISH = Array.from({ length: 200 }, (_, n) =>
  n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2,
);
const CATALOGUE = {
  plural: POLISH,
  messages: {
    "{n} tile": ["{n} płytka", "{n} płytki", "{n} płytek"],
    "Seat {n}": ["Miejsce {n}"],
    "Half done": [""],
  },
};

test("a text is looked up, its placeholders filled, and English is the fallback", () => {
  use("pl", CATALOGUE);
  assert.equal(current(), "pl");
  assert.equal(t("Seat {n}", { n: 3 }), "Miejsce 3");
  assert.equal(t("Not in the catalogue {x}", { x: "y" }), "Not in the catalogue y");
  assert.equal(t("Half done"), "Half done"); // an empty translation shows the English
  assert.equal(t("Seat {n}", {}), "Miejsce {n}"); // a missing parameter stays visible
  assert.equal(t("{constructor}", {}), "{constructor}"); // no inherited property is read
});

test("Polish plural forms at 1, 2, 5, 22, 25 and past the table", () => {
  use("pl", CATALOGUE);
  const forms = [1, 2, 5, 22, 25, 112, 222, 1001].map((n) => nt("{n} tile", "{n} tiles", n));
  assert.deepEqual(forms, [
    "1 płytka",
    "2 płytki",
    "5 płytek",
    "22 płytki",
    "25 płytek",
    "112 płytek",
    "222 płytki",
    "1001 płytek",
  ]);
});

test("English plurals without a catalogue", () => {
  use("en");
  assert.equal(nt("{n} tile", "{n} tiles", 1), "1 tile");
  assert.equal(nt("{n} tile", "{n} tiles", 0), "0 tiles");
  assert.equal(nt("{n} tile", "{n} tiles", 1200), "1,200 tiles");
});

test("numbers and percentages are written the language's way with Intl", () => {
  use("fr", { plural: [], messages: {} });
  assert.equal(num(12.5, 1), "12,5");
  assert.match(pct(0.125, 1), /^12,5\s%$/u);
  use("de", { plural: [], messages: {} });
  assert.equal(fixed(3, 1), "3,0");
  assert.equal(num(1234567), "1.234.567");
  use("en");
  assert.equal(pct(0.5), "50%");
});

test("an unknown or malformed language is English", () => {
  for (const code of ["xx", "", null, "../../etc", "☃", "f\u0000r"]) {
    use(code);
    assert.equal(current(), "en");
  }
  use("de-AT");
  assert.equal(current(), "de");
});

test("the choice: the one kept, else the server's reading of Accept-Language, else navigator", () => {
  const doc = (lang, asked) => ({ documentElement: { lang, dataset: asked ? { asked: "" } : {} } });
  const storage = new Map();
  globalThis.localStorage = { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v) };
  assert.equal(chosen(doc("pl", true), { language: "de-DE" }), "pl");
  assert.equal(chosen(doc("en", false), { language: "de-DE" }), "de");
  assert.equal(chosen(doc("en", false), { language: "tlh" }), "en");
  storage.set("genial-language", "fr");
  assert.equal(chosen(doc("pl", true), { language: "de-DE" }), "fr");
  storage.set("genial-language", "nonsense");
  assert.equal(chosen(doc("pl", true), { language: "de-DE" }), "pl");
  delete globalThis.localStorage;
});
