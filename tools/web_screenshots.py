"""Takes the screenshots of the review and the analysis board for the docs
(docs/images/web-review.png, web-analysis.png, web-editor.png): a `genial serve` app in this
process, a finished game between two bots, its review, and Chromium through Playwright.

    python tools/web_screenshots.py [--chromium /usr/bin/chromium]
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
from genial.web.server import create_app
from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
SEED = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
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


if __name__ == "__main__":
    main()
