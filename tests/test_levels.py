"""Levels, the scarcity reference bot, the swap=never option, the evaluation and analysis."""

from __future__ import annotations

import itertools
from pathlib import Path

import genial
import numpy as np
import pytest
from conftest import load_script
from genial import _core
from genial.bots import LEVELS, BotOptionError, make, parse_bot, play_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", (*LEVELS, "scarcity"))
def test_levels_and_scarcity_are_builtin_bots(name: str) -> None:
    bot = make(name, seed=3)
    assert bot.name == name
    assert name in genial.bots.BUILTIN_BOTS
    assert parse_bot(bot.spec).options == bot.options


def test_level_options_are_accepted_and_reported() -> None:
    bot = make("expert", seed=1, iterations=50, widen=2.0, swap="never")
    assert bot.options["iterations"] == 50 and bot.options["widen"] == 2.0 and bot.options["swap"] == "never"
    assert bot.label.startswith("expert(")
    assert make("easy", temperature=0.5).options["temperature"] == 0.5
    assert parse_bot("hard:iterations=30,endgame=4").options["endgame"] == 4
    assert make("scarcity", swap="never").options == {"swap": "never"}
    assert make("greedy").spec == "greedy"


@pytest.mark.parametrize(
    "name, options",
    [
        ("easy", {"iterations": 10}),
        ("expert", {"temperature": 1.0}),
        ("expert", {"width": 0}),
        ("expert", {"widen": -1.0}),
        ("medium", {"temperature": -1.0}),
        ("scarcity", {"widen": 1.0}),
        ("greedy", {"swap": "sometimes"}),
        ("expert", {"iterations": -3}),
    ],
)
def test_bad_options_raise_a_value_error(name: str, options: dict[str, object]) -> None:
    with pytest.raises(BotOptionError):
        make(name, **options)
    assert issubclass(BotOptionError, ValueError)


def test_unknown_option_in_a_spec() -> None:
    with pytest.raises(BotOptionError, match="the expert bot takes no option colour: its options are iterations"):
        parse_bot("expert:colour=red")


@pytest.mark.parametrize(
    "variant, players", [("standard", 2), ("standard", 3), ("standard", 4), ("team", 4), ("duel", 2), ("solo", 1)]
)
def test_levels_play_every_variant(variant: str, players: int) -> None:
    bots = ["expert:iterations=8" if s % 2 == 0 else ("scarcity" if s % 3 else "medium") for s in range(players)]
    game = play_game(bots, players, seed=11, variant=variant)
    assert game.is_over


def test_swap_never_declines_every_swap() -> None:
    res = genial.simulate(30, players=2, bots=["scarcity:swap=never", "greedy:swap=never"], seed=4, threads=2)
    assert int(res.swaps.sum()) == 0
    took = genial.simulate(30, players=2, bots=["scarcity", "greedy"], seed=4, threads=2)
    assert int(took.swaps.sum()) > 0
    res = genial.simulate(
        6,
        players=2,
        bots=["expert:iterations=10,swap=never", "medium:swap=never"],
        seed=4,
        threads=1,
        swap_timing="instead_of_placement",
    )
    assert int(res.swaps.sum()) == 0


def test_results_are_deterministic_by_seed_and_thread_count() -> None:
    bots = ["expert:iterations=12", "hard:iterations=6", "easy", "scarcity"]
    one = genial.simulate(8, players=4, bots=bots, seed=9, threads=1, rotate=True)
    two = genial.simulate(8, players=4, bots=bots, seed=9, threads=2, rotate=True)
    assert one == two


def test_a_toy_tournament_of_the_levels() -> None:
    t = genial.tournament(["expert:iterations=10", "medium", "scarcity"], games=12, seed=3, threads=2)
    assert t.games == 12 and set(t.ratings) == {"expert(iterations=10)", "medium", "scarcity"}


def test_scarcity_plays_its_formula() -> None:
    # The first placement next to a symbol scores one point in a colour at 0 (the lowest):
    # 1 × (1 + 2) × 2.5 = 7.5; every scoring first placement ties, so the bot picks one.
    game = genial.Game(players=2, seed=6)
    move = make("scarcity", seed=2).choose(game)
    assert sum(game.clone().play(move).points) >= 1


def test_evaluation_features_and_probabilities() -> None:
    names, weights = _core.eval_weights()
    assert len(weights) == 3 and all(len(w) == len(names) for w in weights)
    game = genial.Game(players=3, seed=2)
    f = np.asarray(_core.eval_features(game._state, 0))
    assert f.shape == (3, len(names))
    # At the start every marker is 0: the seats differ only in how soon they move.
    assert np.allclose(f[:, names.index("lowest")], 0.0)
    assert list(f[:, names.index("wait")]) == pytest.approx([0.0, 1 / 3, 2 / 3])
    p = _core.win_probabilities(game._state, 0)
    assert sum(p) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        _core.win_probabilities(game._state, 3)


def _hidden_twin(seed: int, players: int) -> tuple[genial.Game, genial.Game]:
    game = genial.Game(players=players, seed=seed)
    while len(game.moves) < 9:
        game.play(make("scarcity", seed=1).choose(game))
    return game, game.determinize(game.current_player, 1234)


