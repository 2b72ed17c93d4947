"""``genial analyse``: the review table of a record, its cache, and one position's candidates."""

from __future__ import annotations

import json
from pathlib import Path

import genial
import pytest
from genial import reviews
from genial.cli import main
from genial.cli.analyse import cache_path
from genial.records import from_record
from genial.reviews import Review


def record(tmp_path: Path, plies: int = 6) -> Path:
    game = genial.Game(players=2, seed=12)
    bot = genial.bots.make("greedy", seed=1)
    while len(game.moves) < plies:
        game.play(bot.choose(game))
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    return path


def test_the_review_table_is_printed_and_cached_beside_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = record(tmp_path)
    assert main(["analyse", str(path), "--iterations", "20", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "before" in out and "per player" in out and "avg loss" in out
    assert "mover's view only" in out
    cached = cache_path(path)
    assert cached == tmp_path / "game.review.json"
    r = Review.from_dict(json.loads(cached.read_text()))
    assert len(r.decisions) == 6 and r.complete

    # A second run reads the cache: no search at all.
    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched again")

    monkeypatch.setattr(reviews._core, "review_decision", no_search)
    assert main(["analyse", str(path), "--iterations", "20", "--quiet"]) == 0
    assert capsys.readouterr().out == out


def test_out_writes_the_record_with_its_review_section(tmp_path: Path) -> None:
    path = record(tmp_path, plies=4)
    out = tmp_path / "review.json"
    assert main(["analyse", str(path), "--iterations", "20", "--quiet", "--no-cache", "--out", str(out)]) == 0
    assert not cache_path(path).exists()
    data = json.loads(out.read_text())
    game = from_record(data)
    r = Review.from_dict(data["review"], game)
    assert [d.move for d in r.decisions] == list(game.moves)


def test_move_n_lists_the_candidates_of_that_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = record(tmp_path, plies=4)
    assert main(["analyse", str(path), "--move", "3", "--iterations", "30"]) == 0
    out = capsys.readouterr().out
    assert "move 3: player 0 to move" in out and "win" in out and "expected line" in out
    assert main(["analyse", str(path), "--move", "9"]) == 2
    assert "--move must be 1 to 5" in capsys.readouterr().err


def test_a_bad_record_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["analyse", str(bad)]) == 2
    assert "bad record" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2


def test_the_help_is_plain_text() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "genial", "analyse", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "genial analyse game.json" in out and "``" not in out
