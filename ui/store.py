"""Games kept in a database, one row per game, keyed by the id that the page's URL carries (``?game=...``).

The row holds the game as ``Game.to_json()`` (every entry, so it replays exactly), the page's per-game
settings (how the play is entered), the id of the game played after it (once started) and a version number.

Every change is a compare-and-swap on the version the person saw: ``update(game_id, seen, change)`` loads the
game, refuses with ``StaleGame`` unless it is still at version ``seen``, applies ``change`` and writes it back
only if nobody wrote in between. ``start_next`` links a finished game to the next one the same way, so two
phones asking for the next game get one game. The swap itself is one method, ``_swap``.

>>> store = GameStore(":memory:")
>>> game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
>>> stored, _ = store.update(game_id, 1, lambda s: s.game.turn_starter("5H"))
>>> stored.version, store.load(game_id).game.phase
(2, 'play')

Two backends run the same SQL (one table, ``?`` parameters): a SQLite file, embedded, by default
(``SqliteBackend``, below), and PostgreSQL for a ``postgresql://`` URL, when several app processes share one
server (``ui.store_postgres``). The rules live here, once; a backend only connects, runs that SQL as a read or in
one transaction, and says which of its errors mean the database cannot be used.

The database is ``CRIBCAM_DB`` if set, else ``cribcam_db`` in Streamlit's secrets, else ``cribcam.sqlite``
in the working directory.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from scorer.game import Game

DEFAULT_PATH = "cribcam.sqlite"
SITTING = "sitting"
"""The settings key holding the results of the games played before this one at the same sitting."""
ID_SHAPE = re.compile(r"[0-9a-f]{8}")
ID_CHARS = 8
URL_SHAPE = re.compile(r"([a-z][a-z0-9+.-]+)://", re.IGNORECASE)
POSTGRES_SCHEMES = ("postgresql", "postgres")
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    version INTEGER NOT NULL,
    players TEXT NOT NULL,
    game TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    successor TEXT
)
"""
COLUMNS = "id, version, game, settings, successor"

T = TypeVar("T")
Run = Callable[[str, tuple], int]  # runs one statement inside a transaction; returns the rows it changed


class StoreError(RuntimeError):
    """The database cannot be used; the message says why and what to do, in one sentence."""


class StaleGame(StoreError):
    """Someone else saved this game since the version this change was made on; ``current`` is the game now."""

    def __init__(self, current: StoredGame | None) -> None:
        super().__init__("Another phone changed this game since yours showed it; here is the game as it is now.")
        self.current = current


@dataclass
class StoredGame:
    id: str
    game: Game
    version: int
    settings: dict = field(default_factory=dict)
    successor: str | None = None


@dataclass(frozen=True)
class GameSummary:
    id: str
    players: str
    updated: float


