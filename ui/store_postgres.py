"""Games in PostgreSQL: the backend ``ui.store.GameStore`` uses for a ``postgresql://`` (or ``postgres://``) URL.

The app makes a ``GameStore`` per page run and per entry, so the connections are not the store's: one pool per
URL per process (``pool``) is made on first use and shared by every store after it. That first use also creates
the table, under an advisory lock, so app processes starting together do not race to create it. The SQL is
``ui.store``'s, with its ``?`` parameters written ``%s``; the compare-and-swap is the same ``UPDATE ... WHERE
version = ?``, which PostgreSQL re-checks on the row a concurrent writer left.

>>> PostgresBackend("postgres://cribcam:s3cret@db.club/games").name
'postgres://cribcam:***@db.club/games'
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg_pool import ConnectionPool

from ui.store import SCHEMA, Run, redacted

CONNECT_TIMEOUT = 3  # seconds; an unreachable server is said in one sentence, not after minutes
WAIT = 10  # seconds an entry waits for a free connection before it is refused
POOL_SIZE = 10  # connections per app process at most
SCHEMA_LOCK = 0x63726962  # the advisory lock held while the table is created ("crib")
SETTINGS = {"autocommit": True, "connect_timeout": CONNECT_TIMEOUT, "application_name": "cribcam"}

_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()


class PostgresBackend:
    """A PostgreSQL database named by a URL, through this process's pool for it."""

    errors = (psycopg.Error,)
    open_advice = "check that the server is running and that CRIBCAM_DB is its URL, or count hands without saving."
    save_advice = "check the PostgreSQL server and try the entry again."

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = redacted(url)
        self._pool: ConnectionPool

    def open(self) -> None:
        self._pool = pool(self.url)

    def read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._pool.connection() as connection:
            return connection.execute(_placeholders(sql), params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[Run]:
        with self._pool.connection() as connection, connection.transaction():
            yield lambda sql, params: connection.execute(_placeholders(sql), params).rowcount


def pool(url: str) -> ConnectionPool:
    """This process's pool for ``url``, made on first use after creating the table; ``psycopg.Error`` (within
    about ``CONNECT_TIMEOUT`` seconds) when the URL is bad or the server cannot be reached."""
    with _pools_lock:
        if url not in _pools:
            with psycopg.connect(url, **SETTINGS) as connection:
                create_schema(connection)
            made = ConnectionPool(
                url,
                kwargs=SETTINGS,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=WAIT,
                check=ConnectionPool.check_connection,
                name="cribcam",
                open=False,
            )
            try:
                made.open(wait=True, timeout=WAIT)
            except psycopg.Error:
                made.close()
                raise
            _pools[url] = made
        return _pools[url]


def create_schema(connection: psycopg.Connection) -> None:
    """Create the games table if it is not there; one process at a time (an advisory lock), so two starting at
    once do not both try."""
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        connection.execute(SCHEMA)


def close_pool(url: str) -> None:
    """Close this process's pool for ``url``, if it has one; the next store for it makes a new one."""
    with _pools_lock:
        made = _pools.pop(url, None)
    if made is not None:
        made.close()


def _placeholders(sql: str) -> str:
    """``ui.store``'s SQL (``?`` parameters, no ``?`` or ``%`` otherwise) in psycopg's parameter style."""
    return sql.replace("?", "%s")
