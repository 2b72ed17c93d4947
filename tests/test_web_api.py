"""`genial serve`'s HTTP API, driven in process (Starlette's TestClient): games, actions,
the 4xx answers, hidden racks, durability across restarts, undo and records."""

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

with warnings.catch_warnings():  # starlette >= 1.x suggests httpx2 over httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import genial
from genial.web.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LETTERS = "ROYGBP"
HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    body = {"variant": "standard", "players": len(seats), "seed": 7, "seats": seats, **options}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


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


def best_move(client: TestClient, s: dict[str, Any], token: str) -> str:
    """The first rack tile that fits, at its best placement (the server's first); keep
    when offered a swap. The move's text is the one the server sent."""
    if s["phase"] == "swap_offer":
        return "keep"
    for slot in range(len(s["rack"])):
        rows = options(client, s["id"], token, slot).json()["placements"]
        if rows:
            return str(rows[0]["move"])
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
    gid, token = made["id"], made["seats"][0]["token"]
    assert made["seats"][1]["token"] is None
    s = state(client, gid, token)
    assert s["you"] == 0 and s["current"] == 0 and len(s["rack"]) == 6
    # Every placement offered is legal in the engine, with the points the engine gives it.
    game = genial.Game(2, 7)
    legal = {m for m in game.legal_moves()}
    assert s["placement_count"] == len(legal) and s["others"] == []
    offered = set()
    for slot, (a, b) in enumerate(s["rack"]):
        tile = LETTERS[a] + LETTERS[b]
        rows = options(client, gid, token, slot).json()["placements"]
        assert rows == options(client, gid, token, tile).json()["placements"]
        for row in rows:
            move = genial.Move.parse(row["move"])
            assert move in legal and str(move.tile) == str(genial.Tile.parse(tile))
            result = game.clone().play(move)
            # The tile's first colour on the first cell, its points aligned with the cells.
            assert row["colors"][0] == a and row["slot"] == slot
            by_cell = dict(zip(map(tuple, move.cells), result.points))
            assert [by_cell[tuple(c)] for c in row["cells"]] == row["points"]
            assert row["bonus"] == result.bonuses_earned and row["total"] == sum(result.points)
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
    gid, token = made["id"], made["seats"][0]["token"]
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
    t0, t1 = made["seats"][0]["token"], made["seats"][1]["token"]
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
            "iterations",
        ),
        ({"variant": "standard", "players": 2, "seats": [HUMAN, {"kind": "alien"}]}, "kind must be"),
        ({"variant": "standard", "players": 2, "swap_timing": "never", "seats": [HUMAN, HUMAN]}, "cannot set up"),
        ({"record": {"format": "genial.game"}, "seats": [HUMAN, HUMAN]}, "record cannot be loaded"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert words in r.json()["error"], (words, r.json())
    assert client.get("/api/games").json()["games"] == []


# ----- hidden information ------------------------------------------------------------------------


def test_a_rack_goes_only_to_its_seat(client: TestClient) -> None:
    made = create(client, [HUMAN, HUMAN, GREEDY], players=3)
    gid = made["id"]
    t0, t1 = made["seats"][0]["token"], made["seats"][1]["token"]
    game = genial.Game(3, 7)
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
    t0, t1 = made["seats"][0]["token"], made["seats"][1]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws1:
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
    with client.websocket_connect(f"/api/games/{gid}/ws") as bad:
        bad.send_json({"token": "nope"})
        msg = bad.receive_json()
        assert msg["type"] == "error" and msg["status"] == 403


# ----- durability, undo, records -------------------------------------------------------------------


def test_games_survive_a_restart(db: Path) -> None:
    with TestClient(create_app(db)) as c:
        made = create(c, [HUMAN, GREEDY], seed=11)
        gid, token = made["id"], made["seats"][0]["token"]
        s = wait_for(c, gid, token, my_turn)
        for _ in range(3):
            assert act(c, gid, token, {"version": s["version"], "move": best_move(c, s, token)}).status_code == 200
            s = wait_for(c, gid, token, my_turn)
    # A new app on the same file: the same game, the same version, the same rack.
    with TestClient(create_app(db)) as c:
        again = state(c, gid, token)
        assert again["version"] == s["version"] and again["moves"] == s["moves"]
        assert again["rack"] == s["rack"] and best_move(c, again, token) == best_move(c, s, token)
        assert act(c, gid, token, {"version": again["version"], "move": best_move(c, again, token)}).status_code == 200
        wait_for(c, gid, token, lambda x: my_turn(x) and x["moves"] >= s["moves"] + 2)


def test_a_bot_to_move_moves_after_a_restart(db: Path) -> None:
    with TestClient(create_app(db)) as c:
        made = create(c, [GREEDY, HUMAN], seed=5)
    app = create_app(db)
    app.state.hub.pool.shutdown()  # keep the bot from moving before the restart...
    with TestClient(create_app(db)) as c:  # ...and let a restarted server do it
        s = wait_for(c, made["id"], made["seats"][1]["token"], my_turn)
        assert s["log"][0]["seat"] == 0


def test_undo_against_bots(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY], seed=9)
    gid, token = made["id"], made["seats"][0]["token"]
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
    gid, t0 = made["id"], made["seats"][0]["token"]
    s = state(client, gid, t0)
    assert act(client, gid, t0, {"version": s["version"], "move": best_move(client, s, t0)}).status_code == 200
    r = client.post(f"/api/games/{gid}/undo", json={"version": s["version"] + 1}, headers={"X-Seat-Token": t0})
    assert r.status_code == 403 and "bot" in r.json()["error"]
    assert state(client, gid, t0)["moves"] == 1


