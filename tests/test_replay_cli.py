"""`genial replay` and `genial render` on recorded games, and their rejection of bad records."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from genial import Game
from genial.bots import make
from genial.cli import main
from genial.records import MAX_RECORD_CHARS
from genial.render import text

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def finished() -> Game:
    game = Game(players=3, seed=2024)
    bots = [make("greedy", 1), make("random", 2), make("greedy", 3)]
    while not game.is_over:
        game.play(bots[game.current_player].choose(game))
    return game


@pytest.fixture()
def record(tmp_path: Path, finished: Game) -> Path:
    path = tmp_path / "game.json"
    path.write_text(finished.to_json(indent=1))
    return path


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch | None = None, stdin: str = ""
) -> tuple[int, str, str]:
    if monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_every_position(record: Path, finished: Game, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", str(record)], capsys)
    assert code == 0 and err == ""
    headers = [line for line in out.splitlines() if line.startswith("move ")]
    assert len(headers) == len(finished.moves)
    for number, (line, move) in enumerate(zip(headers, finished.moves), start=1):
        assert line.startswith(f"move {number}: player ") and f" {move}" in line
    assert out.rstrip().endswith(text(finished))


def test_replay_final_only(record: Path, finished: Game, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["replay", str(record), "--final"], capsys)
    assert code == 0
    assert f"after move {len(finished.moves)}\n{text(finished)}\n" in out
    assert "move 1:" not in out


def test_replay_steps_on_enter_and_stops_on_q(
    record: Path, finished: Game, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["replay", str(record), "--step"], capsys, monkeypatch, "\n\nq\n")
    assert code == 0
    assert "move 2:" in out and "move 3:" not in out
    code, out, _ = run(["replay", str(record), "--step"], capsys, monkeypatch, "\n")  # then end of input
    assert code == 0 and "move 1:" in out and "move 2:" not in out


def svg_cells(path: Path, kind: str) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    return [p for p in root.iter(f"{NS}polygon") if p.get("class", "").split()[:2] == ["cell", kind]]


def test_render_svg_of_any_position(
    record: Path, finished: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_svg = tmp_path / "final.svg"
    code, out, _ = run(["render", str(record), "--svg", str(out_svg)], capsys)
    assert code == 0 and str(out_svg) in out
    placements = [m for m in finished.moves if m.is_placement]
    assert len(svg_cells(out_svg, "tile")) == 2 * len(placements)
    assert len(svg_cells(out_svg, "free")) + len(svg_cells(out_svg, "tile")) + 6 == 127
    assert out_svg.read_text() == finished.to_svg()

    early = tmp_path / "early.svg"
    code, _, _ = run(["render", str(record), "--svg", str(early), "--move", "7", "--racks", "all"], capsys)
    assert code == 0
    position = Game.from_json(record.read_text())
    replayed = Game(players=3, seed=position.seed, bag=position._state.initial_bag)
    for move in finished.moves[:7]:
        replayed.play(move)
    assert early.read_text() == replayed.to_svg(racks=True)
    assert len(svg_cells(early, "tile")) == 2 * sum(m.is_placement for m in finished.moves[:7])

    start = tmp_path / "start.svg"
    assert run(["render", str(record), "--svg", str(start), "--move", "0"], capsys)[0] == 0
    assert svg_cells(start, "tile") == []


def test_render_text_and_bad_move_numbers(record: Path, finished: Game, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["render", str(record)], capsys)
    assert code == 0 and out == text(finished, rack=False) + "\n"
    for n in ("-1", str(len(finished.moves) + 1)):
        code, _, err = run(["render", str(record), "--move", n, "--svg", "x.svg"], capsys)
        assert code == 2 and "outside the record's" in err


def mutated(record: Path, change: dict[str, Any]) -> str:
    data = json.loads(record.read_text())
    data.update(change)
    return json.dumps(data)


BAD_RECORDS: dict[str, Any] = {
    "truncated": lambda r: r.read_text()[: len(r.read_text()) // 2],
    "oversized": lambda r: " " * (MAX_RECORD_CHARS + 1) + r.read_text(),
    "not an object": lambda r: "[1, 2, 3]",
    "deeply nested": lambda r: "[" * 100_000 + "]" * 100_000,
    "huge number": lambda r: mutated(r, {"seed": 10**30}),
    "wrong type": lambda r: mutated(r, {"rules": {"players": "three"}}),
    "unknown rule option": lambda r: mutated(r, {"rules": "variant=standard players=2 no_such_option=false"}),
    "moves not a list": lambda r: mutated(r, {"moves": "R0,-4+B1,-4"}),
    "wrong version": lambda r: mutated(r, {"version": 3}),
    "wrong format": lambda r: mutated(r, {"format": "chess.pgn"}),
    "short bag": lambda r: mutated(r, {"bag": json.loads(r.read_text())["bag"][:50]}),
    "illegal move": lambda r: mutated(r, {"moves": ["R0,0+B1,0"]}),
    "bad move text": lambda r: mutated(r, {"moves": ["R0,0+B9,9"]}),
    "not UTF-8": lambda r: b"\xff\xfe{}",
}


@pytest.mark.parametrize("command", ["replay", "render"])
@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_bad_records_are_rejected_with_exit_code_2(
    case: str, command: str, record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    content = BAD_RECORDS[case](record)
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content)
    argv = [command, str(bad)] + (["--svg", str(tmp_path / "x.svg")] if command == "render" else [])
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith(f"genial: error: bad record {bad}: ") and err.count("\n") == 1
    assert not (tmp_path / "x.svg").exists()


def test_missing_file_and_real_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["replay", str(tmp_path / "none.json")], capsys)
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "genial.game", "version": 1, "players": 2, "seed": 1, "bag": [], "moves": []}')
    proc = subprocess.run(
        [sys.executable, "-m", "genial", "render", str(bad), "--svg", str(tmp_path / "o.svg")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "bad record" in proc.stderr and "120 tiles" in proc.stderr


def test_render_honours_png_and_refuses_what_it_cannot_do(
    record: Path, finished: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("resvg_py", reason='PNG output needs the render extra: pip install "genial-engine[render]"')
    png = tmp_path / "final.png"
    code, out, _ = run(["render", str(record), "--out", str(png)], capsys)
    assert code == 0 and str(png) in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(["render", str(record), "--out", str(tmp_path / "final.pdf")], capsys)
    assert code == 2 and "name it .svg or .png" in err and not (tmp_path / "final.pdf").exists()
    code, _, err = run(["render", str(record), "--racks", "7"], capsys)
    assert code == 2 and "no seat 7" in err


def test_render_text_shows_the_racks_asked_for(
    record: Path, finished: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["render", str(record), "--move", "3", "--racks", "0,1"], capsys)
    assert code == 0
    assert "rack of player 0: " in out and "rack of player 1: " in out
    code, out, _ = run(["render", str(record), "--move", "3"], capsys)
    assert "rack" not in out
