"""Every door a rule set passes through keeps it whole: a game of every rule set
(`Rules.all()`: each variant and player count with each value of every edition option) is
written and read back through each way a rule set leaves the process and comes back -- the
JSON record, a results file and a dataset, the engine protocol, the server's API, a review,
the position notation and the command line's flags -- and the rules and the result that come back must equal those that went in.

`Rules.all()` is made from the core's option table, so an option added there is walked
here with every value: a writer that drops it, or writes it under another name, makes the
rule set that comes back differ for the option's other value and fails this test. (Added
to today's writers by hand, as the older recipe said, a trial option failed this file.)"""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path
from typing import Any

import genial
import pytest
from genial import Game, GameView, Rules
from genial.cli.common import add_rule_flags, rules_from_flags
from genial.dataset import Dataset, read_dataset
from genial.engine.protocol import PositionReader, position_lines, rules_line
from genial.results import read_metadata, rules_of
from genial.reviews import Review, review
from genial.simulation import simulation_run

ALL = Rules.all()


def _id(r: Rules) -> str:
    return r.to_text().replace("version=1 ", "").replace(" ", ",")


def _finished(rules: Rules) -> Game:
    game = genial.play_game(["greedy"] * rules.players, seed=11, rules=rules)
    assert game.is_over
    return game


def _result(game: Game) -> tuple[Any, ...]:
    return (game.end, game.ranking(), [list(t) for t in game.tracks], [str(m) for m in game.moves])


