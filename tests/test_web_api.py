"""`genial serve`'s HTTP API, driven in process (Starlette's TestClient): games, actions,
the 4xx answers, hidden racks, durability across restarts, undo and records."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="genial serve needs the web extra: pip install 'genial-engine[web]'")
pytest.importorskip("httpx", reason="the API tests need httpx")

with warnings.catch_warnings():  # starlette >= 1.x suggests httpx2 over httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import genial
from genial.web.edge import EdgeRules
from genial.web.seats import BotLimits
from genial.web.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LETTERS = "ROYGBP"
HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


BASE = "http://127.0.0.1"  # the edge serves localhost and IP addresses, not "testserver"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db), base_url=BASE) as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """A new game; seed 7 unless two or more people play (then the server draws it)."""
    body: dict[str, Any] = {"variant": "standard", "players": len(seats), "seats": seats, **options}
    if sum(s["kind"] == "human" for s in seats) < 2:
        body.setdefault("seed", 7)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def claim(client: TestClient, game_id: str, invite: str) -> Any:
    return client.post(f"/api/games/{game_id}/claim", json={"invite": invite})


def tokens(client: TestClient, made: dict[str, Any]) -> list[str | None]:
    """Every human seat's token: the creator's, and each friend's from claiming its invite."""
    out: list[str | None] = [None] * len(made["seats"])
    if made["seat"] is not None:
        out[made["seat"]] = made["token"]
    for s in made["seats"]:
        if "invite" in s:
            r = claim(client, made["id"], s["invite"])
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == s["seat"]
            out[s["seat"]] = r.json()["token"]
    return out


def server_game(client: TestClient, game_id: str) -> genial.Game:
    """The server's own game (for tests that need to know the bag the server drew)."""
    return client.app.state.hub.tables[game_id].game  # type: ignore[attr-defined,no-any-return]


def state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_for(client: TestClient, game_id: str, token: str, cond: Any, timeout: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        s = state(client, game_id, token)
        if cond(s):
            return s
        assert time.monotonic() < end, f"timed out; state {s['phase']} current {s['current']}"
        time.sleep(0.01)


def my_turn(s: dict[str, Any]) -> bool:
    return bool(s["over"] or (s["current"] == s["you"] and "others" in s))


def options(client: TestClient, game_id: str, token: str, tile: str | int) -> Any:
    query = {"slot": str(tile)} if isinstance(tile, int) else {"tile": tile}
    return client.get(f"/api/games/{game_id}/options", params=query, headers={"X-Seat-Token": token})


def placement_rows(got: dict[str, Any]) -> list[dict[str, Any]]:
    """The placements of an options reply, one dict each (the columns read as the page reads
    them, static/placements.js's decodePlacements)."""
    rows = []
    for i, move in enumerate(got["moves"]):
        c = got["cells"][4 * i : 4 * i + 4]
        anchors = [[c[0], c[1], got["toward"][i]]] + ([[c[2], c[3], got["back"][i]]] if got["back"] else [])
        rows.append(
            {
                "move": move,
                "cells": [c[0:2], c[2:4]],
                "points": got["points"][2 * i : 2 * i + 2],
                "bonus": got["bonus"][i],
                "notes": got["note_texts"][got["notes"][i]],
                "anchors": anchors,
            }
        )
    return rows


def best_move(client: TestClient, s: dict[str, Any], token: str) -> str:
    """The first rack tile that fits, at its best placement (the server's first); keep
    when offered a swap. The move's text is the one the server sent."""
    if s["phase"] == "swap_offer":
        return "keep"
    for slot in range(len(s["rack"])):
        moves = options(client, s["id"], token, slot).json()["moves"]
        if moves:
            return str(moves[0])
    return str(s["others"][0])


def act(client: TestClient, game_id: str, token: str | None, body: Any) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    if isinstance(body, (bytes, str)):
        return client.post(
            f"/api/games/{game_id}/move", content=body, headers={**headers, "Content-Type": "application/json"}
        )
    return client.post(f"/api/games/{game_id}/move", json=body, headers=headers)


# ----- meta and lobby --------------------------------------------------------------------------


def test_meta_lists_variants_and_the_bots_module_names(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert [v["name"] for v in meta["variants"]] == [v.name for v in genial.variants()]
    assert [b["name"] for b in meta["bots"]] == list(genial.bots.BUILTIN_BOTS)
    assert len(meta["colors"]) == 6 and all(c["svg"].startswith("<") for c in meta["colors"])
    assert client.get("/").status_code == 200
    assert "app.js" in client.get("/game/anything").text
    assert client.get("/static/app.js").status_code == 200


def test_create_and_play_against_a_bot(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY])
    gid, token = made["id"], made["token"]
    assert made["seat"] == 0 and "token" not in made["seats"][1] and "invite" not in made["seats"][1]
    s = state(client, gid, token)
    assert s["you"] == 0 and s["current"] == 0 and len(s["rack"]) == 6
    # Every placement offered is legal in the engine, with the points the engine gives it.
    game = genial.Game(2, 7)
    legal = {m for m in game.legal_moves()}
    assert s["placement_count"] == len(legal) and s["others"] == []
    directions = [d["delta"] for d in client.get("/api/meta").json()["board"]["directions"]]
    offered = set()
    for slot, (a, b) in enumerate(s["rack"]):
        tile = LETTERS[a] + LETTERS[b]
        got = options(client, gid, token, slot).json()
        by_text = options(client, gid, token, tile).json()
        assert got == by_text and got["slot"] == slot and got["tile"] == tile and got["version"] == 0
        assert got["colors"] == [a, b] and (got["back"] is not None) == (a == b)
        for row in placement_rows(got):
            move = genial.Move.parse(row["move"])
            assert move in legal and str(move.tile) == str(genial.Tile.parse(tile))
            result = game.clone().play(move)
            # The tile's first colour on the first cell, its points aligned with the cells.
            colour_at = dict(zip(map(tuple, move.cells), map(int, move.colors)))
            assert [colour_at[tuple(c)] for c in row["cells"]] == [a, b]
            by_cell = dict(zip(map(tuple, move.cells), result.points))
            assert [by_cell[tuple(c)] for c in row["cells"]] == row["points"]
            assert row["bonus"] == result.bonuses_earned
            # Each way to lay it puts a half on (q, r) and the other in that direction.
            for q, r, d in row["anchors"]:
                dq, dr = directions[d]
                assert {(q, r), (q + dq, r + dr)} == set(map(tuple, move.cells))
            assert len(row["anchors"]) == (2 if a == b else 1)
            offered.add(move)
    assert offered == legal
    r = options(client, gid, token, "RR" if [0, 0] not in s["rack"] else "PP")
    assert r.status_code == 400 and "not in your rack" in r.json()["error"]
    assert options(client, gid, token, "XY").status_code == 400
    assert options(client, gid, token, 6).status_code == 400 and options(client, gid, token, "0x1").status_code == 400
    assert client.get(f"/api/games/{gid}/options?tile=RB").status_code == 401
    move = best_move(client, s, token)
    r = act(client, gid, token, {"version": s["version"], "move": move})
    assert r.status_code == 200, r.text
    ack = r.json()
    assert ack["version"] == s["version"] + 1 and ack["result"]["seat"] == 0
    s = wait_for(client, gid, token, my_turn)
    assert s["moves"] >= 2 and s["log"][1]["seat"] == 1


def test_whole_game_against_a_bot_ends_with_a_ranking(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY], seed=3)
    gid, token = made["id"], made["token"]
    s = wait_for(client, gid, token, my_turn)
    while not s["over"]:
        r = act(client, gid, token, {"version": s["version"], "move": best_move(client, s, token)})
        assert r.status_code == 200, r.text
        s = wait_for(client, gid, token, my_turn)
    assert s["ranking"] and s["end"] and s["explanation"]
    lobby = client.get("/api/games").json()["games"]
    assert lobby[0]["over"] and lobby[0]["ranking"] == s["ranking"]


