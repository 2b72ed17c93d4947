// The analysis board: a position (a game or record at move N, a review's decision, or a
// position set up by hand), the mover's candidate moves ranked by the engine with their
// win chances and points (each drawn on the board when pointed at, focused or selected),
// the move the game went on with, variations played and taken back, the expected line, a
// link that shares the position with its variation, and the position notation of the
// position shown with its /analysis?position=TEXT link. The server checks and plays every
// move and sends every text (genial.web.analysis, genial.web.study.analysis).
import { api } from "./api.js";
import { BoardView, icon, markSwatch } from "./board.js";
import { h, toast } from "./dom.js";
import { nt, pct, t } from "./i18n.js";
import { boardOf, marksOf, stepIndex } from "./marks.js";
import { notationOfSearch, notationPath } from "./notation.js";
import { explanationView } from "./review.js";
import { clickCell } from "./setup.js";

export async function showAnalysis(root, meta, id) {
  document.title = `${t("Analysis")} · ${meta.product.name}`;
  let position = null;
  let line = [];
  const notation = id ? null : notationOfSearch(location.search);
  if (notation !== null) position = { notation };
  if (id) {
    try {
      const shared = await api(`/api/positions/${encodeURIComponent(id)}`);
      position = shared.position;
      line = shared.line;
    } catch (e) {
      root.replaceChildren(h("p", { class: "error" }, e.message));
      return;
    }
  }
  const board = new AnalysisBoard(root, meta, position, line);
  board.build();
  if (position && !(await board.load()) && notation !== null) {
    // A notation the server refused: say where it goes wrong, and offer the editor.
    board.intro();
    board.edit(null);
  } else if (!position) {
    board.intro();
    board.edit(null);
  }
}

class AnalysisBoard {
  constructor(root, meta, position, line) {
    this.root = root;
    this.meta = meta;
    this.position = position;
    this.line = line;
    this.data = null;
  }

