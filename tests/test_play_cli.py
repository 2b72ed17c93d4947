"""`genial play` driven through its real input and output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from genial import Game
from genial.cli import main
from genial.cli.play import ordered_choices, rank_choices


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unfinished game is saved in the current directory: not in the repository."""
    monkeypatch.chdir(tmp_path)


def play(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_entries_then_a_numbered_pick(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    first = ordered_choices(Game(players=2, seed=3), 3)[0].move
    stdin = "R0,0+B9,9\nhello\n9999\n1\nquit\n"
    code, out, err = play(["--seed", "3", "--seats", "human,greedy"], stdin, monkeypatch, capsys)
    assert code == 0 and err == ""
    assert 'not a legal move: cannot read move "R0,0+B9,9": cell (9,9) is off the board' in out
    assert 'cannot read move "hello"' in out
    assert "no move number 9999" in out
    assert f"player 0 (you): {first}" in out
    # The game went on: the greedy bot answered, then the human was asked again and left.
    after = out.split(f"player 0 (you): {first}", 1)[1]
    assert "player 1 (greedy): " in after
    assert after.rstrip().endswith(
        "game left unfinished\ngame saved to genial-autosave-3.json "
        "(resume with: genial play --resume genial-autosave-3.json)"
    )
    assert "Traceback" not in out


def test_numbered_list_is_best_first_with_points(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(players=2, seed=9)
    game.play(ordered_choices(game, 9)[0].move)
    ranked = rank_choices(game)
    assert len(ranked) == game.legal_move_count()
    assert {c.move for c in ranked} == set(game.legal_moves())
    keys = [c.key for c in ranked]
    assert keys == sorted(keys)
    # The list a human sees: the expert's candidates first, with their win chance, then the
    # rest in the order above.
    choices = ordered_choices(game, 9)
    searched = [c for c in choices if c.win is not None]
    assert searched and choices[: len(searched)] == searched
    assert [c.move for c in choices[len(searched) :]] == [
        c.move for c in ranked if c not in searched and c.move not in {s.move for s in searched}
    ]
    # The list shows the number, the move and its points; `list N` shows more.
    code, out, _ = play(
        ["--seed", "9", "--seats", "human,human", "--show", "4"], "1\nlist 12\nquit\n", monkeypatch, capsys
    )
    assert code == 0
    for i, choice in enumerate(choices[:12], start=1):
        assert f"{i}. {choice.describe()}" in out
    before, after = out.split("player 1> list 12")
    turn = before.split("player 0> 1")[1]
    assert f"  4. {choices[3].describe()}" in turn and f"  5. {choices[4].describe()}" not in turn
    assert f"  5. {choices[4].describe()}" in after


def test_a_move_typed_as_text_and_an_illegal_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(players=2, seed=5)
    legal = game.legal_moves()[len(game.legal_moves()) // 2]
    # A placement away from every printed symbol is not a legal first placement.
    rack = game.rack()
    a, b = rack[0].colors
    illegal = f"{a.letter}0,0+{b.letter}1,0"
    assert not game.is_legal(illegal)
    code, out, _ = play(["--seed", "5", "--seats", "human,random"], f"{illegal}\n{legal}\nquit\n", monkeypatch, capsys)
    assert code == 0
    assert f"player 0> {illegal}\nnot a legal move: " in out
    assert f"player 0 (you): {legal}" in out


def test_help_hint_board_and_list_by_tile(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(players=3, seed=12)
    tile = game.rack()[0]
    code, out, _ = play(
        ["--seed", "12", "--seats", "human,greedy,random"],
        f"help\nhint\nboard\nlist {tile}\nquit\n",
        monkeypatch,
        capsys,
    )
    assert code == 0
    assert "save FILE" in out and "swap | keep" in out
    assert "hint: " in out
    hint_line = next(line for line in out.splitlines() if line.startswith("hint: "))
    # One ranking for the hint and the list: the hint is the list's first entry.
    assert hint_line == f"hint: 1. {ordered_choices(game, 12)[0].describe()}"
    assert "(win " in hint_line
    listed = out.split(f"player 0> list {tile}\n", 1)[1].split("player 0>")[0].splitlines()
    assert listed and all(str(tile)[0] in line and str(tile)[1] in line for line in listed)
    assert len(listed) == sum(1 for m in game.legal_moves() if m.tile == tile)
    assert out.count("your rack: ") == 2  # the turn's view and `board`
    cell = game.legal_moves()[0].cells
    assert cell is not None
    q, r = cell[0]
    code, out, _ = play(
        ["--seed", "12", "--seats", "human,greedy,random"], f"list {q},{r}\nquit\n", monkeypatch, capsys
    )
    listed = out.split(f"player 0> list {q},{r}\n", 1)[1].split("player 0>")[0].splitlines()
    assert len(listed) == sum(1 for m in game.legal_moves() if m.cells is not None and (q, r) in m.cells) > 0
    assert all(f"{q},{r}" in line for line in listed)


def test_save_and_resume_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    code, out, _ = play(["--seed", "77", "--seats", "human,greedy"], f"1\n2\nsave {saved}\nquit\n", monkeypatch, capsys)
    assert code == 0 and f"saved to {saved}" in out
    record = json.loads(saved.read_text())
    assert record["seats"] == ["human", "greedy"] and record["seed"] == 77
    first = Game.from_json(saved.read_text())
    assert len(first.moves) >= 4 and first.current_player == 0

    again = tmp_path / "again.json"
    code, out, _ = play(["--resume", str(saved)], f"1\nsave {again}\nquit\n", monkeypatch, capsys)
    assert code == 0
    assert f"resuming after {len(first.moves)} moves" in out
    second = Game.from_json(again.read_text())
    assert second.moves[: len(first.moves)] == first.moves
    assert len(second.moves) > len(first.moves)
    assert json.loads(again.read_text())["seats"] == ["human", "greedy"]

    # Resuming with other seats: the bots take over and finish the same game.
    code, out, _ = play(["--resume", str(saved), "--seats", "greedy,greedy"], "", monkeypatch, capsys)
    assert code == 0 and "game over" in out


def test_resume_rejects_rule_options_and_bad_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(Game(players=2, seed=1).to_json())
    code, _, err = play(["--resume", str(saved), "--variant", "duel"], "", monkeypatch, capsys)
    assert code == 2 and "--variant" in err
    broken = tmp_path / "broken.json"
    broken.write_text(saved.read_text()[:100])
    code, _, err = play(["--resume", str(broken)], "", monkeypatch, capsys)
    assert code == 2 and "bad record" in err and "not valid JSON" in err
    record = json.loads(saved.read_text())
    record["seats"] = ["human"]
    broken.write_text(json.dumps(record))
    code, _, err = play(["--resume", str(broken)], "", monkeypatch, capsys)
    assert code == 2 and "'seats'" in err
    code, _, err = play(["--resume", str(tmp_path / "missing.json")], "", monkeypatch, capsys)
    assert code == 2 and "cannot read" in err


def test_bad_options_are_reported(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = play(["--seats", "human,chess"], "", monkeypatch, capsys)
    assert code == 2 and "unknown bot 'chess'" in err
    code, _, err = play(["--players", "3", "--seats", "human,greedy"], "", monkeypatch, capsys)
    assert code == 2 and "--seats lists 2 seats but --players is 3" in err
    code, _, err = play(["--variant", "team", "--seats", "greedy,greedy"], "", monkeypatch, capsys)
    assert code == 2 and "team" in err


def test_end_of_input_leaves_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(["--seed", "2"], "", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert "end of input: game left unfinished" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--seats", "greedy,random"],
        ["--seats", "random,greedy,random"],
        ["--variant", "team", "--seats", "greedy,random,greedy,random"],
        ["--variant", "duel", "--seats", "greedy,greedy"],
        ["--variant", "solo", "--seats", "greedy"],
        ["--seats", "greedy,greedy", "--swap-timing", "instead_of_placement", "--require-contact"],
    ],
)
def test_bots_only_games_finish_the_same_way_twice(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(["--seed", "31", *argv], "", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert "game over (" in out
    assert ("result: " in out) if "solo" in argv else ("  1. " in out)
    assert play(["--seed", "31", *argv], "", monkeypatch, capsys)[1] == out


def test_a_human_finishes_a_game_by_numbers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Always the first listed move, through swap offers and bonus placements, to the end."""
    code, out, _ = play(["--seed", "2", "--seats", "human,human", "--show", "2"], "1\n" * 400, monkeypatch, capsys)
    assert code == 0
    assert "game over (" in out
    assert "may swap" in out  # seed 2 offers swaps; answering by number works there too
    assert "swapped: new rack" in out  # 1 is swap in the offer's list [swap, keep]


def test_a_real_process_reads_stdin(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "genial", "play", "--seed", "4", "--seats", "human,greedy"],
        input="nonsense\n1\nquit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not a legal move" in proc.stdout
    assert "player 0 (you): " in proc.stdout and "player 1 (greedy): " in proc.stdout
    assert "\x1b[" not in proc.stdout  # no colours when not writing to a terminal


# ----- no input ends the program, and no exit loses the game -------------------------------


@pytest.mark.parametrize(
    "entry, says",
    [
        ("\u00b2", "not a legal move"),  # a superscript two: str.isdigit() says yes, int() refuses it
        ("list \u00b2", "cannot list"),
        ("7" * 5000, "no move number 77777777..."),  # beyond Python's 4300-digit int conversion
        ("list " + "7" * 5000, "1. "),  # more than all: lists all
        ("\ud800", "not a legal move"),
        ("list 9999999,9999999", "cannot list"),
        ("save /nonexistent-dir/x.json", "cannot save to /nonexistent-dir/x.json"),
        ("R0,0+B2,0", "are not adjacent"),
    ],
)
def test_any_entry_gets_a_message_and_a_new_prompt(
    entry: str, says: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(["--seed", "3", "--seats", "human,greedy"], f"{entry}\n1\nquit\n", monkeypatch, capsys)
    assert code == 0 and err == "", err
    assert says in out
    assert "player 0 (you): " in out  # the game went on after the entry
    assert "Traceback" not in out


def test_every_way_out_saves_the_game_and_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # End of input after two moves: saved in the current directory.
    code, out, _ = play(["--seed", "5", "--seats", "human,greedy"], "1\n", monkeypatch, capsys)
    saved = tmp_path / "genial-autosave-5.json"
    assert code == 0 and f"game saved to {saved.name} (resume with: genial play --resume {saved.name})" in out
    resumed = Game.from_json(saved.read_text())
    assert len(resumed.moves) == 2
    # Resumed and left again: kept in the same file after every move, one move pair later.
    code, out, _ = play(["--resume", str(saved)], "1\nquit\n", monkeypatch, capsys)
    assert code == 0 and f"the game is saved in {saved}" in out
    assert len(Game.from_json(saved.read_text()).moves) == 4
    # Saved by hand and left at once: nothing new to write, the message points at the file.
    mine = tmp_path / "mine.json"
    code, out, _ = play(["--seed", "6"], f"save {mine}\nquit\n", monkeypatch, capsys)
    assert f"the game is saved in {mine} (resume with: genial play --resume {mine})" in out

    # Ctrl-C at the prompt: exit 130, saved.
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    assert main(["play", "--seed", "8"]) == 130
    out = capsys.readouterr().out
    assert "interrupted: game left unfinished" in out and "genial-autosave-8.json" in out
    assert Game.from_json((tmp_path / "genial-autosave-8.json").read_text()).seed == 8
    # A crash (here: a bot that breaks): exit 1, the traceback on stderr, the game saved.
    from genial import bots

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bots.BuiltinBot, "choose", broken)
    code, out, err = play(["--seed", "9", "--seats", "human,greedy"], "1\n", monkeypatch, capsys)
    assert code == 1 and "RuntimeError: a bug" in err and "internal error" in out
    assert Game.from_json((tmp_path / "genial-autosave-9.json").read_text()).moves


def test_undo_takes_back_your_turn_and_the_bots_replies(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    start = Game(players=3, seed=5)
    first = ordered_choices(start, 5)[0].move
    # Move, let both bots reply, undo, then leave: the saved game is the starting position.
    code, out, _ = play(["--seed", "5", "--seats", "human,greedy,random"], "undo\n1\nundo\nquit\n", monkeypatch, capsys)
    assert code == 0
    assert "you have not moved yet: nothing to take back" in out
    assert f"player 0 (you): {first}" in out
    assert "player 1 (greedy): " in out and "player 2 (random): " in out
    taken = out.split("took back ", 1)[1]
    assert taken.startswith("3 moves: your turn again")
    saved = Game.from_json(Path("genial-autosave-5.json").read_text())
    assert saved.moves == () and saved.current_player == 0


def test_undo_needs_every_other_seat_to_be_a_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(["--seed", "5", "--seats", "human,human"], "1\nundo\nquit\n", monkeypatch, capsys)
    assert code == 0 and "undo works when every other seat is a bot" in out


def test_seats_take_bot_specs_as_simulate_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(["--seed", "2", "--seats", "human,mcts:iterations=20,width=2"], "quit\n", monkeypatch, capsys)
    assert code == 0, err
    assert "(human, mcts:iterations=20,width=2)" in out
    code, _, err = play(["--seats", "human,mcts:iterations=ten"], "", monkeypatch, capsys)
    assert code == 2 and "iterations" in err


def test_the_end_screen_says_what_decided_the_ranking(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(["--seed", "4", "--seats", "greedy,random"], "", monkeypatch, capsys)
    assert code == 0
    end = out.split("game over", 1)[1]
    assert "1. player " in end and "2. player " in end
    assert " ahead of player " in end and "lowest score" in end


def test_a_second_game_with_the_same_seed_does_not_overwrite_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(["--seed", "12", "--seats", "human,greedy"], "1\nquit\n", monkeypatch, capsys)
    assert code == 0 and "game saved to genial-autosave-12.json " in out
    first = (tmp_path / "genial-autosave-12.json").read_text()
    assert len(Game.from_json(first).moves) == 2
    # The same seed again, left at once: a new file; the first game is kept as it was.
    code, out, _ = play(["--seed", "12", "--seats", "human,greedy"], "quit\n", monkeypatch, capsys)
    assert code == 0 and "game saved to genial-autosave-12-2.json " in out
    assert (tmp_path / "genial-autosave-12.json").read_text() == first
    assert Game.from_json((tmp_path / "genial-autosave-12-2.json").read_text()).moves == ()
    # Resumed from the first file and left: saved back into that file (it is this game's).
    code, out, _ = play(["--resume", "genial-autosave-12.json"], "1\nquit\n", monkeypatch, capsys)
    assert code == 0 and "the game is saved in genial-autosave-12.json " in out
    assert len(Game.from_json((tmp_path / "genial-autosave-12.json").read_text()).moves) == 4
    assert not (tmp_path / "genial-autosave-12-3.json").exists()


@pytest.mark.parametrize("how", ["head", "closed"])
def test_a_closed_output_ends_play_quietly_and_keeps_the_game(tmp_path: Path, how: str) -> None:
    """`genial play ... | head -1`, or a reader that is gone before the first line: no
    traceback, and the unfinished game is saved, the place named on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "genial", "play", "--seed", "21", "--seats", "human,greedy"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    if how == "head":
        proc.stdout.readline()  # the first line, as `head -1` reads it, then away
    proc.stdout.close()
    proc.stdin.write(b"1\n" * 40)
    proc.stdin.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert proc.returncode == 1
    assert (
        err.strip()
        == "game saved to genial-autosave-21.json (resume with: genial play --resume genial-autosave-21.json)"
    )
    saved = Game.from_json((tmp_path / "genial-autosave-21.json").read_text())
    assert saved.seed == 21 and not saved.is_over


def test_a_finished_game_is_saved_and_analyse_last_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(["--seed", "5", "--seats", "greedy,greedy"], "", monkeypatch, capsys)
    assert code == 0 and "game over (" in out
    saved = tmp_path / "genial-game-5.json"
    assert f"game saved to {saved.name}" in out and "genial analyse --last" in out
    game = Game.from_json(saved.read_text())
    assert game.is_over
    # The same game again: the same file, not a second one; another game: a new file.
    assert play(["--seed", "5", "--seats", "greedy,greedy"], "", monkeypatch, capsys)[1] == out
    assert not (tmp_path / "genial-game-5-2.json").exists()
    code, out, _ = play(["--seed", "5", "--seats", "greedy,random"], "", monkeypatch, capsys)
    assert "game saved to genial-game-5-2.json" in out
    # `genial analyse --last` reviews the last game saved, with no path typed.
    code = main(["analyse", "--last", "--level", "hard", "--iterations", "4", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "genial-game-5-2.json" in captured.err and "review at the hard level" in captured.out
    assert (tmp_path / "genial-game-5-2.review.json").exists()


def test_save_keeps_its_file_up_to_date_until_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play(
        ["--seed", "2", "--seats", "human,greedy"], "save mine.json\n" + "1\n" * 200, monkeypatch, capsys
    )
    assert code == 0 and "game over (" in out
    game = Game.from_json((tmp_path / "mine.json").read_text())
    assert game.is_over and len(game.moves) > 2  # every move after the save, to the end
    assert "game saved to mine.json" in out
    assert not list(tmp_path.glob("genial-game-*.json"))  # the game's own file, no second one


def test_analyse_last_without_a_saved_game_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "empty"))
    assert main(["analyse", "--last"]) == 2
    err = capsys.readouterr().err
    assert "no game saved" in err and "Traceback" not in err
    assert main(["analyse"]) == 2
    assert "give a record file or --last" in capsys.readouterr().err


def test_a_number_past_the_shown_list_is_refused_until_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 8 moves are shown; a typo such as 500 must not play the 500th of 540 unseen.
    choices = ordered_choices(Game(players=2, seed=3), 3)
    assert len(choices) > 500
    stdin = "500\n9\nlist 12\n12\nquit\n"
    code, out, err = play(["--seed", "3", "--seats", "human,greedy"], stdin, monkeypatch, capsys)
    assert code == 0 and err == ""
    assert f"player 0 (you): {choices[499].move}" not in out
    assert "move 500 is not in the list shown (1 to 8): list all, or list 500, shows it first" in out
    assert "move 9 is not in the list shown (1 to 8)" in out
    # Once shown (list 12 shows the first 12), a number is played.
    assert f"player 0 (you): {choices[11].move}" in out


def test_every_number_is_open_after_list_all(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    choices = ordered_choices(Game(players=2, seed=3), 3)
    code, out, _ = play(["--seed", "3", "--seats", "human,greedy"], "list all\n500\nquit\n", monkeypatch, capsys)
    assert code == 0 and f"player 0 (you): {choices[499].move}" in out


def test_the_hint_s_move_can_be_picked_by_its_number(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    choices = ordered_choices(Game(players=2, seed=3), 3)
    argv = ["--seed", "3", "--seats", "human,greedy", "--show", "0"]
    code, out, _ = play(argv, "1\nhint\n1\nquit\n", monkeypatch, capsys)
    assert code == 0 and "move 1 is not in the list shown (none listed yet)" in out
    assert f"player 0 (you): {choices[0].move}" in out  # the hint showed it
