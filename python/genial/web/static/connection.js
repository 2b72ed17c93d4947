// The live connection of one seat (or a spectator): a WebSocket that says hello with the
// seat's token, hands every state to `onState`, and reconnects with growing delays. While it
// is down, `onStatus(false)` lets the page take back what it can no longer vouch for
// ("online", "Your turn"). A refusal ends it: `onFatal(message, status)`, with the HTTP
// status the server gave (403: the token holds no seat), except two that pass: too many
// connections from this address (429, close 4429), retried with longer delays, and a
// hello that came too late (close 4408), retried as a lost connection. `open` makes the
// socket (a stand-in in the unit tests).

// Close codes after which the page tries again, and the first delay after a 4429.
const RETRIED = new Set([4408, 4429]);
const BUSY_DELAY = 2000;
const MAX_DELAY = 8000;
const MAX_BUSY_DELAY = 30000;

export class Connection {
  constructor(url, token, { onState, onStatus, onFatal, open, schedule } = {}) {
    this.url = url;
    this.token = token;
    this.onState = onState || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onFatal = onFatal || (() => {});
    this.open = open || ((u) => new WebSocket(u));
    this.schedule = schedule || ((f, ms) => setTimeout(f, ms));
    this.delay = 500;
    this.up = false;
    this.closed = false;
    this.socket = null;
  }

  start() {
    const ws = this.open(this.url);
    this.socket = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ token: this.token }));
    });
    ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "error") {
        if (msg.status === 429) return; // the close that follows is retried
        this.closed = true;
        this.onFatal(msg.error, msg.status);
        return;
      }
      this.delay = 500; // in: the next loss starts again from the shortest delay
      if (!this.up) {
        this.up = true;
        this.onStatus(true);
      }
      this.onState(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.closed || (ev.code >= 4000 && !RETRIED.has(ev.code))) return;
      if (this.up) {
        this.up = false;
        this.onStatus(false);
      }
      const busy = ev.code === 4429;
      if (busy) this.delay = Math.max(this.delay, BUSY_DELAY);
      this.schedule(() => this.start(), this.delay);
      this.delay = Math.min(this.delay * 2, busy ? MAX_BUSY_DELAY : Math.max(MAX_DELAY, this.delay));
    });
  }

  stop() {
    this.closed = true;
    this.socket?.close();
  }
}

// `lang`: the page's language, for the states' texts (a page cannot set a WebSocket's headers).
export function liveUrl(location, id, lang = "en") {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/api/games/${encodeURIComponent(id)}/ws?lang=${encodeURIComponent(lang)}`;
}