  build() {
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, this.meta, { onCell: (q, r, kind) => this.onCell(q, r, kind) });
    this.status = h("div", { class: "status", id: "analysis-status" }, "…");
    this.rackEl = h("div", { class: "analysis-rack", id: "analysis-rack" });
    this.tracksEl = h("div", { class: "tracks-box" });
    this.candEl = h("ol", {
      class: "log candidates",
      id: "analysis-candidates",
      "aria-label": t("Candidate moves"),
      onmouseleave: () => this.showCandidate(this.selected),
      onfocusout: (ev) => {
        if (!this.candEl.contains(ev.relatedTarget)) this.showCandidate(this.selected);
      },
      onkeydown: (ev) => this.onCandidateKey(ev),
    });
    this.legend = h("p", { class: "board-legend", id: "analysis-legend" });
    this.lineEl = h("p", { id: "analysis-line" });
    this.expectedEl = h("p", { class: "muted", id: "analysis-expected" });
    this.detail = h("div", { id: "analysis-detail" });
    this.shareEl = h("div", { class: "share" });
    this.notationEl = h("div", { class: "notation", id: "analysis-notation" });
    this.errorEl = h("div", { id: "analysis-error" });
    this.editor = h("div", { class: "card editor", id: "editor", hidden: true });
    this.note = h("p", { class: "muted", id: "analysis-note" });
    this.root.replaceChildren(
      h(
        "div",
        { class: "game analysis" },
        h(
          "div",
          { class: "play-area" },
          this.status,
          this.errorEl,
          boardBox,
          this.legend,
          this.rackEl,
          this.detail,
          this.editor,
        ),
        h(
          "aside",
          { class: "sidebar" },
          h(
            "div",
            { class: "card" },
            h("h3", {}, t("Candidate moves")),
            this.candEl,
            h("h4", {}, t("Variation")),
            this.lineEl,
            this.expectedEl,
            h(
              "div",
              { class: "actions" },
              h("button", { type: "button", id: "analysis-back", onclick: () => this.back() }, t("Take back")),
              h("button", { type: "button", id: "analysis-share", onclick: () => this.share() }, t("Share")),
              h(
                "button",
                { type: "button", id: "analysis-edit", onclick: () => this.edit(this.data) },
                t("Edit position"),
              ),
            ),
            this.shareEl,
            this.notationEl,
            this.note,
          ),
          this.tracksEl,
        ),
      ),
    );
    this.board.setZone(7);
  }

  // Asks the server for the position after the variation; false (and a message) when it
  // refuses the position or a move.
  async load() {
    this.status.textContent = t("The engine is thinking…");
    try {
      this.data = await api("/api/analysis", { method: "POST", body: { position: this.position, line: this.line } });
    } catch (e) {
      toast(e.message, "error");
      this.status.textContent = e.message;
      this.showRefused(e);
      return false;
    }
    this.errorEl.replaceChildren();
    this.draw();
    return true;
  }

  // A position notation the server refused: its text with the first bad character marked
  // (the answer's index; past the end, a mark after the last character).
  showRefused(e) {
    const text = this.position?.notation;
    const at = e.data?.index;
    if (typeof text !== "string" || !Number.isInteger(at)) {
      this.errorEl.replaceChildren();
      return;
    }
    this.errorEl.replaceChildren(
      h(
        "div",
        { class: "card error", id: "notation-error", role: "alert" },
        h("p", {}, t("This link's position cannot be read: {error}", { error: e.message })),
        h(
          "p",
          {},
          h(
            "code",
            { class: "notation-text" },
            text.slice(0, at),
            h("mark", { id: "notation-bad" }, text.slice(at, at + 1) || " "),
            text.slice(at + 1),
          ),
        ),
        h("p", { class: "muted" }, t("Set up the position below instead, or correct the link.")),
      ),
    );
  }

  // The position notation of the position shown and its link, or why there is none.
  drawNotation() {
    const d = this.data;
    if (!d.notation) {
      this.notationEl.replaceChildren(
        h(
          "p",
          { class: "muted" },
          d.over
            ? t("The game is over: no position notation.")
            : t(
                "Position notation: written at the start of a turn (play the bonus placement or answer the swap offer).",
              ),
        ),
      );
      return;
    }
    const url = new URL(notationPath(d.notation), location.origin).href;
    this.notationEl.replaceChildren(
      h("h4", {}, t("Position notation")),
      h("p", {}, h("code", { class: "notation-text", id: "notation-text" }, d.notation)),
      h(
        "p",
        { class: "actions" },
        h("a", { href: url, id: "notation-link" }, t("Link to this position")),
        h(
          "button",
          {
            type: "button",
            id: "notation-copy",
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(url);
                toast(t("Link copied"));
              } catch {
                toast(t("Copy this link: {url}", { url }));
              }
            },
          },
          t("Copy link"),
        ),
      ),
    );
  }

  draw() {
    const d = this.data;
    this.board.setZone(d.radius);
    this.status.textContent = `${d.title} · ${d.status}`;
    this.note.textContent = d.note;
    this.tracksEl.replaceChildren(h("div", { class: "card" }, h("p", { class: "scoring muted" }, d.scoring)));
    import("./tracks.js").then(({ tracksView }) => this.tracksEl.prepend(tracksView(this.meta, d.track_views)));
    this.rackEl.replaceChildren(
      d.rack
        ? h(
            "p",
            {},
            `${t("{name}'s rack:", { name: d.who })} `,
            d.rack.map((tile, i) =>
              h(
                "span",
                { class: "log-tile", title: d.rack_labels[i] },
                icon(this.meta, tile[0]),
                icon(this.meta, tile[1]),
              ),
            ),
          )
        : null,
    );
    this.lineEl.textContent = d.line.length
      ? d.line.map((e) => `${e.who}: ${e.move}`).join(" · ")
      : t("none yet: play a candidate");
    this.expectedEl.textContent = d.expected.length ? t("Expected line: {line}", { line: d.expected.join(" ") }) : "";
    this.drawNotation();
    // Each candidate: its move (a button that shows it on the board: pointing at it or
    // focusing it shows it for a moment, pressing it keeps it shown), its figures, and Play.
    this.selected = 0;
    this.candEl.replaceChildren(
      ...d.candidates.map((c, i) =>
        h(
          "li",
          { class: "candidate", "data-move": c.move, onmouseenter: () => this.showCandidate(i) },
          // One row (the list item keeps its number): the move, its figures, Play.
          h(
            "div",
            {},
            h(
              "button",
              {
                type: "button",
                class: "ghost cand-show",
                "aria-pressed": "false",
                title: t("Show this move on the board"),
                onfocus: () => this.showCandidate(i),
                onclick: () => this.selectCandidate(i),
              },
              c.move,
            ),
            h(
              "span",
              { class: "cand-text" },
              `${pct(c.win)} · ${c.text}`,
              c.played ? h("span", { class: "tag" }, t("played in the game")) : null,
            ),
            h(
              "button",
              {
                type: "button",
                class: "cand-play",
                "aria-label": t("Play {move}", { move: c.move }),
                onclick: () => this.play(c.move),
              },
              t("Play"),
            ),
          ),
        ),
      ),
    );
    this.selectCandidate(0);
  }

  selectCandidate(i) {
    this.selected = i;
    [...this.candEl.children].forEach((li, j) => {
      li.classList.toggle("selected", j === i);
      li.querySelector(".cand-show")?.setAttribute("aria-pressed", String(j === i));
    });
    this.showCandidate(i);
  }

  // The arrow keys, Home and End move the focus through the candidates (which shows each).
  onCandidateKey(ev) {
    const shows = [...this.candEl.querySelectorAll(".cand-show")];
    const at = shows.indexOf(document.activeElement);
    const to = stepIndex(ev.key, at < 0 ? this.selected : at, shows.length);
    if (to === null) return;
    ev.preventDefault();
    shows[to].focus();
  }

  // The position's tiles, with candidate i (if any) and the move the game went on with
  // marked on the board, and the candidate explained below it.
  showCandidate(i) {
    const d = this.data;
    if (!d) return;
    const { tiles, colours } = boardOf(this.meta.board.printed, d.tiles);
    // The variation's last move, if it laid a tile, outlined as a recent move (not white:
    // that is the outline of the move the game went on with).
    const end = d.line.length ? d.line[d.line.length - 1] : null;
    this.board.setTiles(tiles, colours, end?.cells ? [end.cells] : []);
    const c = d.candidates[i];
    const e = c?.explained;
    this.board.setMarks(
      marksOf([
        ["played", d.played],
        ["candidate", e],
      ]),
    );
    this.board.setGhost(null);
    const items = [];
    if (c) {
      items.push(
        h(
          "span",
          { class: "legend-item" },
          markSwatch("candidate"),
          ` ${
            e?.cells
              ? t("Candidate {n}: {move} ({win})", { n: i + 1, move: c.move, win: pct(c.win) })
              : t("Candidate {n}: {move} ({win}), nothing laid", { n: i + 1, move: c.move, win: pct(c.win) })
          }`,
        ),
      );
    }
    if (d.played) {
      items.push(
        h(
          "span",
          { class: "legend-item" },
          markSwatch("played"),
          ` ${
            d.played.cells
              ? t("Played in the game: {move}", { move: d.played.move })
              : t("Played in the game: {move}, nothing laid", { move: d.played.move })
          }`,
        ),
      );
    }
    if (end) {
      items.push(
        h(
          "span",
          { class: "legend-item" },
          end.cells ? markSwatch("variation") : null,
          ` ${t("Last move of the variation: {name}, {move}", { name: end.who, move: end.move })}`,
        ),
      );
    }
    this.legend.replaceChildren(...items);
    this.detail.replaceChildren(
      c ? explanationView(t("Candidate {n} ({win})", { n: i + 1, win: pct(c.win) }), e, "analysis-explained") : "",
    );
  }

  async play(move) {
    this.line = [...this.line, move];
    if (!(await this.load())) this.line = this.line.slice(0, -1);
  }

  async back() {
    if (!this.line.length) return;
    this.line = this.line.slice(0, -1);
    await this.load();
  }

  async share() {
    try {
      const link = await api("/api/positions", { method: "POST", body: { position: this.position, line: this.line } });
      const url = new URL(link.path, location.origin).href;
      history.replaceState(null, "", link.path);
      this.shareEl.replaceChildren(
        h("input", { type: "text", readonly: true, id: "share-link", value: url, "aria-label": t("Share link") }),
      );
      await navigator.clipboard?.writeText(url).catch(() => {});
    } catch (e) {
      toast(e.message, "error");
    }
  }

  // A bare /analysis: what the page is for and how to start.
  intro() {
    this.status.textContent = t("Set up a position to analyse");
    this.note.replaceChildren(
      h("strong", {}, t("The analysis board.")),
      " ",
      t(
        "Lay tiles below (pick two colours, then click two neighbouring cells), set each track's markers, the seat to move and its rack, and press Analyse: the engine ranks that seat's moves. To analyse a game instead, open it from its end screen (Review, then a decision) or load its record on the Replay page.",
      ),
      " ",
      h("a", { href: "/replay" }, t("Open the Replay page")),
    );
  }

  // ----- the position editor ---------------------------------------------------------------

  // Fills the editor from a shown position (or an empty board) and shows it.
  edit(d) {
    const variant = (d && this.meta.variants.find((v) => v.name === d.variant)) || this.meta.variants[0];
    const players = d ? d.players : variant.player_counts[0];
    this.setup = {
      variant: variant.name,
      players,
      tiles: d ? d.tiles.map((t) => ({ cells: t.cells, colors: t.colors })) : [],
      tracks: d ? d.tracks.map((t) => [...t]) : Array.from({ length: players }, () => this.meta.colors.map(() => 0)),
      seat: d?.mover ?? 0,
      rack: d?.rack ? d.rack.map((t) => [...t]) : [],
    };
    this.pending = null;
    this.editing = true;
    this.editor.hidden = false;
    this.renderEditor();
    this.drawSetup();
  }

  colourSelect(value, onchange, label) {
    const sel = h("select", { "aria-label": label, onchange: () => onchange(Number(sel.value)) });
    for (const c of this.meta.colors) sel.append(h("option", { value: String(c.index) }, c.title));
    sel.value = String(value);
    return sel;
  }

  renderEditor() {
    const s = this.setup;
    const variant = this.meta.variants.find((v) => v.name === s.variant);
    // The server says whether the variant's tracks follow the player count (one per seat).
    const perSeat = variant.tracks_per_seat;
    this.paint = this.paint || [0, 0];
    const players = h(
      "select",
      {
        id: "editor-players",
        "aria-label": t("Players"),
        disabled: !perSeat,
        onchange: () => {
          s.players = Number(players.value);
          s.tracks = Array.from({ length: s.players }, (_, i) => s.tracks[i] || this.meta.colors.map(() => 0));
          s.seat = Math.min(s.seat, s.players - 1);
          this.renderEditor();
        },
      },
      variant.player_counts.map((n, i) => h("option", { value: String(n) }, variant.player_labels[i])),
    );
    players.value = String(s.players);
    const seat = h(
      "select",
      {
        id: "editor-seat",
        "aria-label": t("Seat to move"),
        onchange: () => {
          s.seat = Number(seat.value);
        },
      },
      Array.from({ length: s.players }, (_, i) => h("option", { value: String(i) }, t("Seat {n}", { n: i + 1 }))),
    );
    seat.value = String(s.seat);
    const trackName = (ti) => (perSeat ? t("Seat {n}", { n: ti + 1 }) : t("Track {n}", { n: ti + 1 }));
    const tracks = s.tracks.map((track, ti) =>
      h(
        "div",
        { class: "editor-track" },
        `${trackName(ti)}: `,
        track.map((v, ci) =>
          h(
            "label",
            { class: "marker" },
            icon(this.meta, ci, 16),
            h("input", {
              type: "number",
              min: "0",
              max: String(variant.track_max),
              value: String(v),
              "aria-label": `${trackName(ti)} ${this.meta.colors[ci].title}`,
              onchange: (ev) => {
                track[ci] = Number(ev.target.value);
              },
            }),
          ),
        ),
      ),
    );
    const rack = h(
      "div",
      { class: "editor-rack" },
      s.rack.map((tile, i) =>
        h(
          "span",
          { class: "rack-pair" },
          this.colourSelect(
            tile[0],
            (v) => {
              tile[0] = v;
            },
            t("Rack tile {n} first colour", { n: i + 1 }),
          ),
          this.colourSelect(
            tile[1],
            (v) => {
              tile[1] = v;
            },
            t("Rack tile {n} second colour", { n: i + 1 }),
          ),
          h(
            "button",
            {
              type: "button",
              class: "ghost",
              onclick: () => {
                s.rack.splice(i, 1);
                this.renderEditor();
              },
            },
            "×",
          ),
        ),
      ),
      s.rack.length < variant.rack_size
        ? h(
            "button",
            {
              type: "button",
              id: "editor-add-rack",
              onclick: () => {
                s.rack.push([0, 0]);
                this.renderEditor();
              },
            },
            `+ ${t("rack tile")}`,
          )
        : null,
    );
    this.editor.replaceChildren(
      h("h3", {}, t("Set up a position")),
      h(
        "p",
        { class: "muted" },
        t(
          "Click two neighbouring free cells to lay a tile in the colours chosen here; click a tile to remove it. The other racks are dealt from the tiles nobody listed.",
        ),
      ),
      h(
        "p",
        {},
        `${t("Tile to lay:")} `,
        this.colourSelect(
          this.paint[0],
          (v) => {
            this.paint[0] = v;
          },
          t("Colour of the first half"),
        ),
        this.colourSelect(
          this.paint[1],
          (v) => {
            this.paint[1] = v;
          },
          t("Colour of the second half"),
        ),
        ` · ${nt("{n} tile on the board", "{n} tiles on the board", s.tiles.length)}`,
      ),
      h("p", {}, `${t("Players")} `, players, ` · ${t("to move")} `, seat),
      h("div", {}, h("h4", {}, t("Scores")), tracks),
      h("div", {}, h("h4", {}, t("Rack to analyse")), rack),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          { type: "button", class: "primary", id: "editor-analyse", onclick: () => this.analyseSetup() },
          t("Analyse"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "ghost",
            onclick: () => {
              s.tiles = [];
              this.renderEditor();
              this.drawSetup();
            },
          },
          t("Clear the board"),
        ),
      ),
    );
  }

  drawSetup() {
    const { tiles, colours } = boardOf(this.meta.board.printed, this.setup.tiles);
    this.board.setTiles(tiles, colours);
    this.board.setMarks([]);
    this.legend.replaceChildren();
    this.board.setGhost(null);
    this.board.setCursor(this.pending ? this.pending[0] : null, this.pending ? this.pending[1] : null);
  }

  onCell(q, r, kind) {
    if (!this.editing || kind !== "click") return;
    const adjacent = (a, b) => this.board.directionOf(a, b) !== undefined;
    const next = clickCell(this.setup.tiles, this.pending, [q, r], this.paint, adjacent);
    this.setup.tiles = next.tiles;
    this.pending = next.pending;
    this.renderEditor();
    this.drawSetup();
  }

  async analyseSetup() {
    this.position = { setup: { ...this.setup } };
    this.line = [];
    this.editing = false;
    this.editor.hidden = true;
    if (!(await this.load())) {
      this.editing = true;
      this.editor.hidden = false;
    }
  }
}