def test_record_download_load_and_replay(client: TestClient) -> None:
    made = create(client, [HUMAN, GREEDY], seed=4)
    gid, token = made["id"], made["seats"][0]["token"]
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
    assert client.post("/api/replay", content=b"[").status_code == 400
    # Loading a record into a new game (to play on from a move).
    made2 = client.post("/api/games", json={"record": record, "upto": 2, "seats": [HUMAN, HUMAN]}).json()
    s2 = state(client, made2["id"], made2["seats"][0]["token"])
    assert s2["moves"] == 2 and s2["version"] == 2


# ----- what the page is sent (genial.web.views) ----------------------------------------------


def test_placements_are_ordered_as_the_terminal_lists_them(client: TestClient) -> None:
    from genial.choices import rank_choices

    made = create(client, [HUMAN, GREEDY])
    gid, token = made["id"], made["seats"][0]["token"]
    s = state(client, gid, token)
    game = genial.Game(2, 7)
    for slot, tile in enumerate(game.rack(0)):
        sent = [p["move"] for p in options(client, gid, token, slot).json()["placements"]]
        assert sent == [str(c.move) for c in rank_choices(game, tile)]
    assert s["rack_labels"][0] == " and ".join(str(c) for c in game.rack(0)[0].colors)


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
    token = made["seats"][0]["token"]
    record = client.get(f"/api/games/{made['id']}/record", headers={"X-Seat-Token": token}).json()
    assert record["seed"] == big
    assert client.post("/api/replay", json=record).json()["seed"] == str(big)
    for bad in ("12a", "-1", "1e9", "9" * 30, " 7"):
        r = client.post("/api/games", json={"players": 2, "seed": bad, "seats": [HUMAN, GREEDY]})
        assert r.status_code == 400 and "seed" in r.json()["error"], bad
    # A finished game shows its seed, as text.
    finished = genial.play_game(["greedy", "greedy"], seed=big)
    made = client.post("/api/games", json={"record": json.loads(finished.to_json()), "seats": [HUMAN, GREEDY]}).json()
    s = state(client, made["id"], made["seats"][0]["token"])
    assert s["over"] and s["seed"] == str(big)