def test_every_option_value_is_walked() -> None:
    """The rule sets walked hold every value of every option (so a new option's other
    value is walked too), and each reads back from its text and its dict."""
    for option in Rules.options():
        assert {r.option(option["name"]) for r in ALL} == set(option["values"]), option["name"]
        assert option["default"] == option["values"][0]
    for r in ALL:
        assert Rules.from_text(r.to_text()) == r == Rules.from_dict(r.to_dict())
        assert Rules.from_text(str(r)) == r and eval(repr(r), {"Rules": Rules}) == r
        assert Rules(r.variant, r.players, **{o["name"]: r.option(o["name"]) for o in Rules.options()}) == r


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_the_record_keeps_the_rules(rules: Rules) -> None:
    game = _finished(rules)
    back = Game.from_json(game.to_json())
    assert back.rules == rules
    assert _result(back) == _result(game)
    assert json.loads(game.to_json())["rules"] == rules.to_text()


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_the_engine_protocol_keeps_the_rules(rules: Rules) -> None:
    game = genial.play_game(["greedy"] * rules.players, seed=11, rules=rules)
    # A decision half-way, as an engine hears it, rebuilt the way engines rebuild it.
    replay = Game(seed=game.seed, bag=list(game._state.initial_bag or []), rules=rules)
    for m in game.moves[: len(game.moves) // 2]:
        replay.play(m)
    reader = PositionReader()
    for line in ["newgame", rules_line(rules), f"seat {replay.current_player}"]:
        reader.feed(line)
    for line in position_lines(GameView(replay, replay.current_player)):
        reader.feed(line)
    assert reader.rules == rules
    assert reader.position is not None
    rebuilt = reader.position.game(seed=3)
    assert rebuilt.rules == rules
    assert list(rebuilt.legal_moves()) == list(replay.legal_moves())


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_results_files_and_datasets_keep_the_rules(rules: Rules, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    bots = ["greedy"] * rules.players
    result = genial.simulate(3, bots=bots, seed=5, rules=rules, threads=1)
    assert result.rules == rules
    for name in ("games.csv", "games.parquet"):
        result.write(tmp_path / name)
        assert rules_of(read_metadata(tmp_path / name), name) == rules
    run, games, first = simulation_run(3, bots, 5, rules=rules)
    ds = Dataset(tmp_path / "ds", run, games, first, 2)
    for shard in ds.pending():
        ds.write(shard, run.play(shard.first_game, shard.games, 1))
    back = read_dataset(tmp_path / "ds")
    assert back.rules == rules and back == result
    # The stored row replays under the stored rules to the same game.
    assert _result(back.game(0)) == _result(result.game(0))


def _web_client(tmp_path: Path) -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from genial.web.edge import EdgeRules
    from genial.web.server import create_app

    app = create_app(tmp_path / "games.sqlite3", edge=EdgeRules(new_games_per_minute=0))  # 66 games at once
    return TestClient(app, base_url="http://127.0.0.1")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_server_keeps_the_rules(tmp_path: Path) -> None:
    with _web_client(tmp_path) as client:
        for rules in ALL:
            seats = [{"kind": "bot", "bot": "greedy"}] * rules.players
            loose = {k: v for k, v in rules.to_dict().items() if k != "version"}
            for body in ({"rules": rules.to_text()}, {"rules": rules.to_dict()}, loose):
                r = client.post("/api/games", json={**body, "seats": seats, "seed": 7})
                assert r.status_code == 201, (body, r.text)
                made = r.json()
                game = client.app.state.hub.tables[made["id"]].game
                assert game.rules == rules, body
                state = client.get(f"/api/games/{made['id']}").json()
                assert Rules.from_text(state["rules"]) == rules
        # A rule set the server cannot read is refused, named, and makes no game.
        for body in (
            {"rules": "variant=standard players=2 no_such_option=false"},
            {"rules": "players=2", "players": 2},
            {"variant": "standard", "players": 2, "require_contact": "yes"},
        ):
            r = client.post("/api/games", json={**body, "seats": [{"kind": "bot", "bot": "greedy"}] * 2})
            assert r.status_code == 400, body
            assert "cannot set up this game" in r.json()["error"]


def _first_placement(client: Any, gid: str, token: str) -> None:
    s = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()
    for slot in range(len(s["rack"])):
        got = client.get(f"/api/games/{gid}/options", params={"slot": slot}, headers={"X-Seat-Token": token})
        if got.json()["moves"]:
            move = {"version": s["version"], "move": got.json()["moves"][0]}
            r = client.post(f"/api/games/{gid}/move", json=move, headers={"X-Seat-Token": token})
            assert r.status_code == 200, r.text
            return
    raise AssertionError("no placement")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_server_keeps_the_rules_on_a_new_deal_and_a_rematch(tmp_path: Path) -> None:
    """A table keeps its rule set when it is dealt anew (a seat left before the first move)
    and when it is played again (a rematch): every option's every value comes back."""
    with _web_client(tmp_path) as client:
        hub = client.app.state.hub
        for rules in ALL:
            body = {"rules": rules.to_text(), "seats": [{"kind": "human"}] * rules.players, "clock_minutes": 1}
            made = client.post("/api/games", json=body).json()
            gid, t0 = made["id"], made["token"]
            if rules.players >= 2:
                t1 = client.post(f"/api/games/{gid}/claim", json={"invite": made["seats"][1]["invite"]}).json()["token"]
                r = client.post(f"/api/games/{gid}/leave", json={}, headers={"X-Seat-Token": t1})
                assert r.json()["redealt"] is True, r.text
                assert hub.tables[gid].game.rules == rules, "new deal"
                assert Rules.from_text(client.get(f"/api/games/{gid}").json()["rules"]) == rules
            # The game ends: the person to move after the first placement runs out of time.
            _first_placement(client, gid, t0)
            table = hub.tables[gid]
            table.turn_since -= 61
            client.portal.call(hub.round.check_clock, table)
            assert table.over
            r = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": t0})
            assert r.status_code == 201, r.text
            assert hub.tables[r.json()["id"]].game.rules == rules, "rematch"
            # The lobby tags every option away from its default.
            summary = client.get(f"/api/games/{r.json()['id']}").json()
            lobby = {g["id"]: g for g in client.get("/api/games").json()["games"]}[r.json()["id"]]
            changed = [o for o in Rules.options() if rules.option(o["name"]) != o["default"]]
            assert len(lobby["tags"]) == len(changed), (lobby["tags"], summary["rules"])


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_a_review_keeps_the_rules(rules: Rules) -> None:
    game = _finished(rules)
    r = review(game, "hard", iterations=4, plies=range(0, 2))
    assert r.rules == rules.to_text()
    back = Review.from_dict(json.loads(json.dumps(r.to_dict())), game)
    assert back.rules == rules.to_text()
    # A review of the same moves under other rules is refused for this game.
    other = next(o for o in ALL if o.players == rules.players and o != rules)
    with pytest.raises(genial.records.RecordError, match="other rules"):
        Review.from_dict({**r.to_dict(), "rules": other.to_text()}, game)


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_the_command_line_flags_name_every_rule_set(rules: Rules) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant")
    parser.add_argument("--players", type=int)
    add_rule_flags(parser)
    words = ["--variant", rules.variant, "--players", str(rules.players)]
    for option in Rules.options():
        value = rules.option(option["name"])
        flag = "--" + option["name"].replace("_", "-")
        words += ([flag] if value else ["--no-" + flag[2:]]) if option["flag"] else [flag, str(value)]
    args = parser.parse_args(words)
    assert rules_from_flags(args, args.variant, args.players) == rules
    text = parser.parse_args(["--rules", rules.to_text()])
    assert rules_from_flags(text, text.variant, text.players) == rules
    with pytest.raises(ValueError, match="leave out --variant"):
        both = parser.parse_args(["--rules", rules.to_text(), "--variant", rules.variant])
        rules_from_flags(both, both.variant, both.players)


@pytest.mark.parametrize("rules", ALL, ids=_id)
def test_the_position_notation_keeps_the_rules(rules: Rules) -> None:
    from genial.position import PositionError, read_position, write_position

    game = Game(seed=2, rules=rules)
    for m in list(genial.play_game(["greedy"] * rules.players, seed=2, rules=rules).moves)[:6]:
        game.play(m)
    while game.phase != "place" or game.pending_bonuses:  # a position is at the start of a turn
        game.play(game.legal_moves()[0])
    back = read_position(write_position(game))
    assert back.rules == rules
    assert back.board.occupied() == game.board.occupied() and back.tracks == game.tracks
    head, rest = write_position(game).split(" ", 1)
    with pytest.raises(PositionError, match="unknown rule option"):
        read_position(f"{head},no_such_option=true {rest}")
