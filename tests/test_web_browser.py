"""`genial serve` in a real browser (Chromium driven by Playwright): a whole game against a
bot by mouse and keyboard, with a bonus placement, a swap, undo, the record downloaded and
replayed; two friends through invite links, neither page ever receiving the other's rack;
screenshots of the lobby, a game and its end at desktop and phone sizes.

Needs ``apt-get install chromium`` (or GENIAL_CHROMIUM=/path/to/chromium) and
``pip install "genial-engine[web]" playwright``; skipped without them, except under CI=true where
missing them fails.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import genial
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("GENIAL_SCREENSHOTS", ROOT / "target" / "web-screenshots"))
# Seed 20 (2 players, after-placement swaps): playing each turn the first rack tile that fits
# at its best placement (the server's first, as `genial.choices.rank_choices` orders them)
# against the greedy bot, taking every swap offered, seat 0 is offered a swap, earns a bonus
# placement, and wins.
SEED = 20
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _chromium() -> str | None:
    found = os.environ.get("GENIAL_CHROMIUM") or "/usr/bin/chromium"
    if Path(found).exists():
        return found
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _problem() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        return f"{e.name} is not installed"
    if _chromium() is None:
        return "no chromium at /usr/bin/chromium"
    return None


_PROBLEM = _problem()
if _PROBLEM is not None:
    _HOW = "enable the browser tests with: apt-get install chromium && pip install 'genial-engine[web]' playwright"
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run under CI=true: {_PROBLEM}; {_HOW}", pytrace=False)
    pytest.skip(f"{_PROBLEM}; {_HOW}", allow_module_level=True)

import uvicorn
from genial.web.server import create_app
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nweb screenshots: {SHOTS}")
    return SHOTS


#: The app behind each served address (tests that play the clock reach into its games).
APPS: dict[str, Any] = {}


def hub_of(url: str) -> Any:
    return APPS[url].app.state.hub


def _serve(db: Path, sock: socket.socket, **options: Any) -> tuple[Any, threading.Thread]:
    """Serves genial's app over ``sock`` from a thread, once it has started."""
    app = create_app(db, bot_threads=1, bot_delay=0.0, **options)
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="auto", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    return srv, thread


def _bound(port: int = 0) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        sock = _bound()
        srv, thread = _serve(Path(tmp) / "games.sqlite3", sock)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        APPS[url] = srv.config.app
        yield url
        srv.should_exit = True
        thread.join(10)
        sock.close()


