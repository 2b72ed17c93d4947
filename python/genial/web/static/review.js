// The review of a finished game: computed on the server in the background (the page shows
// its progress), then every decision with the mover's win chance before and after, its
// class, the best alternative, the win-chance graph, the per-player summary, and the board
// as it was before any decision with the move played and the best move marked on it. Every
// text, number, verdict and move comes from the server (genial.web.study.review).
import { api } from "./api.js";
import { BoardView, markSwatch } from "./board.js";
import { h, toast } from "./dom.js";
import { pct, t } from "./i18n.js";
import { boardOf, marksOf, placedBefore, stepIndex } from "./marks.js";

// A decision's verdict as data (the class names in the page's styles): its classification
// (the review file's own field), or "forced" where there was nothing to choose; and in
// words, as the server wrote it in the page's language (a review kept before: the name).
const verdict = (x) => (x.forced ? "forced" : x.classification);
const verdictText = (x) => x.verdict || verdict(x);

// Asks the server for a review (of {game: id} or {record}) and opens its page; with a
// seat's token, of a game still being played, that seat's own decisions.
export async function startReview(body, token) {
  try {
    const st = await api("/api/reviews", { method: "POST", body, token });
    location.assign(`/review/${encodeURIComponent(st.id)}`);
  } catch (e) {
    toast(e.message, "error");
  }
}

// Opens the analysis board on a position (stored under an id, so that it can be shared).
export async function openAnalysis(position, line = []) {
  try {
    const link = await api("/api/positions", { method: "POST", body: { position, line } });
    location.assign(link.path);
  } catch (e) {
    toast(e.message, "error");
  }
}

export async function showReview(root, meta, id) {
  document.title = `${t("Review")} · ${meta.product.name}`;
  const bar = h("progress", { id: "review-progress", max: "1", value: "0" });
  const label = h("span", { class: "muted" }, t("Reviewing every decision…"));
  root.replaceChildren(h("div", { class: "card review-wait" }, h("h2", {}, t("Game review")), bar, " ", label));
  for (;;) {
    let st;
    try {
      st = await api(`/api/reviews/${encodeURIComponent(id)}`);
    } catch (e) {
      root.replaceChildren(h("p", { class: "error" }, e.message));
      return;
    }
    if (st.status === "done") {
      new ReviewView(root, meta, id, st.review).show();
      return;
    }
    if (st.status === "failed") {
      root.replaceChildren(h("p", { class: "error" }, st.error));
      return;
    }
    bar.max = String(Math.max(1, st.total));
    bar.value = String(st.done);
    label.textContent = t("{done} of {total} decisions reviewed", { done: st.done, total: st.total });
    await new Promise((done) => setTimeout(done, 400));
  }
}

// One placement explained: its points per half, its lines per direction, the markers'
// moves (the 18 cap, "Ingenious!"), and the rulebooks' sentences behind them.
export function explanationView(title, e, id) {
  return h(
    "div",
    { class: "explained", id },
    h("h4", {}, `${title}: ${e.move}`),
    h("p", { class: "points" }, e.text),
    h(
      "ul",
      {},
      e.lines.map((line) => h("li", {}, line)),
      e.steps.map((step) => h("li", {}, step)),
    ),
    e.rules.length
      ? h(
          "details",
          {},
          h("summary", {}, t("The rule")),
          e.rules.map((rule) => h("p", { class: "muted" }, rule)),
        )
      : null,
  );
}

class ReviewView {
  constructor(root, meta, id, data) {
    this.root = root;
    this.meta = meta;
    this.id = id;
    this.data = data;
  }

