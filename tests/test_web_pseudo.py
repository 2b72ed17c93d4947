"""The page walked in a test-only language, ``qps``, whose every text is its English wrapped
in ⟦…⟧ (test_translation's pseudo catalogue, added as CONTRIBUTING's recipe says: one
catalogue file and one line of `LANGUAGES`). Chromium opens each screen of the page and
any visible text outside ⟦…⟧ fails, apart from numbers, the notation, the names players
chose and the allow-list below: a text that does not go through the catalogues shows.

Slow (a browser, a game played through the server, a review): the slow tier.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from genial import translation
from genial.bots import catalogue
from playwright.sync_api import Page, sync_playwright
from test_translation import pseudo_catalogue, untranslated
from test_web_browser import _bound, _Browser, _chromium, _serve  # skips this module without Chromium

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

#: What may show outside ⟦…⟧ besides numbers, the notation and the players' names: the
#: product's name, the bots' names (identifiers, as the notation), each language's own name
#: in the header's switch, the keys of the keyboard, the bag's fingerprint (hex).
ALLOWED = [
    "genial",
    *(b.name for b in catalogue()),
    *translation.LANGUAGES.values(),
    "pseudo",
]
HEX = re.compile(r"\b[0-9a-f]{8,}\b")
NAMES = ["Ala", "Jean"]
SEED = 20  # seat 0 at its best placement, taking every swap: a swap offer and a bonus


@pytest.fixture(scope="module")
def pseudo_server() -> Iterator[str]:
    """A server whose catalogues include ``qps``."""
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        folder = Path(tmp) / "locale"
        folder.mkdir()
        for code in translation.LANGUAGES:
            if code != "en":
                (folder / f"{code}.po").write_text((translation.CATALOGUES / f"{code}.po").read_text("utf-8"), "utf-8")
        pseudo_catalogue(folder)
        mp.setattr(translation, "CATALOGUES", folder)
        mp.setitem(translation.LANGUAGES, "qps", "pseudo")
        translation.catalogue.cache_clear()
        translation._page_catalogue.cache_clear()
        sock = _bound()
        srv, thread = _serve(Path(tmp) / "games.sqlite3", sock, review_iterations=2)
        try:
            yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        finally:
            srv.should_exit = True
            thread.join(10)
            sock.close()
            translation.catalogue.cache_clear()
            translation._page_catalogue.cache_clear()


@pytest.fixture(scope="module")
def context(pseudo_server: str) -> Iterator[Any]:
    with sync_playwright() as p:
        b = _Browser(p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox", "--disable-dev-shm-usage"]))
        ctx = b.new_context(viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": "qps"})
        yield ctx
        ctx.close()
        b.close()


HEADERS = {"Accept-Language": "qps"}
seen: list[str] = []  # the screens checked, for the test's own check of its walk


#: The keys help names the keys as they are printed on a keyboard.
KEYS = re.compile(r"\b(?:Shift|Enter|Esc|[A-Z])\b")


def check(page: Page, screen: str, names: list[str] = NAMES) -> None:
    """The visible text of ``page`` holds nothing outside ⟦…⟧ but what is allowed."""
    page.wait_for_timeout(150)  # a toast or a redraw in flight
    text = page.inner_text("body")
    # What a screen reader says and a field shows before it is filled, too.
    text += "\n" + "\n".join(
        page.eval_on_selector_all(
            "[aria-label], [placeholder], [title]",
            "els => els.flatMap(e => ['aria-label', 'placeholder', 'title'].map(a => e.getAttribute(a) || ''))",
        )
    )
    # The rulebooks' links name each in its own language (lang="fr", ...), as the switch does.
    for links in page.locator("dialog[open] .rules-links").all_inner_texts():
        text = text.replace(links, " ")
    for keys in page.locator("dialog[open] dt").all_inner_texts():
        text = text.replace(keys, KEYS.sub(" ", keys))
    for notation in page.locator("#notation-text").all_inner_texts():  # a position's notation
        text = text.replace(notation, " ")
    text = HEX.sub(" ", text)
    for word in sorted([*ALLOWED, *names], key=len, reverse=True):
        text = text.replace(word, " ")
    left = untranslated(text, [])
    assert left == [], f"{screen}: untranslated text {left}"
    assert "⟦" in text, f"{screen}: nothing translated at all"
    seen.append(screen)


def api(url: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {**HEADERS, **({"X-Seat-Token": token} if token else {})}
    r = (
        httpx.post(url + path, json=body, headers=headers)
        if body is not None
        else httpx.get(url + path, headers=headers)
    )
    assert r.status_code < 300, r.text
    return r.json()


def my_turn(url: str, gid: str, token: str, after: int = -1) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        s = api(url, f"/api/games/{gid}", token)
        if s["version"] > after and (s["over"] or s["current"] == s["you"]):
            return dict(s)
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)


def show(page: Page, url: str, gid: str, token: str, version: int) -> None:
    page.goto(f"{url}/game/{gid}#t={token}")
    page.wait_for_function(
        "v => Number(document.querySelector('.game')?.dataset.version) >= v", arg=version, timeout=20000
    )


def test_every_screen_of_the_page_in_the_pseudo_language(pseudo_server: str, context: Any) -> None:
    url = pseudo_server
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # The lobby and its options; a refusal of the form (a bad seed), as a toast.
    page.goto(url + "/")
    page.wait_for_selector(".seat-row")
    assert page.get_attribute("html", "lang") == "qps"
    page.click(".options summary")
    check(page, "lobby")
    page.click("#help-button")
    page.wait_for_selector("dialog#help[open]")
    check(page, "the keys help")
    page.keyboard.press("Escape")
    page.fill('input[name="seed"]', "not a seed")
    page.click("#create")
    page.wait_for_selector(".toast.error")
    check(page, "lobby: a refusal")

    # A game against the greedy bot, through the server: a swap offer, a bonus placement.
    made = api(
        url,
        "/api/games",
        body={
            "variant": "standard",
            "players": 2,
            "seed": SEED,
            "seats": [{"kind": "human", "name": NAMES[0]}, {"kind": "bot", "bot": "greedy"}],
        },
    )
    gid, token = made["id"], made["token"]
    state = my_turn(url, gid, token)
    show(page, url, gid, token, state["version"])
    page.keyboard.press("1")
    page.wait_for_function("document.querySelector('.game').dataset.tiles === 'ready'")
    page.keyboard.press("n")
    check(page, "game: a tile to place")
    # An illegal move's refusal, as the page shows it.
    r = httpx.post(
        f"{url}/api/games/{gid}/move",
        json={"version": state["version"], "move": "R9,9+B9,8"},
        headers={**HEADERS, "X-Seat-Token": token},
    )
    assert r.status_code == 422 and r.json()["error"].startswith("⟦")
    shown = {"swap_offer": False, "bonus": False}
    while not state["over"]:
        if state["phase"] in shown and not shown[state["phase"]]:
            show(page, url, gid, token, state["version"])
            check(page, f"game: {state['phase']}")
            shown[state["phase"]] = True
        if state["phase"] == "swap_offer":
            move = "swap"
        else:
            move = (
                next(
                    m
                    for slot in range(len(state["rack"]))
                    for m in api(url, f"/api/games/{gid}/options?slot={slot}", token)["moves"][:1]
                )
                if state.get("placement_count")
                else state["others"][0]
            )
        api(url, f"/api/games/{gid}/move", token, {"version": state["version"], "move": move})
        state = my_turn(url, gid, token, state["version"])
    assert all(shown.values()), shown

    # The end screen and the bag check.
    show(page, url, gid, token, state["version"])
    page.wait_for_selector(".end-card")
    page.click("#verify")
    page.wait_for_selector(".verify-result.ok")
    check(page, "the end and the bag check")

    # The review, and the analysis board on one of its decisions.
    review = api(url, "/api/reviews", body={"game": gid})
    page.goto(f"{url}/review/{review['id']}")
    page.wait_for_selector("#review-detail .card", timeout=120000)
    check(page, "the review")
    page.click("#review-analyse")
    page.wait_for_selector(".candidate", timeout=60000)
    check(page, "the analysis board")
    page.click("#analysis-edit")
    page.wait_for_selector("#editor:not([hidden])")
    check(page, "the position editor")
    page.goto(url + "/analysis")
    page.wait_for_selector("#analysis-note strong")
    check(page, "a bare analysis board")
    page.goto(url + "/replay#game=" + gid)
    page.wait_for_selector("#replay-slider")
    check(page, "the replay")

    # A friends' game: the invite screen, and the friend's seat.
    friends = api(
        url,
        "/api/games",
        body={
            "variant": "standard",
            "players": 2,
            "seats": [{"kind": "human", "name": NAMES[0]}, {"kind": "human", "name": NAMES[1]}],
        },
    )
    invite = next(s["invite"] for s in friends["seats"] if "invite" in s)
    held = {"mine": {"0": friends["token"]}, "invites": {"1": invite}}  # as the lobby keeps them
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"genial.seats.{friends['id']}", json.dumps(held)])
    page.goto(f"{url}/game/{friends['id']}")
    page.wait_for_selector(".invite-card")
    check(page, "a friends' game: the invites")
    other = context.browser.new_context(extra_http_headers=HEADERS)  # the friend's own browser
    friend = other.new_page()
    friend.goto(f"{url}/game/{friends['id']}#invite={invite}")
    friend.wait_for_selector('.game[data-you="1"]')
    check(friend, "a friends' game: the friend's seat")
    other.close()

    # Errors: a game that does not exist, an invite used twice.
    page.goto(url + "/game/no-such-game")
    page.wait_for_selector(".error-card")
    check(page, "an unknown game")
    page.goto(f"{url}/game/{friends['id']}#invite={invite}")
    page.wait_for_selector(".toast.error")
    check(page, "a spent invite")

    assert errors == [], errors
    assert len(seen) >= 15
    page.close()


def test_the_check_catches_a_bare_text() -> None:
    """The walk's check fails on an English word left bare (the page's own words pass only
    wrapped, its numbers and notation as they are)."""
    assert untranslated(HEX.sub(" ", "⟦Seeds⟧ 12 R0,-4+B1,-4 deadbeefcafe"), []) == []
    assert untranslated("⟦Lobby⟧ Replay", []) == ["Replay"]
    assert json.dumps("⟦x⟧", ensure_ascii=False) == '"⟦x⟧"'
