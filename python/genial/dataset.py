"""A run as a partitioned Parquet dataset: a folder with one file per shard, so that a run
spread over many machines, or stopped halfway, is kept shard by shard.

Shard ``i`` is the fixed range of game numbers ``first_game + i * shard_games ..`` (the last
one shorter), whatever played it: a game's deal and bots come from its number
(`genial.simulation.derive_seed`), so the folder a run writes is the same, file for file,
on one thread, one machine or a Ray cluster (`genial.distributed`).

The folder holds ``part-00000.parquet``, ``part-00001.parquet``, ... (the columns of
`SimulationResult.column_dict`; each file's schema carries the run's metadata and its
range under the ``genial`` key) and ``_meta.json``, the run's metadata with the layout and
the games written so far. Both names are what Parquet readers expect of a dataset
(``pandas.read_parquet(folder)`` reads every game; files starting with ``_`` or ``.`` are
not data). A shard is written under a temporary ``.part-*.partial`` name and renamed when
whole, so a file with a shard's name is always a finished shard: a run that is killed
leaves no half shard that a resumed run would count as done.
"""

from __future__ import annotations

import importlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .arguments import int_in
from .results import COLUMNS, SimulationResult, rules_of
from .simulation import MAX_SHARDS, Run
from .stats import END_NAMES, Summary

__all__ = ["Shard", "Dataset", "DatasetError", "read_dataset", "is_dataset_path", "META_NAME"]

META_NAME = "_meta.json"
_FORMAT = "genial-dataset"
# Keys of the metadata that change as the run goes on, left out when a resumed run is
# compared with the one that wrote the folder (the genial version is compared: another
# version may play other games).
_PROGRESS_KEYS = ("written", "games", "shards_done")


class DatasetError(ValueError):
    """A folder that is not this run's dataset (another run's, or damaged)."""