# ----- refusals: 4xx and nothing changed ----------------------------------------------------------


def test_refusals_change_nothing(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN])
    gid = made["id"]
    t0, t1 = tokens(client, made)
    assert t0 and t1
    s = state(client, gid, t0)
    move = best_move(client, s, t0)
    v = s["version"]

    def refused(r: Any, status: int, words: str) -> None:
        assert r.status_code == status, r.text
        assert words in r.json()["error"]
        after = state(client, gid, t0)
        assert after["version"] == v and after["moves"] == 0

    refused(act(client, gid, t1, {"version": v, "move": move}), 403, "seat 0's turn")  # acting for another seat
    refused(act(client, gid, t0, {"version": v, "move": move, "seat": 1}), 403, "not seat 1")
    refused(act(client, gid, None, {"version": v, "move": move}), 401, "token")
    refused(act(client, gid, "forged-token", {"version": v, "move": move}), 403, "holds no seat")
    refused(act(client, gid, t0, {"version": v + 5, "move": move}), 409, "stale")
    refused(act(client, gid, t0, {"version": v - 1, "move": move}), 409, "stale")
    refused(act(client, gid, t0, b"{not json"), 400, "not valid JSON")
    refused(act(client, gid, t0, b""), 400, "empty")
    refused(act(client, gid, t0, [1, 2]), 400, "JSON object")
    refused(act(client, gid, t0, {"version": "1", "move": move}), 400, "version")
    refused(act(client, gid, t0, {"version": v, "move": 17}), 400, "move must be")
    refused(act(client, gid, t0, {"version": v, "move": "R9,9+B9,8"}), 422, "illegal move")
    refused(act(client, gid, t0, {"version": v, "move": "swap"}), 422, "illegal move")
    r = act(client, "no-such-game", t0, {"version": 0, "move": move})
    assert r.status_code == 404 and "no game" in r.json()["error"]
    assert client.get("/api/games/no-such-game").status_code == 404
    # The same action twice: the second one is stale.
    assert act(client, gid, t0, {"version": v, "move": move}).status_code == 200
    r = act(client, gid, t0, {"version": v, "move": move})
    assert r.status_code == 409 and "stale" in r.json()["error"]


def test_bad_new_games_are_refused(client: TestClient) -> None:
    for body, words in [
        ({"variant": "chess", "seats": [HUMAN, HUMAN]}, "unknown variant"),
        ({"variant": "standard", "players": 5, "seats": [HUMAN] * 5}, "cannot set up"),
        ({"variant": "standard", "players": 2, "seats": [HUMAN]}, "need 2 seats"),
        ({"variant": "standard", "players": 2, "seats": [HUMAN, {"kind": "bot", "bot": "deep-blue"}]}, "unknown bot"),
        (
            {
                "variant": "standard",
                "players": 2,
                "seats": [HUMAN, {"kind": "bot", "bot": "mcts", "options": {"iterations": -1}}],
            },
            "--allow-bot-options",
        ),
        ({"variant": "standard", "players": 2, "seats": [HUMAN, {"kind": "alien"}]}, "kind must be"),
        ({"variant": "standard", "players": 2, "swap_timing": "never", "seats": [HUMAN, HUMAN]}, "cannot set up"),
        ({"record": {"format": "genial.game"}, "seats": [HUMAN, HUMAN]}, "record cannot be loaded"),
        # An int past 64 bits is refused for its value, not as "an int, not int".
        ({"variant": "standard", "players": 2**64, "seats": [HUMAN, HUMAN]}, "players must be 1 to 4, not"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert words in r.json()["error"], (words, r.json())
    assert client.get("/api/games").json()["games"] == []


# ----- hidden information ------------------------------------------------------------------------


def test_a_rack_goes_only_to_its_seat(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN, GREEDY], players=3)
    gid = made["id"]
    t0, t1, _ = tokens(client, made)
    assert t0 and t1
    game = server_game(client, gid)
    racks = [[[int(c) for c in t.colors] for t in game.rack(p)] for p in range(3)]
    s0, s1, spectator = state(client, gid, t0), state(client, gid, t1), state(client, gid)
    assert s0["rack"] == racks[0] and s1["rack"] == racks[1]
    assert "rack" not in spectator and "others" not in spectator and "others" not in s1
    r = options(client, gid, t1, LETTERS[racks[1][0][0]] + LETTERS[racks[1][0][1]])
    assert r.status_code == 403 and "turn" in r.json()["error"]
    for text, others in ((json.dumps(s0), (1, 2)), (json.dumps(s1), (0, 2))):
        data = json.loads(text)
        assert data["rack"] not in [racks[p] for p in others]
    lobby = client.get("/api/games").text
    assert 'rack"' not in lobby.replace("rack_sizes", "") and t0 not in lobby and t1 not in lobby
    # The record holds the bag, so every rack: not for players while others are human.
    r = client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": t0})
    assert r.status_code == 403 and "every rack" in r.json()["error"]
    assert client.get(f"/api/games/{gid}/record").status_code == 403


def test_live_updates_over_websocket_are_per_seat(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN])
    gid = made["id"]
    t0, t1 = tokens(client, made)
    assert t0 and t1
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws") as ws1:
        ws1.send_json({"token": t1})
        first = ws1.receive_json()
        assert first["you"] == 1 and "others" not in first
        s0 = state(client, gid, t0)
        assert act(client, gid, t0, {"version": s0["version"], "move": best_move(client, s0, t0)}).status_code == 200
        pushed = ws1.receive_json()
        while pushed["version"] == first["version"]:  # presence updates come first
            pushed = ws1.receive_json()
        assert pushed["you"] == 1 and pushed["current"] == 1 and pushed["rack"] == first["rack"][:6]
        assert "others" in pushed
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws") as bad:
        bad.send_json({"token": "nope"})
        msg = bad.receive_json()
        assert msg["type"] == "error" and msg["status"] == 403