class Backend(Protocol):
    """What ``GameStore`` needs of a database. ``name`` is how messages call it (never with a password);
    ``errors`` are the exceptions that mean it cannot be used; the two advices end those messages."""

    name: str
    errors: tuple[type[Exception], ...]
    open_advice: str
    save_advice: str

    def open(self) -> None:
        """Connect, and create the table if it is not there."""

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of one query."""

    def transaction(self) -> AbstractContextManager[Run]:
        """Statements run in it are saved together, or none if the block raises."""


def database_path() -> str:
    """Where games live (a file or a ``postgresql://`` URL): ``CRIBCAM_DB``, then the ``cribcam_db`` secret,
    then ``cribcam.sqlite``."""
    path = os.environ.get("CRIBCAM_DB")
    if path:
        return path
    try:
        import streamlit as st

        secret = st.secrets.get("cribcam_db")
    except Exception:  # no secrets file is the usual case; any problem reading it means "not set"
        secret = None
    return str(secret) if secret else DEFAULT_PATH


def redacted(location: str) -> str:
    """The location as messages may show it: a URL's password replaced by ``***``.

    >>> redacted("postgresql://cribcam:s3cret@db.club/games?sslmode=require&password=x")
    'postgresql://cribcam:***@db.club/games?sslmode=require&password=***'
    """
    location = re.sub(r"^([^/]*//[^/@:]*):[^/@]*@", r"\1:***@", location)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", location)


def new_id() -> str:
    """A short id that is easy to read aloud and to type into another phone: 8 digits and letters a-f."""
    return secrets.token_hex(ID_CHARS // 2)


def parse_id(text: object) -> str:
    """A game id as typed or linked, in its stored form; ``ValueError`` (one sentence) if it is not one.

    >>> parse_id(" 3FA2C91E ")
    '3fa2c91e'
    """
    game_id = text.strip().lower() if isinstance(text, str) and len(text) <= 4 * ID_CHARS else ""
    if not ID_SHAPE.fullmatch(game_id):
        raise ValueError(
            f"That is not a game id: a game id is {ID_CHARS} digits and letters a to f, like 3fa2c91e; "
            "check the link or start a new game."
        )
    return game_id


class GameStore:
    """Open (and create) the games database at ``path`` (a SQLite file or a ``postgresql://`` URL); raises
    ``StoreError`` when it cannot. Cheap to make per request: PostgreSQL connections come from one pool per
    process."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = str(database_path() if path is None else path)
        self._db = _backend(self.path)
        try:
            self._db.open()
        except self._db.errors as error:
            raise StoreError(
                f"The games database {self._db.name} cannot be opened ({_said(error)}); {self._db.open_advice}"
            ) from None

    # -- the interface ---------------------------------------------------------------------------

    def create(self, game: Game, settings: dict | None = None) -> str:
        """Save a new game at version 1; returns its id."""
        game_id = new_id()
        with self._writing() as run:
            _insert(run, game_id, game, settings or {})
        return game_id

    def load(self, game_id: str) -> StoredGame | None:
        """The game with this id (any case), or ``None`` if there is none; ``StoreError`` if its record is
        damaged, ``ValueError`` if ``game_id`` is not an id."""
        game_id = parse_id(game_id)
        rows = self._read(f"SELECT {COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _restore(rows[0]) if rows else None

    def save(self, stored: StoredGame) -> None:
        """Write the game back over ``stored.version``; ``StaleGame`` when another phone saved it first."""
        with self._writing() as run:
            swapped = _swap(run, stored, stored.version)
        if not swapped:
            raise StaleGame(self.load(stored.id))
        stored.version += 1

    def update(self, game_id: str, seen: int, change: Callable[[StoredGame], T]) -> tuple[StoredGame, T]:
        """Apply ``change`` to the game as it was at version ``seen`` and save it; returns the saved game and
        what ``change`` returned. ``StaleGame`` if the game is no longer at ``seen`` (nothing is applied);
        whatever ``change`` raises (a rule's ``ValueError``) leaves the game as it was."""
        stored = self._at(game_id, seen)
        result = change(stored)
        self.save(stored)
        return stored, result

    def start_next(self, game_id: str, seen: int) -> str:
        """Start the game after this finished one (the loser deals, same settings, the sitting's results so
        far under ``SITTING``) and link it as its successor; returns the new id. ``StaleGame`` if the game
        changed since ``seen``: when another phone started the next game first, ``StaleGame.current.successor``
        names it."""
        stored = self._at(game_id, seen)
        following = stored.game.next_game()
        successor = new_id()
        stored.successor = successor
        finished = [] if stored.game.result is None else [stored.game.result.to_dict()]
        settings = {**stored.settings, SITTING: [*stored.settings.get(SITTING, []), *finished]}
        try:
            with self._writing() as run:
                _insert(run, successor, following, settings)
                if not _swap(run, stored, seen):
                    raise _Lost
        except _Lost:
            raise StaleGame(self.load(game_id)) from None
        return successor

    def recent(self, limit: int = 8) -> list[GameSummary]:
        """The games saved most recently, newest first."""
        rows = self._read("SELECT id, players, updated FROM games ORDER BY updated DESC LIMIT ?", (limit,))
        return [GameSummary(*row) for row in rows]

    # -- helpers ---------------------------------------------------------------------------------

    def _read(self, sql: str, params: tuple) -> list[tuple]:
        try:
            return self._db.read(sql, params)
        except self._db.errors as error:
            raise StoreError(
                f"The games database {self._db.name} cannot be read ({_said(error)}); try again."
            ) from None

    @contextmanager
    def _writing(self) -> Iterator[Run]:
        """One transaction: everything in it is saved, or nothing if anything in it raises."""
        try:
            with self._db.transaction() as run:
                yield run
        except self._db.errors as error:
            raise StoreError(
                f"The game could not be saved to {self._db.name} ({_said(error)}); {self._db.save_advice}"
            ) from None

    def _at(self, game_id: str, seen: int) -> StoredGame:
        """The game, checked to be still at version ``seen`` and open for entries."""
        stored = self.load(game_id)
        if stored is None:
            raise StoreError(f"Game {parse_id(game_id)} is not in the database any more; start a new game.")
        if stored.version != seen:
            raise StaleGame(stored)
        if stored.successor is not None:
            raise StoreError(
                f"Game {stored.id} is over and the next game, {stored.successor}, has started; make entries there."
            )
        return stored


class _Lost(Exception):
    """Inside ``GameStore``: the compare-and-swap found another version, so the transaction is rolled back."""


def _insert(run: Run, game_id: str, game: Game, settings: dict) -> None:
    now = time.time()
    run(
        "INSERT INTO games (id, created, updated, version, players, game, settings, successor) "
        "VALUES (?, ?, ?, 1, ?, ?, ?, NULL)",
        (game_id, now, now, " · ".join(game.sides), game.to_json(), json.dumps(settings)),
    )


def _swap(run: Run, stored: StoredGame, seen: int) -> bool:
    """The compare-and-swap: write ``stored`` as version ``seen + 1`` if the row is still at ``seen``."""
    changed = run(
        "UPDATE games SET game = ?, settings = ?, successor = ?, updated = ?, version = ? WHERE id = ? AND version = ?",
        (
            stored.game.to_json(),
            json.dumps(stored.settings),
            stored.successor,
            time.time(),
            seen + 1,
            stored.id,
            seen,
        ),
    )
    return changed == 1


def _restore(row: tuple) -> StoredGame:
    """A row as a ``StoredGame``; ``StoreError`` (one sentence) when any part of it is damaged."""
    game_id, version, text, settings_text, successor = row
    try:
        game = Game.from_json(text)
    except ValueError as error:
        raise StoreError(f"Game {game_id} cannot be restored: {error} Start a new game.") from None
    try:
        settings = json.loads(settings_text or "{}")
    except (json.JSONDecodeError, TypeError):
        settings = None
    if not isinstance(settings, dict) or not isinstance(version, int) or version < 1:
        raise StoreError(f"Game {game_id} cannot be restored: its settings or version are damaged. Start a new game.")
    if successor is not None and not (isinstance(successor, str) and ID_SHAPE.fullmatch(successor)):
        raise StoreError(f"Game {game_id} cannot be restored: its link to the next game is damaged. Start a new game.")
    return StoredGame(game_id, game, version, settings, successor)


def _said(error: Exception) -> str:
    """A driver's error as a clause: its first line, without the full stop."""
    lines = str(error).strip().splitlines() or [type(error).__name__]
    return lines[0].rstrip(". ")


def _backend(location: str) -> Backend:
    """The backend for a file or a ``postgresql://`` URL; ``StoreError`` for any other URL."""
    scheme = URL_SHAPE.match(location)
    if scheme is None:
        return SqliteBackend(location)
    if scheme.group(1).lower() in POSTGRES_SCHEMES:
        from ui.store_postgres import PostgresBackend

        return PostgresBackend(location)
    raise StoreError(
        f"The games database {redacted(location)} is a {scheme.group(1)} URL; set CRIBCAM_DB to a SQLite file "
        "or a postgresql:// URL, or count hands without saving."
    )


class SqliteBackend:
    """A SQLite file (or ``:memory:``), one connection per store; the default, embedded backend."""

    errors = (sqlite3.Error, OSError)
    open_advice = "set CRIBCAM_DB to a file in a folder you can write to, or count hands without saving."
    save_advice = "check the disk and try the entry again."

    def __init__(self, path: str) -> None:
        self.name = path
        self._db: sqlite3.Connection

    def open(self) -> None:
        if self.name != ":memory:":
            Path(self.name).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.name, timeout=10, check_same_thread=False)
        with self._db:
            self._db.execute(SCHEMA)
            self._migrate()

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self._db.execute(sql, params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[Run]:
        with self._db:
            yield lambda sql, params: self._db.execute(sql, params).rowcount

    def _migrate(self) -> None:
        """Databases made before games were linked to the next game get the ``successor`` column."""
        try:
            self._db.execute("SELECT successor FROM games LIMIT 0")
        except sqlite3.OperationalError:
            self._db.execute("ALTER TABLE games ADD COLUMN successor TEXT")
