"""`genial serve`'s reviews, analysis board and shared positions, driven in process: a
finished game's review computed on the bots' pool and kept in SQLite, no review or analysis
of a game still being played, positions from games, records, reviews and setups, variations,
share links, and a 4xx JSON answer for every bad request."""

from __future__ import annotations

import json
import time
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

import genial
from genial.web.errors import ApiError
from genial.web.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BASE = "http://127.0.0.1"
ITERATIONS = 12


def finished_record(seed: int = 5) -> dict[str, Any]:
    game = genial.Game(players=2, seed=seed)
    bots = [genial.bots.make("greedy", 1), genial.bots.make("greedy", 2)]
    while not game.is_over:
        game.play(bots[game.current_player].choose(genial.bots.GameView(game, game.current_player)))
    return genial.game.to_record(game)


def at(record: dict[str, Any], n: int) -> genial.Game:
    """The recorded game after its first ``n`` moves."""
    game = genial.game.from_record(genial.records.start_record(record))
    for m in record["moves"][:n]:
        game.play(m)
    return game


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return finished_record()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "g.sqlite3", review_iterations=ITERATIONS), base_url=BASE) as c:
        yield c


def load(client: TestClient, record: dict[str, Any], upto: int | None = None, token: list[str] | None = None) -> str:
    """A game of the server from ``record`` (after ``upto`` moves), a person in seat 0 (its
    token appended to ``token``) against the greedy bot."""
    body: dict[str, Any] = {"record": record, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    if upto is not None:
        body["upto"] = upto
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    if token is not None:
        token.append(r.json()["token"])
    return str(r.json()["id"])


def wait_review(client: TestClient, review_id: str, timeout: float = 120) -> dict[str, Any]:
    end = time.monotonic() + timeout
    seen = []
    while True:
        r = client.get(f"/api/reviews/{review_id}")
        assert r.status_code == 200, r.text
        st = r.json()
        seen.append(st["done"])
        if st["status"] == "done":
            assert seen == sorted(seen)  # progress only goes forward
            return dict(st["review"])
        assert st["status"] == "running", st
        assert time.monotonic() < end
        time.sleep(0.05)


def test_a_finished_game_is_reviewed_in_the_background_and_kept(tmp_path: Path, record: dict[str, Any]) -> None:
    db = tmp_path / "g.sqlite3"
    with TestClient(create_app(db, review_iterations=ITERATIONS), base_url=BASE) as client:
        game_id = load(client, record)
        r = client.post("/api/reviews", json={"game": game_id})
        assert r.status_code == 202, r.text
        started = r.json()
        assert started["total"] == len(record["moves"]) and started["status"] in ("running", "done")
        rv = wait_review(client, started["id"])
    # The same review as the Python API makes with the same level, budget and seed.
    expected = genial.review(record, "expert", iterations=ITERATIONS)
    # One serializer of a decision: the page's fields are `Decision.to_dict`'s, same keys,
    # same values (its candidates cut to the first five).
    for shown, d in zip(rv["decisions"], expected.decisions, strict=True):
        kept = d.to_dict()
        kept["candidates"] = kept["candidates"][:5]
        assert {k: shown[k] for k in kept} == json.loads(json.dumps(kept)), d.ply
        assert "class" not in shown
    assert rv["series"] == [list(row) for row in expected.series]
    assert rv["note"].startswith("Each decision is judged from the mover's information only")
    assert len(rv["summary"]) == 2 and rv["graph"].startswith("<svg")
    worst = next(d for d in rv["decisions"] if d["ply"] == rv["worst"])
    assert worst["ply"] == expected.worst().ply
    alt = worst["alternative"]
    if alt is not None:
        game = at(record, worst["ply"])
        assert genial.Move.parse(alt["move"]) in game.legal_moves()
        assert tuple(alt["points"]) == game.explain(alt["move"]).points
        assert any("5 directions" in t for t in alt["rules"])
    # Kept in SQLite: a new server finds it at once, and asking again starts nothing.
    with TestClient(create_app(db, review_iterations=ITERATIONS), base_url=BASE) as client:
        r = client.post("/api/reviews", json={"game": game_id})
        assert r.json()["status"] == "done" and r.json()["review"]["decisions"] == rv["decisions"]
        assert client.get(f"/api/reviews/{started['id']}").json()["status"] == "done"


def test_an_unfinished_game_is_neither_reviewed_nor_analysed(client: TestClient, record: dict[str, Any]) -> None:
    game_id = load(client, record, upto=10)
    r = client.post("/api/reviews", json={"game": game_id})
    assert r.status_code == 409 and "over" in r.json()["error"]
    r = client.post("/api/reviews", json={"game": game_id}, headers={"X-Seat-Token": "not-a-token"})
    assert r.status_code == 403
    r = client.post("/api/analysis", json={"position": {"game": game_id, "upto": 4}})
    assert r.status_code == 409 and "hidden racks" in r.json()["error"]
    r = client.post("/api/positions", json={"position": {"game": game_id, "upto": 4}})
    assert r.status_code == 409


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({}, 400, "ask for a review"),
        ({"game": "x", "record": {}}, 400, "ask for a review"),
        ({"game": "nope"}, 404, "no game"),
        ({"record": []}, 400, "record must be"),
        ({"record": {"format": "genial.game", "version": 1, "players": 2, "moves": ["zz"]}}, 400, "cannot be"),
    ],
)
def test_bad_review_requests_get_4xx_json(client: TestClient, body: Any, status: int, words: str) -> None:
    r = client.post("/api/reviews", json=body)
    assert r.status_code == status and words in r.json()["error"], r.text


