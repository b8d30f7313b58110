"""The shared game store: PostgreSQL (``guandan serve --database postgresql://…``).

Several server processes, on one machine or many, behind a load balancer, serve the same
games: a change locks its game's row (``SELECT … FOR UPDATE``) for its transaction and writes
over the version it read (compare-and-set), so no action is applied twice or lost; new games
are counted under a transaction-level advisory lock, so the limits hold across processes.
Needs ``psycopg`` (``pip install 'guandan[postgres]'``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from guandan.web.store.base import GameStore, Limits, Tx

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    version BIGINT NOT NULL,
    client TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    finished INTEGER NOT NULL,
    data BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS games_client ON games (client);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    version BIGINT NOT NULL,
    client TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    closed INTEGER NOT NULL,
    owner TEXT NOT NULL,
    lease DOUBLE PRECISION NOT NULL,
    data BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_client ON rooms (client);
CREATE TABLE IF NOT EXISTS processes (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid BIGINT NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    beat DOUBLE PRECISION NOT NULL,
    ended DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)
"""

#: The advisory lock that orders new games (and the schema's creation) across processes.
CREATE_LOCK = 0x6775616E  # "guan"


class PostgresStore(GameStore):
    """Games in the PostgreSQL database at ``url`` (a pool of up to ``connections``)."""

    def __init__(self, url: str, data_dir: Path | None = None, ai: str | None = None,
                 limits: Limits | None = None, keep: int = 1000, connections: int = 10) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError:  # pragma: no cover - the extra is installed with the tests
            raise SystemExit("--database postgresql://… needs psycopg: "
                             "pip install 'guandan[postgres]'") from None
        super().__init__(ai=ai, limits=limits, keep=keep)
        self._errors: tuple[type[BaseException], ...] = (psycopg.Error, OSError)
        self.pool: Any = ConnectionPool(url, min_size=1, max_size=connections, open=True,
                                        kwargs={"autocommit": True}, timeout=30)
        with self.transaction(write=True) as tx:
            self.lock_for_create(tx)
            for statement in SCHEMA.split(";"):
                tx.execute(statement)
        self.import_files(data_dir)

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        return self._errors

    @contextlib.contextmanager
    def transaction(self, write: bool) -> Iterator[Tx]:
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield Tx(cur, param="%s", lock=" FOR UPDATE", data="data")  # BYTEA: bytes

    def lock_for_create(self, tx: Tx) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(?)", (CREATE_LOCK,))

    def close(self) -> None:
        self.pool.close()
