"""Game review (`genial.review`): deterministic, legal, fair to the mover, and right about
a move that throws the game."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import genial
import pytest
from genial import Game
from genial.records import RecordError, from_record, to_record
from genial.reviews import CLASSES, LOSS_LIMITS, Review, classify

DATA = Path(__file__).parent / "data"
# Small budgets keep the tests quick; the review's properties hold at any budget.
ITERATIONS = 40


def short_game(seed: int = 5, plies: int = 16, players: int = 2, variant: str = "standard") -> Game:
    game = Game(players=players, variant=variant, seed=seed)
    bot = genial.bots.make("greedy", seed=seed)
    while len(game.moves) < plies and not game.is_over:
        game.play(bot.choose(game))
    return game


def test_classes_follow_the_documented_limits() -> None:
    assert CLASSES == ("best", "good", "inaccuracy", "mistake", "blunder")
    assert list(LOSS_LIMITS) == list(CLASSES[:-1])
    assert classify(0.0) == "best" and classify(0.3, engine_choice=True) == "best"
    assert classify(0.02) == "good" and classify(0.05) == "inaccuracy"
    assert classify(0.15) == "mistake" and classify(0.2) == "blunder" and classify(1.0) == "blunder"


def test_a_review_is_deterministic_for_a_seed_and_its_best_moves_are_legal() -> None:
    game = short_game()
    a = genial.review(game, iterations=ITERATIONS, seed=3)
    b = genial.review(game, iterations=ITERATIONS, seed=3)
    assert a == b
    assert [d.classification for d in a.decisions] == [d.classification for d in b.decisions]
    assert len(a.decisions) == len(game.moves) and len(a.series) == len(game.moves) + 1
    replay = Game(players=2, seed=5)
    for d, move in zip(a.decisions, game.moves):
        assert d.move == move and d.player == replay.current_player
        assert replay.is_legal(d.best), d
        assert all(replay.is_legal(c.move) for c in d.candidates)
        # The chance before is the search's first candidate's (the analysis's); after, that
        # less the compared difference, so before - after is the loss unless cut at 0 or 1
        # (the move played may also have done better over the compared deals: no loss).
        assert d.win_before == d.best_win and 0.0 <= d.win_after <= 1.0
        if not d.forced:
            assert d.win_before == d.candidates[0].win_probability
        if 0.0 < d.win_after < 1.0:
            assert d.loss == pytest.approx(max(0.0, d.win_before - d.win_after))
        else:
            assert d.loss >= d.win_before - d.win_after - 1e-12
        assert d.classification in CLASSES
        if d.move.is_placement:
            assert d.points == replay.explain(d.move).points
        replay.play(move)
    for row in a.series:
        assert len(row) == 2 and sum(row) == pytest.approx(1.0)
    # The win-chance graph: a line per seat, a mark per inaccuracy, mistake or blunder.
    svg = ElementTree.fromstring(a.to_svg())
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.findall(f"{ns}polyline")) == 2
    marked = sum(d.classification in ("inaccuracy", "mistake", "blunder") for d in a.decisions if not d.forced)
    assert len(svg.findall(f"{ns}circle")) == marked
    legend = [t.text for t in svg.findall(f"{ns}text")]
    assert "player 0" in legend and "player 1" in legend
    # Named seats: the legend names them, escaped and cut to fit; a wrong count is refused.
    named = ElementTree.fromstring(a.to_svg(names=["<Ada>", "a very long seat name"]))
    legend = [t.text for t in named.findall(f"{ns}text")]
    assert "<Ada>" in legend and "a very long…" in legend and "player 0" not in legend
    with pytest.raises(ValueError, match="2 texts"):
        a.to_svg(names=["Ada"])


def test_the_summary_counts_every_decision_with_a_choice() -> None:
    r = genial.review(short_game(seed=9, plies=10), iterations=ITERATIONS, seed=1)
    for s in r.summary:
        mine = [d for d in r.decisions if d.player == s.player and not d.forced]
        assert s.decisions == len(mine) == sum(s.counts.values())
        assert s.average_loss == pytest.approx(sum(d.loss for d in mine) / len(mine))
    assert str(r).count("\n") == len(r.decisions) + 2


def test_playing_the_engines_top_choice_is_never_a_mistake() -> None:
    # Seat 0 always plays what the review's own search ranks first; seat 1 plays greedily.
    game = Game(players=2, seed=21)
    other = genial.bots.make("greedy", seed=2)
    while not game.is_over and len(game.moves) < 30:
        if game.current_player == 0:
            trial = game.clone()
            trial.play(trial.legal_moves()[0])
            ply = len(game.moves)
            top = genial.review(trial, iterations=ITERATIONS, seed=8, plies=range(ply, ply + 1)).decisions[0].best
            game.play(top)
        else:
            game.play(other.choose(game))
    r = genial.review(game, iterations=ITERATIONS, seed=8)
    mine = [d for d in r.decisions if d.player == 0]
    assert mine and all(d.classification == "best" for d in mine)
    assert r.summary[0].counts["mistake"] == r.summary[0].counts["blunder"] == 0


def test_the_tile_laid_the_wrong_way_round_on_the_last_pair_is_a_blunder() -> None:
    # The last free pair of a recorded game. Red-orange laid with orange on (5,-3) scores 2
    # orange and wins; the same tile the other way round scores nothing and the game ends
    # with seat 1 ahead. Both end the game: the outcome is certain, not a guess.
    position = from_record(json.loads((DATA / "review_last_pair.json").read_text()))
    win, throw = "R5,-4+O5,-3", "O5,-4+R5,-3"
    for move, winner in ((win, 0), (throw, 1)):
        after = position.clone()
        after.play(move)
        assert after.is_over and after.winner == winner
    for move, expected in ((win, "best"), (throw, "blunder")):
        game = position.clone()
        game.play(move)
        last = len(game.moves) - 1
        d = genial.review(game, iterations=ITERATIONS, seed=0, plies=range(last, last + 1)).decisions[0]
        assert d.classification == expected, d
        assert d.best == genial.Move.parse(win)
    assert d.loss == pytest.approx(1.0) and d.win_after == 0.0


def test_the_review_is_an_optional_versioned_section_of_the_record() -> None:
    game = short_game(plies=6)
    r = genial.review(game, iterations=ITERATIONS, seed=2)
    data = to_record(game, review=r)
    assert data["review"]["format"] == "genial.review" and data["review"]["version"] == genial.reviews.VERSION == 3
    text = json.dumps(data)
    back = json.loads(text)
    assert from_record(back) == game
    assert Review.from_dict(back["review"], game) == r
    with pytest.raises(RecordError, match="version"):
        Review.from_dict({**back["review"], "version": 99}, game)
    other = short_game(seed=6, plies=6)
    with pytest.raises(RecordError, match="other moves"):
        Review.from_dict(back["review"], other)


def test_a_version_1_review_still_reads_but_is_not_resumed() -> None:
    game = short_game(plies=6)
    r = genial.review(game, iterations=ITERATIONS, seed=2)
    data = r.to_dict()
    assert all(d["noise"] is not None and isinstance(d["within_noise"], bool) for d in data["decisions"])
    old = {
        **data,
        "version": 1,
        "decisions": [{k: v for k, v in d.items() if "noise" not in k} for d in data["decisions"]],
    }
    back = Review.from_dict(old, game)
    assert back.version == 1 and all(d.noise is None and not d.within_noise for d in back.decisions)
    assert [d.classification for d in back.decisions] == [d.classification for d in r.decisions]
    with pytest.raises(ValueError, match="version 1"):
        genial.review(game, iterations=ITERATIONS, seed=2, resume=back)


def test_a_version_2_review_still_reads_but_is_not_resumed_or_taken_from_a_cache(tmp_path: Path) -> None:
    # Version 2 showed the search's values unmapped: a review of it is another way of
    # judging, made again rather than mixed with version 3 decisions.
    game = short_game(plies=6)
    r = genial.review(game, iterations=ITERATIONS, seed=2)
    back = Review.from_dict({**r.to_dict(), "version": 2}, game)
    assert back.version == 2 and back.decisions == r.decisions
    with pytest.raises(ValueError, match="version 2"):
        genial.review(game, iterations=ITERATIONS, seed=2, resume=back)
    from genial.cli.analyse import _cached

    path = tmp_path / "cached.json"
    path.write_text(json.dumps(back.to_dict()))
    assert _cached(path, game, "expert", ITERATIONS, 2) is None
    path.write_text(json.dumps(r.to_dict()))
    assert _cached(path, game, "expert", ITERATIONS, 2) == r


def test_a_class_needs_a_loss_beyond_the_noise() -> None:
    assert classify(0.03, noise=0.025) == "best" and classify(0.03) == "good"
    assert classify(0.15, noise=0.06) == "inaccuracy" and classify(0.25, noise=0.06) == "mistake"
    r = genial.review(short_game(seed=9, plies=12), iterations=ITERATIONS, seed=1)
    for d in r.decisions:
        assert d.noise is not None and d.noise >= 0.0
        if d.best == d.move or d.forced:
            assert d.loss == 0.0 and d.noise == 0.0 and d.classification == "best"
        else:
            assert d.classification == classify(d.loss, noise=d.noise)
            assert d.within_noise == (d.loss <= d.noise)


def test_to_pandas_has_a_row_per_decision() -> None:
    pd = pytest.importorskip("pandas")
    r = genial.review(short_game(plies=6), iterations=ITERATIONS, seed=2)
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(r.decisions)
    assert list(df["classification"]) == [d.classification for d in r.decisions]


def test_progress_is_reported_and_bad_arguments_are_refused() -> None:
    game = short_game(plies=4)
    seen: list[tuple[int, int]] = []
    genial.review(game, iterations=ITERATIONS, progress=lambda done, total, d: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    with pytest.raises(ValueError, match="hard or expert"):
        genial.review(game, level="easy")
    with pytest.raises(ValueError):
        genial.review(game, iterations=0)
    with pytest.raises(TypeError):
        genial.review("not a game")  # type: ignore[arg-type]


def test_an_interrupted_review_resumes_from_its_finished_decisions() -> None:
    game = short_game(plies=8)
    full = genial.review(game, iterations=ITERATIONS, seed=4)
    part = Review.partial(game, "expert", ITERATIONS, 4, list(full.decisions[:5]))
    assert not part.complete and Review.from_dict(part.to_dict()) == part
    reported: list[int] = []
    again = genial.review(
        game, iterations=ITERATIONS, seed=4, resume=part, progress=lambda n, t, d: reported.append(d.ply)
    )
    assert again == full and reported == list(range(8))
    with pytest.raises(ValueError, match="another level"):
        genial.review(game, iterations=ITERATIONS, seed=5, resume=part)