@pytest.mark.parametrize("level", ["expert", "master"])
@pytest.mark.parametrize("players", [2, 4])
def test_analyse_is_legal_ordered_and_blind_to_hidden_tiles(players: int, level: str) -> None:
    game, twin = _hidden_twin(5, players)
    assert game != twin  # other racks differ, the mover's view does not
    a = genial.analyse(game, iterations=80, seed=7, level=level)
    b = genial.analyse(twin, iterations=80, seed=7, level=level)
    assert a == b
    assert a.player == game.current_player
    if level == "master":
        # Time management: the search stops early once the best move is settled.
        assert 1 <= a.iterations <= 120
        assert make(level, seed=7, iterations=80).choose(game) == a.best.move
        assert make(level, seed=7, iterations=80).choose(twin) == a.best.move
        return
    assert a.iterations == 80
    legal = set(game.legal_moves())
    assert all(c.move in legal and 0.0 <= c.win_probability <= 1.0 for c in a.candidates)
    assert [c.visits for c in a.candidates] == sorted((c.visits for c in a.candidates), reverse=True)
    assert sum(c.visits for c in a.candidates) == 80
    assert "iterations" in str(a)
    # The expert bot plays the analysis's best move for the same seed and budget.
    assert make("expert", seed=7, iterations=80).choose(game) == a.best.move


@pytest.mark.parametrize(("players", "iterations"), [(2, 60), (2, 3200), (3, 60)])
def test_the_expert_shows_its_two_player_values_through_the_chance_map(players: int, iterations: int) -> None:
    # `hard` and `expert` are the same search but for the budget: given the same iterations
    # they find the same values, and only the chance map sets the shown chances apart.
    game, _ = _hidden_twin(3, players)
    hard = genial.analyse(game, iterations=iterations, seed=2, level="hard")
    expert = genial.analyse(game, iterations=iterations, seed=2, level="expert")
    assert [(c.move, c.visits) for c in hard.candidates] == [(c.move, c.visits) for c in expert.candidates]
    mapping = genial.analysis.chance_map("expert", game.rules)
    assert genial.analysis.chance_map("hard", game.rules) is None
    if players == 3:
        assert mapping is None and expert == hard
        return
    # Pinned on purpose: the fitted map and the budget it was fitted at (a measurement, kept
    # when the level's budget in the catalogue changes), not a restated budget.
    assert mapping == (1.32, -0.255, 800)
    a, b, fitted = mapping
    # The top move's upward bias shrinks like the noise: b scaled by √(800 / iterations)
    # above 800 iterations, held below.
    bias = b * min(1.0, (fitted / iterations) ** 0.5)
    for h, e in zip(hard.candidates, expert.candidates):
        logit = np.log(h.win_probability / (1 - h.win_probability))
        assert e.win_probability == pytest.approx(1 / (1 + np.exp(-(a * logit + bias))), abs=1e-12)
    assert expert.best.win_probability != hard.best.win_probability
    # A review shows the engine's choice, played, with the analysis's chance.
    ply = len(game.moves)
    game.play(expert.best.move)
    (d,) = genial.review(game, plies=range(ply, ply + 1), iterations=iterations, seed=2).decisions
    assert d.best == d.move == expert.best.move and d.classification == "best"
    assert d.win_before == d.win_after == d.best_win == expert.best.win_probability
    assert d.candidates == expert.candidates


def test_analyse_budget_and_errors() -> None:
    game = genial.Game(players=2, seed=1)
    assert genial.analyse(game, budget_ms=5).iterations >= 1
    assert genial.analyse(genial.bots.GameView(game), iterations=10).best.move in game.legal_moves()
    with pytest.raises(ValueError):
        genial.analyse(game, iterations=0)
    with pytest.raises(ValueError):
        genial.analyse(game, level="medium")
    over = play_game(["scarcity", "scarcity"], seed=1)
    with pytest.raises(ValueError, match="over"):
        genial.analyse(over, iterations=5)


def test_training_script_runs_at_toy_size(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    mod = load_script("fit_eval", ROOT / "training" / "fit_eval.py")
    # Without --out-dir it writes the weights the engine compiles in, where eval.rs includes
    # them, and its documented reproduce command copies the start weights there too.
    assert mod.WEIGHTS_RS.exists() and mod.WEIGHTS_RS.parent.joinpath("eval.rs").read_text().count(
        f'include!("{mod.WEIGHTS_RS.name}")'
    )
    assert f"cp training/start_weights.rs {mod.WEIGHTS_RS.relative_to(ROOT).as_posix()} " in (mod.__doc__ or "")
    assert mod.main(["--games", "12", "--threads", "1", "--out-dir", str(tmp_path)]) == 0
    text = (tmp_path / "weights.rs").read_text()
    assert "pub const WEIGHTS" in text and text.count("[") >= 4
    meta = (tmp_path / "weights.json").read_text()
    assert '"fits"' in meta
    # The shape constraint holds: a point is never worth more higher up a track.
    import json

    for fit in json.loads(meta)["fits"]:
        bins = fit["weights"][:6]
        assert all(a >= b - 1e-9 for a, b in itertools.pairwise(bins))


def test_level_budgets_by_player_count() -> None:
    # The level's own budgets are not listed as options; an explicit one is.
    assert "iterations" not in make("expert").options
    assert make("expert", iterations=30).options["iterations"] == 30
    assert genial.analyse(genial.Game(players=4, seed=2), level="hard").iterations == 100
    assert genial.analyse(genial.Game(players=2, seed=2), level="hard").iterations == 200
    assert genial.analyse(genial.Game(players=3, seed=2), level="hard", iterations=7).iterations == 7