class _Browser:
    """The browser with contexts that let Playwright evaluate its own waits in a page (string
    predicates run through ``eval``, which the page's Content-Security-Policy forbids); the
    real policy is exercised by `test_the_page_runs_under_its_content_security_policy`
    (``strict``)."""

    def __init__(self, strict: Browser) -> None:
        self.strict = strict

    def new_context(self, **options: Any) -> Any:
        return self.strict.new_context(bypass_csp=True, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.strict, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield _Browser(b)  # type: ignore[misc]
        b.close()


class Wire:
    """Everything a page received from the server: WebSocket frames and API responses."""

    def __init__(self, page: Page) -> None:
        self.frames: list[dict[str, Any]] = []
        self.responses: list[tuple[str, str]] = []
        self.errors: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", self._response)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(json.loads(payload))

    def _response(self, response: Any) -> None:
        if "/api/" in response.url and "/record" not in response.url:
            try:
                self.responses.append((response.url, response.text()))
            except PlaywrightError as e:  # a body gone with a navigation
                self.responses.append((response.url, f"(body unavailable: {e})"))


def open_page(browser: Browser, url: str, viewport: dict[str, int] = DESKTOP) -> tuple[Any, Page, Wire]:
    """A new context with one page that records its wire and has gone to ``url``."""
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    wire = Wire(page)
    page.goto(url)
    return ctx, page, wire


def play_out_by_api(
    url: str, gid: str, tokens: tuple[str, str], watch: Page | None = None, swaps: bool = False
) -> None:
    """Both people of a two-seat game play it to the end through the API: the first tile of
    the rack that fits anywhere, a swap offer declined (taken with ``swaps``), a swap when
    nothing fits. With ``watch``, after each move of seat 0 waits until that page has seen it."""
    import httpx

    while True:
        s = httpx.get(f"{url}/api/games/{gid}").json()
        if s["over"]:
            return
        token = tokens[s["current"]]
        s = httpx.get(f"{url}/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        move = ("swap" if swaps else "keep") if s["phase"] == "swap_offer" else None
        for slot in range(len(s["rack"])) if move is None else []:
            moves = httpx.get(
                f"{url}/api/games/{gid}/options", params={"slot": slot}, headers={"X-Seat-Token": token}
            ).json()["moves"]
            if moves:
                move = moves[0]
                break
        move = move or s["others"][0]
        ack = httpx.post(
            f"{url}/api/games/{gid}/move",
            json={"version": s["version"], "move": move},
            headers={"X-Seat-Token": token},
        )
        assert ack.status_code == 200, ack.text
        if watch is not None and s["current"] == 0:  # the page records the racks it is shown as they come
            watch.wait_for_function(
                "v => Number(document.querySelector('.game').dataset.version) >= v", arg=ack.json()["version"]
            )


def hand_on_when_away(server: str, gid: str, host: Page, away: Page, seat: int) -> str:
    """``away`` (in ``seat``) closes its page and stays away longer than the table allows (the
    server's clock is moved instead of waiting); ``host`` then hands the seat on. The new
    invite link."""
    away.goto("about:blank")
    host.wait_for_selector(f'.player[data-seat="{seat}"] .kind.away')  # the server saw the page close
    hub_of(server).tables[gid].seen_at[seat] -= 601
    host.reload()
    host.click(f'.player[data-seat="{seat}"] .hand-on')
    host.wait_for_selector(f'.invite[data-seat="{seat}"] input')
    return host.input_value(f'.invite[data-seat="{seat}"] input')


def game_of(link: str) -> str:
    return link.split("/game/", 1)[1].split("#", 1)[0]


def game_data(page: Page) -> dict[str, str]:
    return dict(page.eval_on_selector(".game", "e => ({...e.dataset})"))


def wait_turn(page: Page, after_version: int = -1) -> dict[str, str]:
    """Waits until this page's seat is to move (or the game is over) at a newer version."""
    page.wait_for_function(
        """v => { const g = document.querySelector('.game');
                  if (!g || g.dataset.version === undefined || Number(g.dataset.version) <= v) return false;
                  return g.dataset.over === 'true' || g.dataset.current === g.dataset.you; }""",
        arg=after_version,
        timeout=30000,
    )
    return game_data(page)


def play_policy(page: Page) -> None:
    """The first rack tile that fits, at its most-points placement (keys 1-6, N, Enter);
    a swap offer is declined (K)."""
    if game_data(page)["phase"] == "swap_offer":
        page.keyboard.press("k")
        return
    for slot in range(1, 7):
        if page.locator(f'.rack-tile[data-slot="{slot - 1}"]').count() == 0:
            break
        page.keyboard.press(str(slot))
        page.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
        page.keyboard.press("n")
        if page.locator("#place").is_enabled():
            page.keyboard.press("Enter")
            return
    raise AssertionError("no tile of the rack fits anywhere, yet the engine offered placements")


def finish_turn(page: Page, version: int) -> dict[str, str]:
    """After this page's seat acted at ``version``: what the same turn still asks of it (a
    swap offer, declined; a bonus placement) until the turn passes or the game ends. A game
    with two people has a bag drawn by the server, so whether a swap is offered varies."""
    while True:
        page.wait_for_function(
            "v => Number(document.querySelector('.game').dataset.version) > v", arg=version, timeout=30000
        )
        data = game_data(page)
        if data["over"] == "true" or data["current"] != data["you"]:
            return data
        version = int(data["version"])
        play_policy(page)


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and (b["y"] < a["y"] + a["height"])
    )


def assert_toasts_clear_the_buttons(page: Page, *, status: bool = False) -> None:
    """A long toast (as an error would give) is shown now; it covers none of the buttons of
    the decision in front of the player (and with ``status``, not the status line either)."""
    page.evaluate("import('/static/dom.js').then(m => m.toast('A long message: ' + 'word '.repeat(30), 'error'))")
    page.wait_for_selector(".toast")
    # In one call: a toast may expire between listing the toasts and measuring each.
    toasts = page.evaluate(
        """() => [...document.querySelectorAll('.toast')].map((t) => {
                 const r = t.getBoundingClientRect();
                 return {x: r.x, y: r.y, width: r.width, height: r.height}; })"""
    )
    buttons = page.locator(".buttons button")
    assert buttons.count() > 0
    for i in range(buttons.count()):
        b = buttons.nth(i).bounding_box()
        assert b is not None
        for t in toasts:
            assert t is not None and not boxes_overlap(t, b), f"a toast covers {buttons.nth(i).inner_text()!r}"
    line = page.locator(".status").bounding_box()
    assert line is not None
    assert not status or not any(t is not None and boxes_overlap(t, line) for t in toasts), "a toast covers the status"


def assert_named_genial(page: Page) -> None:
    """The page's title and header say genial; the game's name only describes it."""
    assert page.title().removeprefix("▶ Your turn · ").startswith("genial")
    brand = page.inner_text(".brand")
    assert brand.startswith("genial")
    for text in (page.title(), page.inner_text("body")):
        rest = text.replace("Reiner Knizia's Ingenious", "").replace("Ingenious!", "")
        assert "Ingenious" not in rest, text


def test_whole_game_against_a_bot(server: str, browser: Browser, shots: Path, tmp_path: Path) -> None:
    ctx = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    page = ctx.new_page()
    wire = Wire(page)
    page.goto(server + "/")
    page.wait_for_selector(".seat-row")
    assert page.locator('.seat-row[data-seat="1"] .seat-kind').input_value() == "bot:greedy"
    assert page.inner_text(".hero h1") == "genial"
    assert_named_genial(page)
    page.screenshot(path=str(shots / "lobby-desktop.png"))
    page.click(".options summary")
    page.fill('input[name="seed"]', str(SEED))
    page.click("#create")
    page.wait_for_url("**/game/*")
    state = wait_turn(page)
    assert_named_genial(page)

    # First move by mouse: pick the tile, rotate it a full turn, point at the board, see the
    # points, click.
    page.click('.rack-tile[data-slot="0"]')
    page.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
    page.keyboard.press("n")
    anchor = page.get_attribute(".cursor-hex", "data-cell")
    points = page.get_attribute(".score-preview", "data-points")
    assert anchor and points
    for _ in range(6):
        page.click("#rotate")
    page.hover('.cell[data-cell="0,0"]')
    page.hover(f'.cell[data-cell="{anchor}"]')
    assert page.get_attribute(".score-preview", "data-points") == points  # shown before committing
    assert page.locator(".ghost-rim.ok").count() == 1
    page.click(f'.cell[data-cell="{anchor}"]')
    state = wait_turn(page, int(state["version"]))

    seen_bonus = seen_swap = undone = False
    turns = 1
    while state["over"] != "true":
        phase = state["phase"]
        if turns == 10 and not undone:
            page.keyboard.press("1")
            page.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
            page.keyboard.press("n")  # the best placement of tile 1, with its points, not yet played
            page.screenshot(path=str(shots / "game-desktop.png"))
            before = int(state["moves"])
            page.click("#undo")
            page.wait_for_function(f"Number(document.querySelector('.game').dataset.moves) < {before}")
            state = wait_turn(page, int(state["version"]))
            undone = True
            continue
        if phase == "swap_offer":
            seen_swap = True
            status = page.inner_text(".status")
            assert "swap" in status.lower() and "none of your tiles shows" in status  # and why
            assert_toasts_clear_the_buttons(page, status=True)
            page.screenshot(path=str(shots / "swap-offer-desktop.png"))
            page.click("#swap")
        else:
            if phase == "bonus":
                seen_bonus = True
                assert "Ingenious" in page.inner_text(".status")
                page.keyboard.press("1")
                page.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
                page.keyboard.press("n")
                assert_toasts_clear_the_buttons(page, status=True)
            play_policy(page)
        turns += 1
        state = wait_turn(page, int(state["version"]))
    assert seen_bonus and seen_swap and undone

    page.wait_for_selector(".end-card")
    end_text = page.inner_text(".end-card")
    assert "Game over" in end_text and "Player 1" in end_text and "lowest" in end_text.lower()
    assert " 1 colour" not in end_text and " 1 colours" not in end_text
    page.screenshot(path=str(shots / "end-desktop.png"))
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "game.json"
    dl.value.save_as(path)
    record = json.loads(path.read_text())
    game = genial.Game.from_json(path.read_text())
    assert game.is_over and game.seed == SEED and record["seats"] == ["human", "greedy"]

    # Replay the downloaded file.
    page.goto(server + "/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-slider")
    total = len(game.moves)
    assert page.inner_text("#replay-label") == f"move {total} / {total}"
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-label") == f"move {total - 1} / {total}"
    page.click('button[aria-label="First move"]')
    assert page.locator(".tiles .tile").count() == 0
    page.click("#replay-next")
    assert page.locator(".tiles .tile").count() == 1
    assert str(game.moves[0]) in page.inner_text("#replay-move")
    # The replay's buttons are drawn (inline SVG), not font glyphs that may be missing.
    for label in ("First move", "Previous move", "Next move", "Last move"):
        button = page.locator(f'button[aria-label="{label}"]')
        assert button.locator("svg path").count() >= 1 and button.inner_text().strip() == ""
        box = button.locator("svg").bounding_box()
        assert box is not None and box["width"] >= 12 and box["height"] >= 12
    page.click("#replay-last")
    assert page.inner_text("#replay-label") == f"move {total} / {total}"
    page.screenshot(path=str(shots / "replay-desktop.png"))

    # Hidden information: only seat 0's rack ever reached this page.
    states = [f for f in wire.frames if f.get("type") == "state"]
    assert states and all(f["you"] == 0 for f in states)
    assert not any('"rack"' in body for url, body in wire.responses if url.endswith("/api/games"))
    assert wire.errors == []
    ctx.close()


def test_friends_play_through_invite_links(server: str, browser: Browser, shots: Path) -> None:
    host = browser.new_context(viewport=DESKTOP)
    friend = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True)
    a = host.new_page()
    b = friend.new_page()
    wa, wb = Wire(a), Wire(b)
    a.goto(server + "/")
    a.wait_for_selector(".seat-row")
    a.select_option('.seat-row[data-seat="1"] .seat-kind', "human")
    a.fill('.seat-row[data-seat="1"] .seat-name', "Friend")
    a.click("#create")
    a.wait_for_selector(".invite input")
    link = a.input_value(".invite input")
    assert "#invite=" in link and "#t=" not in link  # a one-time code, not a seat's token
    # The link is readable whole on a desktop, and the card says the friend has not joined.
    # (Measured in the page: the card is drawn anew on every update, a presence change too.)
    a.wait_for_function(
        "() => { const f = document.querySelector('.invite input'); return f && f.getBoundingClientRect().width >= 300; }"
    )
    assert a.inner_text(".invite .invite-state") == "not joined yet"
    b.goto(link)
    b.wait_for_selector(".game")
    b.wait_for_function("document.querySelector('.game').dataset.you === '1'")
    assert "#invite=" not in b.url  # the code leaves the address bar
    a.wait_for_selector('.player[data-seat="1"] .kind.online')
    # The friend's page claimed the seat: a fresh token that only the friend's browser holds.
    token_b = b.evaluate(f"JSON.parse(localStorage.getItem('genial.seats.{game_of(link)}')).mine['1']")
    assert token_b
    # The spent invite opens nothing for the creator any more.
    code = link.split("#invite=", 1)[1]
    spent = a.evaluate(
        """async ([id, code]) => (await fetch(`/api/games/${id}/claim`, {method: "POST",
             headers: {"Content-Type": "application/json"}, body: JSON.stringify({invite: code})})).status""",
        [game_of(link), code],
    )
    assert spent == 409
    a.wait_for_selector(".invite .invite-state.joined")
    assert a.inner_text(".invite .invite-state") == "joined"
    a.screenshot(path=str(shots / "invite-desktop.png"))

    sa = wait_turn(a)
    for _ in range(3):
        play_policy(a)
        finish_turn(a, int(sa["version"]))
        sb = wait_turn(b, int(sa["version"]))
        # The friend plays on a touch screen: tap a tile, tap a lit cell to see, tap to place.
        for slot in range(6):
            b.tap(f'.rack-tile[data-slot="{slot}"]')
            b.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
            if b.locator(".cell.legal").count():
                break
        cell = b.locator(".cell.legal").first.get_attribute("data-cell")
        b.tap(f'.cell[data-cell="{cell}"]')
        assert b.locator(".score-preview").count() == 1  # the points, before committing
        b.tap(f'.cell[data-cell="{cell}"]')
        finish_turn(b, int(sb["version"]))
        sa = wait_turn(a, int(sb["version"]))
    b.screenshot(path=str(shots / "friend-phone.png"), full_page=True)

    # Neither page ever received the other's rack or token.
    for wire, seat in ((wa, 0), (wb, 1)):
        states = [f for f in wire.frames if f.get("type") == "state"]
        assert len(states) >= 4
        for f in states:
            assert f["you"] == seat
            assert "others" not in f or f["current"] == seat
        other = wb if seat == 0 else wa
        their_racks = {json.dumps(f["rack"]) for f in other.frames if f.get("type") == "state"}
        mine = {json.dumps(f["rack"]) for f in states}
        assert not (their_racks - mine) & {json.dumps(f.get("rack")) for f in states}
    token_a = a.evaluate(f"JSON.parse(localStorage.getItem('genial.seats.{game_of(link)}')).mine['0']")
    assert all(token_a not in json.dumps(f) for f in wb.frames)
    assert all(token_a not in body for _, body in wb.responses)
    # The creator's browser never saw the friend's token: not in a frame, a response or its storage.
    assert all(token_b not in json.dumps(f) for f in wa.frames)
    assert all(token_b not in body for _, body in wa.responses)
    assert token_b not in a.evaluate("JSON.stringify(Object.entries(localStorage))")

    # The friend closes the page and stays away longer than the table allows (10 minutes by
    # default; the server's clock is moved instead of waiting): then, and only then, the
    # creator may hand the seat on, an explicit act every page shows.
    gid = game_of(link)
    a.on("dialog", lambda d: d.accept())
    assert a.locator('.player[data-seat="1"] .hand-on').count() == 0
    fresh = hand_on_when_away(server, gid, a, b, 1)
    assert "#invite=" in fresh and fresh != link
    a.wait_for_selector('.fairness .event.handed[data-seat="1"]')
    assert "handed on Friend's seat (away too long)" in a.inner_text(".fairness .event.handed")
    b.goto(f"{server}/game/{gid}")
    b.wait_for_selector('.fairness .event.handed[data-seat="1"]')
    b.wait_for_function("document.querySelector('.game').dataset.you === ''")  # now only watching
    gone = b.evaluate(
        "async ([id, t]) => (await fetch(`/api/games/${id}`, {headers: {'X-Seat-Token': t}})).status",
        [game_of(link), token_b],
    )
    assert gone == 403
    # The friend's page drops the dead token from its storage and says what happened.
    b.wait_for_selector('.seat-lost[data-seats="1"]')
    assert "new invite" in b.inner_text(".seat-lost") and "watching" in b.inner_text(".seat-lost")
    key = f"genial.seats.{game_of(link)}"
    assert b.evaluate(f"JSON.parse(localStorage.getItem('{key}')).mine['1']") is None
    # A page opened later with the dead token still stored (another tab kept it) is refused
    # by the server: it drops it too and shows the game to watch, not an error.
    b.evaluate(
        f"""(() => {{ const s = JSON.parse(localStorage.getItem('{key}'));
             s.mine['1'] = '{token_b}'; localStorage.setItem('{key}', JSON.stringify(s)); }})()"""
    )
    b.reload()
    b.wait_for_selector('.seat-lost[data-seats="1"]')
    b.wait_for_function("document.querySelector('.game').dataset.you === ''")
    assert b.locator(".error-card").count() == 0
    assert b.evaluate(f"JSON.parse(localStorage.getItem('{key}')).mine['1']") is None
    b.reload()  # nothing is left to refuse: the page simply watches
    b.wait_for_function("document.querySelector('.game')?.dataset.version !== undefined")
    assert b.locator(".seat-lost").count() == 0 and b.locator(".error-card").count() == 0
    assert wa.errors == [] and wb.errors == []
    host.close()
    friend.close()