# ----- durability, undo, records -------------------------------------------------------------------


def test_games_survive_a_restart(db: Path) -> None:
    with TestClient(create_app(db), base_url=BASE) as c:
        made = create(c, [HUMAN, GREEDY], seed=11)
        gid, token = made["id"], made["token"]
        s = wait_for(c, gid, token, my_turn)
        for _ in range(3):
            assert act(c, gid, token, {"version": s["version"], "move": best_move(c, s, token)}).status_code == 200
            s = wait_for(c, gid, token, my_turn)
    # A new app on the same file: the same game, the same version, the same rack.
    with TestClient(create_app(db), base_url=BASE) as c:
        again = state(c, gid, token)
        assert again["version"] == s["version"] and again["moves"] == s["moves"]
        assert again["rack"] == s["rack"] and best_move(c, again, token) == best_move(c, s, token)
        assert act(c, gid, token, {"version": again["version"], "move": best_move(c, again, token)}).status_code == 200
        wait_for(c, gid, token, lambda x: my_turn(x) and x["moves"] >= s["moves"] + 2)


def test_a_bot_to_move_moves_after_a_restart(db: Path) -> None:
    with TestClient(create_app(db), base_url=BASE) as c:
        made = create(c, [GREEDY, HUMAN], seed=5)
    app = create_app(db)
    app.state.hub.workers.close()  # keep the bot from moving before the restart...
    with TestClient(create_app(db), base_url=BASE) as c:  # ...and let a restarted server do it
        s = wait_for(c, made["id"], made["token"], my_turn)
        assert s["log"][0]["seat"] == 0


def test_undo_against_bots(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY], seed=9)
    gid, token = made["id"], made["token"]
    s = wait_for(client, gid, token, my_turn)
    assert not s["can_undo"]
    r = client.post(f"/api/games/{gid}/undo", json={"version": s["version"]}, headers={"X-Seat-Token": token})
    assert r.status_code == 409 and "nothing to undo" in r.json()["error"]
    before = s
    assert act(client, gid, token, {"version": s["version"], "move": best_move(client, s, token)}).status_code == 200
    s = wait_for(client, gid, token, lambda x: my_turn(x) and x["moves"] >= 2)
    assert s["can_undo"]
    stale = client.post(f"/api/games/{gid}/undo", json={"version": s["version"] - 1}, headers={"X-Seat-Token": token})
    assert stale.status_code == 409
    r = client.post(f"/api/games/{gid}/undo", json={"version": s["version"]}, headers={"X-Seat-Token": token})
    assert r.status_code == 200
    back = state(client, gid, token)
    assert back["moves"] == 0 and back["rack"] == before["rack"] and back["version"] > s["version"]
    assert best_move(client, back, token) == best_move(client, before, token)


def test_undo_needs_every_other_seat_to_be_a_bot(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN])
    gid, t0 = made["id"], made["token"]
    s = state(client, gid, t0)
    assert act(client, gid, t0, {"version": s["version"], "move": best_move(client, s, t0)}).status_code == 200
    r = client.post(f"/api/games/{gid}/undo", json={"version": s["version"] + 1}, headers={"X-Seat-Token": t0})
    assert r.status_code == 403 and "bot" in r.json()["error"]
    assert state(client, gid, t0)["moves"] == 1


def test_record_download_load_and_replay(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY], seed=4)
    gid, token = made["id"], made["token"]
    s = wait_for(client, gid, token, my_turn)
    for _ in range(4):
        assert (
            act(client, gid, token, {"version": s["version"], "move": best_move(client, s, token)}).status_code == 200
        )
        s = wait_for(client, gid, token, my_turn)
    r = client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": token})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    game = genial.Game.from_json(r.text)
    assert len(game.moves) == s["moves"] and record["seats"] == ["human", "greedy"]
    replay = client.post("/api/replay", json=record).json()
    assert len(replay["log"]) == s["moves"] and len(replay["frames"]) == s["moves"] + 1
    assert replay["frames"][-1]["tracks"] == [list(t) for t in game.tracks]
    assert '"rack"' not in json.dumps(replay)
    assert client.post("/api/replay", json={"format": "genial.game"}).status_code == 400
    assert client.post("/api/replay", content=b"[", headers={"Content-Type": "application/json"}).status_code == 400
    # Loading a record into a new game (to play on from a move).
    made2 = client.post("/api/games", json={"record": record, "upto": 2, "seats": [HUMAN, GREEDY]}).json()
    s2 = state(client, made2["id"], made2["token"])
    assert s2["moves"] == 2 and s2["version"] == 2


# ----- seats are claimed, never handed over --------------------------------------------------------


