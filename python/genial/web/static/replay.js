// The replay view: load a record (a file, or a game of this server) and step through it.
// The server replays the record through the engine and sends every move with its points
// and the tracks after it; the page only shows frame after frame.
import { api, h, seatsFor, toast } from "./api.js";
import { BoardView, key } from "./board.js";
import { icon, rankingView, tracksView } from "./tracks.js";

export async function showReplay(root, meta) {
  document.title = "Replay · Ingenious";
  const file = h("input", { type: "file", accept: ".json,application/json", id: "record-file", "aria-label": "Record file" });
  const intro = h("div", { class: "card replay-load" },
    h("h2", {}, "Replay a game"),
    h("p", { class: "muted" }, "Open a genial record (JSON, as downloaded at the end of a game or saved by genial play)."),
    h("label", { class: "file" }, file, h("span", { class: "button primary" }, "Open a record…")));
  const stage = h("div", { class: "replay-stage" });
  root.replaceChildren(h("div", { class: "replay" }, intro, stage));

  const loadRecord = async (record) => {
    try {
      const data = await api("/api/replay", { method: "POST", body: record });
      intro.hidden = true;
      new Replay(stage, meta, data, record).show();
    } catch (e) {
      toast(e.message, "error");
    }
  };
  file.addEventListener("change", async () => {
    const f = file.files[0];
    if (!f) return;
    let record;
    try {
      record = JSON.parse(await f.text());
    } catch {
      toast("This file is not JSON: open a genial game record.", "error");
      return;
    }
    await loadRecord(record);
  });
  const frag = new URLSearchParams(location.hash.slice(1));
  const gameId = frag.get("game");
  if (gameId) {
    const held = seatsFor(gameId);
    const token = Object.values(held.mine)[0];
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`, { headers: token ? { "X-Seat-Token": token } : {} });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error);
      await loadRecord(body);
    } catch (e) {
      toast(e.message, "error");
    }
  }
}

class Replay {
  constructor(root, meta, data, record) {
    this.root = root;
    this.meta = meta;
    this.data = data;
    this.record = record;
    this.step = data.log.length;
    const printed = new Map(meta.printed.map(([q, r, c]) => [key(q, r), c]));
    this.printed = printed;
  }

  show() {
    const d = this.data;
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, this.meta, {});
    this.board.setZone(d.radius);
    this.slider = h("input", { type: "range", min: "0", max: String(d.log.length), value: String(this.step), id: "replay-slider", "aria-label": "Move" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.label = h("span", { class: "replay-label", id: "replay-label" });
    this.moveEl = h("div", { class: "replay-move" });
    this.tracksEl = h("div", { class: "tracks-box" });
    this.listEl = h("ol", { class: "log replay-list" });
    this.endEl = h("div", {});
    const controls = h("div", { class: "replay-controls" },
      h("button", { type: "button", onclick: () => this.go(0), "aria-label": "First move" }, "⏮"),
      h("button", { type: "button", id: "replay-prev", onclick: () => this.go(this.step - 1), "aria-label": "Previous move" }, "◀"),
      this.slider,
      h("button", { type: "button", id: "replay-next", onclick: () => this.go(this.step + 1), "aria-label": "Next move" }, "▶"),
      h("button", { type: "button", onclick: () => this.go(d.log.length), "aria-label": "Last move" }, "⏭"),
      this.label);
    d.log.forEach((e, i) => {
      const li = h("li", { value: i + 1, onclick: () => this.go(i + 1) }, this.describe(e));
      this.listEl.append(li);
    });
    this.root.replaceChildren(h("div", { class: "game replay-game" },
      h("div", { class: "play-area" },
        h("div", { class: "status" }, h("span", {}, `Replay · ${d.variant}, ${d.players} player${d.players > 1 ? "s" : ""}${d.seed !== null ? ` · seed ${d.seed}` : ""}`)),
        boardBox, controls, this.moveEl),
      h("aside", { class: "sidebar" }, this.tracksEl, this.endEl,
        h("details", { class: "card log-card", open: true }, h("summary", {}, "All moves"), this.listEl))));
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowLeft") this.go(this.step - 1);
      if (ev.key === "ArrowRight") this.go(this.step + 1);
      if (ev.key === "Home") this.go(0);
      if (ev.key === "End") this.go(d.log.length);
    });
    this.go(this.step);
  }

  names() {
    const d = this.data;
    return d.names || Array.from({ length: d.players }, (_, i) => `Seat ${i + 1}`);
  }

  describe(e) {
    const who = this.names()[e.seat];
    if (!e.cells) return `${who}: ${e.kind === "swap" ? "swapped the rack" : "kept the rack"}`;
    const pts = e.gains.map((g, c) => (g ? `${this.meta.colors[c].name} +${g}` : null)).filter(Boolean).join(", ") || "no points";
    return `${who}: ${e.move} · ${pts}${e.bonus ? " · Ingenious!" : ""}`;
  }

  go(step) {
    const d = this.data;
    step = Math.max(0, Math.min(d.log.length, step));
    this.step = step;
    this.slider.value = String(step);
    this.label.textContent = `move ${step} / ${d.log.length}`;
    const colours = new Map(this.meta.printed.map(([q, r, c]) => [key(q, r), c]));
    const tiles = [];
    for (const e of d.log.slice(0, step)) {
      if (!e.cells) continue;
      tiles.push(e.cells);
      colours.set(key(...e.cells[0]), e.colors[0]);
      colours.set(key(...e.cells[1]), e.colors[1]);
    }
    const last = step > 0 ? d.log[step - 1] : null;
    this.board.setTiles(tiles, colours, last && last.cells ? [last.cells] : [], last && last.cells ? last.cells : null);
    const frame = d.frames[step];
    const state = { variant: d.variant, players: d.players, tracks: frame.tracks, tokens: frame.tokens, track_max: d.track_max,
                    current: frame.current, over: step === d.log.length && d.over, ranks: null, you: last ? last.seat : null };
    this.tracksEl.replaceChildren(tracksView(this.meta, state, this.names(), { gains: last && last.gains }));
    this.moveEl.replaceChildren(last ? h("p", { id: "replay-move" }, this.describe(last)) : h("p", { class: "muted", id: "replay-move" }, "The start: an empty board."));
    for (const [i, li] of [...this.listEl.children].entries()) li.classList.toggle("current", i === step - 1);
    const cur = this.listEl.children[step - 1];
    if (cur) cur.scrollIntoView({ block: "nearest" });
    if (step === d.log.length && d.over && d.variant !== "solo") {
      this.endEl.replaceChildren(h("div", { class: "card" }, h("h3", {}, "Final ranking"),
        rankingView(this.meta, { ...state, ranking: d.ranking, explanation: d.explanation }, this.names())));
    } else {
      this.endEl.replaceChildren();
    }
  }
}

export { icon };
