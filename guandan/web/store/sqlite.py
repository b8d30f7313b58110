"""The embedded game store: one SQLite file in the data folder (the default).

WAL journal with ``synchronous=FULL``: a committed change is on the disk (fsync) before the
request answers. SQLite has one writer at a time and a commit costs an fsync (milliseconds), so
the changes of many games are committed together (group commit): a change reads its game,
then hands its compare-and-set ``UPDATE … WHERE version = <read>`` to this process's writer
thread, which commits every change waiting in one transaction and one fsync, and tells each
request whether its write held. Several server processes on one data folder are ordered by
SQLite's write lock (``BEGIN IMMEDIATE``) and the version check.

A request reads its game on the server's event loop (a WAL read never waits for a writer) and
awaits its commit there (``changing_async``): no thread is taken for either, which at a few
hundred changes a second is most of what a change would otherwise cost.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
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
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    version BIGINT NOT NULL,
    client TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    closed INTEGER NOT NULL,
    owner TEXT NOT NULL,
    lease REAL NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_client ON rooms (client);
CREATE TABLE IF NOT EXISTS processes (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid BIGINT NOT NULL,
    started REAL NOT NULL,
    beat REAL NOT NULL,
    ended REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

FILE_NAME = "games.sqlite3"
#: The most changes one group commit takes.
BATCH = 256

#: One write of a group commit: what it does in the round's transaction (True if it held),
#: and the future that says so once committed.
_Write = tuple[Callable[[Tx], bool], "Future[bool]"]


class SqliteStore(GameStore):
    """Games in ``<data_dir>/games.sqlite3`` (or the file ``path``)."""

    inline_reads = True
    inline_changes = True

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
        self._writes: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
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

    def _change_transaction(self) -> contextlib.AbstractContextManager[Tx]:
        return self.transaction(write=False)  # a read: the write is the version's check

    def _write(self, tx: Tx, key: str, old: int, finished: bool, data: bytes) -> bool:
        return self._queue_write(key, old, finished, data).result()  # once committed

    async def _write_async(self, key: str, old: int, finished: bool, data: bytes) -> bool:
        return await asyncio.wrap_future(self._queue_write(key, old, finished, data))

    def _queue_write(self, key: str, old: int, finished: bool, data: bytes) -> Future[bool]:
        """Hand a game's write to the writer thread: the future says, once it is committed
        (fsync included), whether it held, or the error that kept it from the disk."""
        return self.queue(lambda tx: tx.update(key, old, old + 1, finished, data))

    def queue(self, write: Callable[[Tx], bool]) -> Future[bool]:
        """Hand any compare-and-set write (a game's, a room's) to the writer thread, to be
        committed with the others waiting (group commit)."""
        done: Future[bool] = Future()
        with self._writer_lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(target=self._write_loop, daemon=True,
                                                name="guandan-sqlite-writer")
                self._writer.start()
            self._writes.put((write, done))
        return done

    def _write_loop(self) -> None:
        """The writer thread: each round, every change waiting, in one transaction."""
        while True:
            first = self._writes.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    item = self._writes.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._writes.put(None)  # stop after this round
                    break
                batch.append(item)
            # A write whose caller has gone (its awaiting task cancelled: a closed socket, a
            # request given up) is dropped, not committed: that caller forgets its copy of the
            # game or room. Once running, a future can no longer be cancelled, so each result
            # below is set exactly once and the writer thread never dies on a cancelled one.
            batch = [(write, done) for write, done in batch
                     if done.set_running_or_notify_cancel()]
            if not batch:
                continue
            try:
                results = []
                with self.transaction(write=True) as tx:
                    for write, _ in batch:
                        results.append(write(tx))
            except BaseException as e:  # nothing of the round was committed
                for _, done in batch:
                    done.set_exception(e)
            else:
                for (_, done), ok in zip(batch, results, strict=True):
                    done.set_result(ok)

    def lock_for_create(self, tx: Tx) -> None:
        pass  # BEGIN IMMEDIATE already holds SQLite's one write lock

    def close(self) -> None:
        with self._writer_lock:
            if self._writer is not None and self._writer.is_alive():
                self._writes.put(None)
                self._writer.join(10)
            self._writer = None
        while True:
            try:
                self._pool.get_nowait()
            except queue.Empty:
                break
        for conn in self._all:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._all.clear()
