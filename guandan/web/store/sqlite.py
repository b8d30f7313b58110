"""The embedded game store: one SQLite file in the data folder (the default).

WAL journal with ``synchronous=FULL``: a committed change is on the disk (fsync) before the
request answers. A change takes SQLite's write lock for its transaction (``BEGIN IMMEDIATE``),
so two server processes on one data folder cannot change a game at once either.
"""

from __future__ import annotations

import contextlib
import queue
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from guandan.web.store.base import GameStore, Limits, Tx

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    client TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS games_client ON games (client);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

FILE_NAME = "games.sqlite3"


class SqliteStore(GameStore):
    """Games in ``<data_dir>/games.sqlite3`` (or the file ``path``)."""

    inline_reads = True

    def __init__(self, data_dir: Path, ai: str | None = None, limits: Limits | None = None,
                 keep: int = 1000, path: Path | None = None) -> None:
        super().__init__(ai=ai, limits=limits, keep=keep)
        data_dir = Path(data_dir).expanduser()
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = path or data_dir / FILE_NAME
        self._pool: queue.LifoQueue[sqlite3.Connection] = queue.LifoQueue()
        self._all: list[sqlite3.Connection] = []
        with self._connection() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)
        self.import_files(data_dir)

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error, OSError)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA synchronous=FULL")  # durable commits: fsync before answering
        conn.execute("PRAGMA busy_timeout=30000")
        self._all.append(conn)
        return conn

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            conn = self._connect()
        try:
            yield conn
        finally:
            self._pool.put(conn)

    @contextlib.contextmanager
    def transaction(self, write: bool) -> Iterator[Tx]:
        with self._connection() as conn:
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield Tx(cur)
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.rollback()
                raise
            try:
                cur.execute("COMMIT")
            except BaseException:  # a failed commit (a full disk): nothing of it stays
                with contextlib.suppress(sqlite3.Error):
                    conn.rollback()
                raise

    def lock_for_create(self, tx: Tx) -> None:
        pass  # BEGIN IMMEDIATE already holds SQLite's one write lock

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait()
            except queue.Empty:
                break
        for conn in self._all:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._all.clear()
