// The replay view: load a record (a file, or a game of this server) and step through it.
// The server replays the record through the engine and sends every move with its points,
// the tracks after it and the end; the page only shows frame after frame.
import { api, gamePath } from "./api.js";
import { BoardView } from "./board.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { glyph } from "./icons.js";
import { boardOf, placedBefore } from "./marks.js";
import { openAnalysis, startReview } from "./review.js";
import { seatsFor } from "./seats.js";
import { rankingView, tracksView } from "./tracks.js";

export async function showReplay(root, meta) {
  document.title = `${t("Replay")} · ${meta.product.name}`;
  const file = h("input", {
    type: "file",
    accept: ".json,application/json",
    id: "record-file",
    "aria-label": t("Record file"),
  });
  const intro = h(
    "div",
    { class: "card replay-load" },
    h("h2", {}, t("Replay a game")),
    h(
      "p",
      { class: "muted" },
      t("Open a genial record (JSON, as downloaded at the end of a game or saved by genial play)."),
    ),
    h("label", { class: "file" }, file, h("span", { class: "button primary" }, t("Open a record…"))),
  );
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
      toast(t("This file is not JSON: open a genial game record."), "error");
      return;
    }
    await loadRecord(record);
  });
  const gameId = new URLSearchParams(location.hash.slice(1)).get("game");
  if (gameId) {
    const token = Object.values(seatsFor(gameId).mine)[0];
    try {
      await loadRecord(await api(gamePath(gameId, "/record"), { token }));
    } catch (e) {
      toast(e.message, "error");
    }
  }
}

class Replay {
  constructor(root, meta, data, record) {
    this.record = record;
    this.root = root;
    this.meta = meta;
    this.data = data;
    this.step = data.log.length;
  }

  show() {
    const d = this.data;
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, this.meta, {});
    this.board.setZone(d.radius);
    this.slider = h("input", {
      type: "range",
      min: "0",
      max: String(d.log.length),
      value: String(this.step),
      id: "replay-slider",
      "aria-label": t("Move"),
    });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.label = h("span", { class: "replay-label", id: "replay-label" });
    this.moveEl = h("div", { class: "replay-move" });
    this.tracksEl = h("div", { class: "tracks-box" });
    this.listEl = h("ol", { class: "log replay-list" });
    this.endEl = h("div", {});
    const button = (name, label, id, to) =>
      h(
        "button",
        { type: "button", class: "icon-button", id, "aria-label": label, title: label, onclick: to },
        glyph(name),
      );
    const controls = h(
      "div",
      { class: "replay-controls" },
      button("first", t("First move"), "replay-first", () => this.go(0)),
      button("previous", t("Previous move"), "replay-prev", () => this.go(this.step - 1)),
      this.slider,
      button("next", t("Next move"), "replay-next", () => this.go(this.step + 1)),
      button("last", t("Last move"), "replay-last", () => this.go(d.log.length)),
      this.label,
      h(
        "button",
        { type: "button", id: "replay-review", onclick: () => startReview({ record: this.record }) },
        t("Review"),
      ),
      h(
        "button",
        {
          type: "button",
          id: "replay-analyse",
          onclick: () => openAnalysis({ record: this.record, upto: this.step }),
        },
        t("Analyse"),
      ),
    );
    d.log.forEach((e, i) => {
      this.listEl.append(h("li", { value: i + 1, onclick: () => this.go(i + 1) }, this.describe(e)));
    });
    this.root.replaceChildren(
      h(
        "div",
        { class: "game replay-game" },
        h(
          "div",
          { class: "play-area" },
          h("div", { class: "status" }, h("span", {}, d.title)),
          boardBox,
          controls,
          this.moveEl,
        ),
        h(
          "aside",
          { class: "sidebar" },
          this.tracksEl,
          this.endEl,
          h("details", { class: "card log-card", open: true }, h("summary", {}, t("All moves")), this.listEl),
        ),
      ),
    );
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowLeft") this.go(this.step - 1);
      if (ev.key === "ArrowRight") this.go(this.step + 1);
      if (ev.key === "Home") this.go(0);
      if (ev.key === "End") this.go(d.log.length);
    });
    this.go(this.step);
  }

  describe(e) {
    const notes = e.notes.length ? ` · ${e.notes.join(" ")}` : "";
    return e.cells ? `${e.who}: ${e.move} · ${e.text}${notes}` : `${e.who}: ${e.text}`;
  }

  go(step) {
    const d = this.data;
    const at = Math.max(0, Math.min(d.log.length, step));
    this.step = at;
    this.slider.value = String(at);
    this.label.textContent = t("move {n} / {total}", { n: at, total: d.log.length });
    const { tiles, colours } = boardOf(this.meta.board.printed, placedBefore(d.log, at));
    const last = at > 0 ? d.log[at - 1] : null;
    const placed = last?.cells ? [last.cells] : [];
    this.board.setTiles(tiles, colours, placed, last?.cells || null);
    this.tracksEl.replaceChildren(
      tracksView(this.meta, d.frames[at].track_views),
      h("p", { class: "scoring muted" }, d.scoring),
    );
    this.moveEl.replaceChildren(
      last
        ? h("p", { id: "replay-move" }, this.describe(last))
        : h("p", { class: "muted", id: "replay-move" }, t("The start: an empty board.")),
    );
    for (const [i, li] of [...this.listEl.children].entries()) li.classList.toggle("current", i === at - 1);
    this.listEl.children[at - 1]?.scrollIntoView({ block: "nearest" });
    if (at === d.log.length && d.ending) {
      const end = d.ending;
      this.endEl.replaceChildren(
        h(
          "div",
          { class: "card" },
          h("h3", {}, end.ranking.length ? t("Final ranking") : end.title),
          h("p", { class: "end-summary" }, end.summary),
          end.ranking.length ? rankingView(end) : null,
        ),
      );
    } else {
      this.endEl.replaceChildren();
    }
  }
}
