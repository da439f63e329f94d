"""Games kept in SQLite, one row per game, keyed by the id that the page's URL carries (``?game=...``).

The row holds the game as ``Game.to_json()`` (every entry, so it replays exactly), the page's per-game
settings (how the play is entered) and a version number: a save made from an older version (another
phone at the same table saved first) is refused, and the page reloads the newer game.

>>> store = GameStore(":memory:")
>>> game_id = store.create(Game.new(["Ann", "Bob"]))
>>> store.load(game_id).game.players
('Ann', 'Bob')

The file is ``CRIBCAM_DB`` if set, else ``cribcam_db`` in Streamlit's secrets, else ``cribcam.sqlite``
in the working directory.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from scorer.game import Game

DEFAULT_PATH = "cribcam.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    version INTEGER NOT NULL,
    players TEXT NOT NULL,
    game TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}'
)
"""


class StoreError(RuntimeError):
    """The database cannot be used; the message says why and what to do, in one sentence."""


class StaleGame(StoreError):
    """Someone else saved this game since it was loaded."""


@dataclass
class StoredGame:
    id: str
    game: Game
    version: int
    settings: dict = field(default_factory=dict)


@dataclass(frozen=True)
class GameSummary:
    id: str
    players: str
    updated: float


def database_path() -> str:
    """Where games live: ``CRIBCAM_DB``, then the ``cribcam_db`` secret, then ``cribcam.sqlite``."""
    path = os.environ.get("CRIBCAM_DB")
    if path:
        return path
    try:
        import streamlit as st

        secret = st.secrets.get("cribcam_db")
    except Exception:  # no secrets file is the usual case; any problem reading it means "not set"
        secret = None
    return str(secret) if secret else DEFAULT_PATH


def new_id() -> str:
    """A short id that is easy to read aloud and to type into another phone."""
    return secrets.token_hex(4)


class GameStore:
    """Open (and create) the games database at ``path``; raises ``StoreError`` when it cannot."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = str(database_path() if path is None else path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
            self._db.execute(SCHEMA)
            self._db.commit()
        except (sqlite3.Error, OSError) as error:
            raise StoreError(
                f"The games database {self.path} cannot be opened ({error}); "
                "set CRIBCAM_DB to a file in a folder you can write to, or count hands without saving."
            ) from None

    def create(self, game: Game, settings: dict | None = None) -> str:
        game_id = new_id()
        now = time.time()
        self._write(
            "INSERT INTO games (id, created, updated, version, players, game, settings) VALUES (?, ?, ?, 1, ?, ?, ?)",
            (game_id, now, now, " · ".join(game.sides), game.to_json(), json.dumps(settings or {})),
        )
        return game_id

    def load(self, game_id: str) -> StoredGame | None:
        """The game with this id, or ``None`` if there is none; ``StoreError`` if its record is damaged."""
        try:
            row = self._db.execute("SELECT game, version, settings FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.Error as error:
            raise StoreError(f"The games database {self.path} cannot be read ({error}); try again.") from None
        if row is None:
            return None
        try:
            game = Game.from_json(row[0])
        except ValueError as error:
            raise StoreError(f"Game {game_id} cannot be restored: {error} Start a new game.") from None
        return StoredGame(game_id, game, row[1], json.loads(row[2] or "{}"))

    def save(self, stored: StoredGame) -> None:
        """Write the game back; ``StaleGame`` when another phone saved it first."""
        cursor = self._write(
            "UPDATE games SET game = ?, settings = ?, updated = ?, version = version + 1 WHERE id = ? AND version = ?",
            (stored.game.to_json(), json.dumps(stored.settings), time.time(), stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            raise StaleGame(
                "Another phone changed this game a moment ago; here is the latest, so make that entry again."
            )
        stored.version += 1

    def recent(self, limit: int = 8) -> list[GameSummary]:
        try:
            rows = self._db.execute(
                "SELECT id, players, updated FROM games ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        except sqlite3.Error as error:
            raise StoreError(f"The games database {self.path} cannot be read ({error}); try again.") from None
        return [GameSummary(*row) for row in rows]

    def _write(self, sql: str, params: tuple) -> sqlite3.Cursor:
        try:
            with self._db:
                return self._db.execute(sql, params)
        except sqlite3.Error as error:
            raise StoreError(
                f"The game could not be saved to {self.path} ({error}); check the disk and try the entry again."
            ) from None
