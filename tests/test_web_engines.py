"""``genial serve --engine NAME=COMMAND``: the operator's engines in bot seats, by name only;
an engine that hangs, crashes or breaks the rules forfeits the web game, durably, and no
engine process outlives its decision or the server."""

from __future__ import annotations

import os
import re
import shlex
import sys
import threading
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hostcheck
import pytest

pytest.importorskip("starlette", reason="genial serve needs the web extra: pip install 'genial-engine[web]'")
pytest.importorskip("httpx", reason="the API tests need httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from genial.cli import main
from genial.web.seats import BotLimits
from genial.web.server import create_app
from genial.web.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
EXAMPLE = f"{PY} {shlex.quote(str(ROOT / 'examples' / 'engines' / 'random_engine.py'))}"
FAULTY = f"{PY} {shlex.quote(str(ROOT / 'tests' / 'engines' / 'faulty_engine.py'))}"
BASE = "http://127.0.0.1"
HUMAN = {"kind": "human"}


def _faulty(mode: str) -> tuple[str, str]:
    """A failing engine's command, with a marker to find its processes by."""
    marker = f"genial-test-{uuid.uuid4().hex}"
    return f"{FAULTY} {mode} {marker}", marker


def _running(marker: str) -> list[int]:
    """Processes (zombies included) whose command line holds ``marker``."""
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                out.append(int(pid))
    return out


def _app(db: Path, engines: dict[str, str], think_ms: int = 1500) -> Any:
    return create_app(db, bot_delay=0.0, limits=BotLimits(max_think_ms=think_ms), engines=engines)


def _create(client: TestClient, seats: list[dict[str, Any]]) -> Any:
    return client.post("/api/games", json={"variant": "standard", "players": len(seats), "seats": seats, "seed": 7})


def _state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _wait(client: TestClient, game_id: str, token: str | None, cond: Any, timeout: float = 30.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        s = _state(client, game_id, token)
        if cond(s):
            return s
        assert time.monotonic() < end, f"timed out at version {s['version']}"
        time.sleep(0.02)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(_app(db, {"rand": EXAMPLE}), base_url=BASE) as c:
        yield c


def test_the_lobby_offers_engines_by_name_and_a_request_can_name_no_command(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["engines"] == [{"name": "rand"}]
    assert "random_engine" not in client.get("/api/meta").text  # the command is the operator's
    for seat in (
        {"kind": "bot", "engine": EXAMPLE},  # a command instead of a name
        {"kind": "bot", "engine": "other"},  # a name the operator did not list
        {"kind": "bot", "bot": f"engine:{EXAMPLE}"},  # the command line's spec
        {"kind": "bot", "bot": "engine:rand"},
        {"kind": "bot", "engine": "rand", "options": {"movetime": 99999}},
        {"kind": "bot", "engine": "rand", "bot": "greedy"},
        {"kind": "bot", "engine": ["rand"]},
        {"kind": "engine", "command": EXAMPLE},
    ):
        r = _create(client, [HUMAN, seat])
        assert r.status_code == 400, (seat, r.text)
        assert "error" in r.json()
    assert client.get("/api/games").json()["games"] == []


def test_an_engine_plays_a_web_game(client: TestClient) -> None:
    made = _create(client, [{"kind": "bot", "engine": "rand", "name": "Randy"}, HUMAN]).json()
    token = made["token"]
    s = _wait(client, made["id"], token, lambda s: s["current"] == 1)  # the engine moved first
    assert s["version"] >= 1 and s["seats"][0]["role"] == "bot · engine rand" and s["seats"][0]["name"] == "Randy"
    assert not s["over"] and s["forfeit"] is None
    # The human moves; the engine answers again.
    move = s["others"][0] if s["phase"] == "swap_offer" else None
    if move is None:
        moves = client.get(
            f"/api/games/{made['id']}/options", params={"slot": "0"}, headers={"X-Seat-Token": token}
        ).json()["moves"]
        move = moves[0]
    r = client.post(
        f"/api/games/{made['id']}/move", json={"version": s["version"], "move": move}, headers={"X-Seat-Token": token}
    )
    assert r.status_code == 200, r.text
    _wait(client, made["id"], token, lambda t: t["current"] == 1 and t["version"] > r.json()["version"])


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("hang", "did not answer in time"),
        ("crash", "stopped running"),
        ("illegal", "chose an illegal move"),
        ("garbage", "broke the engine protocol"),
    ],
)
def test_a_failing_engine_forfeits_the_web_game_durably(db: Path, mode: str, why: str) -> None:
    command, marker = _faulty(mode)
    with TestClient(_app(db, {"bad": command}), base_url=BASE) as c:
        made = _create(c, [{"kind": "bot", "engine": "bad", "name": "Bad"}, HUMAN]).json()
        s = _wait(c, made["id"], made["token"], lambda s: s["over"])
        assert s["end"] == "forfeit" and s["forfeit"]["seat"] == 0 and s["forfeit"]["move"] == 0
        assert s["forfeit"]["reason"] == f"Bad's engine {why}"
        assert s["ending"]["reason"] == f"The game ended by forfeit: Bad's engine {why}."
        assert s["ending"]["summary"] == "Winner: " + s["seats"][1]["name"]
        assert s["ranks"] == [1, 0] and s["ranking"] == [[1], [0]] and s["winner"] == 1
        assert s["status"]["kind"] == "over" and "reveal" in s and s["can_download"]
        text = str(s)
        assert "faulty_engine" not in text and marker not in text and "genial-engines" not in text
        r = c.post(f"/api/games/{made['id']}/move", json={"version": s["version"], "move": "keep"},
                   headers={"X-Seat-Token": made["token"]})  # fmt: skip
        assert r.status_code == 409
        lobby = c.get("/api/games").json()["games"][0]
        assert lobby["over"] and lobby["end"] == "forfeit" and lobby["ranking"] == [[1], [0]]
        assert lobby["status"].startswith("finished · Winner")
        assert not _running(marker)  # reaped at once, no zombie
        if mode == "illegal":  # over by forfeit: reviewed and analysed as any ended game
            r = c.post("/api/reviews", json={"game": made["id"]})
            assert r.status_code == 202 and r.json()["total"] == 0, r.text
            r = c.post("/api/analysis", json={"position": {"game": made["id"], "upto": 0}})
            assert r.status_code == 200, r.text
    # A restart keeps the forfeit: the game stays over, the engine is not started again.
    with TestClient(_app(db, {"bad": command}), base_url=BASE) as c:
        again = _state(c, made["id"], made["token"])
        assert again["over"] and again["forfeit"] == s["forfeit"] and again["version"] == s["version"]
        time.sleep(0.3)
        assert not _running(marker)
    row = Store(db).get(made["id"])
    assert row is not None and row.over and row.forfeit == s["forfeit"]


def test_shutdown_reaps_a_thinking_engine_and_does_not_count_it_as_a_forfeit(db: Path) -> None:
    command, marker = _faulty("hang")
    with TestClient(_app(db, {"slow": command}, think_ms=20_000), base_url=BASE) as c:
        made = _create(c, [{"kind": "bot", "engine": "slow"}, HUMAN]).json()
        end = time.monotonic() + 30
        while not _running(marker):  # the engine is thinking (it never answers)
            assert time.monotonic() < end
            time.sleep(0.02)
    end = time.monotonic() + 10
    while _running(marker):
        assert time.monotonic() < end, "the engine outlived the server"
        time.sleep(0.02)
    row = Store(db).get(made["id"])
    assert row is not None and not row.over and row.forfeit is None  # it thinks again after a restart


def test_an_engine_no_longer_offered_forfeits_after_a_restart(db: Path) -> None:
    command, _ = _faulty("hang")
    with TestClient(_app(db, {"gone": command}, think_ms=20_000), base_url=BASE) as c:
        made = _create(c, [{"kind": "bot", "engine": "gone"}, HUMAN]).json()
    with TestClient(_app(db, {}), base_url=BASE) as c:
        s = _wait(c, made["id"], made["token"], lambda s: s["over"])
        assert s["forfeit"]["reason"].endswith("engine is no longer offered")


def test_serve_checks_its_engines_before_it_starts(capsys: pytest.CaptureFixture[str]) -> None:
    for spec, said in (
        ("rand", "NAME=COMMAND"),
        ("rand=", "NAME=COMMAND"),
        ("=python x", "letters"),
        ("a b=" + EXAMPLE, "letters"),
        ("greedy=" + EXAMPLE, "taken"),
        ("x=/nonexistent/engine", "cannot start"),
        (f"x={PY} -c pass", "handshake"),  # exits at once
    ):
        assert main(["serve", "--port", "0", "--engine", spec]) == 2, spec
        err = capsys.readouterr().err
        assert said in err, (spec, err)
    assert main(["serve", "--port", "0", "--engine", "a=" + EXAMPLE, "--engine", "a=" + EXAMPLE]) == 2
    assert "taken" in capsys.readouterr().err


# ----- hostile engines (tests/engines/hostile.py) on the server ------------------------------------

sys.path.insert(0, str(ROOT / "tests" / "engines"))
from hostile import TABLE, write

# On the server every decision starts the engine afresh (`genial.web.engines`): a kind that
# misbehaves only at a later decision of one process, or after a good first start, plays its
# first decision there; those failing on a restart forfeit their second.
PLAYS_FIRST = {h.name for h in TABLE if h.host is None} | {
    "answers_late_at_its_third_decision",
    "exits_mid_game",
    "fork_child_holding_stdout_then_exit_midgame",
    "killed_by_a_signal_mid_game",
    "doubled_bestmove",  # the host reads the first bestmove and stops the engine
    "floods_between_decisions",  # likewise: it floods only after its answer
    "handshake_fails_on_restart",
    "handshake_hangs_on_restart",
}
# Its answer comes after 50 MB of stderr, which a busy machine may not carry within the
# move time: it plays, or forfeits for time; either way within the limit, its log bounded.
# The second answers six times its move time: within the host's margin on a quiet machine, past
# the server's thinking-time cap on a loaded one; either way it costs only its own game.
EITHER = {"stderr_flood_50mb_once", "answers_at_six_times_its_move_time"}
# Its wrapper floods 50 MB before the engine starts: a busy machine may not carry them
# within the handshake's time (the cap, on the server), so it fails its start instead.
SAYS = {"stderr_flood_from_the_wrapper": r"no bestmove|no protocolok in time"}
FORFEITS_SECOND = {"handshake_fails_on_restart", "handshake_hangs_on_restart"}
PUBLIC = {
    "did not answer in time",
    "stopped running",
    "chose an illegal move",
    "broke the engine protocol",
    "did not start",
    "closed its output",
    "flooded the host with output",
    "did not read its input",
    "answered twice",
}
BATCH = 17  # engines seated at once: their waits overlap, and a loaded machine still starts them in time
THINK_MS = 6000  # the operator's cap: room for a Python engine to start on a loaded machine
MARGIN_S = 15.0  # stated margin beyond the cap and the host's grace, for a loaded machine


@pytest.fixture
def tagged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A tag every engine process inherits; on any exit, every process holding it is killed."""
    tag = uuid.uuid4().hex
    (tmp_path / "state").mkdir()
    monkeypatch.setenv("GENIAL_HOSTILE_TAG", tag)
    monkeypatch.setenv("HOSTILE_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("HOSTILE_LATE_S", "30")
    try:
        yield tag
    finally:
        for pid in hostcheck.tagged(tag):
            try:
                os.kill(pid, 9)
            except OSError:
                pass


def _human_moves(c: TestClient, made: dict[str, Any], s: dict[str, Any]) -> None:
    """The person in seat 1 plays their first option (keeps the tiles at a swap offer)."""
    token = made["token"]
    if s["phase"] == "swap_offer":
        move = s["others"][0]
    else:
        r = c.get(f"/api/games/{made['id']}/options", params={"slot": "0"}, headers={"X-Seat-Token": token})
        move = r.json()["moves"][0]
    r = c.post(f"/api/games/{made['id']}/move", json={"version": s["version"], "move": move},
               headers={"X-Seat-Token": token})  # fmt: skip
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("batch", range((len(TABLE) + BATCH - 1) // BATCH))
def test_every_hostile_engine_costs_only_its_own_web_game(
    db: Path, tmp_path: Path, tagged: str, batch: int, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind of tests/engines/hostile.py seated on the server, `BATCH` at a time, each
    against a person: each forfeits within the cap, the host's grace and `MARGIN_S`, or
    plays, as expected of it; meanwhile and afterwards a game against a built-in bot is
    answered; no process of an engine outlives its decision, no descriptor leaks, and the
    server's memory grows by less than 50 MB."""
    from genial.web import engines as engine_seats
    from genial.web.engines import ENGINE_GRACE_S

    # At the tests' own priority: a lower one starves the engines that play on a busy
    # machine, and what is tested is the host, not the scheduler.
    monkeypatch.setattr(engine_seats, "ENGINE_NICE", 0)
    kinds = TABLE[batch * BATCH : (batch + 1) * BATCH]
    engines = {f"h{i}": write(h, tmp_path) for i, h in enumerate(kinds)}
    fds = hostcheck.fds()
    peak = [hostcheck.rss_kb()]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            peak[0] = max(peak[0], hostcheck.rss_kb())

    sampler = threading.Thread(target=sample, daemon=True)
    with caplog.at_level("WARNING"), TestClient(_app(db, engines, think_ms=THINK_MS), base_url=BASE) as c:
        start_rss = hostcheck.rss_kb()
        sampler.start()
        made = {}
        started = {}
        for i, h in enumerate(kinds):
            made[h.name] = _create(c, [{"kind": "bot", "engine": f"h{i}", "name": "Bad"}, HUMAN]).json()
            started[h.name] = time.monotonic()
        fresh = _create(c, [{"kind": "bot", "bot": "greedy"}, HUMAN]).json()
        _wait(c, fresh["id"], fresh["token"], lambda s: s["current"] == 1, timeout=30)
        limit = THINK_MS / 1000 + ENGINE_GRACE_S + MARGIN_S
        pending = {h.name: h for h in kinds}
        second: dict[str, float] = {}
        outcome: dict[str, dict[str, Any]] = {}
        end = time.monotonic() + 2 * limit + 30
        while pending:  # every game looked at in turn: their waits overlap
            assert time.monotonic() < end, f"no outcome for {sorted(pending)}"
            for name in list(pending):
                s = _state(c, made[name]["id"], made[name]["token"])
                if name in second:
                    decided = s["over"] or (s["current"] == 1 and s["version"] > 2)
                else:
                    decided = s["over"] or s["current"] == 1
                if not decided:
                    continue
                took = time.monotonic() - second.get(name, started[name])
                assert took < limit, (name, took)
                if name in FORFEITS_SECOND and name not in second and not s["over"]:
                    _human_moves(c, made[name], s)
                    second[name] = time.monotonic()
                    continue
                outcome[name] = s
                del pending[name]
            time.sleep(0.05)
        # The server still serves a new game at once.
        fresh = _create(c, [{"kind": "bot", "bot": "greedy"}, HUMAN]).json()
        _wait(c, fresh["id"], fresh["token"], lambda s: s["current"] == 1, timeout=30)
        done.set()
        growth = (peak[0] - start_rss) / 1024
        assert growth < 50, f"the server's memory grew by {growth:.0f} MB"
    log = caplog.text
    for h in kinds:
        s = outcome[h.name]
        if h.name in EITHER and s["forfeit"] is not None:
            assert s["forfeit"]["reason"] == "Bad's engine did not answer in time", (h.name, s["forfeit"])
            continue
        if h.name in PLAYS_FIRST and h.name not in FORFEITS_SECOND:
            assert not s["over"] and s["forfeit"] is None and s["version"] >= 1, (h.name, s["forfeit"])
            continue
        assert s["end"] == "forfeit" and s["forfeit"]["seat"] == 0, (h.name, s["forfeit"])
        public = s["forfeit"]["reason"].removeprefix("Bad's engine ")
        assert public in PUBLIC, (h.name, public)
        said = "\n".join(
            x for x in log.splitlines() if f"/{h.name}." in x or ("no-such-engine" in x and h.kind == "missing")
        )
        assert re.search(SAYS.get(h.name, h.host or ""), said) or "past the hard deadline" in log, (h.name, said)
    end = time.monotonic() + 10
    while hostcheck.tagged(tagged) and time.monotonic() < end:
        time.sleep(0.05)
    assert not hostcheck.tagged(tagged), "a process of an engine outlived its game"
    end = time.monotonic() + 10
    while hostcheck.fds() - fds and time.monotonic() < end:
        time.sleep(0.05)
    assert not hostcheck.fds() - fds, f"descriptors leaked: {sorted(hostcheck.fds() - fds)}"


def test_an_unfinished_hostile_engine_game_after_a_restart_forfeits_and_never_wedges(
    db: Path, tmp_path: Path, tagged: str
) -> None:
    engine = next(h for h in TABLE if h.name == "wrapper_no_exec_hanging")
    command = write(engine, tmp_path)
    with TestClient(_app(db, {"bad": command}, think_ms=20_000), base_url=BASE) as c:
        made = _create(c, [{"kind": "bot", "engine": "bad"}, HUMAN]).json()
        end = time.monotonic() + 30
        while not hostcheck.tagged(tagged):  # the engine is thinking (it never answers)
            assert time.monotonic() < end
            time.sleep(0.02)
    # Restarted: the engine thinks again, forfeits within its cap, and the bots' pool serves others.
    with TestClient(_app(db, {"bad": command}, think_ms=1000), base_url=BASE) as c:
        fresh = _create(c, [{"kind": "bot", "bot": "greedy"}, HUMAN]).json()
        _wait(c, fresh["id"], fresh["token"], lambda s: s["current"] == 1, timeout=10)
        s = _wait(c, made["id"], made["token"], lambda s: s["over"], timeout=60)
        assert s["end"] == "forfeit"
    end = time.monotonic() + 10
    while hostcheck.tagged(tagged) and time.monotonic() < end:
        time.sleep(0.05)
    assert not hostcheck.tagged(tagged)
