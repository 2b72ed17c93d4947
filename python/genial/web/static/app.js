// genial in the browser: the router to the lobby, the game, the replay, the review and the
// analysis board.
import { api } from "./api.js";
import { h } from "./dom.js";

const main = document.getElementById("main");

async function start() {
  document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
  let meta;
  try {
    meta = await api("/api/meta");
  } catch (e) {
    main.replaceChildren(h("p", { class: "error" }, `The server did not answer: ${e.message}`));
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
