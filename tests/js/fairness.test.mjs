// The end screen's check of the deal (static/fairness.js): rebuilt from the revealed bag and
// the server's list of draws, compared with the racks and moves this browser saw; a dishonest
// deal is named by the draw or rack that differs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkDeal, recordSeen, remember, SwapRng, seenOf } from "../../python/genial/web/static/fairness.js";

// Letters as the server's meta gives them (the page itself knows none).
const LETTERS = { R: 0, O: 1, Y: 2, G: 3, B: 4, P: 5 };
// Twelve tiles, drawn first to last: RR RO RY RG RB RP OO OY OG OB OP YY.
const BAG = "RRRORYRGRBRPOOOYOGOBOPYY";
const NAMES = ["Ann", "Bo"];

function honestSteps() {
  return [
    { move: null, seat: 0, drew: "RRRO" },
    { move: null, seat: 1, drew: "RYRG" },
    { move: 0, seat: 0, played: "RR", drew: "RB" },
    { move: 1, seat: 1, played: "RY", drew: "RP" },
    { move: 2, seat: 0, returned: "RORB", drew: "OOOY" }, // a swap: drawn in order, then mixed
    { move: 3, seat: 1, played: "RG", drew: "YY" }, // the next tile of the bag as seed 1 mixes it
  ];
}

// What Ann's browser saw: her racks after 0, 1 and 3 moves, and the tiles laid.
function annSaw() {
  return {
    racks: { 0: { 0: ["0,0", "0,1"], 1: ["0,1", "0,4"], 3: ["1,1", "1,2"] } },
    plays: { 0: "0,0", 1: "0,2", 3: "0,3" },
  };
}

const reveal = (steps, bag = BAG) => ({ salt: "00", seed: "1", bag, steps });

test("an honest deal checks out, draws in order and after the mix", () => {
  const got = checkDeal(reveal(honestSteps()), annSaw(), LETTERS, NAMES);
  assert.equal(got.ok, true, got.text);
  assert.equal(got.draws, 9);
  assert.match(got.text, /9 draws came in the revealed bag's order/);
  assert.match(got.text, /1 of them after a swap, its mix replayed from the revealed seed/);
  assert.match(got.text, /3 racks this browser was shown/);
});

test("a server that reorders the bag at a swap is caught (N5)", () => {
  // OB is in the bag after the swap, but the seeded mix puts YY next: a dishonest server
  // choosing the draws after a swap passed a check of tiles only.
  const steps = honestSteps();
  steps[5] = { move: 3, seat: 1, played: "RG", drew: "OB" };
  const got = checkDeal(reveal(steps), annSaw(), LETTERS, NAMES);
  assert.equal(got.ok, false);
  assert.match(
    got.text,
    /Draw 9 \(Bo, move 4\) is not the revealed bag's next tile \(the bag as the swaps' seeded mix/,
  );
  // Another seed mixes otherwise: the honest list of seed 1 fails under it.
  assert.equal(checkDeal({ ...reveal(honestSteps()), seed: "2" }, annSaw(), LETTERS, NAMES).ok, false);
});

test("racks dealt from another bag than the one revealed are caught", () => {
  // The server showed Ann RY RG at the deal (bag B) but claims draws that fit bag A.
  const saw = annSaw();
  saw.racks[0][0] = ["0,2", "0,3"];
  const got = checkDeal(reveal(honestSteps()), saw, LETTERS, NAMES);
  assert.equal(got.ok, false);
  assert.match(got.text, /rack Ann was shown at the deal is not the one the revealed bag deals/);
  // A later rack that differs is named by its move.
  const later = annSaw();
  later.racks[0][3] = ["1,1", "5,5"];
  assert.match(checkDeal(reveal(honestSteps()), later, LETTERS, NAMES).text, /Ann was shown after move 3/);
});

test("draws listed out of the revealed bag's order are caught", () => {
  const steps = honestSteps();
  steps[3] = { move: 1, seat: 1, played: "RY", drew: "YY" };
  const got = checkDeal(reveal(steps), annSaw(), LETTERS, NAMES);
  assert.equal(got.ok, false);
  assert.match(got.text, /Draw 6 \(Bo, move 2\) is not the revealed bag's next tile/);
});

test("a tile laid that the bag never dealt, or drawn from outside the mixed bag, is caught", () => {
  const laid = honestSteps();
  laid[5] = { move: 3, seat: 1, played: "PP", drew: "RO" };
  assert.match(
    checkDeal(reveal(laid), {}, LETTERS, NAMES).text,
    /move 4 Bo gave up a tile the revealed bag never dealt/,
  );
  const drawn = honestSteps();
  drawn[5] = { move: 3, seat: 1, played: "RG", drew: "PP" };
  assert.match(
    checkDeal(reveal(drawn), {}, LETTERS, NAMES).text,
    /Draw 9 \(Bo, move 4\) is not the revealed bag's next/,
  );
});

test("a move listed otherwise than this browser saw it is caught", () => {
  const saw = annSaw();
  saw.plays[1] = "0,3";
  assert.match(checkDeal(reveal(honestSteps()), saw, LETTERS, NAMES).text, /saw Bo lay another tile/);
});

test("no list of draws, or a garbled one, is not a pass", () => {
  assert.equal(checkDeal({ bag: BAG }, annSaw(), LETTERS).ok, false);
  assert.equal(checkDeal(reveal([{ move: null, seat: 0, drew: "X" }]), annSaw(), LETTERS).ok, false);
});

function memory() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)) };
}

