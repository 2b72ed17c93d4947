"""Takes the screenshots of the review and the analysis board for the docs
(docs/images/web-review.png, web-analysis.png, web-editor.png), and of a game and a review
in each language of the page (docs/images/web-game.CODE.png, web-review.CODE.png): a
`genial serve` app in this process, a finished game between two bots, its review, a game
against the greedy bot under way, and Chromium through Playwright.

    python tools/web_screenshots.py [--chromium /usr/bin/chromium] [--only languages]
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import threading
import time
from pathlib import Path

import genial
import httpx
import uvicorn
from genial.translation import LANGUAGES
from genial.web.server import create_app
from playwright.sync_api import Browser, sync_playwright

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
SEED = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--only", choices=("review", "languages"), help="take only these screenshots")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        app = create_app(Path(tmp) / "games.sqlite3", review_iterations=200)
        srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not srv.started:
            time.sleep(0.02)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        try:
            record = json.loads(genial.play_game(["greedy", "hard"], seed=SEED).to_json())
            record["names"] = ["Ada", "hard bot"]
            review = httpx.post(f"{url}/api/reviews", json={"record": record}).json()["id"]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                if args.only != "review":
                    languages(browser, url, review)
                if args.only == "languages":
                    browser.close()
                    return
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(f"{url}/review/{review}")
                page.wait_for_selector("#review-list li", timeout=300_000)
                page.click("#review-worst")
                page.screenshot(path=str(OUT / "web-review.png"))
                page.click("#review-analyse")
                page.wait_for_selector("#analysis-candidates li", timeout=60_000)
                page.screenshot(path=str(OUT / "web-analysis.png"))
                page.click("#analysis-edit")
                page.wait_for_selector("#editor")
                page.locator("#editor").scroll_into_view_if_needed()
                page.screenshot(path=str(OUT / "web-editor.png"))
                browser.close()
        finally:
            srv.should_exit = True
            thread.join(10)
    for name in ("web-review.png", "web-analysis.png", "web-editor.png"):
        print(OUT / name)


def languages(browser: Browser, url: str, review: str) -> None:
    """A game against the greedy bot after a few moves, and the review, in each language
    (the language chosen as the header's switch keeps it)."""
    made = httpx.post(
        f"{url}/api/games",
        json={
            "variant": "standard",
            "players": 2,
            "seed": SEED,
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}],
        },
    ).json()
    gid, token = made["id"], made["token"]
    headers = {"X-Seat-Token": token}
    for _ in range(6):  # six placements of seat 0, the best of its first tile that fits
        s = _my_turn(url, gid, token)
        move = "keep" if s["phase"] == "swap_offer" else None
        for slot in range(len(s["rack"])) if move is None else []:
            moves = httpx.get(f"{url}/api/games/{gid}/options", params={"slot": slot}, headers=headers).json()["moves"]
            if moves:
                move = moves[0]
                break
        httpx.post(
            f"{url}/api/games/{gid}/move", json={"version": s["version"], "move": move or "swap"}, headers=headers
        )
    version = _my_turn(url, gid, token)["version"]
    for code in LANGUAGES:
        ctx = browser.new_context(viewport={"width": 1280, "height": 860})
        ctx.add_init_script(f"localStorage.setItem('genial-language', '{code}')")
        page = ctx.new_page()
        page.goto(f"{url}/game/{gid}#t={token}")
        page.wait_for_selector(f'.game[data-version="{version}"]')
        page.keyboard.press("1")
        page.wait_for_selector('.game[data-tiles="ready"]')
        page.keyboard.press("n")
        page.wait_for_timeout(300)
        page.screenshot(path=str(OUT / f"web-game.{code}.png"))
        page.goto(f"{url}/review/{review}")
        page.wait_for_selector("#review-list li", timeout=300_000)
        page.click("#review-worst")
        page.wait_for_timeout(300)
        page.screenshot(path=str(OUT / f"web-review.{code}.png"))
        ctx.close()
        print(OUT / f"web-game.{code}.png", OUT / f"web-review.{code}.png")


def _my_turn(url: str, gid: str, token: str) -> dict[str, object]:
    while True:
        s = httpx.get(f"{url}/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        if s["current"] == s["you"] or s["over"]:
            return dict(s)
        time.sleep(0.05)


if __name__ == "__main__":
    main()