def test_the_creator_never_receives_stores_or_can_use_a_friends_token(client: TestClient, db: Path) -> None:
    made = create(client, [HUMAN, {"kind": "human", "name": "Friend"}])
    gid, mine = made["id"], made["token"]
    assert made["seat"] == 0 and mine and "token" not in made["seats"][1]
    invite = made["seats"][1]["invite"]
    # An invite is not a token: it opens no seat.
    r = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": invite})
    assert r.status_code == 403
    # Until claimed, the seat shows as not joined.
    assert state(client, gid, mine)["seats"][1]["joined"] is False
    r = claim(client, gid, invite)
    assert r.status_code == 200 and r.json()["seat"] == 1
    theirs = r.json()["token"]
    assert theirs not in (mine, invite)
    # The invite is spent: claiming it again (the creator racing the friend) gets nothing.
    again = claim(client, gid, invite)
    assert again.status_code == 409 and "invite" in again.json()["error"]
    assert "token" not in again.json()
    # Nothing the creator can read holds the friend's token: the game, the lobby, the record
    # refusal, the live state.
    s0 = state(client, gid, mine)
    assert s0["seats"][1]["joined"] is True and [e["type"] for e in s0["events"]] == ["joined"]
    for text in (
        json.dumps(made),
        json.dumps(s0),
        client.get("/api/games").text,
        client.get(f"/api/games/{gid}").text,
        client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": mine}).text,
    ):
        assert theirs not in text
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws") as ws:
        ws.send_json({"token": mine})
        assert theirs not in json.dumps(ws.receive_json())
    # Neither the token nor the invite is stored: only their hashes.
    raw = b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name))
    for secret in (mine, theirs, invite):
        assert secret.encode() not in raw
    assert hashlib.sha256(theirs.encode()).hexdigest().encode() in raw
    # The friend's rack is theirs alone; the friend acts with their token, the creator cannot.
    s1 = state(client, gid, theirs)
    assert s1["you"] == 1 and s1["rack"] != s0["rack"]
    assert act(client, gid, mine, {"version": s0["version"], "move": best_move(client, s0, mine)}).status_code == 200
    s1 = state(client, gid, theirs)
    r = act(client, gid, mine, {"version": s1["version"], "move": best_move(client, s1, theirs)})
    assert r.status_code == 403
    assert (
        act(client, gid, theirs, {"version": s1["version"], "move": best_move(client, s1, theirs)}).status_code == 200
    )


def test_claims_refuse_what_is_not_an_invite(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN])
    gid = made["id"]
    for body in ({}, {"invite": 17}, {"invite": ""}, {"invite": None}, [made["seats"][1]["invite"]]):
        r = client.post(f"/api/games/{gid}/claim", json=body)
        assert r.status_code == 400, (body, r.text)
    assert claim(client, gid, "guessed-code").status_code == 409
    assert claim(client, gid, made["token"]).status_code == 409  # a token is not an invite
    assert claim(client, "no-such-game", made["seats"][1]["invite"]).status_code == 404
    assert claim(client, gid, made["seats"][1]["invite"]).status_code == 200


def test_a_creator_who_only_watches_holds_no_seat(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN], creator_seat=None)
    assert made["seat"] is None and made["token"] is None
    assert all("invite" in s for s in made["seats"])
    r = client.post("/api/games", json={"players": 2, "seats": [HUMAN, GREEDY], "creator_seat": 1})
    assert r.status_code == 400 and "creator_seat" in r.json()["error"]


def test_replacing_a_player_is_an_act_every_seat_sees(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN, HUMAN], players=3)
    gid = made["id"]
    t0, t1, t2 = tokens(client, made)
    assert t0 and t1 and t2
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws") as ws:
        ws.send_json({"token": t1})
        assert ws.receive_json()["you"] == 1
        # Its holder gives the seat on (before anyone moved: the game is dealt anew).
        r = client.post(f"/api/games/{gid}/replace", json={"seat": 1}, headers={"X-Seat-Token": t1})
        assert r.status_code == 200, r.text
        fresh = r.json()["invite"]
        pushed = ws.receive_json()
        while not any(e["type"] == "handed" for e in pushed["events"]):
            pushed = ws.receive_json()
        assert pushed["you"] is None and "rack" not in pushed  # the replaced page now only watches
    # The old token is dead; every seat (and a spectator) sees who handed on which seat, and when.
    assert client.get(f"/api/games/{gid}", headers={"X-Seat-Token": t1}).status_code == 403
    for token in (t0, t2, None):
        events = state(client, gid, token)["events"]
        handed = [e for e in events if e["type"] == "handed"][-1]
        assert handed["seat"] == 1 and handed["by"] == 1 and handed["reason"] == "own"
        assert events[-1]["type"] == "redealt"
    assert state(client, gid)["seats"][1]["joined"] is False
    r = claim(client, gid, fresh)
    assert r.status_code == 200 and r.json()["seat"] == 1 and r.json()["token"] != t1
    assert state(client, gid, r.json()["token"])["you"] == 1
    # Only a player may hand a seat on, never a bot's seat.
    assert client.post(f"/api/games/{gid}/replace", json={"seat": 2}).status_code == 401
    for body in ({"seat": 9}, {"seat": "1"}, {"seat": True}, []):
        r = client.post(f"/api/games/{gid}/replace", json=body, headers={"X-Seat-Token": t0})
        assert r.status_code == 400, (body, r.text)
    bots = create(client, [HUMAN, GREEDY])
    r = client.post(f"/api/games/{bots['id']}/replace", json={"seat": 1}, headers={"X-Seat-Token": bots["token"]})
    assert r.status_code == 400 and "bot" in r.json()["error"]


# ----- a fair bag ---------------------------------------------------------------------------------


def test_a_client_seed_is_refused_when_two_people_play(client: TestClient) -> None:
    for seats in ([HUMAN, HUMAN], [HUMAN, GREEDY, HUMAN]):
        body = {"variant": "standard", "players": len(seats), "seed": 42, "seats": seats}
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and "leave the seed out" in r.json()["error"]
    # With one person (against bots) a seed is a choice like any other, and it is used.
    made = create(client, [HUMAN, GREEDY], seed=42)
    assert state(client, made["id"], made["token"])["rack"] == [
        [int(c) for c in t.colors] for t in genial.Game(2, 42).rack(0)
    ]
    # Without a seed the server draws one nobody chose: two games differ.
    a, b = (server_game(client, create(client, [HUMAN, HUMAN])["id"]) for _ in range(2))
    assert a.seed is not None and b.seed is not None and a.seed != b.seed
    # A record fixes the bag: two people may not start from one (a finished one they may view).
    record = json.loads(genial.play_game(["greedy", "greedy"], seed=3).to_json())
    r = client.post("/api/games", json={"record": record, "upto": 4, "seats": [HUMAN, HUMAN]})
    assert r.status_code == 400 and "knows the bag" in r.json()["error"]
    assert client.post("/api/games", json={"record": record, "seats": [HUMAN, HUMAN]}).status_code == 201


def _verify(reveal: dict[str, Any], commitment: str) -> bool:
    """The check the hosting guide gives players, on what the end screen reveals."""
    salt, seed, bag = reveal["salt"], reveal["seed"], reveal["bag"]
    return hashlib.sha256(bytes.fromhex(salt) + f"{seed}:{bag}".encode()).hexdigest() == commitment


