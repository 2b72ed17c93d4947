"""Games of `genial serve` in an embedded SQLite database.

One row per game: the record (`Game.to_json`, which replays exactly), the seats (who plays
where: a human or a bot with its options), a version counter that grows with every change
(moves, undos, seats claimed or replaced), the SHA-256 of each claimed seat's secret token
and of each open invite (tokens and invite codes themselves are never stored), the bag's
commitment salt, the game's public events (seats joined and replaced), and the forfeit that
ended it, if one did (a seat whose engine failed: the seat and the public reason). Beside the
games: finished reviews, and the positions shared from the analysis board, each under the
hash of what it is made from.

The database is written on every change, before the change is acknowledged, so stopping
and restarting the server loses nothing. It holds every game's bag, so the file is created
readable by its owner only (0600) and a folder made for it is 0700.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass, field
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
CREATE TABLE IF NOT EXISTS reviews (
    id         TEXT PRIMARY KEY,
    created    REAL NOT NULL,
    review     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS positions (
    id         TEXT PRIMARY KEY,
    created    REAL NOT NULL,
    position   TEXT NOT NULL
);
"""
# Columns added after the first release, with their value in older rows: open invites (none:
# the creator was given every token), the commitment's salt (none: no commitment) and the
# public events, the forfeit (none).
_ADDED = {"invites": "'[]'", "salt": "''", "events": "'[]'", "forfeit": "''", "settings": "'{}'"}
_COLUMNS = (
    "id, created, updated, version, seats, tokens, record, over, summary, invites, salt, events, forfeit, settings"
)


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
    """The stored form of a seat token or an invite code (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class GameRow:
    """One stored game."""

    id: str
    created: float
    updated: float
    version: int
    seats: list[dict[str, Any]]
    tokens: list[str | None]  # SHA-256 of each claimed human seat's token, None otherwise
    record: str
    over: bool
    summary: dict[str, Any]
    invites: list[str | None] = field(default_factory=list)  # SHA-256 of each open invite
    salt: str = ""  # hex; the bag's commitment is SHA-256(salt + bag), see `commitment`
    events: list[dict[str, Any]] = field(default_factory=list)
    # The forfeit that ended the game: {"seat": s, "reason": public text, "move": moves played}.
    forfeit: dict[str, Any] | None = None
    # What the table chose at its start: {"away_s": seconds a held seat's holder must be away
    # before another player may hand the seat on (0: never)}.
    settings: dict[str, Any] = field(default_factory=dict)


def _private_file(path: Path) -> None:
    """Creates the database file (and a missing folder) readable by its owner only."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path == default_db_path() and sys.platform != "win32":
        with contextlib.suppress(OSError):  # genial's own folder: nobody else's business
            path.parent.chmod(0o700)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    if sys.platform != "win32":
        with contextlib.suppress(OSError):  # a file from an older version was 0644
            path.chmod(0o600)


