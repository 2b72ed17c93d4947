"""The page in the player's language (genial.translation, genial.web): the HTML follows
Accept-Language, the page's catalogues come from the same .po files, the server's texts
(statuses, endings, refusals, bot descriptions) come in the language each request or live
connection names, and a bad language is English without an error."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="genial serve needs the web extra: pip install 'genial-engine[web]'")
pytest.importorskip("httpx", reason="the API tests need httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from genial import translation
from genial.translation import LANGUAGES, page_catalogue, use
from genial.variants import Rules, variants
from genial.web import core_texts as core_texts_module
from genial.web.core_texts import core_texts
from genial.web.lobby import bot_catalogue
from genial.web.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BASE = "http://127.0.0.1"
REAL = [code for code in LANGUAGES if code != "en"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3"), base_url=BASE) as c:
        yield c


def text_of(html: str, marker: str) -> str:
    """The text of the element whose data-t is ``marker``."""
    m = re.search(rf'data-t="{re.escape(marker)}"[^>]*>([^<]*)<', html)
    assert m is not None, marker
    return m.group(1)


# ----- the page's HTML ----------------------------------------------------------------


def test_accept_language_pl_gives_a_polish_page(client: TestClient) -> None:
    r = client.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert r.status_code == 200
    html = r.text
    assert '<html data-asked lang="pl" data-served="pl"' in html and "data-languages" in html
    assert text_of(html, "Replay") == "Powtórka"
    assert text_of(html, "Keyboard") == "Klawiatura"
    assert 'aria-label="genial: wróć do lobby"' in html
    assert "Vary" in r.headers and "accept-language" in r.headers["Vary"].lower()


@pytest.mark.parametrize("header", ["", "xx-YY", ";;;q=", "*", "pl;q=abc", "klingon, tlh;q=0.9", "\x7f" * 50])
def test_a_bad_accept_language_gives_the_english_page(client: TestClient, header: str) -> None:
    r = client.get("/game/abc", headers={"Accept-Language": header})
    assert r.status_code == 200
    assert 'lang="en" data-served="en"' in r.text
    assert text_of(r.text, "Replay") == "Replay"


def test_no_accept_language_leaves_the_choice_to_the_browser(client: TestClient) -> None:
    """Without the header the page follows navigator.language: nothing says it was asked."""
    r = client.get("/", headers={"Accept-Language": ""})
    assert "data-asked" not in r.text


# ----- the page's catalogues ------------------------------------------------------------


@pytest.mark.parametrize("code", REAL)
def test_the_page_catalogue_is_the_po_file(client: TestClient, code: str) -> None:
    r = client.get(f"/api/catalogue/{code}")
    assert r.status_code == 200
    data = r.json()
    assert data["language"] == code
    assert {k: tuple(v) for k, v in data["messages"].items()} == dict(translation.catalogue(code).messages)
    assert data["messages"]["Start game"][0] != "Start game"
    assert len(data["plural"]) == translation.PAGE_PLURAL_SPAN


def test_asking_for_many_languages_keeps_one_catalogue_per_language(client: TestClient) -> None:
    for i in range(60):
        assert client.get(f"/api/catalogue/zz{i}").status_code == 200
    assert translation._page_catalogue.cache_info().currsize <= len(LANGUAGES)


def test_the_polish_plural_table_has_three_forms() -> None:
    table = json.loads(page_catalogue("pl"))["plural"]
    assert [table[n] for n in (1, 2, 4, 5, 12, 22, 25, 112, 122)] == [0, 1, 1, 2, 2, 1, 2, 2, 1]
    # Past the table the page reads 100 + n % 100: the same rule.
    assert table[100 + 222 % 100] == 1 and table[100 + 1001 % 100] == 2


@pytest.mark.parametrize("code", ["xx", "etc..passwd", "EN", "q" * 300, "%E2%98%83"])
def test_an_unknown_catalogue_is_english_not_an_error(client: TestClient, code: str) -> None:
    r = client.get(f"/api/catalogue/{code}")
    assert r.status_code == 200
    assert r.json()["messages"] == {} and r.json()["language"] == "en"


# ----- the server's texts -----------------------------------------------------------------


def test_every_core_text_the_page_shows_is_in_the_catalogues() -> None:
    """Bot descriptions, their options' help, variants' descriptions, edition options' help:
    the core's English is the key; `core_texts` asks the core for them, so that Babel
    extracts them with no list kept by hand."""
    shown = {b["description"] for b in bot_catalogue()}
    shown |= {o["help"] for b in bot_catalogue() for o in b["option_specs"]}
    shown |= {v.description for v in variants()} | {str(o["help"]) for o in Rules.options()}
    assert set(core_texts()) == shown
    for code in REAL:
        missing = sorted(text for text in shown if text not in translation.catalogue(code).messages)
        assert not missing, f"{code}.po lacks {missing[:3]}: run make catalogues, then translate"


def test_babel_extracts_the_core_texts_from_their_module() -> None:
    with open(core_texts_module.__file__ or "", "rb") as f:
        extracted = [message for _, _, message, _ in core_texts_module.extract(f, None, None, None)]
    assert extracted == core_texts() and len(set(extracted)) == len(extracted)


def test_meta_is_in_the_language_asked(client: TestClient) -> None:
    en = client.get("/api/meta").json()
    de = client.get("/api/meta", headers={"Accept-Language": "de"}).json()
    assert [b["name"] for b in de["bots"]] == [b["name"] for b in en["bots"]]
    greedy = {b["name"]: b for b in de["bots"]}["greedy"]
    with use("de"):
        assert greedy["description"] == translation.tr(
            "one placement ahead: the scores that rank best for it (its lowest colour first), then bonuses, then points"
        )
    assert greedy["description"] != {b["name"]: b for b in en["bots"]}["greedy"]["description"]
    swap = {o["name"]: o for o in de["rule_options"]}["swap_timing"]
    assert swap["label"] == "Tausch" and swap["values"][0]["label"] == "nach dem Legen (aktuelle Regeln)"
    assert [c["title"] for c in de["colors"]][:2] == ["rot", "orange"]
    assert [c["name"] for c in de["colors"]] == [c["name"] for c in en["colors"]]  # the notation's words
    assert {v["name"]: v for v in de["variants"]}["duel"]["title"] == "Duell"
    assert "Spieler" in de["variants"][0]["player_labels"][0]


def create(client: TestClient, seats: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    body: dict[str, Any] = {"variant": "standard", "players": len(seats), "seats": seats}
    if sum(s["kind"] == "human" for s in seats) < 2:
        body["seed"] = 7
    r = client.post("/api/games", json=body, headers={"Accept-Language": lang})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_refusal_comes_in_the_language_of_the_request(client: TestClient) -> None:
    assert client.get("/api/games/nope").json()["error"] == "no game 'nope' on this server"
    got = client.get("/api/games/nope", headers={"Accept-Language": "fr"})
    assert got.status_code == 404 and got.json()["error"] == "aucune partie 'nope' sur ce serveur"
    made = create(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    r = client.post(
        f"/api/games/{made['id']}/move",
        json={"version": 0, "move": "R9,9+B9,8"},
        headers={"X-Seat-Token": made["token"], "Accept-Language": "pl"},
    )
    assert r.status_code == 422
    assert r.json()["error"].startswith("nielegalny ruch 'R9,9+B9,8': ")
    assert "off the board" not in r.json()["error"]  # the core's refusal, translated too
    bad = client.post("/api/games", json={"variant": "standard", "seed": "x"}, headers={"Accept-Language": "de-AT"})
    assert bad.status_code == 400 and "muss" in bad.json()["error"]


def test_each_player_of_a_friends_game_reads_their_own_language(client: TestClient) -> None:
    """The game is one; each live connection names its language, and its states' texts
    are made in it (once per change, audience and language)."""
    made = create(client, [{"kind": "human", "name": "Ala"}, {"kind": "human", "name": "Jean"}])
    invite = next(s["invite"] for s in made["seats"] if "invite" in s)
    friend = client.post(f"/api/games/{made['id']}/claim", json={"invite": invite}).json()["token"]
    url = f"ws://127.0.0.1/api/games/{made['id']}/ws"
    with (
        client.websocket_connect(f"{url}?lang=pl") as pl,
        client.websocket_connect(f"{url}?lang=fr") as fr,
        client.websocket_connect(f"{url}?lang=%%%") as bad,
    ):
        pl.send_text(json.dumps({"token": made["token"]}))
        fr.send_text(json.dumps({"token": friend}))
        bad.send_text(json.dumps({"token": None}))
        first, second, third = (json.loads(ws.receive_text()) for ws in (pl, fr, bad))
    assert first["status"]["text"].startswith("Twoja tura")
    assert first["title"] == "Standardowa · 2 graczy"
    assert second["status"]["text"] == "En attente : Ala pose une tuile"
    assert third["status"]["text"] == "Waiting: Ala is placing"
    # The game itself is one: the same board, tracks and moves for every language.
    for key in ("version", "cells", "tracks", "current", "bag"):
        assert first[key] == second[key] == third[key]
    table = client.app.state.hub.table(made["id"])  # type: ignore[attr-defined]
    assert set(table._texts) == {(0, "pl"), (1, "fr"), (None, "en")}


def test_the_game_state_of_a_get_follows_accept_language(client: TestClient) -> None:
    made = create(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    got = client.get(f"/api/games/{made['id']}", headers={"X-Seat-Token": made["token"], "Accept-Language": "de"})
    state = got.json()
    assert state["status"]["text"] == "Du bist am Zug: wähle einen Spielstein und lege ihn"
    assert state["rack_labels"][0].count(" und ") == 1
    assert "Jede Farbe zählt 0 bis 18" in state["scoring"]


def test_a_refused_live_connection_says_why_in_its_language_within_a_close_frame(client: TestClient) -> None:
    """A close frame's reason holds 123 bytes: a translation with accents is cut as UTF-8."""
    from starlette.websockets import WebSocketDisconnect

    made = create(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    origin = "http://abcdefghijklmnopqrstuvw.example"  # 120 characters of the Polish are 124 bytes
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"ws://127.0.0.1/api/games/{made['id']}/ws?lang=pl", headers={"origin": origin}),
    ):
        pass
    assert refused.value.code == 4403
    assert refused.value.reason.startswith("zapytania ze stron")
    assert len(refused.value.reason.encode("utf-8")) <= 123