  show() {
    const d = this.data;
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, this.meta, {});
    this.board.setZone(d.radius);
    this.detail = h("div", { class: "review-detail", id: "review-detail" });
    const graph = h("div", { class: "review-graph", id: "review-graph" });
    graph.innerHTML = d.graph; // an SVG drawn by the server (genial.svg.win_chance_svg)
    const summary = h(
      "table",
      { class: "review-summary", id: "review-summary" },
      h(
        "tr",
        {},
        h("th", {}, t("Player")),
        h("th", {}, t("Average loss")),
        d.classes.map((c) => h("th", {}, c.title || c.name)),
      ),
      d.summary.map((s) =>
        h(
          "tr",
          {},
          h("td", {}, s.who),
          h("td", { title: s.text }, pct(s.average_loss, 1)),
          d.classes.map((c) => h("td", {}, String(s.counts[c.name]))),
        ),
      ),
    );
    this.rows = new Map();
    this.legend = h("p", { class: "board-legend", id: "review-legend", "aria-live": "polite" });
    // One entry of the list takes the focus (Tab); the arrow keys, Home and End step
    // through the decisions.
    const onKey = (ev) => {
      const plies = d.decisions.map((x) => x.ply);
      const to = stepIndex(ev.key, plies.indexOf(this.ply), plies.length);
      if (to === null) return;
      ev.preventDefault();
      this.select(plies[to]);
      this.rows.get(plies[to])?.focus();
    };
    const list = h(
      "ol",
      { class: "log review-list", id: "review-list", role: "listbox", "aria-label": t("Decisions"), onkeydown: onKey },
      d.decisions.map((x) => {
        const li = h(
          "li",
          {
            value: x.ply + 1,
            class: `review-row ${verdict(x)}`,
            "data-ply": String(x.ply),
            role: "option",
            tabindex: "-1",
            onclick: () => this.select(x.ply),
            onkeydown: (ev) => {
              if (ev.key !== "Enter" && ev.key !== " ") return;
              ev.preventDefault();
              this.select(x.ply);
            },
          },
          h("span", { class: "log-who" }, x.who),
          `${x.move} `,
          h("span", { class: `tag ${verdict(x)}` }, verdictText(x)),
          ` ${pct(x.win_before)} → ${pct(x.win_after)}`,
        );
        this.rows.set(x.ply, li);
        return li;
      }),
    );
    const worst = d.worst === null ? null : d.decisions.find((x) => x.ply === d.worst);
    this.root.replaceChildren(
      h(
        "div",
        { class: "game review" },
        h(
          "div",
          { class: "play-area" },
          h("div", { class: "status" }, h("span", {}, d.title)),
          h("p", { class: "muted", id: "review-note" }, d.note),
          boardBox,
          this.legend,
          this.detail,
        ),
        h(
          "aside",
          { class: "sidebar" },
          h("div", { class: "card" }, h("h3", {}, t("Win chance")), graph),
          h("div", { class: "card" }, h("h3", {}, t("Summary")), summary),
          h(
            "div",
            { class: "card" },
            h("h3", {}, t("Decisions")),
            worst
              ? h(
                  "button",
                  { type: "button", id: "review-worst", onclick: () => this.select(worst.ply) },
                  t("Worst decision: {name}, move {n} ({verdict})", {
                    name: worst.who,
                    n: worst.ply + 1,
                    verdict: verdictText(worst),
                  }),
                )
              : null,
            list,
            h("p", { class: "muted" }, d.classes.map((c) => `${c.title || c.name}: ${c.text}`).join(" · ")),
          ),
        ),
      ),
    );
    this.select(worst ? worst.ply : (d.decisions[0]?.ply ?? 0));
  }

  select(ply) {
    const d = this.data;
    const x = d.decisions.find((y) => y.ply === ply);
    if (!x) return;
    this.ply = ply;
    for (const [p, li] of this.rows) {
      li.classList.toggle("current", p === ply);
      li.setAttribute("aria-selected", String(p === ply));
      li.tabIndex = p === ply ? 0 : -1;
    }
    this.rows.get(ply)?.scrollIntoView({ block: "nearest" });
    // The board as it was when the move was decided; the move played and the best move are
    // marks on it, each with its own outline, named in the legend.
    const { tiles, colours } = boardOf(this.meta.board.printed, placedBefore(d.log, ply));
    this.board.setTiles(tiles, colours);
    const alt = x.alternative;
    this.board.setMarks(
      marksOf([
        ["played", x.played],
        ["best", alt],
      ]),
    );
    this.board.setGhost(null);
    const laid = (e) => (e.cells ? e.move : t("{move} ({text}, nothing laid)", { move: e.move, text: e.text }));
    this.legend.replaceChildren(
      h(
        "span",
        { class: "legend-item" },
        markSwatch("played"),
        ` ${t("Played by {name}: {move}", { name: x.who, move: laid(x.played) })} `,
        h("span", { class: `tag ${verdict(x)}` }, verdictText(x)),
      ),
      " ",
      alt
        ? h(
            "span",
            { class: "legend-item" },
            markSwatch("best"),
            ` ${t("Best move: {move} ({win})", { move: laid(alt), win: pct(x.best_win) })}`,
          )
        : h("span", { class: "legend-item" }, t("The move played was the best.")),
    );
    this.detail.replaceChildren(
      h(
        "div",
        { class: "card" },
        h(
          "h3",
          { id: "review-move" },
          t("Move {n}: {name} · {verdict}", { n: ply + 1, name: x.who, verdict: verdictText(x) }),
        ),
        h("p", {}, x.text),
        h(
          "div",
          { class: "review-pair" },
          explanationView(t("Played"), x.played, "review-played"),
          alt
            ? explanationView(t("Best alternative ({win})", { win: pct(x.best_win) }), alt, "review-best")
            : h("p", { id: "review-best" }, t("The move played was the best.")),
        ),
        d.analysable
          ? h(
              "button",
              {
                type: "button",
                id: "review-analyse",
                onclick: () => openAnalysis({ review: this.id, upto: ply }),
              },
              t("Analyse this position"),
            )
          : null,
      ),
    );
  }
}