def test_review_endpoints_sit_behind_the_edge(client: TestClient) -> None:
    r = client.post("/api/reviews", content=b"{}", headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/analysis", content=b"not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert client.get("/api/reviews/unknown").status_code == 404
    assert client.get("/api/positions/unknown").status_code == 404
    assert client.get("/api/reviews/" + "x" * 80).status_code == 404


def test_a_recorded_position_is_analysed_with_variations(client: TestClient, record: dict[str, Any]) -> None:
    position = {"record": record, "upto": 6}
    r = client.post("/api/analysis", json={"position": position})
    assert r.status_code == 200, r.text
    a = r.json()
    game = at(record, 6)
    assert a["mover"] == game.current_player
    assert a["rack"] == [[int(c) for c in t.colors] for t in game.rack(game.current_player)]
    assert "rack" not in {k for k in a if k.startswith("racks")}  # one rack only: the mover's
    moves = [c["move"] for c in a["candidates"]]
    assert moves and all(genial.Move.parse(m) in game.legal_moves() for m in moves)
    assert a["expected"] == a["candidates"][0]["line"]
    first = a["candidates"][0]
    if first["explained"]["cells"] is not None:
        assert tuple(first["explained"]["points"]) == game.explain(first["move"]).points
    # A variation: the best move, then the analysis of the reply.
    r = client.post("/api/analysis", json={"position": position, "line": [moves[0]]})
    b = r.json()
    game.play(moves[0])
    assert b["line"][0]["move"] == moves[0] and b["mover"] == game.current_player
    assert len(b["tiles"]) == sum(genial.Move.parse(m).is_placement for m in record["moves"][:6]) + 1
    # Illegal variations and bad positions are refused.
    r = client.post("/api/analysis", json={"position": position, "line": ["R9,9+R9,8"]})
    assert r.status_code in (400, 422) and "line" in r.json()["error"]
    for bad, words in [
        ({"position": {"record": record, "upto": 999}}, "upto"),
        ({"position": {"record": record}, "line": "R0,0"}, "line must be"),
        ({"position": {"nothing": 1}}, "names a game"),
        ({"position": {"review": "nope"}}, "no finished review"),
        ({"position": []}, "a position is an object"),
        ([], "ask for"),
    ]:
        r = client.post("/api/analysis", json=bad)
        assert 400 <= r.status_code < 500 and words in r.json()["error"], (bad, r.text)


def test_the_analysis_says_which_move_the_game_went_on_with(client: TestClient, record: dict[str, Any]) -> None:
    """The analysis board draws the move the game played from its position: the record's
    next move, explained, while the variation follows the game; none once it leaves the game,
    at the game's end, or for a setup."""
    position = {"record": record, "upto": 6}
    a = client.post("/api/analysis", json={"position": position}).json()
    went_on = genial.Move.parse(record["moves"][6])
    assert a["played"]["move"] == str(went_on)
    assert a["played"]["cells"] == ([list(c) for c in went_on.cells] if went_on.cells else None)
    assert [c["played"] for c in a["candidates"]] == [c["move"] == str(went_on) for c in a["candidates"]]
    b = client.post("/api/analysis", json={"position": position, "line": record["moves"][6:8]}).json()
    assert b["played"]["move"] == str(genial.Move.parse(record["moves"][8]))
    other = next(c["move"] for c in a["candidates"] if c["move"] != str(went_on))
    c = client.post("/api/analysis", json={"position": position, "line": [other]}).json()
    assert c["played"] is None
    end = client.post("/api/analysis", json={"position": {"record": record}}).json()
    assert end["played"] is None


def test_a_set_up_position_is_analysed(client: TestClient) -> None:
    setup = {
        "players": 2,
        "tiles": [{"cells": [[0, -1], [0, 0]], "colors": [0, 0]}, "B1,-1+G2,-2"],
        "tracks": [[3, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0]],
        "seat": 1,
        "rack": [[0, 4], "GG"],
    }
    r = client.post("/api/analysis", json={"position": {"setup": setup}})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["mover"] == 1 and a["rack"] == [[0, 4], [3, 3]] and len(a["tiles"]) == 2
    assert a["tracks"] == setup["tracks"]
    game = genial.Game.from_setup(["R0,-1+R0,0", "B1,-1+G2,-2"], setup["tracks"], 1, ["RB", "GG"], players=2)
    assert all(genial.Move.parse(c["move"]) in game.legal_moves() for c in a["candidates"])
    for change, words in [
        ({"tracks": [[19, 0, 0, 0, 0, 0], [0] * 6]}, "off the track"),
        ({"tracks": [[0] * 6]}, "tracks"),
        ({"seat": 5}, "seat"),
        ({"rack": [[0, 0]] * 7}, "at most six"),
        ({"tiles": [{"cells": [[0, 0], [0, 1]], "colors": [0, 9]}]}, "colour"),
        ({"tiles": [{"cells": [[0, -1], [0, 0]], "colors": [0, 0]}] * 2}, "tile 1"),
        ({"tiles": [{"cells": [[0, 0], [3, 3]], "colors": [0, 1]}]}, "tile 0"),
        ({"tiles": [7]}, "tile 0"),
        ({"rack": []}, "cannot place"),
    ]:
        r = client.post("/api/analysis", json={"position": {"setup": {**setup, **change}}})
        assert r.status_code == 400 and words in r.json()["error"], (change, r.text)


def test_a_shared_position_opens_with_its_variation(client: TestClient, record: dict[str, Any]) -> None:
    a = client.post("/api/analysis", json={"position": {"record": record, "upto": 3}}).json()
    body = {"position": {"record": record, "upto": 3}, "line": [a["candidates"][0]["move"]]}
    r = client.post("/api/positions", json=body)
    assert r.status_code == 201, r.text
    link = r.json()
    assert link["path"] == f"/analysis/{link['id']}"
    assert client.post("/api/positions", json=body).json()["id"] == link["id"]
    got = client.get(f"/api/positions/{link['id']}").json()
    assert got["position"] == body["position"] and got["line"] == body["line"]
    assert client.get(link["path"]).status_code == 200  # the page itself
    bad = client.post("/api/positions", json={**body, "line": ["keep", "keep", "swap"]})
    assert bad.status_code == 422


def test_a_finished_games_position_and_its_review_open_on_the_board(client: TestClient, record: dict[str, Any]) -> None:
    game_id = load(client, record)
    r = client.post("/api/analysis", json={"position": {"game": game_id, "upto": 5}})
    assert r.status_code == 200 and r.json()["candidates"]
    rid = client.post("/api/reviews", json={"record": record}).json()["id"]
    wait_review(client, rid)
    r = client.post("/api/analysis", json={"position": {"review": rid, "upto": len(record["moves"])}})
    assert r.status_code == 200 and r.json()["over"] and r.json()["candidates"] == []


def test_reviews_and_analyses_are_paced_per_client(tmp_path: Path, record: dict[str, Any]) -> None:
    from genial.web.edge import EdgeRules

    rules = EdgeRules(max_body=1_100_000, new_games_per_minute=1)
    with TestClient(create_app(tmp_path / "g.sqlite3", edge=rules, review_iterations=4), base_url=BASE) as client:
        position = {"position": {"record": record, "upto": 2}}
        assert all(client.post("/api/analysis", json=position).status_code == 200 for _ in range(3))
        r = client.post("/api/analysis", json=position)
        assert r.status_code == 429 and "too many analyses" in r.json()["error"]
        assert client.post("/api/positions", json=position).status_code == 429
        assert client.post("/api/reviews", json={"record": record}).status_code == 202
        r = client.post("/api/reviews", json={"record": record})
        assert r.status_code == 429 and "too many reviews" in r.json()["error"]


def test_a_review_kept_before_one_serializer_reads_as_today(client: TestClient, record: dict[str, Any]) -> None:
    old = [{"ply": 0, "forced": True, "class": "forced"}, {"ply": 1, "forced": False, "class": "mistake"}]
    client.app.state.reviews.store.put_review("old", {"payload": {"total": 2, "decisions": old}, "record": record})  # type: ignore[attr-defined]
    got = client.get("/api/reviews/old").json()["review"]["decisions"]
    assert [(d["forced"], d["classification"]) for d in got] == [(True, "forced"), (False, "mistake")]
    assert all("class" not in d for d in got)


def test_old_reviews_and_positions_are_pruned_with_the_games(tmp_path: Path, record: dict[str, Any]) -> None:
    from genial.web.store import Store

    store = Store(tmp_path / "g.sqlite3")
    store.put_review("r1", {"payload": {}, "record": record})
    store.put_position("p1", {"position": {}, "line": []})
    store.delete_untouched_since(time.time() - 3600)
    assert store.get_review("r1") is not None and store.get_position("p1") is not None
    store.delete_untouched_since(time.time() + 1)
    assert store.get_review("r1") is None and store.get_position("p1") is None
    store.close()


def test_the_review_of_a_record_keeps_its_names_for_the_analysis_board(client: TestClient) -> None:
    record = {**finished_record(6), "names": ["Ada", "Bo"]}
    rid = client.post("/api/reviews", json={"record": record}).json()["id"]
    rv = wait_review(client, rid)
    assert rv["names"] == ["Ada", "Bo"] and rv["summary"][0]["who"] == "Ada"
    a = client.post("/api/analysis", json={"position": {"review": rid, "upto": 1}}).json()
    assert a["names"] == ["Ada", "Bo"] and a["who"] == "Bo"


def test_a_review_under_way_stops_at_shutdown_and_starts_again(tmp_path: Path, record: dict[str, Any]) -> None:
    db = tmp_path / "g.sqlite3"
    start = time.monotonic()
    with TestClient(create_app(db, review_iterations=3000), base_url=BASE) as client:
        rid = client.post("/api/reviews", json={"record": record}).json()["id"]
        assert client.get(f"/api/reviews/{rid}").json()["status"] == "running"
    # Shutting down did not wait for the review (dozens of decisions at 3000 iterations).
    assert time.monotonic() - start < 30
    with TestClient(create_app(db, review_iterations=3000), base_url=BASE) as client:
        # It resumes on its own after the restart (a page polling it sees it go on), and
        # asking again finds it.
        st = client.get(f"/api/reviews/{rid}").json()
        assert st["status"] in ("running", "queued") and st["total"] == len(record["moves"])
        st = client.post("/api/reviews", json={"record": record}).json()
        assert st["id"] == rid and st["status"] == "running"
        # Nothing half-made is shown as a review: the analysis board cannot open it yet.
        r = client.post("/api/analysis", json={"position": {"review": rid, "upto": 1}})
        assert r.status_code == 404, r.text


def test_a_swap_or_keep_is_named_where_a_placement_is_explained() -> None:
    from genial.web import study as views

    game = genial.Game(players=2, seed=3)
    keep = views.explained(game, genial.Move.keep())
    assert keep["cells"] is None and keep["text"] == "keep the rack" and keep["rules"] == []
    move = game.legal_moves()[0]
    placed = views.explained(game, move)
    assert tuple(placed["points"]) == game.explain(move).points and placed["cells"] == [list(c) for c in move.cells]


def test_a_player_reviews_only_their_own_moves_of_a_game_still_on(client: TestClient, record: dict[str, Any]) -> None:
    tokens: list[str] = []
    game_id = load(client, record, upto=11, token=tokens)
    end = time.monotonic() + 30
    while client.get(f"/api/games/{game_id}").json()["current"] != 0:  # the bot answers first
        assert time.monotonic() < end
        time.sleep(0.02)
    game = client.app.state.hub.tables[game_id].game.clone()  # type: ignore[attr-defined]
    moves = [str(m) for m in game.moves]
    r = client.post("/api/reviews", json={"game": game_id}, headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 202, r.text
    rv = wait_review(client, r.json()["id"])
    mine = [i for i, p in enumerate(genial.game.core_state(game).movers[: len(moves)]) if p == 0]
    assert [d["ply"] for d in rv["decisions"]] == mine and rv["total"] == len(mine)
    assert all(d["player"] == 0 for d in rv["decisions"])
    # No estimate of the position now (that would be the next mover's view): one row per decision.
    assert len(rv["series"]) == len(mine) and not rv["analysable"]
    assert "decisions only" in rv["note"]
    expected = genial.review(game, "expert", iterations=ITERATIONS, plies=mine)
    assert [d["classification"] for d in rv["decisions"]] == [d.classification for d in expected.decisions]
    r = client.post("/api/analysis", json={"position": {"review": rv["id"], "upto": 1}})
    assert r.status_code == 403 and "stays closed" in r.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["over"] is False


NOTATION = "standard/3 R0,-1+R0,0;B1,-1+G1,0 1.2.0.0.0.0/0.0.0.0.0.0/0.0.0.0.0.0 2 RR,GB,YP,OO,BP,RY"


def test_a_position_in_the_notation_is_analysed_and_written_back(client: TestClient) -> None:
    """``{"notation": TEXT}`` opens that position; the payload's notation reproduces the
    position shown, after a variation too, and holds no rack but the mover's."""
    r = client.post("/api/analysis", json={"position": {"notation": NOTATION}})
    assert r.status_code == 200, r.text
    a = r.json()
    game = genial.position.read_position(NOTATION)
    assert a["notation"] == NOTATION and a["mover"] == 2 and len(a["tiles"]) == 2
    assert a["tracks"] == [list(t) for t in game.tracks]
    assert a["rack"] == [[int(c) for c in t.colors] for t in game.rack(2)]
    # Its notation, opened again, is the same position with the same candidates.
    again = client.post("/api/analysis", json={"position": {"notation": a["notation"]}}).json()
    assert [c["move"] for c in again["candidates"]] == [c["move"] for c in a["candidates"]]
    # After a variation: the notation of the position shown, whose rack is the one shown.
    line = [a["candidates"][0]["move"]]
    b = client.post("/api/analysis", json={"position": {"notation": NOTATION}, "line": line}).json()
    if b["notation"] is None:  # a bonus placement or swap offer: not the start of a turn
        assert b["phase"] in ("bonus", "swap_offer")
    else:
        shown = genial.position.read_position(b["notation"])
        assert shown.current_player == b["mover"] and len(b["tiles"]) == 3
        assert [[int(c) for c in t.colors] for t in shown.rack(b["mover"])] == b["rack"]
        assert [list(t) for t in shown.tracks] == b["tracks"]
        c = client.post("/api/analysis", json={"position": {"notation": b["notation"]}}).json()
        assert (c["tiles"], c["tracks"], c["rack"], c["mover"]) == (b["tiles"], b["tracks"], b["rack"], b["mover"])
    # A recorded position and a set-up one say their notation too.
    setup = {"players": 2, "tiles": ["R0,-1+R0,0"], "tracks": [[1, 0, 0, 0, 0, 0], [0] * 6], "seat": 1, "rack": ["RB"]}
    d = client.post("/api/analysis", json={"position": {"setup": setup}}).json()
    assert d["notation"] == "standard/2 R0,-1+R0,0 1.0.0.0.0.0/0.0.0.0.0.0 1 RB"


def test_a_shared_notation_keeps_its_text(client: TestClient) -> None:
    r = client.post("/api/positions", json={"position": {"notation": NOTATION}})
    assert r.status_code == 201, r.text
    assert client.get(f"/api/positions/{r.json()['id']}").json()["position"] == {"notation": NOTATION}


@pytest.mark.parametrize(
    ("text", "index"),
    [
        (NOTATION.replace("GB", "GX"), NOTATION.index("GB") + 1),
        ("", 0),
        ("standard/2 R0,-1+R0,0;R0,-1+R0,0 0.0.0.0.0.0/0.0.0.0.0.0 0 RB", 11),
    ],
)
def test_a_bad_notation_is_refused_naming_its_first_bad_character(client: TestClient, text: str, index: int) -> None:
    r = client.post("/api/analysis", json={"position": {"notation": text}})
    assert r.status_code == 400, r.text
    assert r.json()["index"] == index and f"character {index} " in r.json()["error"], r.text


@pytest.mark.parametrize("value", [7, None, ["x"], "x" * 5000])
def test_a_notation_that_is_not_text_is_refused(client: TestClient, value: Any) -> None:
    r = client.post("/api/analysis", json={"position": {"notation": value}})
    assert r.status_code == 400 and "notation" in r.json()["error"], r.text


def test_reviews_wait_their_turn_with_a_fair_share_per_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """16 addresses with 4 reviews each filled the 64 review slots and everyone else got
    503. A review beyond the slots waits (``queued``), and a freed slot goes to the
    address with the fewest reviews running: here B's, before A's third."""
    import asyncio

    from genial.web import reviews as reviews_module
    from genial.web.reviews import Reviews
    from genial.web.store import Store

    monkeypatch.setattr(reviews_module, "MAX_RUNNING", 2)
    monkeypatch.setattr(reviews_module, "PER_CLIENT", 3)
    games = [genial.play_game(["greedy", "greedy"], seed=s) for s in range(5)]
    gates: dict[str, asyncio.Event] = {}
    started: list[str] = []

    async def held(self: Reviews, job: Any) -> None:  # a review that ends when the test says
        started.append(job.client)
        gates[job.key] = asyncio.Event()
        await gates[job.key].wait()
        del self.jobs[job.key]

    monkeypatch.setattr(Reviews, "_run", held)

    async def main() -> None:
        reviews = Reviews(Store(tmp_path / "g.sqlite3"), None)  # type: ignore[arg-type]
        names = ["Ann", "Bo"]
        a = [reviews.start(g, names, {}, client="A") for g in games[:3]]
        b = reviews.start(games[3], names, {}, client="B")
        assert [x["status"] for x in a] == ["running", "running", "queued"] and b["status"] == "queued"
        for _ in range(3):
            await asyncio.sleep(0)
        assert started == ["A", "A"]
        # A fourth for A is over its share of the queue; another address is not refused.
        with pytest.raises(ApiError) as refused:
            reviews.start(games[4], names, {}, client="A")
        assert refused.value.status == 429
        gates[a[0]["id"]].set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert started == ["A", "A", "B"]
        assert reviews.status(b["id"])["status"] == "running" and reviews.status(a[2]["id"])["status"] == "queued"
        for gate in list(gates.values()):
            gate.set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert started == ["A", "A", "B", "A"]
        await reviews.close()

    asyncio.run(main())
