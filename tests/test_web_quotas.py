"""Fair shares of `genial serve` (issue 29, items 6, 7, 8 and 9), driven in process: reviews in
a fair queue per client address, stored positions checked and bounded, replays paced and off
the event loop, bad game ids, clean names, the players' own review, games leaving memory,
the security headers, a backup of the live database, and a bot with the largest budget
beside a fresh game."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
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
from genial.web import analysis as analysis_module
from genial.web import reviews as reviews_module
from genial.web import server as server_module
from genial.web.edge import EdgeRules
from genial.web.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BASE = "http://127.0.0.1"
HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}


class ClientAddress:
    """Sets the request's client address from an ``X-Test-Client`` header (the tests speak
    for several addresses through one client)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for k, v in scope.get("headers", []):
                if k == b"x-test-client":
                    scope["client"] = (v.decode(), 1)
        await self.app(scope, receive, send)


def finished_record(seed: int) -> dict[str, Any]:
    return json.loads(genial.play_game(["greedy", "greedy"], seed=seed).to_json())  # type: ignore[no-any-return]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = ClientAddress(create_app(tmp_path / "g.sqlite3", review_iterations=8))
    with TestClient(app, base_url=BASE) as c:
        yield c


def as_(address: str) -> dict[str, str]:
    return {"X-Test-Client": address}


def review_status(client: TestClient, key: str) -> dict[str, Any]:
    return dict(client.get(f"/api/reviews/{key}").json())


