// The live connection of one seat (or a spectator): a WebSocket that says hello with the
// seat's token, hands every state to `onState`, and reconnects with growing delays. While it
// is down, `onStatus(false)` lets the page take back what it can no longer vouch for
// ("online", "Your turn"). A refusal ends it: `onFatal(message, status)`, with the HTTP
// status the server gave (403: the token holds no seat). `open` makes the socket (a
// stand-in in the unit tests).

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
      this.delay = 500;
      ws.send(JSON.stringify({ token: this.token }));
    });
    ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "error") {
        this.closed = true;
        this.onFatal(msg.error, msg.status);
        return;
      }
      if (!this.up) {
        this.up = true;
        this.onStatus(true);
      }
      this.onState(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.closed || ev.code >= 4000) return;
      if (this.up) {
        this.up = false;
        this.onStatus(false);
      }
      this.schedule(() => this.start(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  stop() {
    this.closed = true;
    this.socket?.close();
  }
}

export function liveUrl(location, id) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/api/games/${encodeURIComponent(id)}/ws`;
}
