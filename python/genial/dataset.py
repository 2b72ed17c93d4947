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
not data). A shard is written under a temporary ``.part-*.partial`` name, synced and
renamed when whole, so a file with a shard's name is always a finished shard: a run that
is killed leaves no half shard that a resumed run would count as done.

``_meta.json`` lists every shard written under ``files``: its rows, its first and last
game and the SHA-256 of its bytes. Resuming and `read_dataset` check every ``part-*``
file against it and refuse, naming the file and how to repair the folder, a shard that
was altered (its hash differs), copied from another shard or run, or that the run never
had (a stray ``part-00099.parquet``). A shard it does not list (a run killed between
renaming the shard and rewriting ``_meta.json``, or a file put there: its header can be
intact over damaged pages, so nothing vouches for it) is refused by `read_dataset`, and
resuming moves it aside (``NAME.unlisted``, kept) and plays its games again. A folder
written before shards were listed (no ``files`` at all) is read by the shards' own headers.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .arguments import int_in
from .files import FileFormatError, arrow, commit, read_json, temporary, write_atomic
from .files import field as json_field
from .results import COLUMNS, SimulationResult, check_metadata, rules_of, upgrade_columns
from .simulation import MAX_SHARDS, Run
from .stats import END_NAMES, Summary

__all__ = ["Shard", "Dataset", "DatasetError", "read_dataset", "is_dataset_path", "META_NAME"]

META_NAME = "_meta.json"
_FORMAT = "genial-dataset"
# Keys of the metadata that change as the run goes on, left out when a resumed run is
# compared with the one that wrote the folder (the genial version is compared: another
# version may play other games).
_PROGRESS_KEYS = ("written", "games", "shards_done", "files")
_REPAIR = "delete it (or move it out of the folder) and run the same command with --resume to play that shard again"


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
        return arrow()
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
        self.files: dict[str, dict[str, Any]] = {}  # the shards written: rows, range, hash
        # Shards found unlisted when resuming, moved aside to NAME.unlisted and played again.
        self.set_aside: list[Path] = []
        self._open(resume)

    # ----- opening ------------------------------------------------------------------------

    def _open(self, resume: bool) -> None:
        for pattern in (".part-*.partial", f".{META_NAME}.*.partial"):
            for leftover in self.path.glob(pattern):
                leftover.unlink(missing_ok=True)  # a shard or the metadata a killed run was writing
        meta_file = self.path / META_NAME
        present = sorted(self.path.glob("part-*.parquet"))
        if not meta_file.exists() and not present:
            self._write_meta()
            return
        if not resume:
            raise DatasetError(
                f"{self.path} already holds a run: resume it (--resume, resume=True) or give another folder"
            )
        if not meta_file.exists():
            raise DatasetError(f"{self.path} holds shards but no {META_NAME}: not a genial dataset")
        old = _read_meta(self.path)
        mine, theirs = _comparable(self.meta), _comparable(old)
        if mine != theirs:
            diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            raise DatasetError(
                f"{self.path} holds another run (its {', '.join(diff)} differ): give the same settings to "
                "resume it, or another folder"
            )
        listed = old.get("files", {})
        by_name = {s.name: s for s in self.shards}
        for f in present:
            shard = by_name.get(f.name)
            if shard is None:
                raise DatasetError(_stray(f, len(self.shards)))
            if f.name not in listed and "files" in old:
                # A run killed between renaming a shard and rewriting the metadata, or a file
                # put there: nothing vouches for its bytes (a header intact over damaged pages
                # passes every check short of reading it all), so it is not counted as done.
                # Its games are deterministic: it is moved aside (kept, never deleted) and
                # played again, so a run killed at any instant resumes by itself.
                aside = f.with_name(f.name + ".unlisted")
                f.replace(aside)
                self.set_aside.append(aside)
                continue
            data = f.read_bytes()
            self.files[f.name] = _check_shard(f, data, shard, listed.get(f.name), old, self.pa, self.pq)
            self.done.add(shard.index)
        if set(self.files) != set(listed):
            self._write_meta()  # the shards checked in, those gone left out

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
        fd, tmp = temporary(self.path / shard.name)
        try:
            with os.fdopen(fd, "wb") as f:
                self.pq.write_table(table, f)
                f.flush()
                os.fsync(f.fileno())
            entry = _entry(shard, tmp.read_bytes())
            commit(tmp, self.path / shard.name)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self.files[shard.name] = entry
        self.done.add(shard.index)
        self._write_meta()

    def _write_meta(self) -> None:
        """The sidecar, replaced whole (never half-written)."""
        files = {name: self.files[name] for name in sorted(self.files)}
        data = {**self.meta, "games": self.games_done, "shards_done": len(self.done), "files": files}
        write_atomic(self.path / META_NAME, json.dumps(data, indent=1) + "\n")

    # ----- reading ------------------------------------------------------------------------

    def summary(self) -> Summary | None:
        """The summary of every shard written, read one at a time (memory stays flat)."""
        out: Summary | None = None
        for part in _parts(self.path, self.run.empty(), _read_meta(self.path)):
            s = part.summary()
            out = s if out is None else out + s
        return out


