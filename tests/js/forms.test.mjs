// What the lobby and the seat store send and keep (lobby.js, seats.js, tracks.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { seatRequest, seedField } from "../../python/genial/web/static/lobby.js";
import { claimInvite, claimSeats, inviteLink, saveSeats, seatsFor } from "../../python/genial/web/static/seats.js";
import { slots } from "../../python/genial/web/static/tracks.js";

test("seeds travel as text, digits only, never rounded", () => {
  assert.deepEqual(seedField(""), { seed: undefined });
  assert.deepEqual(seedField(" 9223372036854775807 "), { seed: "9223372036854775807" });
  assert.notEqual(String(Number("9223372036854775807")), "9223372036854775807"); // why: a Number rounds
  assert.ok(seedField("1e9").error);
  assert.ok(seedField("-3").error);
  assert.ok(seedField("123456789012345678901").error);
});

test("a seat's request: a human's name, a bot's changed options only", () => {
  assert.deepEqual(seatRequest("human", "  Ann ", null, []), { kind: "human", name: "Ann" });
  assert.deepEqual(seatRequest("human", "  ", null, []), { kind: "human", name: undefined });
  const bot = { name: "b", options: { iterations: 100, mode: "x" } };
  const inputs = [
    { key: "iterations", value: "250", type: "number" },
    { key: "mode", value: "x", type: "string" },
  ];
  assert.deepEqual(seatRequest("bot", "", bot, inputs), { kind: "bot", bot: "b", options: { iterations: 250 } });
  // An engine seat names the operator's engine, nothing else.
  assert.deepEqual(seatRequest("engine", "x", { name: "mine" }, inputs), { kind: "bot", engine: "mine" });
});

test("the creator keeps their own token and the others' invite codes, never their tokens", () => {
  const made = {
    seat: 1,
    token: "t1",
    seats: [{ seat: 0 }, { seat: 1 }, { seat: 2, invite: "code2" }],
  };
  assert.deepEqual(claimSeats(made), { mine: { 1: "t1" }, invites: { 2: "code2" } });
  assert.deepEqual(claimSeats({ seat: null, token: null, seats: [{ seat: 0, invite: "c" }] }), {
    mine: {},
    invites: { 0: "c" },
  });
  assert.equal(inviteLink("http://h", "g/1", "a+b"), "http://h/game/g%2F1#invite=a%2Bb");
});

test("claiming an invite keeps the fresh token and forgets the code", async () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  saveSeats("g", { mine: {}, invites: { 1: "code" } }, storage);
  const sent = [];
  globalThis.fetch = async (path, init) => {
    sent.push([path, init.method, JSON.parse(init.body)]);
    return { ok: true, json: async () => ({ seat: 1, token: "fresh" }) };
  };
  assert.equal(await claimInvite("g", "code", storage), 1);
  assert.deepEqual(sent, [["/api/games/g/claim", "POST", { invite: "code" }]]);
  assert.deepEqual(seatsFor("g", storage), { mine: { 1: "fresh" }, invites: {} });
});

test("seat tokens are kept per game; a damaged entry is ignored", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.deepEqual(seatsFor("g", storage), { mine: {}, invites: {} });
  saveSeats("g", { mine: { 0: "t" }, invites: {} }, storage);
  assert.deepEqual(seatsFor("g", storage), { mine: { 0: "t" }, invites: {} });
  store.set("genial.seats.g", "{not json");
  assert.deepEqual(seatsFor("g", storage), { mine: {}, invites: {} });
});

test("track slots: filled up to the marker, both ways on a signed track", () => {
  const plain = slots({ signed: false, min: 0, max: 4 }, 2);
  assert.deepEqual(
    plain.map((s) => [s.x, s.filled, s.at]),
    [
      [1, true, false],
      [2, true, true],
      [3, false, false],
      [4, false, false],
    ],
  );
  const signed = slots({ signed: true, min: -2, max: 2 }, -1);
  assert.deepEqual(
    signed.map((s) => [s.x, s.filled]),
    [
      [-2, false],
      [-1, true],
      [0, false],
      [1, false],
      [2, false],
    ],
  );
  assert.equal(signed.find((s) => s.x === 0).at, false);
});