def test_phone_screens(server: str, browser: Browser, shots: Path) -> None:
    import httpx

    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector(".seat-row")
    assert_named_genial(page)
    page.screenshot(path=str(shots / "lobby-phone.png"))

    # A game in the middle, opened through its seat link.
    made = httpx.post(
        f"{server}/api/games",
        json={
            "variant": "standard",
            "players": 2,
            "seed": SEED,
            "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "greedy"}],
        },
    ).json()
    token = made["token"]
    page.goto(f"{server}/game/{made['id']}#t={token}")
    state = wait_turn(page)
    for _ in range(8):
        play_policy(page)
        state = wait_turn(page, int(state["version"]))
    page.keyboard.press("1")
    page.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
    page.keyboard.press("n")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    # The playing zone's cells fill the phone's width (not the whole board's frame).
    span = page.evaluate(
        """() => { const rs = [...document.querySelectorAll('.board .cell:not(.outside)')]
                     .map((c) => c.getBoundingClientRect());
                   return Math.max(...rs.map((r) => r.right)) - Math.min(...rs.map((r) => r.left)); }"""
    )
    assert span >= 0.85 * PHONE["width"], f"the board's cells span {span:.0f}px of {PHONE['width']}px"
    assert_toasts_clear_the_buttons(page)
    page.screenshot(path=str(shots / "game-phone.png"))

    # A friend's invite, made on the phone: the link field spans the card.
    page.goto(server + "/")
    page.wait_for_selector(".seat-row")
    page.select_option('.seat-row[data-seat="1"] .seat-kind', "human")
    page.click("#create")
    page.wait_for_selector(".invite input")
    page.wait_for_function(
        "w => { const f = document.querySelector('.invite input'); return f && f.getBoundingClientRect().width >= w; }",
        arg=0.75 * PHONE["width"],
    )
    assert page.inner_text(".invite .invite-state") == "not joined yet"
    # Scrolled in the page, in one step: the card is drawn anew on every update of the lobby.
    page.wait_for_function("() => { const c = document.querySelector('.invite'); c?.scrollIntoView(); return !!c; }")
    page.screenshot(path=str(shots / "invite-phone.png"))

    # The end of a finished game (loaded from its record) with the ranking explained.
    finished = genial.play_game(["greedy", "greedy"], seed=SEED)
    made = httpx.post(
        f"{server}/api/games",
        json={
            "record": json.loads(finished.to_json()),
            "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "greedy"}],
        },
    ).json()
    page.goto(f"{server}/game/{made['id']}#t={made['token']}")
    page.wait_for_selector(".end-card")
    assert "Game over" in page.inner_text(".end-card")
    page.screenshot(path=str(shots / "end-phone.png"))

    # Its replay: the step buttons are drawn icons, on the phone too.
    page.goto(f"{server}/replay#game={made['id']}")
    page.wait_for_selector("#replay-slider")
    for label in ("First move", "Previous move", "Next move", "Last move"):
        box = page.locator(f'button[aria-label="{label}"] svg').bounding_box()
        assert box is not None and box["width"] >= 12 and box["height"] >= 12
    page.click("#replay-first")
    assert page.inner_text("#replay-label").startswith("move 0 / ")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the replay is {width}px wide on a {PHONE['width']}px phone"
    page.screenshot(path=str(shots / "replay-phone.png"))
    ctx.close()


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("solo", 1, {}),
        ("standard", 3, {"require_contact": True}),
        ("team", 4, {"swap_timing": "instead_of_placement"}),
        ("duel", 2, {}),
    ],
)
def test_every_variant_plays(
    server: str, browser: Browser, shots: Path, variant: str, players: int, options: dict[str, Any]
) -> None:
    import httpx

    seats = [{"kind": "human", "name": "You"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    made = httpx.post(
        f"{server}/api/games", json={"variant": variant, "players": players, "seed": 3, "seats": seats, **options}
    ).json()
    ctx, page, wire = open_page(browser, f"{server}/game/{made['id']}#t={made['token']}")
    state = wait_turn(page)
    for _ in range(4):
        play_policy(page)
        state = wait_turn(page, int(state["version"]))
    expected_tracks = {"solo": 1, "team": 2, "duel": 1}.get(variant, players)
    assert page.locator(".track-card").count() == expected_tracks
    assert page.locator(".track-row").count() == 6 * expected_tracks
    if variant == "duel":
        assert page.locator(".bar.duel").count() == 6
    # The swap button is there exactly when the engine offers a swap (instead of placing, here).
    offered = game_data(page)["others"].split()
    assert page.locator("#swap").count() == int("swap" in offered)
    page.screenshot(path=str(shots / f"variant-{variant}.png"))
    assert wire.errors == []
    ctx.close()


def test_the_end_screen_verifies_the_bag_shown_at_the_start(server: str, browser: Browser) -> None:
    import httpx

    made = httpx.post(
        f"{server}/api/games",
        json={"variant": "standard", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    gid, t0 = made["id"], made["token"]
    t1 = httpx.post(f"{server}/api/games/{gid}/claim", json={"invite": made["seats"][1]["invite"]}).json()["token"]
    _ctx, page, _ = open_page(browser, f"{server}/game/{gid}#t={t0}")
    page.wait_for_selector(".fairness code")
    assert page.get_attribute(".fairness code", "data-commitment") == made["commitment"]

    # Both people play to the end (through the API: the page only watches).
    play_out_by_api(server, gid, (t0, t1))
    page.wait_for_selector(".end-card #verify")
    page.click("#verify")
    page.wait_for_selector(".verify-result.ok")
    assert "one fingerprinted at the start" in page.inner_text(".verify-result")
    assert "draws came in the revealed bag's order" in page.inner_text(".verify-result")
    # After a swap the page replays the core's seeded mix, so those draws are checked in order (N5).
    text = page.inner_text(".verify-result")
    assert "after a swap" not in text or "its mix replayed from the revealed seed" in text
    # Had the server shown this browser another fingerprint at the start, the check fails.
    page.evaluate(f"localStorage.setItem('genial.commitment.{gid}', '{'0' * 64}')")
    page.click("#verify")
    page.wait_for_selector(".verify-result.error")
    assert "NOT match" in page.inner_text(".verify-result")


def test_a_lost_connection_takes_back_online_and_your_turn(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """While the server is away, the page says it is reconnecting and no longer claims that
    anyone is online or that it is the player's turn; when the server is back, both return."""
    import httpx

    db = tmp_path / "games.sqlite3"
    sock = _bound()
    port = sock.getsockname()[1]
    srv, thread = _serve(db, sock)
    url = f"http://127.0.0.1:{port}"
    made = httpx.post(
        f"{url}/api/games",
        json={"players": 2, "seed": 3, "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "greedy"}]},
    ).json()
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        ctx, page, _ = open_page(browser, f"{url}/game/{made['id']}#t={made['token']}", viewport)
        wait_turn(page)
        page.wait_for_selector('.player[data-seat="0"] .kind.online')
        assert "Your turn" in page.inner_text(".status") and "Your turn" in page.title()
        assert page.locator("#place").count() == 1

        srv.should_exit = True
        thread.join(10)
        sock.close()
        page.wait_for_selector('.game[data-connection="down"]', timeout=10000)
        status = page.inner_text(".status")
        assert "reconnecting" in status.lower() and "Your turn" not in status and "Your turn" not in page.title()
        assert page.locator(".kind.online").count() == 0 and "online" not in page.inner_text(".players")
        assert page.locator("#place").count() == 0 and page.locator(".rack-tile:enabled").count() == 0
        page.screenshot(path=str(shots / f"reconnecting-{name}.png"))

        sock = _bound(port)
        srv, thread = _serve(db, sock)
        page.wait_for_selector('.game[data-connection="up"]', timeout=20000)
        page.wait_for_selector('.player[data-seat="0"] .kind.online')
        assert "Your turn" in page.inner_text(".status")
        ctx.close()
    srv.should_exit = True
    thread.join(10)
    sock.close()


def test_a_big_seed_from_the_lobby_is_not_rounded(server: str, browser: Browser) -> None:
    import httpx

    seed = 2**53 + 1  # the first whole number a JavaScript number cannot hold
    ctx, page, wire = open_page(browser, server + "/")
    page.wait_for_selector(".seat-row")
    page.click(".options summary")
    page.fill('input[name="seed"]', str(seed))
    with page.expect_request("**/api/games") as req:
        page.click("#create")
    assert json.loads(req.value.post_data or "{}")["seed"] == str(seed)
    page.wait_for_url("**/game/*")
    wait_turn(page)
    game_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"Object.values(JSON.parse(localStorage.getItem('genial.seats.{game_id}')).mine)[0]")
    record = httpx.get(f"{server}/api/games/{game_id}/record", headers={"X-Seat-Token": token}).json()
    assert record["seed"] == seed
    # A seed that is not a whole number is refused at the form, before any request.
    page.goto(server + "/")
    page.wait_for_selector(".seat-row")
    page.click(".options summary")
    page.fill('input[name="seed"]', "1e9")
    page.click("#create")
    page.wait_for_selector(".toast.error")
    assert page.url.rstrip("/") == server
    assert wire.errors == []
    ctx.close()


def test_the_lobby_offers_a_seed_only_to_a_table_with_one_person(server: str, browser: Browser) -> None:
    """With two or more people the server draws the seed (and refuses one sent): the lobby
    hides the field and says why, and a seed typed before is not sent."""
    ctx, page, wire = open_page(browser, server + "/")
    page.wait_for_selector(".seat-row")
    page.click(".options summary")
    assert page.is_visible('input[name="seed"]') and not page.is_visible(".seed-note")
    page.fill('input[name="seed"]', "42")
    page.select_option('.seat-row[data-seat="1"] .seat-kind', "human")
    assert not page.is_visible('input[name="seed"]') and page.is_disabled('input[name="seed"]')
    assert "server draws the seed" in page.inner_text(".seed-note")
    # Back to one person: the field returns; three seats with two people: hidden again.
    page.select_option('.seat-row[data-seat="1"] .seat-kind', "bot:greedy")
    assert page.is_visible('input[name="seed"]') and not page.is_visible(".seed-note")
    page.select_option('select[name="players"]', "3")
    page.select_option('.seat-row[data-seat="2"] .seat-kind', "human")
    assert not page.is_visible('input[name="seed"]')
    with page.expect_request("**/api/games") as req:
        page.click("#create")
    sent = json.loads(req.value.post_data or "{}")
    assert "seed" not in sent and [s["kind"] for s in sent["seats"]] == ["human", "bot", "human"]
    page.wait_for_url("**/game/*")
    page.wait_for_selector(".game")
    assert wire.errors == []
    ctx.close()


def test_the_hint_lays_the_expert_levels_move(server: str, browser: Browser) -> None:
    import httpx
    from genial.choices import ordered_choices

    made = httpx.post(
        f"{server}/api/games",
        json={"players": 2, "seed": 7, "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "greedy"}]},
    ).json()
    expected = str(ordered_choices(genial.Game(2, 7))[0].move)
    ctx, page, wire = open_page(browser, f"{server}/game/{made['id']}#t={made['token']}")
    state = wait_turn(page)
    page.keyboard.press("h")
    page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Hint:')")
    page.wait_for_selector(f'.score-preview[data-move="{expected}"]')
    assert page.locator(".ghost-rim.ok").count() == 1
    page.click("#place")
    wait_turn(page, int(state["version"]))
    first = httpx.get(f"{server}/api/games/{made['id']}", headers={"X-Seat-Token": made["token"]}).json()
    assert genial.Move.parse(first["log"][0]["move"]) == genial.Move.parse(expected)
    assert wire.errors == []
    ctx.close()


def test_review_analysis_board_and_share_link(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """The whole flow of learning from a game: finish it against a bot, open its review,
    click the worst decision and see the best alternative, open the analysis board there,
    play a variation, share its link and open the link in a second browser context. The
    server's reviews search with a small budget, so that the flow stays quick."""
    import httpx

    sock = _bound()
    app = create_app(tmp_path / "games.sqlite3", bot_threads=1, review_iterations=16)
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="auto", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    try:
        # A game one move from its end: the person plays the last move against the bot.
        finished = genial.play_game(["greedy", "greedy"], seed=SEED)
        record = json.loads(finished.to_json())
        n = len(record["moves"])
        last = genial.Game(players=2, seed=SEED)
        for m in record["moves"][: n - 1]:
            last.play(m)
        seats: list[dict[str, Any]] = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
        seats[last.current_player] = {"kind": "human", "name": "You"}
        made = httpx.post(f"{url}/api/games", json={"record": record, "upto": n - 1, "seats": seats}).json()
        ctx, page, wire = open_page(browser, f"{url}/game/{made['id']}#t={made['token']}")
        state = wait_turn(page)
        while state["over"] != "true":
            play_policy(page)
            state = wait_turn(page, int(state["version"]))
        page.click("#review-button")
        page.wait_for_selector("#review-list li", timeout=60000)
        assert "mover's information only" in page.inner_text("#review-note")
        assert page.locator("#review-graph svg").count() == 1
        assert page.locator("#review-summary tr").count() == 3
        # The summary fits its card: no column is cut off (every class's count shows).
        fits = page.evaluate(
            "() => { const t = document.querySelector('#review-summary');"
            " return t.scrollWidth <= t.parentElement.clientWidth; }"
        )
        assert fits
        page.click("#review-worst")
        assert "Best alternative" in page.inner_text("#review-best")
        assert "5 directions" in (page.text_content("#review-best") or "")  # the rulebook's words
        assert page.locator(".mark-tile.best").count() == 1  # the alternative on the board
        page.screenshot(path=str(shots / "review.png"))
        page.click("#review-analyse")
        page.wait_for_selector("#analysis-candidates li")
        first = page.get_attribute("#analysis-candidates li", "data-move")
        assert first is not None
        page.click(f'#analysis-candidates li[data-move="{first}"] .cand-play')
        page.wait_for_function(f"document.querySelector('#analysis-line').textContent.includes({first!r})")
        line = page.inner_text("#analysis-line")
        page.wait_for_selector("#analysis-candidates li")
        page.click("#analysis-share")
        page.wait_for_selector("#share-link")
        link = page.input_value("#share-link")
        assert link.startswith(url + "/analysis/")
        page.screenshot(path=str(shots / "analysis.png"))
        assert wire.errors == []
        other = browser.new_context(viewport=DESKTOP).new_page()
        other.goto(link)
        other.wait_for_selector("#analysis-candidates li")
        assert other.inner_text("#analysis-line") == line
        assert other.get_attribute("#analysis-candidates li", "data-move") == page.get_attribute(
            "#analysis-candidates li", "data-move"
        )
        other.context.close()
        # The position editor: a tile laid by two clicks, a rack tile, then the analysis.
        page.goto(f"{url}/analysis")
        page.wait_for_selector("#editor")
        page.click('.cell[data-cell="0,-1"]')
        page.click('.cell[data-cell="0,0"]')
        assert page.locator(".tiles [data-tile]").count() == 1
        page.click("#editor-add-rack")
        page.click("#editor-analyse")
        page.wait_for_selector("#analysis-candidates li")
        assert page.locator(".tiles [data-tile]").count() == 1
        assert "to move" in page.inner_text("#analysis-status")
        assert wire.errors == []
        ctx.close()
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


# ----- moves on the board in the review and the analysis board (issue 29) -----------------------


@pytest.fixture(scope="module")
def reviewing() -> Iterator[str]:
    """A server whose reviews and analyses search with a tiny budget (what is drawn, not how
    good the verdicts are, is under test here)."""
    with tempfile.TemporaryDirectory() as tmp:
        sock = _bound()
        srv, thread = _serve(Path(tmp) / "games.sqlite3", sock, review_iterations=2)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        srv.should_exit = True
        thread.join(10)
        sock.close()


def _cells_of(move: str) -> set[str]:
    """The two hexes of a placement's text, as the page keys them ("q,r")."""
    cells = genial.Move.parse(move).cells
    assert cells is not None, move
    return {f"{q},{r}" for q, r in cells}


def _marked(page: Page, kind: str) -> set[str]:
    return set(page.eval_on_selector_all(f".board .cell.mark-{kind}", "cs => cs.map(c => c.dataset.cell)"))


def _laid(page: Page) -> set[str]:
    """The hexes under the tiles laid on the board (not the marks of moves under study)."""
    return set(
        page.eval_on_selector_all(
            ".board .tiles [data-tile]", "ts => ts.flatMap(t => t.getAttribute('data-tile').split('|'))"
        )
    )


def test_a_review_shows_the_board_before_each_decision_with_both_moves(
    reviewing: str, browser: Browser, shots: Path
) -> None:
    """Stepping to a decision shows the board as it was before it, the move played and the
    review's best move marked on their own hexes (each with its own outline, named in a
    legend with the decision's class); by click and by the arrow keys."""
    import httpx

    record = json.loads(genial.play_game(["greedy", "random"], seed=7).to_json())
    rid = httpx.post(f"{reviewing}/api/reviews", json={"record": record}).json()["id"]
    deadline = time.monotonic() + 120
    while (st := httpx.get(f"{reviewing}/api/reviews/{rid}").json())["status"] != "done":
        assert st["status"] != "failed" and time.monotonic() < deadline, st
        time.sleep(0.2)
    review = st["review"]
    moves = record["moves"]
    differs = [x for x in review["decisions"] if x["alternative"] and x["alternative"]["cells"]]
    same = [x for x in review["decisions"] if not x["alternative"] and x["played"]["cells"]]
    assert differs and same, "the record gives no decision of each kind"
    ctx, page, wire = open_page(browser, f"{reviewing}/review/{rid}")
    page.wait_for_selector("#review-list li")
    for x in (differs[0], same[0], differs[-1]):
        ply = x["ply"]
        page.click(f'#review-list li[data-ply="{ply}"]')
        page.wait_for_selector(f'#review-list li.current[data-ply="{ply}"]')
        before = set().union(*(_cells_of(m) for m in moves[:ply] if genial.Move.parse(m).cells))
        assert _laid(page) == before  # the board as it was when the decision was taken
        assert _marked(page, "played") == _cells_of(moves[ply])
        legend = page.inner_text("#review-legend")
        verdict = "forced" if x["forced"] else x["classification"]
        assert verdict in legend and moves[ply] in legend
        if x["alternative"]:
            assert _marked(page, "best") == _cells_of(x["best"])
            assert x["best"] in legend
        else:
            assert _marked(page, "best") == set()
            assert "the best" in legend
        # The two marks differ in outline (their rims' strokes), not only in where they lie.
        strokes = page.evaluate(
            """() => ['played', 'best'].map((k) => {
                 const rim = document.querySelector(`.board .mark-outline.${k} .mark-rim`);
                 return rim ? getComputedStyle(rim).stroke : null; })"""
        )
        assert strokes[0] is not None and strokes[0] != strokes[1]
    page.screenshot(path=str(shots / "review-marks.png"))
    # The keyboard: the list takes the focus and the arrow keys step through the decisions.
    plies = [x["ply"] for x in review["decisions"]]
    page.focus(f'#review-list li[data-ply="{plies[0]}"]')
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector(f'#review-list li.current[data-ply="{plies[1]}"]')
    assert _marked(page, "played") == (
        _cells_of(moves[plies[1]]) if genial.Move.parse(moves[plies[1]]).cells else set()
    )
    assert wire.errors == []
    ctx.close()


def test_each_candidate_of_the_analysis_board_can_be_shown_on_the_board(
    reviewing: str, browser: Browser, shots: Path
) -> None:
    """The analysis board of a recorded position: every candidate in the list is drawn on its
    hexes when pointed at, focused or selected (by mouse and by keyboard), and the move the
    game went on with is drawn as played, until the variation leaves the game."""
    import httpx

    record = json.loads(genial.play_game(["greedy", "greedy"], seed=11).to_json())
    upto = 6
    link = httpx.post(f"{reviewing}/api/positions", json={"position": {"record": record, "upto": upto}}).json()
    ctx, page, wire = open_page(browser, reviewing + link["path"])
    page.wait_for_selector("#analysis-candidates li")
    played = record["moves"][upto]
    assert _marked(page, "played") == _cells_of(played)
    assert played in page.inner_text("#analysis-legend")
    items = page.locator("#analysis-candidates li")
    moves = [items.nth(i).get_attribute("data-move") or "" for i in range(items.count())]
    assert len(moves) >= 2
    assert _marked(page, "candidate") == _cells_of(moves[0])  # the first is shown at the start
    items.nth(1).hover()
    assert _marked(page, "candidate") == _cells_of(moves[1])
    # Keyboard: focus the first candidate, step down with the arrow keys, select with Enter.
    page.focus("#analysis-candidates li:nth-child(1) .cand-show")
    assert _marked(page, "candidate") == _cells_of(moves[0])
    page.keyboard.press("ArrowDown")
    assert _marked(page, "candidate") == _cells_of(moves[1])
    page.keyboard.press("Enter")
    assert page.get_attribute("#analysis-candidates li:nth-child(2) .cand-show", "aria-pressed") == "true"
    assert moves[1] in page.inner_text("#analysis-legend")
    page.screenshot(path=str(shots / "analysis-marks.png"))
    items.nth(0).hover()
    assert _marked(page, "candidate") == _cells_of(moves[0])
    page.locator("#analysis-status").hover()  # the pointer away: the selected one is shown again
    assert _marked(page, "candidate") == _cells_of(moves[1])
    # Playing a candidate other than the game's move leaves the game: no move is "played" then.
    other = next(m for m in moves if m != played)
    page.click(f'#analysis-candidates li[data-move="{other}"] .cand-play')
    page.wait_for_function(f"document.querySelector('#analysis-line').textContent.includes({other!r})")
    page.wait_for_selector("#analysis-candidates li")
    assert _cells_of(other) <= _laid(page)
    assert _marked(page, "played") == set()
    assert other in page.inner_text("#analysis-legend")  # named as the variation's last move
    # ... and outlined on the board, on its first cell.
    first = genial.Move.parse(other).cells[0]  # type: ignore[index]
    cell = page.get_attribute(f'.board .cell[data-cell="{first[0]},{first[1]}"]', "transform")
    assert page.locator(".board .last .recent").count() == 1
    assert page.get_attribute(".board .last .recent", "transform") == cell
    assert wire.errors == []
    ctx.close()


# ----- attacks on seats and on the deal (issue 29) ------------------------------------------------


def _racks_of(wire: Wire, seat: int) -> list[str]:
    return [json.dumps(f["rack"]) for f in wire.frames if f.get("type") == "state" and f.get("you") == seat]


def _post(page: Page, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """async ([path, token, body]) => { const r = await fetch(path, {method: "POST",
                 headers: {"Content-Type": "application/json", "X-Seat-Token": token}, body: JSON.stringify(body)});
                 return {status: r.status, body: await r.json()}; }""",
            [path, token, body],
        )
    )


def _create_for_two(page: Page, server: str, players: int = 2) -> str:
    page.goto(server + "/")
    page.wait_for_selector(".seat-row")
    if players != 2:
        page.select_option('select[name="players"]', str(players))
    for seat in range(1, players):
        page.select_option(f'.seat-row[data-seat="{seat}"] .seat-kind', "human")
        page.fill(f'.seat-row[data-seat="{seat}"] .seat-name', f"Friend {seat}")
    page.click("#create")
    page.wait_for_selector(".invite input")
    return game_of(page.url)


def test_the_creator_never_sees_a_rack_the_friend_then_plays(server: str, browser: Browser) -> None:
    """Issue 29, item 1: the creator opens the friend's invite with "Play here", reads the
    rack, then gives the seat to the friend. The friend must not be dealt that rack."""
    host, friend = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    a, b = host.new_page(), friend.new_page()
    wa, wb = Wire(a), Wire(b)
    a.on("dialog", lambda d: d.accept())
    gid = _create_for_two(a, server)
    first = hub_of(server).tables[gid].commitment
    a.click('.invite[data-seat="1"] button:has-text("Play here")')
    a.wait_for_function("document.querySelector('.game')?.dataset.version !== undefined")
    a.wait_for_function(f"JSON.parse(localStorage.getItem('genial.seats.{gid}')).mine['1'] !== undefined")
    held = a.evaluate(f"JSON.parse(localStorage.getItem('genial.seats.{gid}')).mine")
    a.wait_for_function("() => document.querySelectorAll('.player.me').length === 2")
    # The page may mark both seats its own before seat 1's first state arrives on the
    # socket (a loaded machine): wait for that frame, which only a hang never sends.
    deadline = time.monotonic() + 60
    while not _racks_of(wa, 1) and time.monotonic() < deadline:
        a.wait_for_timeout(50)  # Playwright delivers the socket's frames meanwhile
    peeked = set(_racks_of(wa, 1))
    assert peeked  # the creator's browser was shown seat 1's rack
    # The attack: the creator, with their own seat's token, gives the friend's seat a new invite.
    r = _post(a, f"/api/games/{gid}/replace", held["0"], {"seat": 1})
    if r["status"] == 200:  # what the server allowed before: the friend is seated on the peeked rack
        link = f"{server}/game/{gid}#invite={r['body']['invite']}"
    else:
        assert r["status"] == 409 and "holds this seat" in r["body"]["error"]
        # Only the seat's holder (here the creator, with that seat's own token) can give it on,
        # and before anyone moved that deals every rack anew from a new bag.
        a.click('.player[data-seat="1"] .hand-on.own')
        a.wait_for_selector('.invite[data-seat="1"] input')
        link = a.input_value('.invite[data-seat="1"] input')
    b.goto(link)
    b.wait_for_function("document.querySelector('.game')?.dataset.you === '1'")
    dealt = set(_racks_of(wb, 1))
    assert dealt and not dealt & peeked, "the friend plays the rack the creator read"
    again = hub_of(server).tables[gid].commitment
    assert again != first
    for page in (a, b):  # every seat sees the new deal and its fingerprint
        page.wait_for_selector(".fairness .event.redealt")
        page.wait_for_function("c => document.querySelector('.fairness code')?.dataset.commitment === c", arg=again)
    assert wa.errors == [] and wb.errors == []
    host.close()
    friend.close()


def test_a_held_seat_cannot_be_taken(server: str, browser: Browser) -> None:
    """Issue 29, item 2: in a three-player game B tries to take C's seat after the first
    move, to read C's rack and play it; C must keep the seat."""
    ctxs = [browser.new_context(viewport=DESKTOP) for _ in range(4)]
    a, b, c, d = (x.new_page() for x in ctxs)
    for p in (a, b, c, d):
        p.on("dialog", lambda dlg: dlg.accept())
    gid = _create_for_two(a, server, players=3)
    links = [a.input_value(f'.invite[data-seat="{s}"] input') for s in (1, 2)]
    b.goto(links[0])
    c.goto(links[1])
    for page, seat in ((b, "1"), (c, "2")):
        page.wait_for_function(f"document.querySelector('.game')?.dataset.you === '{seat}'")
    sa = wait_turn(a)
    play_policy(a)
    finish_turn(a, int(sa["version"]))
    token_b = b.evaluate(f"JSON.parse(localStorage.getItem('genial.seats.{gid}')).mine['1']")
    token_c = c.evaluate(f"JSON.parse(localStorage.getItem('genial.seats.{gid}')).mine['2']")
    # The attack: B gives C's seat a new invite, to claim it and play C's rack.
    r = _post(b, f"/api/games/{gid}/replace", token_b, {"seat": 2})
    assert r["status"] == 409, f"B took C's held seat: {r}"
    assert b.locator('.player[data-seat="2"] .hand-on').count() == 0
    c.reload()
    c.wait_for_function("document.querySelector('.game')?.dataset.you === '2'")  # C keeps the seat
    # C goes away for longer than the table allows: now B may hand the seat on, every seat
    # sees it, and the newcomer is told the rack was held by someone else.
    d.goto(hand_on_when_away(server, gid, b, c, 2))
    d.wait_for_function("document.querySelector('.game')?.dataset.you === '2'")
    d.wait_for_selector(".card.inherited")
    assert "held this seat before you" in d.inner_text(".card.inherited")
    for page in (a, b, d):
        page.wait_for_selector('.fairness .event.handed[data-seat="2"]')
    gone = a.evaluate(
        "async ([id, t]) => (await fetch(`/api/games/${id}`, {headers: {'X-Seat-Token': t}})).status", [gid, token_c]
    )
    assert gone == 403
    for x in ctxs:
        x.close()


def _liar_reveal(table: Any, seed: int) -> dict[str, Any]:
    """What a dishonest server reveals: bag A (whose fingerprint it showed) and draws that fit
    bag A, as many at each move as the real game drew, though it dealt from bag B; the tiles
    laid are the real ones. (The liar's own code: it needs nothing of the server's.)"""
    from genial.records import from_record, start_record

    played = json.loads(table.game.to_json())
    bag_a = json.loads(genial.Game(2, seed).to_json())["bag"]
    game = from_record(start_record(played))
    at = 0

    def take(n: int) -> str:
        nonlocal at
        at += n
        return "".join(bag_a[at - n : at])

    steps: list[dict[str, Any]] = [{"move": None, "seat": p, "drew": take(len(game.rack(p)))} for p in range(2)]
    for i, m in enumerate(played["moves"]):
        seat = game.current_player
        result = game.play(m)
        step: dict[str, Any] = {"move": i, "seat": seat, "drew": take(result.drawn)}
        if result.move.colors is not None:
            step["played"] = str(genial.Tile(*result.move.colors))
        steps.append(step)
    return {"salt": table.salt, "seed": str(seed), "bag": "".join(bag_a), "steps": steps}


def test_a_dishonest_deal_is_caught_by_the_end_screen(browser: Browser, tmp_path: Path) -> None:
    """Issue 29, item 3: a server deals from bag B while it shows bag A's fingerprint and
    reveals bag A at the end. The fingerprint matches; the deal must not."""
    import httpx
    from genial.web.commitment import commitment

    sock = _bound()
    port = sock.getsockname()[1]
    srv, thread = _serve(tmp_path / "games.sqlite3", sock)
    url = f"http://127.0.0.1:{port}"
    try:
        made = httpx.post(
            f"{url}/api/games", json={"variant": "standard", "players": 2, "seats": [{"kind": "human"}] * 2}
        ).json()
        gid, t0 = made["id"], made["token"]
        t1 = httpx.post(f"{url}/api/games/{gid}/claim", json={"invite": made["seats"][1]["invite"]}).json()["token"]
        table = srv.config.app.app.state.hub.tables[gid]
        seed_a = 12345
        bag_a = json.loads(genial.Game(2, seed_a).to_json())["bag"]
        table.commitment = commitment(table.salt, seed_a, bag_a)  # shows A's fingerprint from the start
        table.reveal = lambda: _liar_reveal(table, seed_a)  # and reveals A at the end
        ctx, page, _ = open_page(browser, f"{url}/game/{gid}#t={t0}")
        page.wait_for_selector(".fairness code")
        assert page.get_attribute(".fairness code", "data-commitment") == table.commitment
        play_out_by_api(url, gid, (t0, t1), watch=page)
        page.wait_for_selector(".end-card #verify")
        page.click("#verify")
        page.wait_for_selector(".verify-result.error, .verify-result.ok")
        text = page.inner_text(".verify-result")
        assert page.locator(".verify-result.error").count() == 1, f"the dishonest deal passed: {text}"
        assert "revealed bag" in text
        ctx.close()
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


# Seed 2 (2 players): both people playing the first rack tile that fits at its best placement
# and taking every swap offered (`play_out_by_api` with ``swaps``), a swap comes at move 9,
# with most of the game still to draw after it.
SWAP_SEED = 2


def test_a_dishonest_swap_mix_is_caught_by_the_end_screen(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44, N5: a server deals the bag it committed to but mixes the tiles a swap puts
    back its own way, not by the committed seed's shuffle, which chooses every draw after the
    swap; at the end it reveals the committed seed and bag. Every draw is a tile of that bag
    and every rack fits the draws, so only the page's replay of the seeded mix catches it. The
    same deal played honestly, swaps included, must check out, so that a page which failed
    every game with a swap would not pass this test either."""
    import secrets

    import httpx
    from genial.web.tables import Table
    from swap_mix import mixed_otherwise

    sock = _bound()
    srv, thread = _serve(tmp_path / "games.sqlite3", sock)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    hub = srv.config.app.app.state.hub

    def new_game() -> tuple[str, str, str, str]:
        # Between two people the server draws the seed itself: its source is pinned for the
        # request, so that both games have the deal in which the play below swaps.
        with monkeypatch.context() as m:
            m.setattr(secrets, "randbits", lambda bits: SWAP_SEED)
            made = httpx.post(
                f"{url}/api/games", json={"variant": "standard", "players": 2, "seats": [{"kind": "human"}] * 2}
            ).json()
        gid, t0 = made["id"], made["token"]
        t1 = httpx.post(f"{url}/api/games/{gid}/claim", json={"invite": made["seats"][1]["invite"]}).json()["token"]
        assert hub.tables[gid].game.seed == SWAP_SEED
        return gid, t0, t1, made["commitment"]

    def verified(gid: str, t0: str, t1: str, shown: str) -> tuple[str, bool, dict[str, Any]]:
        """The end screen's verdict on a game played out with every swap offer taken (its
        text, and whether it says the check passed), and the reveal the page checked."""
        ctx, page, wire = open_page(browser, f"{url}/game/{gid}#t={t0}")
        page.wait_for_selector(".fairness code")
        assert page.get_attribute(".fairness code", "data-commitment") == shown
        play_out_by_api(url, gid, (t0, t1), watch=page, swaps=True)
        page.wait_for_selector(".end-card #verify")
        page.click("#verify")
        page.wait_for_selector(".verify-result.error, .verify-result.ok")
        text = page.inner_text(".verify-result")
        ok = page.locator(".verify-result.ok").count() == 1
        assert wire.errors == []
        ctx.close()
        reveal: dict[str, Any] = httpx.get(f"{url}/api/games/{gid}").json()["reveal"]
        assert any("returned" in s for s in reveal["steps"]), "no swap: the test checks nothing"
        return text, ok, reveal

    try:
        # The positive control: the server's own game, its swaps mixed by the committed seed.
        text, ok, honest = verified(*new_game())
        assert ok, f"an honest game with a swap failed the check: {text}"
        assert "one fingerprinted at the start" in text and "its mix replayed from the revealed seed" in text

        # The liar plays the same deal, its fingerprint the honest one (salt, seed, bag), on
        # a game whose swaps another seed mixes, and reveals the committed seed.
        gid, t0, t1, shown = new_game()
        table = hub.tables[gid]
        table.game = mixed_otherwise(json.loads(table.game.to_json()))
        table.reveal = lambda: {**Table.reveal(table), "seed": str(SWAP_SEED)}
        assert table.commitment == shown
        text, ok, forged = verified(gid, t0, t1, shown)
        assert not ok, f"the dishonest swap mix passed: {text}"
        assert (forged["seed"], forged["bag"]) == (honest["seed"], honest["bag"])
        # The same game up to the first swap; the first draw the two deals differ in is the
        # one the page names, drawn after that swap from the bag as the seeded mix leaves it.
        swap = next(i for i, s in enumerate(forged["steps"]) if "returned" in s)
        assert forged["steps"][: swap + 1] == honest["steps"][: swap + 1]

        def draws(reveal: dict[str, Any]) -> list[tuple[int, str]]:
            return [
                (i, s["drew"][k : k + 2]) for i, s in enumerate(reveal["steps"]) for k in range(0, len(s["drew"]), 2)
            ]

        told = next(n for n, (a, b) in enumerate(zip(draws(honest), draws(forged))) if a[1] != b[1])
        at = draws(forged)[told][0]
        assert at > swap
        assert text.startswith(f"✗ Draw {told + 1} ("), text
        assert f"move {forged['steps'][at]['move'] + 1}) is not the revealed bag's next tile" in text
        assert "(the bag as the swaps' seeded mix leaves it)" in text
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


def test_the_page_runs_under_its_content_security_policy(server: str, browser: Browser) -> None:
    """The real policy (no bypass): the lobby, a game against a bot with its board, symbols
    and rack, a placement, with no script blocked and no error."""
    ctx = browser.strict.new_context(viewport=DESKTOP)  # type: ignore[attr-defined]
    page = ctx.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server + "/")
    page.locator("#create").click()
    page.locator('.rack-tile[data-slot="0"]').wait_for()
    page.locator(".board .cell").first.wait_for()
    for slot in range(6):
        page.locator(f'.rack-tile[data-slot="{slot}"]').click()
        if page.locator(".cell.legal").count():
            break
    assert page.locator(".cell.legal").count() > 0
    assert problems == [], problems
    ctx.close()


def test_a_bare_analysis_page_says_what_to_do(server: str, browser: Browser) -> None:
    ctx, page, _ = open_page(browser, server + "/analysis")
    page.wait_for_selector("#analysis-note strong")
    note = page.inner_text("#analysis-note")
    assert "analysis board" in note and "Analyse" in note and "Replay" in note
    assert page.inner_text("#analysis-status") == "Set up a position to analyse"
    ctx.close()


def test_a_rematch_seats_both_players_again(server: str, browser: Browser) -> None:
    import httpx

    record = json.loads(genial.play_game(["greedy", "greedy"], seed=4).to_json())
    made = httpx.post(
        f"{server}/api/games", json={"record": record, "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    gid = made["id"]
    link = f"{server}/game/{gid}#invite={made['seats'][1]['invite']}"
    ctxs = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    a, b = (c.new_page() for c in ctxs)
    a.goto(f"{server}/game/{gid}#t={made['token']}")
    b.goto(link)
    for page, seat in ((a, "0"), (b, "1")):
        page.wait_for_selector(".end-card #rematch")
        page.click("#rematch")
        page.wait_for_function(
            f"""() => location.pathname !== '/game/{gid}'
                 && document.querySelector('.game')?.dataset.you === '{seat}'"""
        )
    assert a.url == b.url and game_of(a.url) != gid
    for c in ctxs:
        c.close()


def test_a_table_without_hints_shows_no_hint_button(server: str, browser: Browser) -> None:
    ctx, page, _ = open_page(browser, server + "/")
    page.wait_for_selector(".seat-row")
    page.click("details.options summary")
    page.uncheck('input[name="hints"]')
    page.click("#create")
    wait_turn(page)
    page.wait_for_selector('.rack-tile[data-slot="0"]')
    assert page.locator("#hint").count() == 0
    page.keyboard.press("h")
    assert page.inner_text("#hint-text") == ""
    ctx.close()


def test_the_game_clock_counts_down_for_the_person_to_move(server: str, browser: Browser) -> None:
    import httpx

    ctx, page, _ = open_page(browser, server + "/")
    page.wait_for_selector(".seat-row")
    page.click("details.options summary")
    assert page.locator('select[name="clock_minutes"] option').count() >= 2  # the lobby offers it
    body = {
        "variant": "standard",
        "players": 2,
        "seed": 3,
        "clock_minutes": 5,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
    }
    made = httpx.post(f"{server}/api/games", json=body).json()
    gid, token = made["id"], made["token"]
    page.goto(f"{server}/game/{gid}#t={token}")
    page.wait_for_selector('.player[data-seat="0"] .clock')
    assert page.inner_text('.player[data-seat="0"] .clock') == "5:00"  # it runs from the first move on
    assert page.locator('.player[data-seat="1"] .clock').count() == 0  # a bot has no clock
    # The seat's page says the table's away time and clock (N1: the friend never saw them).
    text = page.inner_text(".players .table-text")
    assert "after 10 minutes away" in text and "5 minutes each" in text
    headers = {"X-Seat-Token": token}
    s = httpx.get(f"{server}/api/games/{gid}", headers=headers).json()
    for slot in range(6):
        moves = httpx.get(f"{server}/api/games/{gid}/options", params={"slot": slot}, headers=headers).json()
        if moves["moves"]:
            break
    move = {"version": s["version"], "move": moves["moves"][0]}
    assert httpx.post(f"{server}/api/games/{gid}/move", json=move, headers=headers).status_code == 200
    page.wait_for_selector('.player[data-seat="0"] .clock.running')  # the bot has answered
    page.wait_for_function(
        """() => document.querySelector(".player[data-seat='0'] .clock").textContent.startsWith("4:")"""
    )
    ctx.close()


NOTATION = "standard/3 R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR,GB,YP,OO,BP,RY"


def _position_shown(wire: Wire) -> tuple[Any, ...]:
    """The position of the last analysis a page got: tiles, tracks, mover, rack."""
    last = json.loads(next(t for u, t in reversed(wire.responses) if u.endswith("/api/analysis")))
    return last["tiles"], last["tracks"], last["mover"], last["rack"], last["notation"]


def _board_state(page: Page) -> tuple[str, str, str, list[str | None]]:
    """What the analysis board shows: status, rack, tracks' text and the candidates."""
    page.wait_for_selector("#analysis-candidates li")
    moves = [li.get_attribute("data-move") for li in page.locator("#analysis-candidates li").all()]
    return (
        page.inner_text("#analysis-status"),
        page.inner_text("#analysis-rack"),
        page.inner_text(".tracks-box"),
        moves,
    )


def test_a_notation_link_opens_its_position_and_links_it_again(server: str, browser: Browser) -> None:
    """``/analysis?position=TEXT`` opens the position; the board's own notation link,
    after a variation too, reproduces what it shows exactly; only the mover's rack shows."""
    from urllib.parse import quote

    from genial.position import read_position

    ctx, page, wire = open_page(browser, f"{server}/analysis?position={quote(NOTATION, safe='')}")
    first = _board_state(page)
    assert "Seat 3 to move" in first[0]
    assert page.locator("#analysis-rack .log-tile").count() == 6
    assert page.inner_text("#notation-text") == NOTATION
    href = page.get_attribute("#notation-link", "href")
    assert href == f"{server}/analysis?position={quote(NOTATION, safe='')}"
    # Every answer the page got holds the mover's rack, and no other.
    for url, text in wire.responses:
        if url.endswith("/api/analysis"):
            assert '"racks"' not in text and '"bag"' not in text
    # A variation, then the link of the position shown.
    move = first[3][0]
    page.click(f'#analysis-candidates li[data-move="{move}"] .cand-play')
    page.wait_for_function(f"document.querySelector('#analysis-line').textContent.includes({move!r})")
    page.wait_for_selector("#analysis-notation h4, #analysis-notation p.muted")
    if page.locator("#notation-link").count():
        shown = _board_state(page)
        text = page.inner_text("#notation-text")
        assert read_position(text).board.occupied() != read_position(NOTATION).board.occupied()
        other = ctx.new_page()
        other_wire = Wire(other)
        other.goto(page.get_attribute("#notation-link", "href") or "")
        again = _board_state(other)
        # The same position: status, rack, tracks, and what the server sent to draw it
        # (the candidates are searched afresh: their order may differ).
        assert again[:3] == shown[:3]
        assert other.inner_text("#notation-text") == text
        drawn = [_position_shown(w) for w in (wire, other_wire)]
        assert drawn[0] == drawn[1]
    else:  # a bonus placement: the notation waits for the start of a turn
        assert "start of a turn" in page.inner_text("#analysis-notation")
    assert wire.errors == []
    ctx.close()


def test_a_bad_notation_link_says_where_it_goes_wrong(server: str, browser: Browser) -> None:
    from urllib.parse import quote

    bad = NOTATION.replace("GB", "GX")
    at = bad.index("X")
    ctx, page, wire = open_page(browser, f"{server}/analysis?position={quote(bad, safe='')}")
    page.wait_for_selector("#notation-error")
    message = page.inner_text("#notation-error")
    assert f"character {at} ('X')" in message
    assert page.inner_text("#notation-bad") == "X"
    # Not a blank page: the editor is there to set the position up instead.
    assert page.locator("#editor").is_visible()
    # A raw "+" in a hand-typed link is the notation's own "+", not a space.
    page.goto(f"{server}/analysis?position={NOTATION.replace(' ', '%20')}")
    assert "Seat 3 to move" in _board_state(page)[0]
    assert page.locator("#notation-error").count() == 0
    assert wire.errors == []
    ctx.close()