test("a new fingerprint is kept only when a new deal announces it", () => {
  const s = memory();
  remember("g", { commitment: "a".repeat(64), events: [] }, s);
  remember("g", { commitment: "b".repeat(64), events: [] }, s);
  assert.equal(s.getItem("genial.commitment.g"), "a".repeat(64));
  remember("g", { commitment: "c".repeat(64), events: [{ type: "redealt", commitment: "c".repeat(64) }] }, s);
  assert.equal(s.getItem("genial.commitment.g"), "c".repeat(64));
});

test("the racks shown are kept per deal", () => {
  const s = memory();
  const st = (commitment, moves, rack) => ({ commitment, you: 0, moves, rack, log: [{ n: 0, colors: [3, 0] }] });
  recordSeen(
    "g",
    st("a", 0, [
      [1, 0],
      [0, 0],
    ]),
    s,
  );
  recordSeen("g", st("a", 1, [[0, 4]]), s);
  assert.deepEqual(seenOf("g", s).racks[0], { 0: ["0,0", "0,1"], 1: ["0,4"] });
  assert.equal(seenOf("g", s).plays[0], "0,3");
  recordSeen("g", st("b", 0, [[2, 2]]), s); // dealt anew: the old deal's racks are dropped
  assert.deepEqual(seenOf("g", s).racks[0], { 0: ["2,2"] });
});

test("what was seen after moves taken back is forgotten", () => {
  const s = memory();
  const st = (moves, rack, log = []) => ({ commitment: "a", you: 0, moves, rack, log });
  recordSeen("g", st(2, [[0, 0]], [{ n: 1, colors: [1, 1] }]), s);
  recordSeen("g", st(4, [[5, 5]], [{ n: 3, colors: [2, 2] }]), s);
  recordSeen("g", st(2, [[0, 1]]), s); // an undo back to two moves
  assert.deepEqual(seenOf("g", s).racks[0], { 2: ["0,1"] });
  assert.deepEqual(Object.keys(seenOf("g", s).plays), ["1"]);
});

test("the page's generator is the core's (rust/rules/rng.rs golden stream)", () => {
  const r = new SwapRng(0n, 0n);
  assert.deepEqual([r.next(), r.next(), r.next()], [5987356902031041503n, 7051070477665621255n, 6633766593972829180n]);
});