def test_the_commitment_shown_at_the_start_verifies_at_the_end(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN])
    gid = made["id"]
    t0, t1 = tokens(client, made)
    assert t0 and t1
    committed = made["commitment"]
    assert isinstance(committed, str) and len(committed) == 64
    start = [state(client, gid, t) for t in (t0, t1, None)]
    assert all(s["commitment"] == committed for s in start)
    assert all("reveal" not in s and s["seed"] is None for s in start)
    salt = client.app.state.hub.tables[gid].salt  # type: ignore[attr-defined]
    assert all(salt not in json.dumps(s) for s in start)  # nothing shows the salt before the end
    s = start[0]
    while not s["over"]:
        token = t0 if s["current"] == 0 else t1
        s = state(client, gid, token)
        r = act(client, gid, token, {"version": s["version"], "move": best_move(client, s, token)})
        assert r.status_code == 200, r.text
        s = state(client, gid, token)
    reveal = s["reveal"]
    assert _verify(reveal, committed)
    assert not _verify({**reveal, "salt": "00" * 32}, committed)
    # The revealed bag and seed are those of the game played: the record replays with them.
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["commitment"] == committed and record["salt"] == reveal["salt"]
    assert "".join(record["bag"]) == reveal["bag"] and str(record["seed"]) == reveal["seed"]
    check = bytes.fromhex(record["salt"]) + f"{record['seed']}:{''.join(record['bag'])}".encode()
    assert hashlib.sha256(check).hexdigest() == committed
    assert genial.Game.from_json(json.dumps(record)).is_over
    assert json.loads(genial.Game(2, int(reveal["seed"])).to_json())["bag"] == record["bag"]


# ----- bots within bounds -------------------------------------------------------------------------


def test_bot_budgets_over_the_caps_are_refused(db: Path) -> None:
    limits = BotLimits(max_iterations=1000, max_think_ms=500, options=True)
    with TestClient(create_app(db, limits=limits), base_url=BASE) as c:
        assert c.get("/api/meta").json()["bot_limits"] == {"options": True, "max_iterations": 1000, "max_think_ms": 500}
        for bot, options, words in (
            (
                "mcts",
                {"iterations": 10_000_000},
                "iterations=10000000 is above this server's cap of 1000 (--max-iterations)",
            ),
            ("expert", {"iterations": 1001}, "cap of 1000 (--max-iterations)"),
            ("expert", {"time_ms": 3_600_000}, "time_ms=3600000 is above this server's cap of 500 (--max-think-ms)"),
            ("mcts", {"iterations": -1}, "iterations"),
        ):
            seat = {"kind": "bot", "bot": bot, "options": options}
            r = c.post("/api/games", json={"players": 2, "seed": 1, "seats": [HUMAN, seat]})
            assert r.status_code == 400, r.text
            assert words in r.json()["error"]
        ok = {"kind": "bot", "bot": "mcts", "options": {"iterations": 1000}}
        assert c.post("/api/games", json={"players": 2, "seed": 1, "seats": [HUMAN, ok]}).status_code == 201
    # By default the lobby offers levels only: any option is refused, levels are taken as they are.
    with TestClient(create_app(db), base_url=BASE) as c:
        assert c.get("/api/meta").json()["bot_limits"]["options"] is False
        expert = {"kind": "bot", "bot": "expert"}
        assert c.post("/api/games", json={"players": 2, "seed": 1, "seats": [HUMAN, expert]}).status_code == 201
        r = c.post(
            "/api/games", json={"players": 2, "seed": 1, "seats": [HUMAN, {**expert, "options": {"time_ms": 1}}]}
        )
        assert r.status_code == 400 and "--allow-bot-options" in r.json()["error"]


def test_the_default_caps_keep_expert_at_full_strength() -> None:
    limits = BotLimits()
    expert = genial.bots.make("expert")
    assert expert.options["time_ms"] == 0  # a budget of iterations, not of time
    # Every level's budget, read from the catalogue, fits under the default cap.
    budgets = [o.by_players for b in genial.bots.catalogue() for o in b.options if o.by_players]
    assert budgets and limits.max_iterations >= max(max(b) for b in budgets) and limits.max_think_ms >= 5000


# ----- the edge -----------------------------------------------------------------------------------


def test_a_5000_digit_number_is_a_4xx_not_a_500(client: TestClient) -> None:
    huge = "9" * 5000
    made = create(client, [HUMAN, GREEDY])
    gid, token = made["id"], made["token"]
    headers = {"Content-Type": "application/json", "X-Seat-Token": token}
    for path, body in (
        ("/api/games", f'{{"players": 2, "seed": {huge}, "seats": [{{"kind": "human"}}, {{"kind": "human"}}]}}'),
        ("/api/games", f'{{"players": {huge}, "seats": []}}'),
        (f"/api/games/{gid}/move", f'{{"version": {huge}, "move": "keep"}}'),
        (f"/api/games/{gid}/undo", f'{{"version": {huge}}}'),
        (f"/api/games/{gid}/claim", f'{{"invite": {huge}}}'),
        (f"/api/games/{gid}/replace", f'{{"seat": {huge}}}'),
        ("/api/replay", f'{{"format": "genial.game", "players": {huge}}}'),
    ):
        r = client.post(path, content=body.encode(), headers=headers)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
        assert "error" in r.json()
    # Numbers that parse but are far too large get a 4xx too.
    for body in (
        {"players": 2, "seed": 10**30, "seats": [HUMAN, GREEDY]},
        {"players": 10**30, "seats": [HUMAN]},
        {"players": 2, "seed": 1, "seats": [HUMAN, {"kind": "bot", "bot": "mcts", "options": {"width": 10**30}}]},
    ):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)


