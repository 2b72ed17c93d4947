// The live connection (python/genial/web/static/connection.js) with a stand-in socket:
// hello with the token, states handed on, "down" reported while reconnecting.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Connection, liveUrl } from "../../python/genial/web/static/connection.js";

class FakeSocket {
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.handlers = {};
  }
  addEventListener(kind, f) {
    this.handlers[kind] = f;
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {}
  fire(kind, ev = {}) {
    this.handlers[kind](ev);
  }
}

function setup() {
  const sockets = [];
  const timers = [];
  const seen = { states: [], status: [], fatal: [] };
  const conn = new Connection("ws://x/api/games/g/ws", "secret", {
    onState: (s) => seen.states.push(s),
    onStatus: (up) => seen.status.push(up),
    onFatal: (m, status) => seen.fatal.push([m, status]),
    open: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    schedule: (f, ms) => timers.push([f, ms]),
  });
  conn.start();
  return { conn, sockets, timers, seen };
}

test("says hello with the token and hands on every state", () => {
  const { sockets, seen } = setup();
  sockets[0].fire("open");
  assert.deepEqual(sockets[0].sent, [{ token: "secret" }]);
  sockets[0].fire("message", { data: JSON.stringify({ type: "state", version: 3 }) });
  assert.deepEqual(seen.states, [{ type: "state", version: 3 }]);
  assert.deepEqual(seen.status, [true]);
});

test("a lost connection is reported at once and retried with growing delays", () => {
  const { sockets, timers, seen } = setup();
  sockets[0].fire("message", { data: JSON.stringify({ type: "state" }) });
  sockets[0].fire("close", { code: 1006 });
  assert.deepEqual(seen.status, [true, false]);
  assert.equal(timers[0][1], 500);
  timers[0][0]();
  assert.equal(sockets.length, 2);
  sockets[1].fire("close", { code: 1006 });
  assert.equal(timers[1][1], 1000);
  assert.deepEqual(seen.status, [true, false]); // still down: reported once
  timers[1][0]();
  sockets[2].fire("open");
  sockets[2].fire("message", { data: JSON.stringify({ type: "state", version: 4 }) });
  assert.deepEqual(seen.status, [true, false, true]);
});

test("a refusal by the server is final, with its status", () => {
  const { sockets, timers, seen } = setup();
  sockets[0].fire("message", { data: JSON.stringify({ type: "error", status: 404, error: "no such game" }) });
  sockets[0].fire("close", { code: 4404 });
  assert.deepEqual(seen.fatal, [["no such game", 404]]);
  assert.equal(timers.length, 0);
});

test("a page refused for its address's cap (4429) retries with backoff", () => {
  const { sockets, timers, seen } = setup();
  for (let i = 0; i < 6; i++) {
    sockets[i].fire("open"); // the server accepts, says why, and closes
    sockets[i].fire("message", { data: JSON.stringify({ type: "error", status: 429, error: "busy" }) });
    sockets[i].fire("close", { code: 4429 });
    timers[i][0]();
  }
  assert.deepEqual(seen.fatal, []);
  assert.equal(sockets.length, 7);
  const waits = timers.map(([, ms]) => ms);
  assert.ok(waits[0] >= 2000, `first retry after ${waits[0]} ms`);
  for (let i = 1; i < waits.length; i++) assert.ok(waits[i] >= waits[i - 1], `${waits}`);
  assert.ok(waits.at(-1) > waits[0] && waits.at(-1) <= 30000, `${waits}`);
  // In, at last: the state comes and the delays start again from the beginning.
  sockets[6].fire("open");
  sockets[6].fire("message", { data: JSON.stringify({ type: "state", version: 1 }) });
  assert.deepEqual(seen.states, [{ type: "state", version: 1 }]);
});

test("a socket closed for a late hello (4408) reconnects", () => {
  const { sockets, timers, seen } = setup();
  sockets[0].fire("close", { code: 4408 });
  assert.equal(timers.length, 1);
  assert.deepEqual(seen.fatal, []);
});

test("the live address follows the page's scheme", () => {
  assert.equal(liveUrl({ protocol: "https:", host: "h:1" }, "a b"), "wss://h:1/api/games/a%20b/ws?lang=en");
  assert.equal(liveUrl({ protocol: "http:", host: "h" }, "g", "pl"), "ws://h/api/games/g/ws?lang=pl");
});