def test_another_addresss_review_starts_while_one_address_floods(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every review's searches wait at a gate until all of them are asked for: otherwise a fast
    # machine finishes the flood before the other address asks, and the test judges nothing.
    # Each search also sleeps 20 ms, so that the shares below are of the pool's time and not
    # of whichever thread a loaded machine favours (the bot threads run nicer than the quick
    # lane), and so that a poll's lag cannot decide the test.
    gate = threading.Event()
    searched = reviews_module.review
    started: list[tuple[str, ...]] = []  # the moves of each search's game, in the order started

    def gated(game: genial.Game, *args: Any, **kwargs: Any) -> Any:
        assert gate.wait(60), "the gate was never opened"
        started.append(tuple(map(str, game.moves)))
        time.sleep(0.02)
        return searched(game, *args, **kwargs)

    monkeypatch.setattr(reviews_module, "review", gated)
    flood = []
    for seed in (11, 12, 13, 14):
        r = client.post("/api/reviews", json={"record": finished_record(seed)}, headers=as_("10.0.0.1"))
        assert r.status_code == 202, r.text
        flood.append(r.json()["id"])
    # A fifth from the same address waits its turn (429); the flood does not shut others out.
    r = client.post("/api/reviews", json={"record": finished_record(15)}, headers=as_("10.0.0.1"))
    assert r.status_code == 429 and "your address" in r.json()["error"]
    record = finished_record(16)
    r = client.post("/api/reviews", json={"record": record}, headers=as_("10.0.0.2"))
    assert r.status_code == 202, r.text
    mine = r.json()["id"]
    assert all(review_status(client, key)["status"] == "running" for key in [*flood, mine])
    gate.set()
    end = time.monotonic() + 120
    while review_status(client, mine)["status"] != "done":
        assert time.monotonic() < end
        time.sleep(0.02)
    # The flooding address's reviews share one place in the fair queue: until the other
    # address's review was all under way, the four together got about as many searches as
    # it did (one place per review would give them four times as many).
    moves = tuple(record["moves"])
    searches = started[: max(i for i, m in enumerate(started) if m == moves) + 1]
    own = sum(m == moves for m in searches)
    assert own == len(record["moves"]) + 1  # each decision, and the chances at the end
    assert len(searches) - own <= 2 * own, (own, len(searches) - own)
    assert sum(review_status(client, key)["status"] == "done" for key in flood) <= 1


def test_a_lone_review_searches_on_every_worker(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # A review queues all its decisions at once: alone on the server, it keeps the worker
    # and the quick lane busy together, instead of one decision at a time.
    searched = reviews_module.review
    lock = threading.Lock()
    now = [0]
    most = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        try:
            time.sleep(0.02)
            return searched(*args, **kwargs)
        finally:
            with lock:
                now[0] -= 1

    monkeypatch.setattr(reviews_module, "review", counted)
    r = client.post("/api/reviews", json={"record": finished_record(21)})
    assert r.status_code == 202, r.text
    end = time.monotonic() + 120
    while (status := review_status(client, r.json()["id"]))["status"] == "running":
        assert time.monotonic() < end
        time.sleep(0.02)
    assert status["status"] == "done" and status["done"] == status["total"], status
    assert most[0] == 2


def test_a_game_named_by_anything_but_text_is_a_400(client: TestClient) -> None:
    for path, body in (
        ("/api/reviews", {"game": [1]}),
        ("/api/reviews", {"game": {"a": 1}}),
        ("/api/analysis", {"position": {"game": [1]}}),
        ("/api/positions", {"position": {"game": [1]}}),
    ):
        r = client.post(path, json=body)
        assert r.status_code == 400 and "error" in r.json(), (path, body, r.text)


def test_names_lose_control_and_bidi_characters(client: TestClient) -> None:
    dirty = "Ann\x00\u202e\u200bie\n\t"
    r = client.post(
        "/api/games",
        json={"variant": "standard", "players": 2, "seed": 3, "seats": [{"kind": "human", "name": dirty}, GREEDY]},
    )
    assert r.status_code == 201, r.text
    assert r.json()["seats"][0]["name"] == "Annie"
    assert client.get("/api/games").json()["games"][0]["seats"][0]["name"] == "Annie"
    record = {**finished_record(3), "names": [dirty, "\u202eBo"]}
    replay = client.post("/api/analysis", json={"position": {"record": record}}).json()
    assert "\u202e" not in json.dumps(replay) and "\\u202e" not in json.dumps(replay)


def test_a_third_party_cannot_name_the_players_in_their_own_review(client: TestClient) -> None:
    record = finished_record(21)
    made = client.post("/api/games", json={"record": record, "seats": [HUMAN, HUMAN]}).json()
    # Someone else posts the same game's record first, with names of their choosing.
    evil = client.post(
        "/api/reviews", json={"record": {**record, "names": ["Cheat", "Loser"]}}, headers=as_("10.9.9.9")
    ).json()
    own = client.post("/api/reviews", json={"game": made["id"]}).json()
    assert own["id"] != evil["id"]
    end = time.monotonic() + 120
    while (got := review_status(client, own["id"]))["status"] != "done":
        assert time.monotonic() < end
        time.sleep(0.02)
    text = json.dumps(got["review"])
    assert "Cheat" not in text and "Player 1" in text


def test_shared_positions_keep_only_what_was_checked(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    record = finished_record(5)
    # Unknown fields anywhere are refused, not kept.
    for body in (
        {"position": {"record": record, "upto": 3}, "junk": "x" * 1000},
        {"position": {"record": record, "upto": 3, "junk": 1}},
        {"position": {"game": "abc", "review": "x"}},
        {"position": {"setup": {"players": 2, "tracks": [[0] * 6] * 2, "seat": 0, "rack": ["RB"], "junk": 1}}},
    ):
        r = client.post("/api/positions", json=body)
        assert r.status_code in (400, 404), (body, r.text)
        assert "junk" in r.text or r.status_code == 404
    # A record's own extra fields are dropped: what is kept is the record as the core writes it.
    r = client.post("/api/positions", json={"position": {"record": {**record, "blob": "y" * 50_000}, "upto": 3}})
    assert r.status_code == 201, r.text
    kept = client.get(f"/api/positions/{r.json()['id']}").json()
    assert "blob" not in kept["position"]["record"] and len(json.dumps(kept)) < 10_000
    # Each address has a daily quota.
    monkeypatch.setattr(analysis_module, "SHARES_PER_DAY", 3)  # one used above
    for upto in (4, 5):
        assert client.post("/api/positions", json={"position": {"record": record, "upto": upto}}).status_code == 201
    r = client.post("/api/positions", json={"position": {"record": record, "upto": 6}})
    assert r.status_code == 429 and "a day" in r.json()["error"]
    other = client.post("/api/positions", json={"position": {"record": record, "upto": 6}}, headers=as_("10.0.0.7"))
    assert other.status_code == 201


def test_replays_are_paced_and_run_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = server_module.replay_frames

    def spy(body: Any) -> dict[str, Any]:
        seen.append(threading.current_thread().name)
        return real(body)

    monkeypatch.setattr(server_module, "replay_frames", spy)
    app = create_app(tmp_path / "g.sqlite3", edge=EdgeRules(new_games_per_minute=1))
    record = finished_record(5)
    with TestClient(app, base_url=BASE) as c:
        loop_thread = c.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
        statuses = [c.post("/api/replay", json=record).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert seen and all(name != loop_thread for name in seen)


def test_idle_games_leave_memory_and_come_back(client: TestClient) -> None:
    made = client.post("/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN]}).json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"ws://127.0.0.1/api/games/{made['id']}/ws") as ws:
        ws.send_json({"token": made["token"]})
        assert ws.receive_json()["you"] == 0
        assert hub.lobby.evict(idle_s=0) == []  # a page is open: it stays
    assert hub.lobby.evict(idle_s=0) == [made["id"]]
    assert made["id"] not in hub.tables
    s = client.get(f"/api/games/{made['id']}", headers={"X-Seat-Token": made["token"]}).json()
    assert s["you"] == 0 and s["commitment"] == made["commitment"]


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/meta", "/static/app.js", "/api/games/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"


def test_the_guides_backup_of_the_live_database_holds_every_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), base_url=BASE) as c:
        ids = [
            c.post("/api/games", json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN]}).json()["id"]
            for _ in range(3)
        ]
        assert (tmp_path / "games.sqlite3-wal").stat().st_size > 0  # the games are in the WAL
        # The hosting guide's recipe (its Python line, as written there), run while the
        # server holds the database open.
        guide = (Path(__file__).resolve().parent.parent / "docs" / "hosting.md").read_text()
        section = guide[guide.index("### Backing up the live database") :]
        code = re.search(r'python3 -c "([^"]+)"', section)
        assert code is not None, "the guide's Python recipe is not where this test looks"
        backup = tmp_path / "backup.sqlite3"
        subprocess.run([sys.executable, "-c", code.group(1), str(db), str(backup)], check=True, timeout=60)
        got = sqlite3.connect(backup)
        assert sorted(r[0] for r in got.execute("SELECT id FROM games")) == sorted(ids)
        got.close()
        if shutil.which("sqlite3"):  # the command-line tool's recipes, where it is installed
            line = re.search(r'^sqlite3 \S+ "(VACUUM INTO )\'[^\']+\'"$', section, re.MULTILINE)
            assert line is not None, "the guide's sqlite3 recipe is not where this test looks"
            for i, statement in enumerate((f"{line.group(1)}'{{}}'", ".backup '{}'")):
                other = tmp_path / f"other{i}.sqlite3"
                subprocess.run(["sqlite3", str(db), statement.format(other)], check=True, timeout=60)
                with sqlite3.connect(other) as con2:
                    assert len(con2.execute("SELECT id FROM games").fetchall()) == 3
                con2.close()


def test_a_game_whose_clock_runs_stays_in_memory(client: TestClient) -> None:
    made = client.post(
        "/api/games",
        json={"variant": "standard", "players": 2, "seats": [HUMAN, HUMAN], "clock_minutes": 5},
    ).json()
    gid, t0 = made["id"], made["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    s = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": t0}).json()
    for slot in range(6):
        moves = client.get(f"/api/games/{gid}/options", params={"slot": slot}, headers={"X-Seat-Token": t0}).json()
        if moves["moves"]:
            break
    move = {"version": s["version"], "move": moves["moves"][0]}
    assert client.post(f"/api/games/{gid}/move", json=move, headers={"X-Seat-Token": t0}).status_code == 200
    assert gid not in hub.lobby.evict(idle_s=0)  # seat 1's time runs: the timer must find this table