def is_dataset_path(path: str | os.PathLike[str]) -> bool:
    """Whether ``--out PATH`` names a dataset folder rather than one file: an existing folder,
    a name ending in a slash, or a name without a suffix (``games``; ``games.parquet`` is a
    file, and so is ``games.json``, which the file writer refuses)."""
    text = os.fspath(path)
    p = Path(text)
    return p.is_dir() or text.endswith(("/", os.sep)) or p.suffix == ""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of a run: games ``first_game .. first_game + games``."""

    index: int
    first_game: int
    games: int

    @property
    def name(self) -> str:
        return f"part-{self.index:05d}.parquet"


def _modules() -> tuple[Any, Any]:
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ImportError("a dataset folder is written as Parquet, which needs pyarrow: pip install pyarrow") from None


class Dataset:
    """The dataset folder of one run: its shards, which are done, and writing one more.

    Opening checks everything before a game is played: ``resume=False`` refuses a folder
    that already holds shards (`DatasetError`); ``resume=True`` accepts only a folder
    written by the same run (rules, bots, seatings, seed, games and shard size), and then
    `pending` lists only the shards not yet written. Leftover temporary files of a killed
    run are removed."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        run: Run,
        games: int,
        first_game: int = 0,
        shard_games: int | None = None,
        *,
        resume: bool = False,
    ) -> None:
        self.pa, self.pq = _modules()
        self.path = Path(path)
        self.run = run
        self.games = int_in("games", games, 0)
        self.first_game = int_in("first_game", first_game, 0)
        size = run.chunk_size(self.games) if shard_games is None else shard_games
        self.shard_games = int_in("shard_games", size, 1)
        count = -(-self.games // self.shard_games)
        if count > MAX_SHARDS:
            raise ValueError(
                f"{self.games} games in shards of {self.shard_games} make {count} shards, more than "
                f"{MAX_SHARDS}: give larger shards"
            )
        self.shards = [
            Shard(i, self.first_game + i * self.shard_games, min(self.shard_games, self.games - i * self.shard_games))
            for i in range(count)
        ]
        self.meta = {
            **run.empty().metadata(),
            "format": _FORMAT,
            "layout": {
                "first_game": self.first_game,
                "games": self.games,
                "shard_games": self.shard_games,
                "shards": count,
                "files": "part-NNNNN.parquet",
            },
        }
        self.path.mkdir(parents=True, exist_ok=True)
        self.done: set[int] = set()
        self._open(resume)

    # ----- opening ------------------------------------------------------------------------

    def _open(self, resume: bool) -> None:
        for leftover in self.path.glob(".part-*.partial"):
            leftover.unlink(missing_ok=True)  # a shard a killed run was writing
        meta_file = self.path / META_NAME
        present = sorted(self.path.glob("part-*.parquet"))
        if not meta_file.exists() and not present:
            self._write_meta()
            return
        if not resume:
            raise DatasetError(
                f"{self.path} already holds a run: resume it (--resume, resume=True) or give another folder"
            )
        try:
            old = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            raise DatasetError(f"{self.path} holds shards but no readable {META_NAME}: not a genial dataset") from None
        mine, theirs = _comparable(self.meta), _comparable(old)
        if mine != theirs:
            diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            raise DatasetError(
                f"{self.path} holds another run (its {', '.join(diff)} differ): give the same settings to "
                "resume it, or another folder"
            )
        by_name = {s.name: s for s in self.shards}
        for f in present:
            shard = by_name.get(f.name)
            if shard is None:
                raise DatasetError(f"{f} is not a shard of this run")
            rows = self.pq.read_metadata(f).num_rows
            if rows != shard.games:
                raise DatasetError(f"{f} holds {rows} games, not the {shard.games} of its shard: the folder is damaged")
            self.done.add(shard.index)

    def pending(self) -> list[Shard]:
        """The shards not yet written, in game order."""
        return [s for s in self.shards if s.index not in self.done]

    @property
    def games_done(self) -> int:
        return sum(self.shards[i].games for i in self.done)

    # ----- writing ------------------------------------------------------------------------

    def write(self, shard: Shard, result: SimulationResult) -> None:
        """Writes a finished shard: to a temporary file, renamed into place when whole."""
        if len(result) != shard.games or (len(result) and int(result.game_index[0]) != shard.first_game):
            raise ValueError(f"the result holds games {result.first_game}.. ({len(result)}), not shard {shard}")
        table = self.pa.table(result.column_dict())
        meta = {k: v for k, v in self.meta.items() if k not in _PROGRESS_KEYS}
        # No timestamp in the file: the same shard is the same bytes wherever it was played.
        meta["shard"] = {"index": shard.index, "first_game": shard.first_game, "games": shard.games}
        table = table.replace_schema_metadata({"genial": json.dumps(meta, separators=(",", ":"))})
        fd, tmp = tempfile.mkstemp(prefix=f".{shard.name}.", suffix=".partial", dir=self.path)
        try:
            with os.fdopen(fd, "wb") as f:
                self.pq.write_table(table, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path / shard.name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.done.add(shard.index)
        self._write_meta()

    def _write_meta(self) -> None:
        """The sidecar, replaced whole (never half-written)."""
        side = self.path / META_NAME
        tmp = side.with_name(".meta.json.partial")
        data = {**self.meta, "games": self.games_done, "shards_done": len(self.done)}
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, side)

    # ----- reading ------------------------------------------------------------------------

    def summary(self) -> Summary | None:
        """The summary of every shard written, read one at a time (memory stays flat)."""
        out: Summary | None = None
        for part in _parts(self.path, self.run.empty()):
            s = part.summary()
            out = s if out is None else out + s
        return out


def _comparable(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k not in _PROGRESS_KEYS}


def _empty(meta: dict[str, Any]) -> SimulationResult:
    r = rules_of(meta, META_NAME)
    return SimulationResult(
        game_index=np.zeros(0, np.uint64),
        seed=np.zeros(0, np.uint64),
        scores=np.zeros((0, r.players, 6), np.int8),
        tracks=np.zeros((0, r.track_count, 6), np.int8),
        ranks=np.zeros((0, r.players), np.uint8),
        bots=np.zeros((0, r.players), np.uint8),
        placements=np.zeros(0, np.uint16),
        bonus_placements=np.zeros(0, np.uint16),
        bonuses_lost=np.zeros(0, np.uint16),
        swaps=np.zeros(0, np.uint16),
        turns=np.zeros(0, np.uint16),
        end=np.zeros(0, np.uint8),
        rules=r,
        bot_names=tuple(b["label"] for b in meta["bots"]),
        run_seed=int(meta["run_seed"]),
        bot_specs=tuple(b["spec"] for b in meta["bots"]),
        paired=bool(meta["paired"]),
        lineups=tuple(tuple(int(x) for x in lineup) for lineup in meta["lineups"]),
    )


def _from_table(table: Any, like: SimulationResult) -> SimulationResult:
    """The columns of a shard file back into a `SimulationResult` of the run ``like``."""
    cols = {name: table.column(name).to_numpy() for name in table.column_names}
    players, colors = like.players, ("red", "orange", "yellow", "green", "blue", "purple")
    names = {name: i for i, name in enumerate(like.bot_names)}
    ends = {name: i for i, name in enumerate(END_NAMES)}
    n = table.num_rows
    scores = np.zeros((n, players, 6), np.int8)
    for s in range(players):
        for c, color in enumerate(colors):
            scores[:, s, c] = cols[f"score_{s}_{color}"]
    if like.rules.track_count != players:
        tracks = np.zeros((n, like.rules.track_count, 6), np.int8)
        for t in range(like.rules.track_count):
            for c, color in enumerate(colors):
                tracks[:, t, c] = cols[f"track_{t}_{color}"]
    else:
        tracks = scores.copy()  # the seats' own tracks are their scores
    return like._of_games(
        dict(
            game_index=cols["game"].astype(np.uint64),
            seed=cols["seed"].astype(np.uint64),
            scores=scores,
            tracks=tracks,
            ranks=np.stack([cols[f"place_{s}"].astype(np.uint8) - 1 for s in range(players)], axis=1).reshape(
                n, players
            ),
            bots=np.stack([np.array([names[b] for b in cols[f"bot_{s}"]], np.uint8) for s in range(players)], axis=1)
            .reshape(n, players)
            .astype(np.uint8),
            placements=cols["placements"].astype(np.uint16),
            bonus_placements=cols["bonus_placements"].astype(np.uint16),
            bonuses_lost=cols["bonuses_lost"].astype(np.uint16),
            swaps=cols["swaps"].astype(np.uint16),
            turns=cols["turns"].astype(np.uint16),
            end=np.array([ends[e] for e in cols["end"]], np.uint8),
        )
    )


def _parts(path: Path, like: SimulationResult) -> Iterator[SimulationResult]:
    _, pq = _modules()
    for f in sorted(path.glob("part-*.parquet")):
        yield _from_table(pq.read_table(f), like)


def read_dataset(path: str | os.PathLike[str]) -> SimulationResult:
    """Every game of a dataset folder as one `SimulationResult`, in game order (the shards
    written so far: a stopped run gives the games of its finished shards)."""
    p = Path(path)
    meta_file = p / META_NAME
    if not meta_file.exists():
        raise FileNotFoundError(f"{p} is not a genial dataset: {meta_file} is missing")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    like = _empty(meta)
    parts = [like, *_parts(p, like)]
    # Not `SimulationResult.concat`: the shards of a stopped run may leave gaps.
    return like._of_games({name: np.concatenate([getattr(part, name) for part in parts]) for name in COLUMNS})