class Store:
    """The games table. One connection, used by the server's event loop only (writes are
    short: one row of a few kilobytes)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            _private_file(self.path)
        # SQLite creates the -wal and -shm files with the database file's mode (0600).
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives the process being stopped or killed (the OS has
        # the write); only a power cut may lose the last moves.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        have = {r[1] for r in self._db.execute("PRAGMA table_info(games)")}
        for name, default in _ADDED.items():
            if name not in have:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {name} TEXT NOT NULL DEFAULT {default}")

    def close(self) -> None:
        self._db.close()

    def insert(self, row: GameRow) -> None:
        with self._db:
            self._db.execute(
                f"INSERT INTO games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    json.dumps(row.invites),
                    row.salt,
                    json.dumps(row.events),
                    json.dumps(row.forfeit) if row.forfeit else "",
                    json.dumps(row.settings),
                ),
            )

    def update(
        self,
        game_id: str,
        *,
        version: int,
        record: str,
        over: bool,
        summary: dict[str, Any],
        forfeit: dict[str, Any] | None = None,
    ) -> float:
        """A move, an undo or the end: the record, and the forfeit when one ended the game."""
        return self._set(
            game_id,
            version=version,
            record=record,
            over=int(over),
            summary=json.dumps(summary),
            forfeit=json.dumps(forfeit) if forfeit else "",
        )

    def update_seats(
        self,
        game_id: str,
        *,
        version: int,
        tokens: list[str | None],
        invites: list[str | None],
        events: list[dict[str, Any]],
        summary: dict[str, Any],
    ) -> float:
        """A seat claimed or replaced: its token and invite hashes and the public events."""
        return self._set(
            game_id,
            version=version,
            tokens=json.dumps(tokens),
            invites=json.dumps(invites),
            events=json.dumps(events),
            summary=json.dumps(summary),
        )

    def redeal(
        self,
        game_id: str,
        *,
        version: int,
        record: str,
        salt: str,
        tokens: list[str | None],
        invites: list[str | None],
        events: list[dict[str, Any]],
        summary: dict[str, Any],
    ) -> float:
        """A seat handed on before anyone played: a fresh deal from a fresh bag (its record
        and its commitment's salt) with the seats as they now are, in one write."""
        return self._set(
            game_id,
            version=version,
            record=record,
            salt=salt,
            tokens=json.dumps(tokens),
            invites=json.dumps(invites),
            events=json.dumps(events),
            summary=json.dumps(summary),
        )

    def _set(self, game_id: str, **columns: str | int) -> float:
        """Writes ``columns`` (names written in this module, values encoded) of one game in
        one transaction, with the time of the change; returns that time."""
        now = time.time()
        names = ", ".join(f"{name} = ?" for name in (*columns, "updated"))
        with self._db:
            self._db.execute(f"UPDATE games SET {names} WHERE id = ?", (*columns.values(), now, game_id))
        return now

    def update_settings(self, game_id: str, settings: dict[str, Any]) -> None:
        """The table's settings (its rematch, once one is made)."""
        with self._db:
            self._db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))

    def get(self, game_id: str) -> GameRow | None:
        cur = self._db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
        found = cur.fetchone()
        return None if found is None else _row(found)

    def recent(self, limit: int = 200) -> list[GameRow]:
        """The most recently changed games first."""
        cur = self._db.execute(f"SELECT {_COLUMNS} FROM games ORDER BY updated DESC LIMIT ?", (limit,))
        return [_row(r) for r in cur.fetchall()]

    def unfinished_ids(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT id FROM games WHERE over = 0")]

    def delete_untouched_since(self, when: float) -> list[str]:
        """Deletes the games that have not changed since ``when`` (a Unix time), and the
        reviews and shared positions made before it; the games' ids."""
        with self._db:
            ids = [r[0] for r in self._db.execute("SELECT id FROM games WHERE updated < ?", (when,))]
            self._db.execute("DELETE FROM games WHERE updated < ?", (when,))
            # Reviews and shared positions go the same way as the games they were made of.
            self._db.execute("DELETE FROM reviews WHERE created < ?", (when,))
            self._db.execute("DELETE FROM positions WHERE created < ?", (when,))
        return ids

    # ----- finished reviews and shared positions (keyed by their content's hash) -----------

    def put_review(self, key: str, data: dict[str, Any]) -> None:
        """A finished review (`genial.web.reviews`), kept for its game or record."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO reviews (id, created, review) VALUES (?, ?, ?)",
                (key, time.time(), json.dumps(data)),
            )

    def pending_reviews(self) -> list[tuple[str, dict[str, Any]]]:
        """The reviews asked for and not finished when the server stopped (kept as
        ``{"pending": {...}}`` until their result replaces them), oldest first."""
        rows = self._db.execute(
            "SELECT id, review FROM reviews WHERE review LIKE '{\"pending\":%' ORDER BY created"
        ).fetchall()
        return [(key, dict(json.loads(text))) for key, text in rows]

    def get_review(self, key: str) -> dict[str, Any] | None:
        found = self._db.execute("SELECT review FROM reviews WHERE id = ?", (key,)).fetchone()
        return None if found is None else dict(json.loads(found[0]))

    def put_position(self, key: str, data: dict[str, Any]) -> None:
        """A shared analysis position with its variation (`genial.web.analysis`)."""
        with self._db:
            self._db.execute(
                "INSERT OR IGNORE INTO positions (id, created, position) VALUES (?, ?, ?)",
                (key, time.time(), json.dumps(data)),
            )

    def get_position(self, key: str) -> dict[str, Any] | None:
        found = self._db.execute("SELECT position FROM positions WHERE id = ?", (key,)).fetchone()
        return None if found is None else dict(json.loads(found[0]))


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
        invites=json.loads(r[9]),
        salt=r[10],
        events=json.loads(r[11]),
        forfeit=json.loads(r[12]) if r[12] else None,
        settings=json.loads(r[13]) if r[13] else {},
    )