class _HeldBot:
    """A bot whose decision is held until ``release`` is set (then answered as greedy): a
    search with the largest budget allowed, still running for as long as the test needs."""

    def __init__(self, bot: Any, started: threading.Event, release: threading.Event) -> None:
        self.bot, self.started, self.release = bot, started, release
        self.label = bot.label

    def choose(self, view: Any) -> Any:
        self.started.set()
        assert self.release.wait(120), "the test never released the held search"
        return genial.bots.make("greedy").choose(view)

    def stop(self) -> None:
        self.release.set()


def test_a_bot_with_the_largest_budget_does_not_stall_another_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, item 8, through the server: with bot options allowed at the default caps
    (`--allow-bot-options`, one bot thread), a game whose `mcts` bot thinks with the largest
    budget holds a worker, and a fresh game's greedy bot answers meanwhile. The long search
    is held until that answer has come, so the order is a fact, not a race: a pool without
    its quick lane leaves the fresh game waiting behind it, and the bound below fails."""
    from genial.web import round as round_module
    from genial.web.seats import BotLimits

    started, release = threading.Event(), threading.Event()
    real = round_module._make_bot

    def make_bot(cfg: dict[str, Any], game: Any, seat: int) -> Any:
        bot = real(cfg, game, seat)
        return _HeldBot(bot, started, release) if cfg["bot"] == "mcts" else bot

    monkeypatch.setattr(round_module, "_make_bot", make_bot)
    limits = BotLimits(options=True)
    app = create_app(tmp_path / "g.sqlite3", bot_threads=1, bot_delay=0.0, limits=limits)
    with TestClient(app, base_url=BASE) as c:
        long = {"kind": "bot", "bot": "mcts", "options": {"iterations": limits.max_iterations}}
        made = c.post("/api/games", json={"players": 2, "seed": 3, "seats": [long, HUMAN]}).json()
        assert started.wait(60), "the long search never started"
        try:
            fresh = c.post("/api/games", json={"players": 2, "seed": 4, "seats": [HUMAN, GREEDY]}).json()
            headers = {"X-Seat-Token": fresh["token"]}
            s = c.get(f"/api/games/{fresh['id']}", headers=headers).json()
            for slot in range(6):
                moves = c.get(f"/api/games/{fresh['id']}/options", params={"slot": slot}, headers=headers).json()
                if moves["moves"]:
                    break
            body = {"version": s["version"], "move": moves["moves"][0]}
            assert c.post(f"/api/games/{fresh['id']}/move", json=body, headers=headers).status_code == 200
            # A bound for the test, not a measurement: the greedy answer takes milliseconds.
            deadline = time.monotonic() + 60
            while c.get(f"/api/games/{fresh['id']}", headers=headers).json()["current"] != 0:
                assert time.monotonic() < deadline, "the fresh game's bot waited behind the long search"
                time.sleep(0.01)
            # The long search was still running all along (the thinking cap's stop, which
            # releases it, had not come).
            assert not release.is_set(), "the fresh game's bot answered only once the long search was stopped"
            assert c.get(f"/api/games/{made['id']}").json()["version"] == 0
        finally:
            release.set()


def test_a_bot_move_cut_short_by_the_cap_says_so(tmp_path: Path) -> None:
    """On a loaded host a search may reach the server's thinking-time cap and play with
    fewer iterations than offline: the move's log entry says so, in words, on every page."""
    from genial.web.seats import BotLimits

    limits = BotLimits(options=True, max_think_ms=50)
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=limits), base_url=BASE) as c:
        long = {"kind": "bot", "bot": "mcts", "options": {"iterations": limits.max_iterations}}
        made = c.post("/api/games", json={"players": 2, "seed": 3, "seats": [long, HUMAN]}).json()
        deadline = time.monotonic() + 60  # a bound for the test, not a measurement
        while not (s := c.get(f"/api/games/{made['id']}").json())["log"]:
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.02)
        entry = s["log"][0]
        assert entry["cut_short"] is True
        assert any("time cap" in n for n in entry["notes"]), entry["notes"]
        quick = c.post("/api/games", json={"players": 2, "seed": 3, "seats": [GREEDY, HUMAN]}).json()
        while not (s := c.get(f"/api/games/{quick['id']}").json())["log"]:
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.02)
        assert "cut_short" not in s["log"][0]
