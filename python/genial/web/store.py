"""Games of `genial serve` in an embedded SQLite database.

One row per game: the record (`Game.to_json`, which replays exactly), the seats (who plays
where: a human or a bot with its options), a version counter that grows with every change
(moves and undos), and the SHA-256 of each human seat's secret token (the token itself is
given once, to whoever created the game, and never stored).

The database is written on every change, before the change is acknowledged, so stopping
and restarting the server loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["GameRow", "Store", "default_db_path", "hash_token"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         TEXT PRIMARY KEY,
    created    REAL NOT NULL,
    updated    REAL NOT NULL,
    version    INTEGER NOT NULL,
    seats      TEXT NOT NULL,
    tokens     TEXT NOT NULL,
    record     TEXT NOT NULL,
    over       INTEGER NOT NULL,
    summary    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
"""


def default_db_path() -> Path:
    """Where games are kept unless ``--db`` says otherwise: the user's data folder
    (``$XDG_DATA_HOME/genial``, ``~/.local/share/genial``; ``%APPDATA%\\genial`` on Windows,
    ``~/Library/Application Support/genial`` on macOS)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "genial" / "games.sqlite3"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class GameRow:
    """One stored game."""

    id: str
    created: float
    updated: float
    version: int
    seats: list[dict[str, Any]]
    tokens: list[str | None]  # SHA-256 of each human seat's token, None for bots
    record: str
    over: bool
    summary: dict[str, Any]


class Store:
    """The games table. One connection, used by the server's event loop only (writes are
    short: one row of a few kilobytes)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives the process being stopped or killed (the OS has
        # the write); only a power cut may lose the last moves.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def insert(self, row: GameRow) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO games (id, created, updated, version, seats, tokens, record, over, summary) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.created,
                    row.updated,
                    row.version,
                    json.dumps(row.seats),
                    json.dumps(row.tokens),
                    row.record,
                    int(row.over),
                    json.dumps(row.summary),
                ),
            )

    def update(self, game_id: str, *, version: int, record: str, over: bool, summary: dict[str, Any]) -> float:
        now = time.time()
        with self._db:
            self._db.execute(
                "UPDATE games SET version = ?, record = ?, over = ?, summary = ?, updated = ? WHERE id = ?",
                (version, record, int(over), json.dumps(summary), now, game_id),
            )
        return now

    def get(self, game_id: str) -> GameRow | None:
        cur = self._db.execute(
            "SELECT id, created, updated, version, seats, tokens, record, over, summary FROM games WHERE id = ?",
            (game_id,),
        )
        found = cur.fetchone()
        return None if found is None else _row(found)

    def recent(self, limit: int = 200) -> list[GameRow]:
        """The most recently changed games first."""
        cur = self._db.execute(
            "SELECT id, created, updated, version, seats, tokens, record, over, summary FROM games "
            "ORDER BY updated DESC LIMIT ?",
            (limit,),
        )
        return [_row(r) for r in cur.fetchall()]

    def unfinished_ids(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT id FROM games WHERE over = 0")]

    def delete(self, game_id: str) -> bool:
        with self._db:
            cur = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return cur.rowcount > 0


def _row(r: tuple[Any, ...]) -> GameRow:
    return GameRow(
        id=r[0],
        created=r[1],
        updated=r[2],
        version=r[3],
        seats=json.loads(r[4]),
        tokens=json.loads(r[5]),
        record=r[6],
        over=bool(r[7]),
        summary=json.loads(r[8]),
    )
