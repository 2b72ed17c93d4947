"""The results of many games: `SimulationResult` (per-game numpy columns, as the core's run
loop returns them), their files (`ResultWriter`: Parquet or plain CSV, with metadata in the
Parquet schema and in a sidecar ``PATH.meta.json``) and replaying a row as a full `Game`."""

from __future__ import annotations

import contextlib
import csv
import datetime
import importlib
import json
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Rules
from ._version import version
from .bots import BUILTIN_BOTS, play_game
from .colors import Color
from .files import FileFormatError, arrow, commit, read_json, remove_stale, temporary, write_atomic
from .files import field as json_field
from .game import Game
from .stats import END_NAMES, Summary

__all__ = ["SimulationResult", "ResultWriter", "ResultFileError", "END_NAMES", "COLUMNS", "read_metadata", "meta_path"]

COLUMNS: tuple[str, ...] = tuple(_core.Run.columns())
"""The per-game columns of every result, as the core's run loop fills them."""

_COLOR_NAMES = tuple(c.name.lower() for c in Color)


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Per-game columns of a run (numpy arrays, one row per game, in game order), as the
    core's run loop returns them for `simulate` and `tournament` alike.

    ``game_index`` (uint64: the game's number in its run), ``seed`` (uint64: its deal),
    ``scores`` (games × players × 6, int8: each seat's markers as it sees them), ``tracks``
    (games × tracks × 6: the variant's own tracks), ``ranks`` (games × players, 0 = first,
    ties share), ``bots`` (games × players: index into ``bot_names``), ``placements``,
    ``bonus_placements``, ``bonuses_lost``, ``swaps``, ``turns`` (uint16: every turn played,
    the one that ends the game included), ``end`` (uint8 code into `END_NAMES`; the column
    ``end_reason`` of files and data frames). ``rules`` is the rule set they were played by;
    ``bot_specs`` the bots' text forms (``mcts:iterations=100,...``; a Python bot's is its
    label).

    A run stopped by Ctrl-C keeps every game it finished, so the game numbers of its last
    part may have gaps; they always increase.
    """

    game_index: npt.NDArray[np.uint64]
    seed: npt.NDArray[np.uint64]
    scores: npt.NDArray[np.int8]
    tracks: npt.NDArray[np.int8]
    ranks: npt.NDArray[np.uint8]
    bots: npt.NDArray[np.uint8]
    placements: npt.NDArray[np.uint16]
    bonus_placements: npt.NDArray[np.uint16]
    bonuses_lost: npt.NDArray[np.uint16]
    swaps: npt.NDArray[np.uint16]
    turns: npt.NDArray[np.uint16]
    end: npt.NDArray[np.uint8]
    rules: Rules
    bot_names: tuple[str, ...]
    run_seed: int
    bot_specs: tuple[str, ...] = ()
    paired: bool = False
    lineups: tuple[tuple[int, ...], ...] = field(default=())

    _columns: ClassVar[tuple[str, ...]] = COLUMNS

    def __len__(self) -> int:
        return int(self.seed.shape[0])

    @property
    def games(self) -> int:
        return len(self)

    @property
    def first_game(self) -> int:
        """The first row's game number (0 without rows)."""
        return int(self.game_index[0]) if len(self) else 0

    @property
    def players(self) -> int:
        return int(self.rules.players)

    @property
    def variant(self) -> str:
        return str(self.rules.variant)

    @property
    def swap_timing(self) -> str:
        return str(self.rules.swap_timing)

    @property
    def require_contact(self) -> bool:
        return bool(self.rules.require_contact)

    @property
    def sides(self) -> int:
        """Competing sides: seats, or the two teams of the team game."""
        return self.rules.sides

    def win_credit(self) -> npt.NDArray[np.float64]:
        """Per game and seat, its share of first place: 1 for a sole winner, 1/k when k
        sides share first place (team partners count as one side), else 0. Rows sum to 1
        (to 2 in the team game, where both partners get their team's share)."""
        first = self.ranks == 0
        # Seats sharing first place, counted as sides (partners are one side).
        k = first.sum(axis=1, keepdims=True).astype(np.float64) * self.sides / self.players
        return np.where(first, 1.0 / np.maximum(k, 1.0), 0.0)

    def lowest(self) -> npt.NDArray[np.int8]:
        """Per game and seat, the lowest marker (what the ranking looks at first)."""
        return np.asarray(self.scores.min(axis=2), dtype=np.int8)

    def end_reasons(self) -> npt.NDArray[np.str_]:
        return np.asarray(END_NAMES)[self.end]

    def summary(self) -> Summary:
        return Summary.of(self)

    def column_dict(self) -> dict[str, npt.NDArray[Any]]:
        """Flat columns, one row per game, as files and data frames hold them: ``game, seed,
        end_reason, placements, ..., bot_<s>, place_<s>, score_<s>_<colour>`` (and
        ``track_<t>_<colour>`` for the team and duel games, whose tracks differ from the
        seats' scores). ``place_<s>`` is the seat's place as a person reads it: 1 for
        first, ties sharing (the ``ranks`` array counts from 0). No name is an SQL keyword,
        so that duckdb, SQLite or Postgres take each one unquoted (docs/simulation.md
        defines every column)."""
        cols: dict[str, npt.NDArray[Any]] = {
            "game": self.game_index,
            "seed": self.seed,
            "end_reason": self.end_reasons(),
            "placements": self.placements,
            "bonus_placements": self.bonus_placements,
            "bonuses_lost": self.bonuses_lost,
            "swaps": self.swaps,
            "turns": self.turns,
        }
        names = np.asarray(self.bot_names)
        for s in range(self.players):
            cols[f"bot_{s}"] = names[self.bots[:, s]]
            cols[f"place_{s}"] = self.ranks[:, s].astype(np.uint8) + 1
            for c, color in enumerate(_COLOR_NAMES):
                cols[f"score_{s}_{color}"] = self.scores[:, s, c]
        if self.rules.track_count != self.players:  # tracks are not the seats' own
            for t in range(self.tracks.shape[1]):
                for c, color in enumerate(_COLOR_NAMES):
                    cols[f"track_{t}_{color}"] = self.tracks[:, t, c]
        return cols

    def metadata(self) -> dict[str, Any]:
        """What a results file records about its games: the rules, the bots (labels, text
        forms and options), the seatings, the run's seed, the genial version that played them
        and when this was written (the rows say which games and how many)."""
        bots = []
        for i, label in enumerate(self.bot_names):
            spec = self.bot_specs[i] if i < len(self.bot_specs) else label
            bots.append({"label": label, "spec": spec, **_spec_parts(spec)})
        return {
            "format": "genial-results",
            "version": METADATA_VERSION,
            "genial_version": version(),
            "written": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "rules": self.rules.to_text(),
            "bots": bots,
            "lineups": [list(lineup) for lineup in self.lineups],
            "paired": self.paired,
            "run_seed": self.run_seed,
            "columns": list(self.column_dict()),
        }

    def game(self, index: int) -> Game:
        """Row ``index`` (negative counts from the end) played again as a full `Game`, with
        its moves, racks and record: ``play_game(bots, seed=result.seed[index])`` with the
        row's bots in their seats. Works for built-in bots that play by iterations; a bot
        on a time budget, or a Python bot of a tournament, cannot be replayed."""
        n = len(self)
        i = operator.index(index)
        if not -n <= i < n:
            raise IndexError(f"game index {index} is out of range for {n} games")
        i %= n
        specs = [self._replayable(int(b)) for b in self.bots[i]]
        game = play_game(specs, seed=int(self.seed[i]), rules=self.rules)
        if list(game.ranks()) != self.ranks[i].tolist() or [list(s) for s in game.scores] != self.scores[i].tolist():
            raise ValueError(
                f"game {index} does not replay: its bots ({', '.join(specs)}) do not play the same "
                "moves again (a time budget makes play depend on the machine)"
            )
        return game

    def _replayable(self, bot: int) -> str:
        spec = self.bot_specs[bot] if bot < len(self.bot_specs) else self.bot_names[bot]
        if spec.split(":", 1)[0] not in BUILTIN_BOTS:
            raise ValueError(
                f"{self.bot_names[bot]!r} is not a built-in bot: only games of built-in bots can be replayed"
            )
        return spec

    def to_pandas(self) -> Any:
        """A `pandas.DataFrame` of `column_dict` (needs pandas)."""
        try:
            pd = importlib.import_module("pandas")
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install pandas") from None
        return pd.DataFrame(self.column_dict())

    def to_arrow(self) -> Any:
        """A `pyarrow.Table` of `column_dict` (needs pyarrow)."""
        try:
            pa, _ = arrow()
        except ImportError:
            raise ImportError("to_arrow needs pyarrow: pip install pyarrow") from None
        return pa.table(self.column_dict())

    def write(self, path: str | os.PathLike[str]) -> None:
        """Writes `column_dict` as Parquet (``.parquet``, needs pyarrow) or CSV (else)."""
        with ResultWriter(path) as w:
            w.write(self)

    def _run_facts(self) -> tuple[Any, ...]:
        return (self.rules, self.bot_names, self.bot_specs, self.run_seed, self.paired, self.lineups)

    def _of_games(self, columns: dict[str, Any]) -> SimulationResult:
        """A result of this run (its rules, bots, seed and lineups) holding the games of
        ``columns``."""
        return type(self)(
            **columns,
            rules=self.rules,
            bot_names=self.bot_names,
            run_seed=self.run_seed,
            bot_specs=self.bot_specs,
            paired=self.paired,
            lineups=self.lineups,
        )

    @classmethod
    def concat(cls, parts: Sequence[SimulationResult]) -> SimulationResult:
        """Joins consecutive parts of one run (as split by `shards`, or as chunks come) into
        one result: each part must begin with the game after the last of the part before."""
        if not parts:
            raise ValueError("concat needs at least one part")
        head = parts[0]
        last = -1
        for p in parts:
            if p._run_facts() != head._run_facts():
                raise ValueError("concat joins parts of one run: rules, bots and seed must agree")
            if len(p):
                if last >= 0 and int(p.game_index[0]) != last + 1:
                    raise ValueError(f"parts are not consecutive: expected game {last + 1}, got {int(p.game_index[0])}")
                last = int(p.game_index[-1])
        return head._of_games({name: np.concatenate([getattr(p, name) for p in parts]) for name in COLUMNS})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return self._run_facts() == other._run_facts() and all(
            np.array_equal(getattr(self, c), getattr(other, c)) for c in COLUMNS
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {len(self)} {self.variant} games, {self.players} players, "
            f"bots {list(self.bot_names)}, seed {self.run_seed}, first game {self.first_game}>"
        )


def _spec_parts(spec: str) -> dict[str, Any]:
    """``mcts:iterations=100,width=6`` -> ``{"name": "mcts", "options": {"iterations": "100", ...}}``."""
    name, _, rest = spec.partition(":")
    options = dict(item.split("=", 1) for item in rest.split(",") if "=" in item)
    return {"name": name, "options": options}


def meta_path(path: str | os.PathLike[str]) -> Path:
    """The metadata sidecar of a results file: ``PATH.meta.json``."""
    p = Path(path)
    return p.with_name(p.name + ".meta.json")


#: Version 4 counts in ``turns`` the turn that ends the game, and names the end reason's
#: column ``end_reason`` (``end``, an SQL keyword, before). Version 3 stores the rule set as
#: its one text form; version 2 as an object of fields.
METADATA_VERSION = 4

#: End reasons whose game ended in the middle of a turn (a placement that wins or fills the
#: board): the turn a file written before version 4 left out of ``turns``.
_ENDS_MID_TURN = ("board_full", "immediate_win")


def upgrade_columns(columns: dict[str, Any], version: int) -> dict[str, Any]:
    """The file columns (`SimulationResult.column_dict`'s names) of a file written by
    metadata version ``version``, as version `METADATA_VERSION` writes them: before version
    4, ``end`` becomes ``end_reason`` and ``turns`` gains the turn that ended the game
    (exact: only a placement that wins or fills the board ends a game mid-turn)."""
    if version >= 4:
        return columns
    out = dict(columns)
    ends = np.asarray(out.pop("end"))
    out["end_reason"] = ends
    out["turns"] = np.asarray(out["turns"]) + np.isin(ends, _ENDS_MID_TURN).astype(np.uint16)
    return out


def rules_of(meta: dict[str, Any], where: str) -> Rules:
    """The rule set of a results file's or dataset's metadata (``where`` names the file):
    version 3's text, or version 2's object, read by the core; anything else is a
    `ValueError` naming the file."""
    rules = meta.get("rules")
    try:
        if isinstance(rules, str):
            return Rules.from_text(rules)
        return Rules.from_dict(rules)
    except ValueError as e:
        raise ValueError(f"{where}: field 'rules': {e}") from None


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The metadata of a results file: its sidecar ``PATH.meta.json``, or for Parquet the
    schema's ``genial`` key when the sidecar is gone. A damaged one raises
    `genial.files.FileFormatError` naming the file and the field."""
    side = meta_path(path)
    if side.exists():
        return check_metadata(side, read_json(side, "results metadata file"))
    if Path(path).suffix.lower() in (".parquet", ".pq"):
        _, pq = arrow()
        try:
            meta = pq.read_schema(path).metadata or {}
        except (OSError, ValueError) as e:
            raise FileFormatError(f"{path}: not a Parquet file genial can read ({e})") from None
        if b"genial" in meta:
            try:
                out = json.loads(meta[b"genial"])
            except (ValueError, RecursionError):
                raise FileFormatError(f"{path}: the schema's 'genial' key is not valid JSON") from None
            return check_metadata(path, out)
    raise FileNotFoundError(f"no metadata for {path}: {side} is missing")


def check_metadata(path: str | os.PathLike[str], data: Any) -> dict[str, Any]:
    """``data`` when it has the fields of a results file's metadata, each of its type; else
    `genial.files.FileFormatError` naming the file and the field."""
    if not isinstance(data, dict):
        raise FileFormatError(f"{path}: the metadata is not a JSON object")
    json_field(path, data, "format", str)
    try:
        rules_of(data, str(path))  # the rule set's text (or version 2's object), read by the core
    except ValueError as e:
        raise FileFormatError(str(e)) from None
    bots = json_field(path, data, "bots", list)
    for i, bot in enumerate(bots):
        json_field(path, bot, "label", str, within=f"bots[{i}].")
        json_field(path, bot, "spec", str, within=f"bots[{i}].")
    lineups = json_field(path, data, "lineups", list)
    for lineup in lineups:
        if not isinstance(lineup, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(bots) for x in lineup
        ):
            raise FileFormatError(f"{path}: the field 'lineups' holds {lineup!r}, not a list of bot numbers")
    json_field(path, data, "paired", bool)
    json_field(path, data, "run_seed", int)
    json_field(path, data, "games", int, optional=True)
    return data


class ResultFileError(OSError):
    """A results file could not be written (a full disk, say); the message says what was
    kept."""

    def __str__(self) -> str:
        # The sentence alone: OSError's own text starts "[Errno 28] ", which one-line
        # errors do not show (``errno`` still holds the number).
        return self.strerror if self.args[1:] and self.strerror else super().__str__()


class ResultWriter:
    """Writes results chunk by chunk to one file: Parquet for ``.parquet`` (needs
    pyarrow), CSV for ``.csv``; any other name is refused. Memory stays flat however many
    chunks are written.

    The CSV is plain (a header row, then one row per game: ``pandas.read_csv(path)`` and
    `csv.DictReader` read exactly the games), flushed after every chunk. Either file is
    written under a temporary name next to ``path`` (``.NAME.XXXX.partial``) and renamed to
    ``path`` by `close` once complete and synced to disk, so that ``path`` is always a
    complete file: an earlier one stays intact until then, and for good when writing fails
    or the writer is abandoned (`abandon`). The metadata (`SimulationResult.metadata`, plus
    ``games``: the rows written) goes in a sidecar ``PATH.meta.json``, replaced the same
    way after the file, and, for Parquet, in the schema's ``genial`` key. New files get
    the mode the process's umask gives.

    The file is opened at once, so an unwritable path or a missing pyarrow fails before any
    game is played (`OSError`, `ImportError`). A failed write (a full disk) raises
    `ResultFileError` saying what was kept."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        kind = self.path.suffix.lower()
        if kind not in (".parquet", ".pq", ".csv"):
            raise ValueError(f"cannot tell the file format from {str(path)!r}: name it .csv or .parquet")
        self.parquet = kind in (".parquet", ".pq")
        self.rows = 0
        self.meta: dict[str, Any] | None = None
        self._writer: Any = None
        self._pa: Any = None
        self._pq: Any = None
        self._csv: Any = None
        self._failed = False
        if self.parquet:
            try:
                self._pa, self._pq = arrow()
            except ImportError:
                raise ImportError("writing Parquet needs pyarrow: pip install pyarrow (or write .csv)") from None
        # The hidden files of a run killed while writing this file are removed first.
        remove_stale(self.path, meta_path(self.path).name)
        # Opened now, renamed by `close`: an unwritable folder fails before any game.
        fd, tmp = temporary(self.path)
        self._tmp: Path | None = tmp
        if self.parquet:
            self._file: Any = os.fdopen(fd, "wb")
        else:
            self._file = os.fdopen(fd, "w", newline="", encoding="utf-8")

    @property
    def partial(self) -> Path | None:
        """The temporary file the games go to until `close` renames it (``None`` after)."""
        return self._tmp

    def write(self, res: SimulationResult) -> None:
        if self._file is None:
            raise ValueError(f"{self.path} is closed")
        if self._failed:
            raise ResultFileError(f"{self.path}: an earlier write failed")
        cols = res.column_dict()
        try:
            meta = self.meta if self.meta is not None else res.metadata()
            if self.parquet:
                table = self._pa.table(cols)
                if self._writer is None:
                    text = json.dumps(meta, separators=(",", ":"))
                    schema = table.schema.with_metadata({"genial": text})
                    self._writer = self._pq.ParquetWriter(self._file, schema)
                self._writer.write_table(table.cast(self._writer.schema))
            else:
                if self._csv is None:
                    self._csv = csv.writer(self._file)
                    self._csv.writerow(cols.keys())
                self._csv.writerows(zip(*(c.tolist() for c in cols.values())))
                self._file.flush()
            self.meta = meta
        except OSError as e:
            self._failed = True
            raise self._error(e) from e
        self.rows += len(res)

    def _error(self, e: OSError) -> ResultFileError:
        why = e.strerror or str(e)
        kept = "nothing was written to it" if not self.path.exists() else "the file there before is untouched"
        return ResultFileError(e.errno, f"cannot write {self.path}: {why} ({kept})")

    def _write_meta(self) -> None:
        """The sidecar, replaced whole (never half-written)."""
        assert self.meta is not None
        write_atomic(meta_path(self.path), json.dumps({**self.meta, "games": self.rows}, indent=1) + "\n")

    def abandon(self) -> None:
        """Drops what was written: the temporary file is removed and ``path`` (an earlier file
        or none) is left as it was. For a run stopped before it finished any game."""
        self._failed = True
        self.close()

    def close(self) -> None:
        """Finishes the file: flushed, synced, renamed over ``path``, then the sidecar;
        nothing written yet (not even the header) leaves ``path`` as it was. Raises
        `ResultFileError` when that fails, and ``path`` is then left as it was."""
        if self._file is None:
            return
        try:
            complete = self.meta is not None and not self._failed
            if self._writer is not None:
                writer, self._writer = self._writer, None
                try:
                    if complete:
                        writer.close()
                    else:
                        with contextlib.suppress(Exception):
                            writer.close()  # the file is dropped; its writer must not write later
                finally:
                    # A close that failed (a full disk) leaves pyarrow's writer open: it would
                    # close again when collected, on our file closed by then, and print
                    # "Exception ignored" in the middle of whatever runs next.
                    writer.is_open = False
            if complete:
                self._file.flush()
                os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
            if complete and self._tmp is not None:
                commit(self._tmp, self.path)
                self._tmp = None
                self._write_meta()  # with the final count
        except OSError as e:
            self._failed = True
            raise self._error(e) from e
        finally:
            if self._file is not None:
                with contextlib.suppress(OSError):
                    self._file.close()
                self._file = None
            if self._tmp is not None:
                self._tmp.unlink(missing_ok=True)  # nothing in it, or not a whole file
                self._tmp = None

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is not None:
            self.abandon()  # an error or Ctrl-C while writing: keep what was there
        else:
            self.close()
