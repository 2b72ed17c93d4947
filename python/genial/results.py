"""The results of many games: `SimulationResult` (per-game numpy columns, as `simulate`
returns them), their files (`ResultWriter`: Parquet or CSV, with metadata) and replaying a
row as a full `Game`."""

from __future__ import annotations

import csv
import importlib
import json
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ._core import Rules
from .bots import BUILTIN_BOTS, play_game
from .colors import Color
from .game import Game
from .stats import END_NAMES, Summary

__all__ = ["SimulationResult", "ResultWriter", "END_NAMES"]

_COLOR_NAMES = tuple(c.name.lower() for c in Color)


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Per-game columns of a run (numpy arrays, one row per game, in game order).

    ``seed`` (uint64), ``scores`` (games × players × 6, int8: each seat's markers as it
    sees them), ``tracks`` (games × tracks × 6: the variant's own tracks), ``ranks`` (games ×
    players, 0 = first, ties share), ``bots`` (games × players: index into ``bot_names``),
    ``placements``, ``bonus_placements``, ``bonuses_lost``, ``swaps``, ``turns`` (uint16),
    ``end`` (uint8 code into `END_NAMES`).
    """

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
    players: int
    variant: str
    swap_timing: str
    require_contact: bool
    bot_names: tuple[str, ...]
    run_seed: int
    first_game: int = 0

    _columns: ClassVar[tuple[str, ...]] = (
        "seed",
        "scores",
        "tracks",
        "ranks",
        "bots",
        "placements",
        "bonus_placements",
        "bonuses_lost",
        "swaps",
        "turns",
        "end",
    )

    def __len__(self) -> int:
        return int(self.seed.shape[0])

    @property
    def games(self) -> int:
        return len(self)

    @property
    def game_index(self) -> npt.NDArray[np.uint64]:
        """The run's game number of each row."""
        return np.arange(self.first_game, self.first_game + len(self), dtype=np.uint64)

    @property
    def rules(self) -> Rules:
        """The rules these games were played by."""
        return Rules(self.variant, self.players, swap_timing=self.swap_timing, require_contact=self.require_contact)

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
        end, placements, ..., bot_<s>, place_<s>, score_<s>_<colour>`` (and
        ``track_<t>_<colour>`` for the team and duel games, whose tracks differ from the
        seats' scores). ``place_<s>`` is the seat's place as a person reads it: 1 for
        first, ties sharing (the ``ranks`` array counts from 0)."""
        cols: dict[str, npt.NDArray[Any]] = {
            "game": self.game_index,
            "seed": self.seed,
            "end": self.end_reasons(),
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
        """What a results file records about its games: the rules, the bots, the run's seed,
        the first game, and the genial version that played them (the rows say how many)."""
        from . import __version__

        return {
            "format": "genial-results",
            "version": 1,
            "genial_version": __version__,
            "variant": self.variant,
            "players": self.players,
            "swap_timing": self.swap_timing,
            "require_contact": self.require_contact,
            "bots": list(self.bot_names),
            "run_seed": self.run_seed,
            "first_game": self.first_game,
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
        specs = [_spec_of_label(self.bot_names[b]) for b in self.bots[i]]
        game = play_game(
            specs,
            self.players,
            int(self.seed[i]),
            self.variant,
            swap_timing=self.swap_timing,
            require_contact=self.require_contact,
        )
        if list(game.ranks()) != self.ranks[i].tolist() or [list(s) for s in game.scores] != self.scores[i].tolist():
            raise ValueError(
                f"game {index} does not replay: its bots ({', '.join(specs)}) do not play the same "
                "moves again (a time budget makes play depend on the machine)"
            )
        return game

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
            pa = importlib.import_module("pyarrow")
        except ImportError:
            raise ImportError("to_arrow needs pyarrow: pip install pyarrow") from None
        return pa.table(self.column_dict())

    def write(self, path: str | os.PathLike[str]) -> None:
        """Writes `column_dict` as Parquet (``.parquet``, needs pyarrow) or CSV (else)."""
        with ResultWriter(path) as w:
            w.write(self)

    @classmethod
    def concat(cls, parts: Sequence[SimulationResult]) -> SimulationResult:
        """Joins consecutive parts of one run (as split by `shards`) into one result."""
        if not parts:
            raise ValueError("concat needs at least one part")
        head = parts[0]
        expected = head.first_game
        for p in parts:
            same = (p.players, p.variant, p.swap_timing, p.require_contact, p.bot_names, p.run_seed)
            if same != (
                head.players,
                head.variant,
                head.swap_timing,
                head.require_contact,
                head.bot_names,
                head.run_seed,
            ):
                raise ValueError("concat joins parts of one run: rules, bots and seed must agree")
            if p.first_game != expected:
                raise ValueError(f"parts are not consecutive: expected game {expected}, got {p.first_game}")
            expected += len(p)
        arrays = {name: np.concatenate([getattr(p, name) for p in parts]) for name in head._columns}
        return cls(
            **arrays,
            players=head.players,
            variant=head.variant,
            swap_timing=head.swap_timing,
            require_contact=head.require_contact,
            bot_names=head.bot_names,
            run_seed=head.run_seed,
            first_game=head.first_game,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        meta = ("players", "variant", "swap_timing", "require_contact", "bot_names", "run_seed", "first_game")
        return all(getattr(self, m) == getattr(other, m) for m in meta) and all(
            np.array_equal(getattr(self, c), getattr(other, c)) for c in self._columns
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {len(self)} {self.variant} games, {self.players} players, "
            f"bots {list(self.bot_names)}, seed {self.run_seed}, first game {self.first_game}>"
        )

    @classmethod
    def from_columns(cls, columns: dict[str, Any], **meta: Any) -> SimulationResult:
        """A result from the core's columns (`_core.simulate_games`) and the run's facts."""
        return cls(**columns, **meta)


def _spec_of_label(label: str) -> str:
    """The text form of a built-in bot from its table label: ``mcts(iterations=100)`` ->
    ``mcts:iterations=100``; a tournament's ``#2`` suffix for a repeated bot is dropped."""
    label = label.split("#", 1)[0]
    if label.endswith(")") and "(" in label:
        name, options = label[:-1].split("(", 1)
        label = f"{name}:{options}"
    name = label.split(":", 1)[0]
    if name not in BUILTIN_BOTS:
        raise ValueError(f"{label!r} is not a built-in bot: only games of built-in bots can be replayed")
    return label


class ResultWriter:
    """Writes results chunk by chunk to one file: Parquet for ``.parquet`` (needs
    pyarrow), CSV for ``.csv``; any other name is refused. Memory stays flat however many
    chunks are written.

    The file is opened (created or emptied) at once, so an unwritable path or a missing
    pyarrow fails before any game is played (`OSError`, `ImportError`). After `close` the
    file is complete and valid for what was written; a Parquet file nothing was written to
    is removed.

    The file carries `SimulationResult.metadata` of its first chunk: in Parquet as the
    schema's ``genial`` key (JSON), in CSV as a first line ``# genial: {...}`` (read the
    rows with ``pandas.read_csv(path, comment="#")``)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        kind = self.path.suffix.lower()
        if kind not in (".parquet", ".pq", ".csv"):
            raise ValueError(f"cannot tell the file format from {str(path)!r}: name it .csv or .parquet")
        self.parquet = kind in (".parquet", ".pq")
        self.rows = 0
        self._writer: Any = None
        self._pa: Any = None
        self._pq: Any = None
        self._csv: Any = None
        self._schema = False
        if self.parquet:
            try:
                self._pa = importlib.import_module("pyarrow")
                self._pq = importlib.import_module("pyarrow.parquet")
            except ImportError:
                raise ImportError("writing Parquet needs pyarrow: pip install pyarrow (or write .csv)") from None
        # Opened now, closed by `close`: an unwritable path fails before any game is played.
        self._file: Any = open(self.path, "wb" if self.parquet else "w", newline=None if self.parquet else "")  # noqa: SIM115

    def write(self, res: SimulationResult) -> None:
        if self._file is None:
            raise ValueError(f"{self.path} is closed")
        cols = res.column_dict()
        meta = json.dumps(res.metadata(), separators=(",", ":"))
        if self.parquet:
            table = self._pa.table(cols)
            if self._writer is None:
                schema = table.schema.with_metadata({"genial": meta})
                self._writer = self._pq.ParquetWriter(self._file, schema)
                self._schema = True
            self._writer.write_table(table.cast(self._writer.schema))
        else:
            if self._csv is None:
                self._file.write(f"# genial: {meta}\n")
                self._csv = csv.writer(self._file)
                self._csv.writerow(cols.keys())
            self._csv.writerows(zip(*(c.tolist() for c in cols.values())))
            self._file.flush()
        self.rows += len(res)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._file is not None:
            self._file.close()
            self._file = None
            if self.parquet and not self._schema:
                self.path.unlink(missing_ok=True)  # nothing in it: not a Parquet file

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