def test_malformed_input_anywhere_is_a_4xx_with_a_json_error(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY])
    gid, token = made["id"], made["token"]
    bodies: list[bytes] = [
        b"",
        b"{",
        b"[]",
        b"null",
        b"17",
        b'"text"',
        b"\xff\xfe",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"version": 1e999, "move": "keep"}',
        b'{"version": NaN}',
        b'{"seats": {"a": 1}}',
        b'{"record": "x"}',
        b'{"record": {"moves": 5}}',
        b'{"variant": [1], "seats": []}',
        b'{"players": 2, "seats": [null, 1]}',
        b'{"players": 2, "seats": [{"kind": "bot", "bot": 5}, {"kind": "human"}]}',
        b'{"players": 2, "seats": [{"kind": "bot", "bot": "mcts", "options": [1]}, {"kind": "human"}]}',
        b'{"players": 2, "seats": [{"kind": "human", "name": {"x": 1}}, {"kind": "human"}]}',
        b'{"invite": ["a"]}',
        b'{"seat": null}',
        b'{"upto": -1, "record": {}}',
    ]
    paths = ["/api/games", "/api/replay"] + [
        f"/api/games/{gid}/{what}" for what in ("move", "undo", "claim", "replace")
    ]
    for path in paths:
        for body in bodies:
            r = client.post(path, content=body, headers={"Content-Type": "application/json", "X-Seat-Token": token})
            assert 400 <= r.status_code < 500, (path, body[:60], r.status_code, r.text[:200])
            assert isinstance(r.json()["error"], str)
    for query in ("tile=", "tile=%00", "tile=RBX", "tile=" + "R" * 10_000, "x=1"):
        r = client.get(f"/api/games/{gid}/options?{query}", headers={"X-Seat-Token": token})
        assert 400 <= r.status_code < 500 and "error" in r.json()
    for game_id in ("%00", "x" * 500, "..%2F..%2Fetc"):
        assert client.get(f"/api/games/{game_id}").status_code == 404


def test_a_non_string_websocket_token_is_an_error(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY])
    for hello in ({"token": 17}, {"token": ["x"]}, {"token": {"a": 1}}, {"token": True}):
        with client.websocket_connect(f"ws://127.0.0.1/api/games/{made['id']}/ws") as ws:
            ws.send_json(hello)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["status"] == 400 and "token" in msg["error"]
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{made['id']}/ws") as ws:
        ws.send_text('{"token": ' + "9" * 5000 + "}")
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 400
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{made['id']}/ws") as ws:  # null: a spectator
        ws.send_json({"token": None})
        assert ws.receive_json()["you"] is None


def test_posts_must_be_json(client: TestClient) -> None:
    body = json.dumps({"players": 2, "seed": 1, "seats": [HUMAN, GREEDY]})
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": ctype} if ctype else {}
        r = client.post("/api/games", content=body, headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == []
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [r.json()["id"]]


def test_a_foreign_origin_or_host_is_refused(db: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    rules = EdgeRules(hosts=frozenset({"games.example.org"}), origins=frozenset({"https://friends.example.net"}))
    body = {"players": 2, "seed": 1, "seats": [HUMAN, GREEDY]}
    with TestClient(create_app(db, edge=rules), base_url=BASE) as c:
        # Host: localhost, IP addresses and the names the operator serves; no other name.
        for host, ok in (
            ("127.0.0.1:8000", True),
            ("localhost", True),
            ("[::1]:8000", True),
            ("games.example.org", True),
            ("GAMES.example.org:443", True),
            ("evil.example", False),
            ("games.example.org.evil.example", False),
            ("", False),
            ("a:b", False),
            ("[::1", False),
        ):
            r = c.get("/api/meta", headers={"Host": host})
            assert (r.status_code == 200) == ok, (host, r.status_code)
            if not ok:
                assert r.status_code == 400 and "host" in r.json()["error"]
        # Origin: the page's own, or one the operator lists; programs (no Origin) may post.
        for origin, host, ok in (
            ("https://games.example.org", "games.example.org", True),
            ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
            ("https://friends.example.net", "games.example.org", True),
            ("https://evil.example", "games.example.org", False),
            ("http://127.0.0.1:9999", "127.0.0.1:8000", False),
            ("null", "127.0.0.1:8000", False),
            (None, "127.0.0.1:8000", True),
        ):
            headers = {"Host": host, **({"Origin": origin} if origin else {})}
            r = c.post("/api/games", json=body, headers=headers)
            assert (r.status_code == 201) == ok, (origin, host, r.status_code, r.text)
            if not ok:
                assert r.status_code == 403 and "pages at" in r.json()["error"]
        gid = c.post("/api/games", json=body).json()["id"]
        before = len(c.get("/api/games").json()["games"])
        # A cross-site form post (text/plain, foreign Origin) creates nothing.
        r = c.post(
            "/api/games",
            content=json.dumps(body),
            headers={"Content-Type": "text/plain", "Origin": "https://evil.example"},
        )
        assert r.status_code == 403
        assert len(c.get("/api/games").json()["games"]) == before
        # A WebSocket from a foreign page (or to a foreign Host) is refused before it is accepted.
        for headers in ({"Origin": "https://evil.example"}, {"Host": "evil.example"}):
            with (
                pytest.raises(WebSocketDisconnect),
                c.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws", headers=headers) as ws,
            ):
                ws.receive_json()
        with c.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws", headers={"Origin": "http://127.0.0.1"}) as ws:
            ws.send_json({"token": None})
            assert ws.receive_json()["id"] == gid


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    big = b'{"players": 2, "seats": [], "pad": "' + b"x" * 2_000_000 + b'"}'
    r = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server stops reading at the limit
        yield b'{"pad": "'
        for _ in range(100):
            yield b"x" * 100_000
        yield b'"}'

    r = client.post("/api/replay", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]
    r = client.post("/api/games", content=b"{}", headers={"Content-Type": "application/json", "Content-Length": "x"})
    assert 400 <= r.status_code < 500


def test_game_creation_is_rate_limited_per_address(db: Path) -> None:
    with TestClient(create_app(db, edge=EdgeRules(new_games_per_minute=3)), base_url=BASE) as c:
        body = {"players": 2, "seed": 1, "seats": [HUMAN, GREEDY]}
        assert [c.post("/api/games", json=body).status_code for _ in range(3)] == [201] * 3
        r = c.post("/api/games", json=body)
        assert r.status_code == 429 and "at most 3 a minute" in r.json()["error"]
        assert len(c.get("/api/games").json()["games"]) == 3
        assert c.get("/api/meta").status_code == 200  # other requests are not limited


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_the_database_is_private(tmp_path: Path) -> None:
    db = tmp_path / "new-folder" / "games.sqlite3"
    with TestClient(create_app(db), base_url=BASE) as c:
        create(c, [HUMAN, GREEDY])
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    for extra in db.parent.iterdir():
        assert stat.S_IMODE(extra.stat().st_mode) & 0o077 == 0, extra
    # A file an older version made 0644 is made private.
    old = tmp_path / "old.sqlite3"
    sqlite3.connect(old).close()
    old.chmod(0o644)
    with TestClient(create_app(old), base_url=BASE):
        pass
    assert stat.S_IMODE(old.stat().st_mode) == 0o600


# ----- what the page is sent (genial.web.views) ----------------------------------------------


def test_placements_are_ordered_as_the_terminal_lists_them(client: TestClient) -> None:
    from genial.choices import rank_choices

    made = create(client, [HUMAN, GREEDY])
    gid, token = made["id"], made["token"]
    s = state(client, gid, token)
    game = genial.Game(2, 7)
    for slot, tile in enumerate(game.rack(0)):
        sent = options(client, gid, token, slot).json()["moves"]
        assert sent == [str(c.move) for c in rank_choices(game, tile)]
    assert s["rack_labels"][0] == " and ".join(str(c) for c in game.rack(0)[0].colors)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "players"), [("standard", 2), ("standard", 3), ("team", 4), ("solo", 1), ("duel", 2)]
)
def test_placement_columns_are_the_cores_previews_ranked_through_whole_games(variant: str, players: int) -> None:
    """Every tile's placements through a game (bonus placements, wins and doubles come up):
    the terminal's order, and per placement the points, bonuses and notes of the preview."""
    from genial.choices import placement_key, rank_choices
    from genial.web.views import placements

    game = genial.Game(variant=variant, players=players, seed=11)
    seen = {"bonus": 0, "double": 0, "wins": 0}
    while not game.is_over:
        if game.phase in ("place", "bonus"):
            for slot, tile in enumerate(game.rack(game.current_player)):
                previews = {str(p.move): p for p in game.previews(tile)}
                got = placements(game, tile, slot)
                expected = [str(p.move) for p in sorted(previews.values(), key=placement_key)]
                assert got["moves"] == expected == [str(c.move) for c in rank_choices(game, tile)]
                assert got["colors"] == [int(c) for c in tile.colors] and (got["back"] is None) == (not tile.is_double)
                for row in placement_rows(got):
                    p = previews[row["move"]]
                    assert sorted(row["points"]) == sorted(p.points) and row["bonus"] == p.bonuses_earned
                    notes = (["wins the game at once"] if p.wins else []) + (
                        [f"Ingenious! {p.bonuses_earned} bonus tile{'s' if p.bonuses_earned > 1 else ''}"]
                        if p.bonuses_earned
                        else []
                    )
                    assert row["notes"] == notes
                    seen["bonus"] += p.bonuses_earned > 0
                    seen["wins"] += p.wins
                seen["double"] += tile.is_double
        game.play(genial.choices.rank_choices(game)[0].move)
    assert seen["double"] and (seen["bonus"] or variant not in ("standard", "team")), seen