def _comparable(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k not in _PROGRESS_KEYS}


def _entry(shard: Shard, data: bytes) -> dict[str, Any]:
    """What ``_meta.json`` records of a shard written: its range, rows and hash."""
    return {
        "index": shard.index,
        "first_game": shard.first_game,
        "last_game": shard.first_game + shard.games - 1,
        "rows": shard.games,
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def _stray(f: Path, count: int) -> str:
    return (
        f"{f} is not a shard of this run (it has {count} shards, part-00000.parquet to "
        f"part-{count - 1:05d}.parquet): move it out of the folder"
    )


def _unlisted(f: Path, folder: Path) -> str:
    return (
        f"{f} is not listed in {folder / META_NAME} (a run stopped as it wrote it, or a file put there), "
        f"so nothing vouches for its games: {_REPAIR}"
    )


def _read_meta(folder: Path) -> dict[str, Any]:
    """``_meta.json``, every field the readers use checked (`DatasetError` naming the file
    and the field)."""
    meta_file = folder / META_NAME
    try:
        meta = check_metadata(meta_file, read_json(meta_file, "dataset metadata file"))
        if meta.get("format") != _FORMAT:
            raise FileFormatError(f"{meta_file}: the field 'format' is {meta.get('format')!r}, not {_FORMAT!r}")
        json_field(meta_file, meta, "version", int)  # the columns' meaning (`upgrade_columns`)
        for key in ("first_game", "games", "shard_games", "shards"):
            value = json_field(meta_file, meta, f"layout.{key}", int)
            if value < 0 or (key == "shard_games" and value < 1):
                raise FileFormatError(f"{meta_file}: the field 'layout.{key}' is {value}, out of range")
        files = json_field(meta_file, meta, "files", dict, optional=True, default={})
        for name, entry in files.items():
            where = f"files.{name}."
            for key in ("index", "first_game", "last_game", "rows"):
                json_field(meta_file, entry, key, int, within=where)
            json_field(meta_file, entry, "sha256", str, within=where)
    except FileFormatError as e:
        raise DatasetError(str(e)) from None
    return meta


def _check_shard(
    f: Path, data: bytes, shard: Shard, entry: dict[str, Any] | None, meta: dict[str, Any], pa: Any, pq: Any
) -> dict[str, Any]:
    """The ``_meta.json`` entry of the shard file ``f`` (its bytes ``data``) when it is shard
    ``shard`` of the run ``meta`` describes; else `DatasetError` naming the file and what to
    do. A listed shard must have its listed hash; an unlisted one (a run killed before its
    metadata was rewritten) must carry this run and this range in its own header."""
    mine = _entry(shard, data)
    if entry is not None:
        if entry != mine:
            what = "its content hash differs" if entry.get("sha256") != mine["sha256"] else "its range differs"
            raise DatasetError(
                f"{f} is not the shard {META_NAME} lists ({what}: it was altered, or copied from another "
                f"shard or run): {_REPAIR}"
            )
        return mine
    try:
        head = pq.read_schema(pa.BufferReader(data)).metadata or {}
        own = json.loads(head[b"genial"])
    except (KeyError, ValueError, OSError, RecursionError, TypeError):
        raise DatasetError(f"{f} is not a shard genial wrote (no readable header): {_REPAIR}") from None
    want = {"index": shard.index, "first_game": shard.first_game, "games": shard.games}
    if not isinstance(own, dict) or own.get("shard") != want:
        raise DatasetError(
            f"{f} holds another shard's games ({own.get('shard') if isinstance(own, dict) else None}, "
            f"not {want}): it was copied from another shard: {_REPAIR}"
        )
    if _comparable({k: v for k, v in own.items() if k != "shard"}) != _comparable(meta):
        raise DatasetError(f"{f} holds another run's games: {_REPAIR}")
    try:
        rows = pq.read_metadata(pa.BufferReader(data)).num_rows
    except (OSError, ValueError):
        raise DatasetError(f"{f} is damaged (not a readable Parquet file): {_REPAIR}") from None
    if rows != shard.games:
        raise DatasetError(
            f"{f} holds {rows} games, not the {shard.games} of its shard: the folder is damaged: {_REPAIR}"
        )
    return mine


def _shards_of(meta: dict[str, Any]) -> list[Shard]:
    layout = meta["layout"]
    first, games, size = layout["first_game"], layout["games"], layout["shard_games"]
    count = min(-(-games // size), MAX_SHARDS)
    return [Shard(i, first + i * size, min(size, games - i * size)) for i in range(count)]


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


def _from_table(table: Any, like: SimulationResult, version: int) -> SimulationResult:
    """The columns of a shard file, written by metadata version ``version``, back into a
    `SimulationResult` of the run ``like``."""
    # A folder written before version 4 has the columns of its time: read with today's meaning.
    cols = upgrade_columns({name: table.column(name).to_numpy() for name in table.column_names}, version)
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
            end=np.array([ends[e] for e in cols["end_reason"]], np.uint8),
        )
    )


def _parts(path: Path, like: SimulationResult, meta: dict[str, Any]) -> Iterator[SimulationResult]:
    """The shards of the folder, each checked against the metadata (`_check_shard`)."""
    pa, pq = _modules()
    shards = {s.name: s for s in _shards_of(meta)}
    listed = meta.get("files", {})
    version = int(meta["version"])
    for f in sorted(path.glob("part-*.parquet")):
        shard = shards.get(f.name)
        if shard is None:
            raise DatasetError(_stray(f, len(shards)))
        entry = listed.get(f.name)
        # A folder written before shards were listed (no "files" at all) is read by the
        # shards' own headers; in a listing folder, an unlisted shard waits for --resume.
        if entry is None and "files" in meta:
            raise DatasetError(_unlisted(f, path))
        data = f.read_bytes()
        _check_shard(f, data, shard, entry, meta, pa, pq)
        try:
            table = pq.read_table(pa.BufferReader(data))
            yield _from_table(table, like, version)
        except (OSError, ValueError, KeyError) as e:
            raise DatasetError(f"{f} cannot be read ({e}): {_REPAIR}") from None


def read_dataset(path: str | os.PathLike[str]) -> SimulationResult:
    """Every game of a dataset folder as one `SimulationResult`, in game order (the shards
    written so far: a stopped run gives the games of its finished shards). Every shard is
    checked against ``_meta.json`` first (`DatasetError` naming the file and how to repair
    the folder)."""
    p = Path(path)
    meta_file = p / META_NAME
    if not meta_file.exists():
        raise FileNotFoundError(f"{p} is not a genial dataset: {meta_file} is missing")
    meta = _read_meta(p)
    try:
        like = _empty(meta)
    except (ValueError, TypeError, KeyError) as e:
        raise DatasetError(f"{meta_file}: the rules or bots cannot be read ({e})") from None
    parts = [like, *_parts(p, like, meta)]
    # Not `SimulationResult.concat`: the shards of a stopped run may leave gaps.
    return like._of_games({name: np.concatenate([getattr(part, name) for part in parts]) for name in COLUMNS})
