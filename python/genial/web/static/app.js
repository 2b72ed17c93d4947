// genial in the browser: the router to the lobby, the game, the replay, the review and the
// analysis board.
import { api } from "./api.js";
import { h } from "./dom.js";
import { choose, current, LANGUAGES, load, t, translatePage } from "./i18n.js";

const main = document.getElementById("main");

// The header's language switch: each language in its own name; the choice is kept.
function languageSwitch() {
  const select = h(
    "select",
    { id: "language", "aria-label": t("Language"), onchange: (ev) => choose(ev.target.value) },
    Object.entries(LANGUAGES).map(([code, name]) =>
      h("option", { value: code, lang: code, selected: code === current() }, name),
    ),
  );
  document.querySelector("header.top nav").append(select);
}

async function start() {
  await load();
  // The server wrote the page in the browser's language; a language chosen here differs.
  if (document.documentElement.dataset.served !== current()) translatePage();
  languageSwitch();
  document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
  let meta;
  try {
    meta = await api("/api/meta");
  } catch (e) {
    main.replaceChildren(h("p", { class: "error" }, t("The server did not answer: {error}", { error: e.message })));
    return;
  }
  const m = location.pathname.match(/^\/game\/([^/]+)$/);
  if (m) {
    const { showGame } = await import("./game.js");
    await showGame(main, meta, decodeURIComponent(m[1]));
  } else if (location.pathname.startsWith("/review/")) {
    const { showReview } = await import("./review.js");
    await showReview(main, meta, decodeURIComponent(location.pathname.slice(8)));
  } else if (location.pathname === "/analysis" || location.pathname.startsWith("/analysis/")) {
    const { showAnalysis } = await import("./analysis.js");
    await showAnalysis(main, meta, decodeURIComponent(location.pathname.slice(10)) || null);
  } else if (location.pathname === "/replay") {
    const { showReplay } = await import("./replay.js");
    await showReplay(main, meta);
  } else {
    const { showLobby } = await import("./lobby.js");
    await showLobby(main, meta);
  }
}

start();
