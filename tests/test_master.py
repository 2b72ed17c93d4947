"""The master level: the learned evaluation (`genial.evaluate`), its shipped weights and
their training command, the exhaustive endgame, determinism and hidden information."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import genial
import pytest
from genial import _core
from genial.bots import LEVELS, GameView, make, play_game

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "rust" / "players" / "bots" / "master_weights.bin"
MANIFEST = ROOT / "training" / "master.json"


def _played(players: int, seed: int, moves: int) -> genial.Game:
    game = genial.Game(players=players, seed=seed)
    bot = make("scarcity", seed=seed)
    while len(game.moves) < moves and not game.is_over:
        game.play(bot.choose(game))
    return game


def _late(players: int, seed: int, pairs: int) -> genial.Game:
    """A scarcity game stopped once `pairs` free pairs or fewer remain."""
    game = genial.Game(players=players, seed=seed)
    bot = make("scarcity", seed=seed)
    while len(game.board.free_pairs()) > pairs and not game.is_over:
        game.play(bot.choose(game))
    return game


def test_master_is_the_top_level() -> None:
    assert LEVELS[-1] == "master" and "master" in genial.bots.BUILTIN_BOTS
    assert "master" in genial.bots.SEARCHING_BOTS


def test_shipped_weights_match_their_manifest() -> None:
    blob = WEIGHTS.read_bytes()
    info = json.loads(MANIFEST.read_text())
    assert hashlib.sha256(blob).hexdigest() == info["sha256"]
    assert len(blob) == info["bytes"] <= 10 * 1024 * 1024
    version, checksum, count = _core.evaluation_weights_info()
    # The compiled-in weights are this file (FNV-1a 64 of its bytes).
    fnv = 0xCBF29CE484222325
    for b in blob:
        fnv = ((fnv ^ b) * 0x100000001B3) % 2**64
    assert fnv == checksum
    assert blob[:8] == b"GENIALPN" and int.from_bytes(blob[8:12], "little") == version == info["format_version"]
    assert len(blob) == 20 + 4 * count
    assert info["command"].startswith("python -m training.master")
    assert info["start_sha256"] is None and info["teachers"] == ["hard"]
    for players in (2, 3, 4):
        # Stage 1 learns from zero; stage 2 goes on over searched play and still improves
        # on its own held-out games.
        one_ply = [c["holdout_loss"] for c in info["curve"] if c["players"] == players and c["stage"] == "one-ply"]
        searched = [c["holdout_loss"] for c in info["curve"] if c["players"] == players and c["stage"] == "searched"]
        assert one_ply[-1] < one_ply[0] - 0.1, players
        assert searched[-1] < searched[0] - 0.005, players
    # Stage 3 learns the searches' root values, at four players only. Its curve is still the
    # loss against the held-out games' results, which values need not lower (they are the
    # search's judgement, not the draw's outcome): it is recorded, not a criterion.
    assert info["value_games"] == {"2": 0, "3": 0, "4": 2400} and info["value_targets"] == "values"
    values = [c for c in info["curve"] if c["stage"] == "root values"]
    assert {c["players"] for c in values} == {4} and [c["games"] for c in values] == list(range(0, 2401, 100))


def test_training_refuses_bad_teachers_and_start_weights() -> None:
    args = (2, 1, 1, 0.5, 0.001, 1.0, 1, [2], 1)
    with pytest.raises(ValueError, match="teachers: unknown bot 'grandmaster'"):
        _core.train_evaluation(*args, ["grandmaster"])
    with pytest.raises(ValueError, match="start weights"):
        _core.train_evaluation(*args, ["hard"], b"GENIALPN" + bytes(12))
    # Root values come only from searches.
    with pytest.raises(ValueError, match="teachers that all search"):
        _core.train_evaluation(*args, ["hard", "greedy"], None, True)
    with pytest.raises(ValueError, match="teachers that all search"):
        _core.train_evaluation(*args, values=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluate_gives_probabilities_from_the_movers_view(players: int) -> None:
    game = _played(players, 3, 10)
    p = genial.evaluate(game)
    assert len(p) == players and sum(p) == pytest.approx(1.0) and all(0.0 < x < 1.0 for x in p)
    # Only what the seat to move sees: another deal of the hidden tiles changes nothing.
    twin = game.determinize(game.current_player, 99)
    assert twin != game and genial.evaluate(twin) == p
    # A view of the seat to move is the same information.
    assert genial.evaluate(GameView(game)) == pytest.approx(p)


def test_evaluate_of_a_view_and_of_a_finished_game() -> None:
    game = _played(3, 4, 9)
    other = (game.current_player + 1) % 3
    view = GameView(game, seat=other)
    p = genial.evaluate(view)
    assert len(p) == 3 and sum(p) == pytest.approx(1.0)
    # The view's seat's information only: another deal of what that seat cannot see.
    assert genial.evaluate(GameView(game.determinize(other, 5), seat=other)) == pytest.approx(p)
    over = play_game(["scarcity", "greedy"], seed=2)
    r = genial.evaluate(over)
    assert sorted(r) in ([0.0, 1.0], [0.5, 0.5])
    with pytest.raises(TypeError):
        genial.evaluate("game")  # type: ignore[arg-type]


def test_evaluate_knows_who_is_ahead() -> None:
    # Late in games between a strong and a weak bot, the evaluation favours the seat that
    # goes on to win more often than not.
    right = total = 0
    for seed in range(6):
        game = genial.Game(players=2, seed=seed)
        bots = [make("scarcity", seed=seed), make("random", seed=seed)]
        while len(game.board.free_pairs()) > 25 and not game.is_over:
            game.play(bots[game.current_player].choose(game))
        if game.is_over:
            continue
        p = genial.evaluate(game)
        total += 1
        right += p[0] > p[1]
    assert total >= 4 and right == total


def test_master_plays_every_variant_deterministically() -> None:
    for players in (2, 4):
        a = play_game([make("master", seed=1, iterations=12), "scarcity"][:2] * (players // 2), seed=5, players=players)
        b = play_game([make("master", seed=1, iterations=12), "scarcity"][:2] * (players // 2), seed=5, players=players)
        assert a.moves == b.moves and a.is_over


def test_exhaustive_endgame_is_blind_to_hidden_tiles() -> None:
    checked = 0
    for seed in range(4):
        game = _late(2, seed, 3)
        if game.is_over or len(game.legal_moves()) < 2:
            continue
        twin = game.determinize(game.current_player, 1000 + seed)
        a = genial.analyse(game, seed=3, level="master")
        assert a == genial.analyse(twin, seed=3, level="master")
        # The endgame ranks every legal move by its mean exact result over the deals.
        assert {c.move for c in a.candidates} == set(game.legal_moves())
        assert [c.win_probability for c in a.candidates] == sorted(
            (c.win_probability for c in a.candidates), reverse=True
        )
        checked += 1
    assert checked >= 2


def test_training_command_runs_at_toy_size(tmp_path: Path) -> None:
    from training import master

    stage1 = ["--games", "40", "--round", "20", "--holdout", "10", "--players", "2"]
    stage2 = ["--teachers", "hard:iterations=8", "--searched-round", "2", "--searched-holdout", "2"]
    plot = tmp_path / "curve.svg"
    both = [*stage1, *stage2, "--searched-games", "4", "--value-games", "4"]
    assert master.main([*both, "--out-dir", str(tmp_path), "--plot", str(plot)]) == 0
    blob = (tmp_path / "master_weights.bin").read_bytes()
    info = json.loads((tmp_path / "master.json").read_text())
    assert info["sha256"] == hashlib.sha256(blob).hexdigest() and len(blob) == WEIGHTS.stat().st_size
    assert [(c["stage"], c["games"]) for c in info["curve"]] == [
        ("one-ply", 0),
        ("one-ply", 20),
        ("one-ply", 40),
        ("searched", 0),
        ("searched", 2),
        ("searched", 4),
        ("root values", 0),
        ("root values", 2),
        ("root values", 4),
    ]
    assert info["teachers"] == ["hard:iterations=8"] and info["searched_games"] == {"2": 4}
    assert info["value_games"] == {"2": 4} and info["value_targets"] == "values"
    assert plot.read_text().lstrip().startswith("<?xml")
    # The same seeds give the same weights, and stage 2 started from stage 1's file is the
    # whole pipeline.
    again = tmp_path / "again"
    assert master.main([*both, "--out-dir", str(again)]) == 0
    assert (again / "master_weights.bin").read_bytes() == blob
    first = tmp_path / "first"
    master.main([*stage1, "--searched-games", "0", "--value-games", "0", "--out-dir", str(first)])
    assert (first / "master_weights.bin").read_bytes() != blob
    second = tmp_path / "second"
    start = str(first / "master_weights.bin")
    master.main(
        [*stage1, *stage2, "--searched-games", "4", "--value-games", "4", "--start", start, "--out-dir", str(second)]
    )
    assert (second / "master_weights.bin").read_bytes() == blob
    started = json.loads((second / "master.json").read_text())["start_sha256"]
    assert started == hashlib.sha256((first / "master_weights.bin").read_bytes()).hexdigest()
    # Stage 3's ablation learns the same games' results: other weights.
    ablation = tmp_path / "ablation"
    master.main([*both, "--value-targets", "results", "--out-dir", str(ablation)])
    assert (ablation / "master_weights.bin").read_bytes() != blob
    assert json.loads((ablation / "master.json").read_text())["value_targets"] == "results"
    with pytest.raises(SystemExit):
        master.main([*stage1, "--searched-games", "4", "5"])
    with pytest.raises(SystemExit):
        master.main([*stage1, "--searched-games", "4", "--value-games", "4", "5"])
    with pytest.raises(ValueError):
        _core.train_evaluation(10, 10, 5, 0.5, 0.01, 1.0, 1, [7], 1)