def test_a_swap_offer_says_why(client: TestClient) -> None:
    # Seed 1, greedy against greedy: after 16 moves seat 0 is offered a swap.
    finished = genial.play_game(["greedy", "greedy"], seed=1)
    record = json.loads(finished.to_json())
    made = client.post("/api/games", json={"record": record, "upto": 16, "seats": [HUMAN, HUMAN]}).json()
    s = state(client, made["id"], made["seats"][0]["token"])
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
    other = state(client, made["id"], made["seats"][1]["token"])
    assert "swap_why" not in other and "decides on a swap" in other["status"]["text"]
    # Two people at the table: the status names whose turn it is.
    game.play("keep")
    assert (
        act(client, made["id"], made["seats"][0]["token"], {"version": s["version"], "move": "keep"}).status_code == 200
    )
    other = state(client, made["id"], made["seats"][1]["token"])
    assert other["status"] == {"kind": "mine", "text": "Your turn, Player 2: pick a tile and place it"}


def test_the_end_is_explained_in_words(client: TestClient) -> None:
    finished = genial.play_game(["greedy", "greedy", "greedy"], seed=5)
    made = client.post(
        "/api/games", json={"record": json.loads(finished.to_json()), "seats": [HUMAN, GREEDY, GREEDY]}
    ).json()
    s = state(client, made["id"], made["seats"][0]["token"])
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
    end = state(client, made["id"], made["seats"][0]["token"])["ending"]
    assert end["title"] == f"Result: {solo.result()}" and end["ranking"] == [] and end["steps"] == []


def test_teams_and_tracks_are_named_by_the_server(client: TestClient) -> None:
    made = create(
        client,
        [{"kind": "human", "name": "Ann"}, GREEDY, {"kind": "human", "name": "Cy"}, GREEDY],
        variant="team",
        players=4,
    )
    s = state(client, made["id"], made["seats"][0]["token"])
    rules = genial.Rules("team", 4)
    assert [v["seats"] for v in s["track_views"]] == [rules.seats_of_track(t) for t in range(rules.track_count)]
    assert s["track_views"][0]["title"].startswith("Team A") and "Ann" in s["track_views"][0]["title"]
    assert [seat["team"] for seat in s["seats"]] == [f"Team {'AB'[rules.team_of(p)]}" for p in range(4)]
    assert [v["mine"] for v in s["track_views"]] == [True, False]
    assert "ranks each team" in s["scoring"] and "0 to 36" in s["scoring"]
    duel = create(client, [HUMAN, GREEDY], variant="duel")
    d = state(client, duel["id"], duel["seats"][0]["token"])
    (track,) = d["track_views"]
    assert track["signed"] and track["min"] == genial.Rules("duel").track_min and len(track["tokens"]) == 6
    assert "greedy (left) and Player 1 (right)" in d["scoring"] and "markers" in d["scoring"]


def test_the_hint_is_the_terminals(client: TestClient) -> None:
    from genial.choices import ordered_choices

    made = create(client, [HUMAN, HUMAN])
    gid, t0, t1 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    game = genial.Game(2, 7)
    expected = ordered_choices(game)[0]  # what `genial play`'s hint says in this position
    r = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t0})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["move"] == str(expected.move) and hint["version"] == 0 and hint["text"].startswith("Hint: ")
    # The slot and the way to lay it name the same placement the options list has.
    rows = options(client, gid, t0, hint["slot"]).json()["placements"]
    (row,) = [p for p in rows if p["move"] == hint["move"]]
    assert hint["anchor"] in row["anchors"]
    assert client.get(f"/api/games/{gid}/hint").status_code == 401
    assert client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t1}).status_code == 403
    # The hint is a legal move, and after it the next seat gets its own.
    assert act(client, gid, t0, {"version": 0, "move": hint["move"]}).status_code == 200
    game.play(hint["move"])
    nxt = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t1}).json()
    assert nxt["version"] == 1 and nxt["move"] == str(ordered_choices(game)[0].move)