def test_the_board_is_drawn_where_genial_geometry_puts_it(client: TestClient) -> None:
    from genial.geometry import Layout

    board = client.get("/api/meta").json()["board"]
    cells = {(c[0], c[1]): c for c in board["cells"]}
    assert set(cells) == set(genial._core.board_cells())
    layout = Layout(7, board["size"], 0, 0)
    ox, oy = layout.center((0, 0))
    for (q, r), c in cells.items():
        x, y = layout.center((q, r))
        assert abs(c[2] - (x - ox)) < 1e-3 and abs(c[3] - (y - oy)) < 1e-3
        assert genial.Board(players={5: 2, 6: 3, 7: 4}[c[4]]).in_zone((q, r))
    # The six directions of the core, clockwise on the screen (y grows downwards), each with
    # the pixel offset of the neighbour.
    deltas = [tuple(d["delta"]) for d in board["directions"]]
    assert sorted(deltas) == sorted(genial._core.directions())
    import math

    angles = [math.atan2(d["offset"][1], d["offset"][0]) % (2 * math.pi) for d in board["directions"]]
    assert angles == sorted(angles) and board["directions"][0]["name"] == "east"
    for d in board["directions"]:
        x, y = layout.center(tuple(d["delta"]))
        assert abs(d["offset"][0] - (x - ox)) < 1e-3 and abs(d["offset"][1] - (y - oy)) < 1e-3
        assert d["outline"].count("L") == 9 and d["rim"].startswith("M")


def test_seeds_travel_as_text(client: TestClient) -> None:
    big = 2**63 - 1  # a JavaScript number would round it to 2**63
    made = create(client, [HUMAN, GREEDY], seed=str(big))
    token = made["token"]
    record = client.get(f"/api/games/{made['id']}/record", headers={"X-Seat-Token": token}).json()
    assert record["seed"] == big
    assert client.post("/api/replay", json=record).json()["seed"] == str(big)
    for bad in ("12a", "-1", "1e9", "9" * 30, " 7"):
        r = client.post("/api/games", json={"players": 2, "seed": bad, "seats": [HUMAN, GREEDY]})
        assert r.status_code == 400 and "seed" in r.json()["error"], bad
    # A finished game shows its seed, as text.
    finished = genial.play_game(["greedy", "greedy"], seed=big)
    made = client.post("/api/games", json={"record": json.loads(finished.to_json()), "seats": [HUMAN, GREEDY]}).json()
    s = state(client, made["id"], made["token"])
    assert s["over"] and s["seed"] == str(big)


def test_a_swap_offer_says_why(client: TestClient) -> None:
    # Seed 1, greedy against greedy: after 16 moves seat 0 is offered a swap.
    finished = genial.play_game(["greedy", "greedy"], seed=1)
    record = json.loads(finished.to_json())
    made = client.post("/api/games", json={"record": record, "upto": 16, "seats": [HUMAN, GREEDY]}).json()
    s = state(client, made["id"], made["token"])
    assert s["phase"] == "swap_offer" and s["current"] == 0 and "swap" in s["others"]
    game = genial.Game(2, 1)
    for m in finished.moves[:16]:
        game.play(m)
    lowest = min(game.scores[0])
    names = [str(c) for c in genial.Color if game.scores[0][c] == lowest]
    assert not any(c in t.colors for t in game.rack(0) for c in genial.Color if game.scores[0][c] == lowest)
    assert s["swap_why"].startswith("none of your tiles shows")
    assert all(n in s["swap_why"] for n in names)
    assert s["status"]["kind"] == "swap" and s["swap_why"] in s["status"]["text"]
    # The others learn nothing of the offer (it would tell them no tile of seat 0 shows its
    # lowest colour): to them it is seat 0's turn, as any other, in words and in the phase.
    other = state(client, made["id"])  # a spectator
    assert "swap_why" not in other and other["status"]["text"] == "Waiting: Player 1 is placing"
    assert other["phase"] == "place" and "swap" not in json.dumps(other["status"])
    assert client.get("/api/games").json()["games"][0]["phase"] == "place"
    # Seat 0 keeps its rack: "kept the rack" is seat 0's to see, not the others'.
    assert act(client, made["id"], made["token"], {"version": s["version"], "move": "keep"}).status_code == 200
    mine = state(client, made["id"], made["token"])
    assert any(e["kind"] == "keep" for e in mine["log"])
    assert not any(e["kind"] == "keep" or "kept" in e["text"] for e in state(client, made["id"])["log"])
    # Two people at the table: the status names whose turn it is.
    two = create(client, [HUMAN, HUMAN])
    t0, t1 = tokens(client, two)
    assert t0 and t1
    s0 = state(client, two["id"], t0)
    while s0["current"] == 0:  # a placement, and a swap offer declined if one comes
        assert (
            act(client, two["id"], t0, {"version": s0["version"], "move": best_move(client, s0, t0)}).status_code == 200
        )
        s0 = state(client, two["id"], t0)
    other = state(client, two["id"], t1)
    assert other["status"] == {"kind": "mine", "text": "Your turn, Player 2: pick a tile and place it"}


