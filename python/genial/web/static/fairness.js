// The bag's fingerprint: a game between people shows at its start a SHA-256 over a secret salt,
// the seed and the bag; this browser keeps the fingerprint it was shown (a new one only when
// the server announces a new deal to every seat), and the racks this browser was shown during
// the game. At the end it checks the fingerprint against the salt, seed and bag the server
// reveals (genial.web.commitment has the layout), and rebuilds every draw from the revealed
// bag to compare with the racks it kept (checkDeal): the server's list of draws is taken as a
// claim, checked tile by tile against the bag and this browser's own record, never trusted.
import { h } from "./dom.js";
import { nt, t } from "./i18n.js";

const KEY = (id) => `genial.commitment.${id}`;
const DEAL = (id) => `genial.deal.${id}`;

function load(key, storage) {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function save(key, value, storage) {
  try {
    storage.setItem(key, value);
  } catch {
    /* storage full or disabled: the end screen compares with the server's copy */
  }
}

// Keeps the fingerprint shown for a game: a later one replaces it only when the state
// announces it as a new deal (a seat handed on before anyone moved), which every seat sees.
export function remember(id, st, storage = globalThis.localStorage) {
  const commitment = st.commitment;
  if (!commitment) return;
  const kept = load(KEY(id), storage);
  const announced = (st.events || []).some((e) => e.type === "redealt" && e.commitment === commitment);
  if (!kept || (kept !== commitment && announced)) save(KEY(id), commitment, storage);
}

// A tile as this page compares tiles: its two colour indices, lower first.
export function tileKey(a, b) {
  return a <= b ? `${a},${b}` : `${b},${a}`;
}

// Tiles written as the server writes a bag (two colour letters each, `letters` maps each
// letter the server's meta names to its colour index): their keys, or null if one is unknown.
export function keysOf(text, letters) {
  if (typeof text !== "string") return null;
  const out = [];
  for (let i = 0; i < text.length; i += 2) {
    const a = letters[text[i]];
    const b = letters[text[i + 1]];
    if (a === undefined || b === undefined) return null;
    out.push(tileKey(a, b));
  }
  return out;
}

// What this browser saw of a game: per seat it held, its rack after each number of moves
// played, and the tile of every placement in the moves it was sent. Kept per deal: a new
// fingerprint (a new deal) starts a new record.
export function recordSeen(id, st, storage = globalThis.localStorage) {
  if (!st.commitment) return;
  let seen = null;
  try {
    seen = JSON.parse(load(DEAL(id), storage) || "null");
  } catch {
    seen = null;
  }
  if (!seen || seen.commitment !== st.commitment) seen = { commitment: st.commitment, racks: {}, plays: {} };
  // Moves taken back (undo against bots): what was seen after them belongs to no game now.
  for (const racks of Object.values(seen.racks)) {
    for (const m of Object.keys(racks)) if (Number(m) > st.moves) delete racks[m];
  }
  for (const n of Object.keys(seen.plays)) if (Number(n) >= st.moves) delete seen.plays[n];
  if (st.you !== null && Array.isArray(st.rack)) {
    if (!seen.racks[st.you]) seen.racks[st.you] = {};
    seen.racks[st.you][st.moves] = st.rack.map(([a, b]) => tileKey(a, b)).sort();
  }
  for (const e of st.log || []) if (e.colors) seen.plays[e.n] = tileKey(e.colors[0], e.colors[1]);
  save(DEAL(id), JSON.stringify(seen), storage);
}

export function seenOf(id, storage = globalThis.localStorage) {
  try {
    return JSON.parse(load(DEAL(id), storage) || "null");
  } catch {
    return null;
  }
}

// The core's seeded generator (rust/rules/rng.rs: xoshiro256++ seeded by SplitMix64), with
// which the core mixes the tiles a swap puts back into the bag: seeded with the game's seed
// XOR the swap salt (`rng::salt::SWAP_MIX`). The seed is in the fingerprint, so with it this
// page replays every swap's mix and checks every draw's order, not only that it was in the bag.
const MASK = (1n << 64n) - 1n;
const SWAP_MIX = 0x6a09e667f3bcc908n;
const rotl = (x, k) => ((x << k) | (x >> (64n - k))) & MASK;

export class SwapRng {
  constructor(seed, salt = SWAP_MIX) {
    let sm = (BigInt(seed) ^ salt) & MASK;
    this.s = [];
    for (let i = 0; i < 4; i++) {
      sm = (sm + 0x9e3779b97f4a7c15n) & MASK;
      let z = sm;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
      this.s.push(z ^ (z >> 31n));
    }
  }

  next() {
    const s = this.s;
    const result = (rotl((s[0] + s[3]) & MASK, 23n) + s[0]) & MASK;
    const t = (s[1] << 17n) & MASK;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45n);
    return result;
  }

  // A uniform integer in 0..n-1 without modulo bias (Lemire's method, as the core).
  below(n) {
    const big = BigInt(n);
    const limit = (0x100000000n - big) % big;
    for (;;) {
      const m = (this.next() >> 32n) * big;
      const low = m & 0xffffffffn;
      if (low >= big || low >= limit) return Number(m >> 32n);
    }
  }

  // Fisher–Yates, as the core's.
  shuffle(items) {
    for (let i = items.length - 1; i >= 1; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

function take(bag, key) {
  const n = bag.get(key) || 0;
  if (!n) return false;
  if (n === 1) bag.delete(key);
  else bag.set(key, n - 1);
  return true;
}

function put(bag, key) {
  bag.set(key, (bag.get(key) || 0) + 1);
}

// Rebuilds every draw of a game from the revealed bag and seed and compares it with what this
// browser saw. `reveal.steps` is the server's claim, in the order things happened: per seat
// its deal ({move: null, seat, drew}), then per move the tile played or the tiles returned by
// a swap, and the tiles drawn. Each claimed draw must be the bag's next tile: the bag is
// replayed as the core keeps it (draws from its end; a swap draws first, then puts the
// returned tiles back in their rack order and mixes the whole bag with the seeded
// generator, `SwapRng`), so the draws after a swap are checked in their order too. Each
// tile played or returned must be in the rack the bag gave that seat; each tile this
// browser saw played must be the one claimed; each rack this browser was shown must be the
// rack the bag gives. `names[seat]` names the seats. Returns { ok, text, draws }.
export function checkDeal(reveal, seen, letters, names = []) {
  const who = (s) => names[s] || t("seat {n}", { n: s + 1 });
  const order = keysOf(reveal.bag, letters);
  if (!order || !Array.isArray(reveal.steps)) {
    return { ok: false, text: `✗ ${t("The server did not reveal the draws, so the deal cannot be checked.")}` };
  }
  const fail = (text) => ({ ok: false, text: `✗ ${text}` });
  let rng;
  try {
    rng = new SwapRng(BigInt(reveal.seed));
  } catch {
    return fail(t("The server did not reveal the seed, so the swaps' mix cannot be replayed."));
  }
  const bag = [...order].reverse(); // as the core keeps it: the next draw last
  const racks = new Map(); // seat -> its tiles in rack order
  const after = new Map(); // seat -> [[moves played, sorted rack]]
  let drawn = 0;
  let afterSwap = 0;
  let swapped = false;
  for (const step of reveal.steps) {
    const seat = step.seat;
    if (!Number.isInteger(seat) || seat < 0) return fail(t("The server's list of draws names no seat."));
    if (!racks.has(seat)) racks.set(seat, []);
    const rack = racks.get(seat);
    const at = step.move === null ? t("the deal") : t("move {n}", { n: step.move + 1 });
    const played = step.played ? keysOf(step.played, letters) : [];
    const returned = step.returned ? keysOf(step.returned, letters) : [];
    const drew = keysOf(step.drew || "", letters);
    if (!played || !returned || !drew) return fail(t("The server's list of draws is garbled at {at}.", { at }));
    if (played.length && seen?.plays && step.move !== null) {
      const saw = seen.plays[step.move];
      if (saw !== undefined && saw !== played[0]) {
        return fail(
          t("At {at} this browser saw {name} lay another tile than the server lists.", { at, name: who(seat) }),
        );
      }
    }
    for (const k of played) {
      const i = rack.indexOf(k);
      if (i < 0)
        return fail(t("At {at} {name} gave up a tile the revealed bag never dealt them.", { at, name: who(seat) }));
      rack.splice(i, 1);
    }
    // The tiles a swap puts back, in their rack order (the order the core mixes them in).
    const want = new Map();
    for (const k of returned) put(want, k);
    const aside = [];
    for (let i = 0; i < rack.length; ) {
      if (take(want, rack[i])) aside.push(...rack.splice(i, 1));
      else i += 1;
    }
    if (want.size) {
      return fail(t("At {at} {name} gave up a tile the revealed bag never dealt them.", { at, name: who(seat) }));
    }
    for (const k of drew) {
      if (bag.pop() !== k) {
        const params = { n: drawn + 1, name: who(seat), at };
        return fail(
          swapped
            ? t(
                "Draw {n} ({name}, {at}) is not the revealed bag's next tile (the bag as the swaps' seeded mix leaves it).",
                params,
              )
            : t("Draw {n} ({name}, {at}) is not the revealed bag's next tile.", params),
        );
      }
      drawn += 1;
      if (swapped) afterSwap += 1;
      rack.push(k);
    }
    if (aside.length) {
      bag.push(...aside);
      rng.shuffle(bag);
      swapped = true;
    }
    if (!after.has(seat)) after.set(seat, []);
    after.get(seat).push([step.move === null ? 0 : step.move + 1, [...rack].sort().join(" ")]);
  }
  let racksChecked = 0;
  for (const [seat, shown] of Object.entries(seen?.racks || {})) {
    const built = after.get(Number(seat)) || [];
    for (const [moves, rack] of Object.entries(shown)) {
      const m = Number(moves);
      let want = null;
      for (const [at, keys] of built) if (at <= m) want = keys;
      if (want !== rack.join(" ")) {
        const name = who(Number(seat));
        return fail(
          m === 0
            ? t("The rack {name} was shown at the deal is not the one the revealed bag deals.", { name })
            : t("The rack {name} was shown after move {n} is not the one the revealed bag deals.", { name, n: m }),
        );
      }
      racksChecked += 1;
    }
  }
  const parts = [nt("{n} draw came in the revealed bag's order", "{n} draws came in the revealed bag's order", drawn)];
  if (afterSwap) {
    parts.push(
      nt(
        "({n} of them after a swap, its mix replayed from the revealed seed)",
        "({n} of them after a swap, its mix replayed from the revealed seed)",
        afterSwap,
      ),
    );
  }
  const mine = racksChecked
    ? nt(
        "and the {n} rack this browser was shown is the one it deals.",
        "and the {n} racks this browser was shown are the ones it deals.",
        racksChecked,
      )
    : t("(this browser held no seat: no rack of its own to compare).");
  return { ok: true, draws: drawn, text: `✓ ${parts.join(" ")}, ${mine}` };
}

function hexBytes(hex) {
  return Uint8Array.from(hex.match(/[0-9a-f]{2}/gi) || [], (pair) => parseInt(pair, 16));
}

// SHA-256( salt || ASCII(seed + ":" + bag) ), as hex.
export async function digest(reveal) {
  const salt = hexBytes(reveal.salt);
  const text = new TextEncoder().encode(`${reveal.seed}:${reveal.bag}`);
  const data = new Uint8Array(salt.length + text.length);
  data.set(salt);
  data.set(text, salt.length);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

// { ok, text }: whether the revealed bag is the one this browser was shown at the start, and
// whether every draw came from it (checkDeal against the racks this browser kept).
export async function verify(id, st, letters = {}, storage = globalThis.localStorage) {
  if (!st.reveal) return { ok: false, text: t("The bag is revealed when the game is over.") };
  if (!(globalThis.crypto && crypto.subtle)) {
    return { ok: false, text: t("This browser checks fingerprints only over https or on localhost.") };
  }
  const kept = load(KEY(id), storage);
  const expected = kept || st.commitment;
  const got = await digest(st.reveal);
  if (got !== expected || st.commitment !== expected) {
    return { ok: false, text: `✗ ${t("The revealed bag does NOT match the fingerprint shown at the start.")}` };
  }
  const first = kept
    ? `✓ ${t("The bag played is the one fingerprinted at the start (checked against this browser's copy).")}`
    : `✓ ${t("The bag matches the server's fingerprint (this browser did not see the start).")}`;
  const names = (st.seats || []).map((s) => s.name);
  const deal = checkDeal(st.reveal, seenOf(id, storage), letters, names);
  return { ok: deal.ok, text: deal.ok ? `${first} ${deal.text}` : deal.text };
}

// Why a seat was handed on, by the server's reason.
const HANDED_WHY = {
  away: () => t("away too long"),
  left: () => t("left"),
  open: () => t("its invite was never used"),
};

function eventText(e, name) {
  const n = e.move + 1;
  if (e.type === "handed") {
    if (e.reason === "own") return t("{name} gave their seat to someone else at move {n}.", { name: name(e.seat), n });
    const why = Object.hasOwn(HANDED_WHY, e.reason) ? HANDED_WHY[e.reason]() : e.reason;
    return t("{by} handed on {name}'s seat ({why}) at move {n}.", { by: name(e.by), name: name(e.seat), why, n });
  }
  if (e.type === "left") return t("{name} left their seat at move {n}.", { name: name(e.seat), n });
  if (e.type === "redealt") {
    return t(
      "New deal: a seat whose rack had been seen was handed on before anyone moved, so every rack was dealt anew from a new bag (fingerprint {fingerprint}…).",
      { fingerprint: String(e.commitment).slice(0, 12) },
    );
  }
  if (e.type === "joined" && e.inherited) {
    return t("{name} took a seat whose rack someone else had held.", { name: name(e.seat) });
  }
  // "replaced", from older servers
  return t("{by} gave {name}'s seat a new invite at move {n}.", { by: name(e.by), name: name(e.seat), n });
}

// The card beside the board: the fingerprint, and who was handed a seat, left or was dealt anew.
export function fairnessCard(id, st) {
  remember(id, st);
  const shown = new Set(["replaced", "handed", "left", "redealt"]);
  const events = (st.events || []).filter((e) => shown.has(e.type) || (e.type === "joined" && e.inherited));
  if (!st.commitment && !events.length) return null;
  const name = (i) => (st.seats[i] ? st.seats[i].name : t("seat {n}", { n: i + 1 }));
  return h(
    "div",
    { class: "card fairness" },
    st.commitment
      ? h(
          "p",
          { class: "muted fingerprint" },
          `${t("Bag fingerprint")} `,
          h("code", { title: st.commitment, "data-commitment": st.commitment }, `${st.commitment.slice(0, 12)}…`),
          st.over ? "" : ` ${t("(checked at the end)")}`,
        )
      : null,
    events.map((e) => h("p", { class: `event ${e.type}`, "data-seat": e.seat }, eventText(e, name))),
  );
}

// The end screen's action: checks the bag and says what it found.
export function verifyButton(id, st, letters) {
  if (!st.reveal) return null;
  const out = h("p", { class: "verify-result", role: "status" });
  const button = h(
    "button",
    {
      type: "button",
      id: "verify",
      onclick: async () => {
        const { ok, text } = await verify(id, st, letters);
        out.textContent = text;
        out.classList.toggle("ok", ok);
        out.classList.toggle("error", !ok);
      },
    },
    t("Verify the bag"),
  );
  return [button, out];
}
