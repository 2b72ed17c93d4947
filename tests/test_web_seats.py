"""Seats that only their holder can open (issue 29, items 1 and 2), driven in process: the
creator who opens a friend's seat never sees a rack the friend then plays, a held seat
cannot be taken by another player, and a seat is handed on only by its holder, once its
holder has been away for the table's time, or once its holder has left."""

from __future__ import annotations

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

from genial.web.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BASE = "http://127.0.0.1"
HUMAN = {"kind": "human"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3"), base_url=BASE) as c:
        yield c


def create(client: TestClient, players: int, **options: Any) -> dict[str, Any]:
    body = {"variant": "standard", "players": players, "seats": [HUMAN] * players, **options}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def claim(client: TestClient, gid: str, code: str) -> str:
    r = client.post(f"/api/games/{gid}/claim", json={"invite": code})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def view(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def hand_on(client: TestClient, gid: str, token: str, seat: int) -> Any:
    return client.post(f"/api/games/{gid}/replace", json={"seat": seat}, headers={"X-Seat-Token": token})


def first_move(client: TestClient, gid: str, token: str) -> None:
    s = view(client, gid, token)
    for slot in range(len(s["rack"])):
        moves = client.get(f"/api/games/{gid}/options", params={"slot": slot}, headers={"X-Seat-Token": token})
        if moves.json()["moves"]:
            r = client.post(
                f"/api/games/{gid}/move",
                json={"version": s["version"], "move": moves.json()["moves"][0]},
                headers={"X-Seat-Token": token},
            )
            assert r.status_code == 200, r.text
            return
    raise AssertionError("no placement")


def make_away(client: TestClient, gid: str, seat: int, seconds: float) -> None:
    """The seat's holder was last seen ``seconds`` ago (instead of waiting that long)."""
    client.app.state.hub.tables[gid].seen_at[seat] -= seconds  # type: ignore[attr-defined]


def test_the_creator_never_sees_a_rack_the_friend_then_plays(client: TestClient) -> None:
    made = create(client, 2)
    gid, t0 = made["id"], made["token"]
    first = made["commitment"]
    # The creator uses "Play here" on the friend's invite and reads the friend's rack.
    t1 = claim(client, gid, made["seats"][1]["invite"])
    peeked = view(client, gid, t1)["rack"]
    bag_before = list(client.app.state.hub.tables[gid].bag)  # type: ignore[attr-defined]
    # With the creator's own token, the seat the creator now holds under another token is
    # still held: it cannot be handed on by "another" player.
    r = hand_on(client, gid, t0, 1)
    assert r.status_code == 409 and "holds this seat" in r.json()["error"], r.text
    # Its holder (the creator, with the seat's own token) may give it on: before anyone has
    # moved, that deals anew from a fresh bag under a fresh commitment.
    r = hand_on(client, gid, t1, 1)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["redealt"] is True and got["commitment"] != first
    table = client.app.state.hub.tables[gid]  # type: ignore[attr-defined]
    assert table.bag != bag_before
    friend = claim(client, gid, got["invite"])
    seen = view(client, gid, friend)
    assert seen["rack"] != peeked or table.bag[6:12] != bag_before[6:12]
    # Every seat, and a watcher, sees the new commitment announced.
    for token in (t0, friend, None):
        s = view(client, gid, token)
        assert s["commitment"] == got["commitment"]
        assert any(e["type"] == "redealt" and e["commitment"] == got["commitment"] for e in s["events"])
    assert "inherited" not in seen  # a fresh rack: nobody saw it


def test_a_held_seat_cannot_be_taken_by_another_player(client: TestClient) -> None:
    made = create(client, 3)
    gid, t0 = made["id"], made["token"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    t2 = claim(client, gid, made["seats"][2]["invite"])
    first_move(client, gid, t0)
    # B tries to take C's seat, to read C's rack and play it: refused, C keeps the seat.
    for by in (t0, t1):
        r = hand_on(client, gid, by, 2)
        assert r.status_code == 409 and "holds this seat" in r.json()["error"], r.text
    assert view(client, gid, t2)["you"] == 2
    # Away, but not for the table's time: still refused.
    make_away(client, gid, 2, 60)
    assert hand_on(client, gid, t1, 2).status_code == 409
    # C comes back: the clock starts again.
    assert view(client, gid, t2)["you"] == 2
    assert view(client, gid, t1)["seats"][2]["hand_on_in_s"] >= 590
    # Away for longer than the table's time: B may hand it on; every seat sees it, and the
    # newcomer is told the rack was held by someone else (the game has begun: no new deal).
    make_away(client, gid, 2, 601)
    r = hand_on(client, gid, t1, 2)
    assert r.status_code == 200 and r.json()["redealt"] is False, r.text
    assert client.get(f"/api/games/{gid}", headers={"X-Seat-Token": t2}).status_code == 403
    for token in (t0, t1, None):
        e = view(client, gid, token)["events"][-1]
        assert (e["type"], e["seat"], e["by"], e["reason"], e["seen"]) == ("handed", 2, 1, "away", True)
    newcomer = claim(client, gid, r.json()["invite"])
    s = view(client, gid, newcomer)
    assert s["you"] == 2 and "held this seat before you" in s["inherited"]
    assert s["events"][-1]["type"] == "joined" and s["events"][-1]["inherited"] is True


def test_a_page_left_open_keeps_its_seat(client: TestClient) -> None:
    made = create(client, 2)
    gid, t0 = made["id"], made["token"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    first_move(client, gid, t0)
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{gid}/ws") as ws:
        ws.send_json({"token": t1})
        assert ws.receive_json()["you"] == 1
        make_away(client, gid, 1, 10_000)  # last request long ago, but the page is open
        assert hand_on(client, gid, t0, 1).status_code == 409
    assert view(client, gid, t1)["you"] == 1


def test_a_seat_left_may_be_handed_on_by_anyone(client: TestClient) -> None:
    made = create(client, 2, away_minutes=0)  # this table never hands on a seat for being away
    gid, t0 = made["id"], made["token"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    first_move(client, gid, t0)
    make_away(client, gid, 1, 10**6)
    r = hand_on(client, gid, t0, 1)
    assert r.status_code == 409 and "never hands on a seat for being away" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/leave", json={}, headers={"X-Seat-Token": t1})
    assert r.status_code == 200 and r.json()["redealt"] is False, r.text
    s = view(client, gid, t0)
    assert s["seats"][1]["vacant"] is True and s["seats"][1]["hand_on_in_s"] == 0
    assert s["events"][-1]["type"] == "left"
    r = hand_on(client, gid, t0, 1)
    assert r.status_code == 200 and r.json()["redealt"] is False
    newcomer = claim(client, gid, r.json()["invite"])
    assert "held this seat before you" in view(client, gid, newcomer)["inherited"]


def test_leaving_before_anyone_moved_deals_anew(client: TestClient) -> None:
    made = create(client, 2)
    gid = made["id"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    r = client.post(f"/api/games/{gid}/leave", json={}, headers={"X-Seat-Token": t1})
    assert r.status_code == 200 and r.json()["redealt"] is True and r.json()["commitment"] != made["commitment"]
    r = hand_on(client, gid, made["token"], 1)
    assert r.status_code == 200
    assert "inherited" not in view(client, gid, claim(client, gid, r.json()["invite"]))


def test_an_open_invite_is_reissued_only_once_it_has_waited(client: TestClient) -> None:
    made = create(client, 3)
    gid, t0 = made["id"], made["token"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    # B cannot take C's invite (C has not come yet): C's link keeps working.
    r = hand_on(client, gid, t1, 2)
    assert r.status_code == 409 and "still open" in r.json()["error"]
    client.app.state.hub.tables[gid].invited_at[2] -= 601  # type: ignore[attr-defined]
    r = hand_on(client, gid, t0, 2)
    assert r.status_code == 200 and r.json()["redealt"] is False  # nobody saw that rack
    assert client.post(f"/api/games/{gid}/claim", json={"invite": made["seats"][2]["invite"]}).status_code == 409


def test_the_away_time_is_the_tables_choice(client: TestClient) -> None:
    for bad in (-1, 1441, "10", True, None, 7.5):
        r = client.post(
            "/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN], "away_minutes": bad}
        )
        assert r.status_code == 400 and "away_minutes" in r.json()["error"], bad
    made = create(client, 2, away_minutes=6)
    assert view(client, made["id"])["away_limit_s"] == 360
    # The table's choice survives a restart.
    app = client.app.state.hub  # type: ignore[attr-defined]
    app.tables.clear()
    assert view(client, made["id"])["away_limit_s"] == 360


def test_a_tiny_away_time_is_refused(client: TestClient) -> None:
    """N1: a creator who set the away time to 0.001 minutes took the friend's seat 0.2 s
    after the friend's last request. The away time is 0 (never) or whole minutes from
    `MIN_AWAY_MINUTES` on, and every seat's page is told it."""
    from genial.web.lobby import MIN_AWAY_MINUTES

    for bad in (0.001, 0.5, 1, MIN_AWAY_MINUTES - 1):
        r = client.post(
            "/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN], "away_minutes": bad}
        )
        assert r.status_code == 400, (bad, r.text)
        assert f"0 or {MIN_AWAY_MINUTES}.." in r.json()["error"], bad
    assert client.get("/api/games").json()["games"] == []  # nothing was made
    made = create(client, 2, away_minutes=MIN_AWAY_MINUTES)
    gid = made["id"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    # The friend's page says how long they may be away, and that there is no clock.
    s = view(client, gid, t1)
    assert s["away_limit_s"] == MIN_AWAY_MINUTES * 60
    assert f"after {MIN_AWAY_MINUTES} minutes away" in s["table_text"]
    assert "no clock" in s["table_text"]
    assert "never" in view(client, create(client, 2, away_minutes=0)["id"])["table_text"]


def test_a_table_may_play_without_hints_or_reviews_until_the_end(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN], "hints": "no"})
    assert r.status_code == 400 and "hints" in r.json()["error"]
    on = create(client, 2)
    assert view(client, on["id"], on["token"])["hints"] is True
    assert client.get(f"/api/games/{on['id']}/hint", headers={"X-Seat-Token": on["token"]}).status_code == 200
    made = create(client, 2, hints=False)
    gid, t0 = made["id"], made["token"]
    claim(client, gid, made["seats"][1]["invite"])
    assert view(client, gid, t0)["hints"] is False
    r = client.get(f"/api/games/{gid}/hint", headers={"X-Seat-Token": t0})
    assert r.status_code == 403 and "without hints" in r.json()["error"]
    first_move(client, gid, t0)
    r = client.post("/api/reviews", json={"game": gid}, headers={"X-Seat-Token": t0})
    assert r.status_code == 403 and "until the end" in r.json()["error"]
    # The choice survives a restart.
    client.app.state.hub.tables.clear()  # type: ignore[attr-defined]
    assert view(client, gid, t0)["hints"] is False


def test_a_rematch_keeps_each_seat_for_its_player(client: TestClient) -> None:
    import json

    import genial

    record = json.loads(genial.play_game(["greedy", "greedy"], seed=4).to_json())
    body = {"record": record, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]}
    made = client.post("/api/games", json=body).json()
    gid, t0 = made["id"], made["token"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    assert client.post(f"/api/games/{gid}/rematch", json={}).status_code == 401
    on = create(client, 2)
    assert (
        client.post(f"/api/games/{on['id']}/rematch", json={}, headers={"X-Seat-Token": on["token"]}).status_code == 409
    )
    # A table stored with a fraction of a minute (before whole minutes were required) plays
    # its rematch with none of it: seats never handed on for being away, no clock.
    old = client.app.state.hub.tables[gid]  # type: ignore[attr-defined]
    old.away_s, old.clock_s = 0.06, 3.6
    r = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": t1})
    assert r.status_code == 201, r.text
    got = r.json()
    assert view(client, got["id"])["away_limit_s"] == 0 and view(client, got["id"])["clock"] is None
    assert set(got) == {"id", "seat", "token"} and got["seat"] == 1  # no invite for anyone else
    new = view(client, got["id"], got["token"])
    assert new["you"] == 1 and [s["name"] for s in new["seats"]] == ["Ann", "Bo"] and new["moves"] == 0
    assert new["commitment"] and new["seats"][0]["joined"] is False
    assert view(client, gid)["rematch"] == got["id"]  # every seat of the old game sees it
    # Its seats wait for their old holders: the lobby does not offer it to others.
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[got["id"]]["joinable"] is False
    # Ann takes her own seat with her old token; nobody takes a seat twice.
    r = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": t0})
    assert r.status_code == 201 and r.json()["id"] == got["id"] and r.json()["seat"] == 0
    assert view(client, got["id"], r.json()["token"])["you"] == 0
    again = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": t0})
    assert again.status_code == 409


def test_a_tiny_clock_is_refused(client: TestClient) -> None:
    """N1: a 60 ms clock, shown as "0 minutes each", made the second mover forfeit at once.
    The clock is 0 (none) or whole minutes, and every seat's page says what it is."""
    for bad in (0.001, 0.5, 1.5):
        r = client.post(
            "/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN], "clock_minutes": bad}
        )
        assert r.status_code == 400, (bad, r.text)
        assert "clock_minutes must be 0 or 1.." in r.json()["error"], bad
    made = create(client, 2, clock_minutes=1)
    t1 = claim(client, made["id"], made["seats"][1]["invite"])
    s = view(client, made["id"], t1)
    assert s["clock"]["per_seat_s"] == 60 and "1 minute each" in s["table_text"]


def test_a_game_clock_runs_for_the_person_to_move_and_ends_the_game_at_zero(client: TestClient) -> None:
    for bad in (-1, 1441, "5", True):
        r = client.post(
            "/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN], "clock_minutes": bad}
        )
        assert r.status_code == 400 and "clock_minutes" in r.json()["error"], bad
    assert view(client, create(client, 2)["id"])["clock"] is None  # no clock unless chosen
    made = create(client, 2, clock_minutes=5)
    gid, t0 = made["id"], made["token"]
    t1 = claim(client, gid, made["seats"][1]["invite"])
    s = view(client, gid, t0)
    assert s["clock"]["left"] == [300, 300] and s["clock"]["running"] is None  # from the first move on
    first_move(client, gid, t0)
    table = client.app.state.hub.tables[gid]  # type: ignore[attr-defined]
    s = view(client, gid, t1)
    assert s["clock"]["running"] == 1 and s["clock"]["left"][0] == 300 and s["clock"]["left"][1] <= 300
    # Seat 1 thinks for 100 s (the clock's start moved back instead of waiting), then moves.
    table.turn_since -= 100
    assert 199 <= view(client, gid, t1)["clock"]["left"][1] <= 200
    first_move(client, gid, t1)
    assert 199 <= view(client, gid, t0)["clock"]["left"][1] <= 200
    # The time left survives a restart.
    client.app.state.hub.tables.clear()  # type: ignore[attr-defined]
    assert 199 <= view(client, gid, t0)["clock"]["left"][1] <= 200
    # Seat 0 runs out: the game ends by forfeit, seat 0 last, and a late move is refused.
    table = client.app.state.hub.tables[gid]  # type: ignore[attr-defined]
    table.turn_since -= 301
    client.portal.call(client.app.state.hub.round.check_clock, table)  # type: ignore[attr-defined,union-attr]
    s = view(client, gid, t0)
    assert s["over"] and s["forfeit"]["seat"] == 0 and "ran out of time" in s["ending"]["reason"]
    assert s["ranks"][0] > s["ranks"][1] and s["clock"]["running"] is None


def test_an_unused_invite_dies_when_its_game_ends(client: TestClient) -> None:
    """An invite still open at the end of its game seats nobody afterwards (it would give
    a stranger a seat's token, and with it the rematch's seat)."""
    made = create(client, 3, clock_minutes=1)
    gid, t0 = made["id"], made["token"]
    claim(client, gid, made["seats"][1]["invite"])
    first_move(client, gid, t0)
    # Seat 1 runs out of time (the clock's start moved back instead of waiting): the end.
    table = client.app.state.hub.tables[gid]  # type: ignore[attr-defined]
    table.turn_since -= 61
    client.portal.call(client.app.state.hub.round.check_clock, table)  # type: ignore[attr-defined,union-attr]
    assert view(client, gid)["over"]
    r = client.post(f"/api/games/{gid}/claim", json={"invite": made["seats"][2]["invite"]})
    assert r.status_code == 409 and "over" in r.json()["error"], r.text
    assert view(client, gid)["seats"][2]["joined"] is False
    # The invite is gone from the database too: after a restart it still seats nobody.
    client.app.state.hub.tables.clear()  # type: ignore[attr-defined]
    r = client.post(f"/api/games/{gid}/claim", json={"invite": made["seats"][2]["invite"]})
    assert r.status_code == 409 and "over" in r.json()["error"], r.text


def test_the_lobby_lists_joinable_games_first_and_caps_open_ones_per_address(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby could be filled with junk games and listed the 200 newest. Games waiting
    for a player (an invite open) come first, and one address may have only so many open."""
    from genial.web import lobby

    monkeypatch.setattr(lobby, "MAX_OPEN_PER_ADDRESS", 2)
    bot = {"kind": "bot", "bot": "greedy"}
    first = create(client, 2)
    client.post("/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, bot]})
    second = create(client, 2)
    listed = client.get("/api/games").json()["games"]
    assert [g["joinable"] for g in listed] == [True, True, False]
    assert {g["id"] for g in listed[:2]} == {first["id"], second["id"]}
    # A third open game from this address is refused, and makes nothing; a game against a
    # bot (nobody to wait for) is not counted.
    r = client.post("/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN]})
    assert r.status_code == 429 and "open games" in r.json()["error"], r.text
    assert len(client.get("/api/games").json()["games"]) == 3
    assert (
        client.post("/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, bot]}).status_code == 201
    )
    # Once a friend has taken the seat, the game is no longer open: another may be made.
    claim(client, first["id"], first["seats"][1]["invite"])
    assert create(client, 2)["id"]