def test_the_end_is_explained_in_words(client: TestClient) -> None:
    finished = genial.play_game(["greedy", "greedy", "greedy"], seed=5)
    made = client.post(
        "/api/games", json={"record": json.loads(finished.to_json()), "seats": [HUMAN, GREEDY, GREEDY]}
    ).json()
    s = state(client, made["id"], made["token"])
    end = s["ending"]
    assert end["title"] == "Game over" and end["reason"].startswith("The game ended: ")
    assert [p["place"] for p in end["ranking"]] == list(range(1, len(finished.ranking()) + 1))
    assert len(end["steps"]) == len(finished.ranking()) - 1
    for step in end["steps"]:
        assert len(step["rows"]) == 2 and all(len(r["cells"]) == 6 for r in step["rows"])
        assert " 1 colour" not in step["text"] and " 1 colours" not in step["text"]
    # The solo game: a result, not a ranking.
    solo = genial.play_game(["greedy"], seed=3, variant="solo")
    made = client.post("/api/games", json={"record": json.loads(solo.to_json()), "seats": [HUMAN]}).json()
    end = state(client, made["id"], made["token"])["ending"]
    assert end["title"] == f"Result: {solo.lowest_score()}" and end["ranking"] == [] and end["steps"] == []


def test_teams_and_tracks_are_named_by_the_server(client: TestClient) -> None:
    made = create(
        client,
        [{"kind": "human", "name": "Ann"}, GREEDY, {"kind": "human", "name": "Cy"}, GREEDY],
        variant="team",
        players=4,
    )
    s = state(client, made["id"], made["token"])
    rules = genial.Rules("team", 4)
    assert [v["seats"] for v in s["track_views"]] == [rules.seats_of_track(t) for t in range(rules.track_count)]
    assert s["track_views"][0]["title"].startswith("Team A") and "Ann" in s["track_views"][0]["title"]
    assert [seat["team"] for seat in s["seats"]] == [f"Team {'AB'[rules.team_of(p)]}" for p in range(4)]
    assert [v["mine"] for v in s["track_views"]] == [True, False]
    assert "ranks each team" in s["scoring"] and "0 to 36" in s["scoring"]
    duel = create(client, [HUMAN, GREEDY], variant="duel")
    d = state(client, duel["id"], duel["token"])
    (track,) = d["track_views"]
    assert track["signed"] and track["min"] == genial.Rules("duel").track_min and len(track["tokens"]) == 6
    assert "greedy (left) and Player 1 (right)" in d["scoring"] and "markers" in d["scoring"]


def test_the_hint_is_the_terminals(client: TestClient) -> None:
    from genial.choices import ordered_choices

    made = create(client, [HUMAN, HUMAN])
    gid = made["id"]
    t0, t1 = tokens(client, made)
    assert t0 and t1
    game = genial.Game(2, server_game(client, gid).seed)
    expected = ordered_choices(game)[0]  # what `genial play`'s hint says in this position
    r = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t0})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["move"] == str(expected.move) and hint["version"] == 0 and hint["text"].startswith("Hint: ")
    # The slot and the way to lay it name the same placement the options list has.
    rows = placement_rows(options(client, gid, t0, hint["slot"]).json())
    (row,) = [p for p in rows if p["move"] == hint["move"]]
    assert hint["anchor"] in row["anchors"]
    assert client.get(f"/api/games/{gid}/hint").status_code == 401
    assert client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t1}).status_code == 403
    # The hint is a legal move, and after it the next seat gets its own.
    assert act(client, gid, t0, {"version": 0, "move": hint["move"]}).status_code == 200
    game.play(hint["move"])
    nxt = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t1}).json()
    assert nxt["version"] == 1 and nxt["move"] == str(ordered_choices(game)[0].move)


def test_the_access_log_names_each_request_but_no_secret(db: Path, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(db, access_log=True), base_url=BASE) as c, caplog.at_level("INFO", "genial.access"):
        made = create(c, [HUMAN, GREEDY])
        token = made["token"]
        c.get(f"/api/games/{made['id']}/options", params={"tile": "RB"}, headers={"X-Seat-Token": token})
        c.get("/api/meta", headers={"Host": "evil.example"})
    lines = [r.getMessage() for r in caplog.records if r.name == "genial.access"]
    assert any('"POST /api/games" 201' in line for line in lines)
    assert any(f'"GET /api/games/{made["id"]}/options" ' in line for line in lines)
    assert any('"GET /api/meta" 400' in line for line in lines)
    assert all(line.split()[1] == "testclient" for line in lines)  # the client's address
    assert not any(token in line or "tile=" in line for line in lines)


def test_games_untouched_for_keep_days_are_deleted(db: Path) -> None:
    with TestClient(create_app(db, keep_days=30), base_url=BASE) as c:
        old, fresh = create(c, [HUMAN, GREEDY])["id"], create(c, [HUMAN, GREEDY])["id"]
        hub = c.app.state.hub  # type: ignore[attr-defined]
        with hub.store._db:  # a month and a day without a move
            hub.store._db.execute("UPDATE games SET updated = updated - 31 * 86400 WHERE id = ?", (old,))
        assert hub.lobby.prune() == [old]
        assert c.get(f"/api/games/{old}").status_code == 404
        assert c.get(f"/api/games/{fresh}").status_code == 200
