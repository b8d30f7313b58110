"""Which server processes live: each one's mark of life in the shared database, and what it
knows of the others'.

A server process (one ``RoomHub``, named by its ``owner`` id: new at every start, never
reused) has a row ``processes(id, host, pid, started, beat, ended)``, written before it serves
anything and beaten every ``beat`` seconds by a thread of its own (a busy event loop does not
stop it). Another process counts it dead, from the time shown, once

- it ended cleanly (``ended``: the time it stopped), or
- its beat is older than ``stale`` seconds (SQLite; and PostgreSQL when its machine or network
  is gone: a process that is merely slow beats from its own thread, so it does not flap), or
- on PostgreSQL, the session advisory lock it holds on its beating connection is free:
  PostgreSQL releases it as soon as that session ends (``kill -9``: at once); dead from its
  last beat.

Each process reads every row (and, on PostgreSQL, the advisory locks held) once a beat: ``gone``
answers from that reading; a death seen for the first time calls ``on_death``. An id with no
row (rows are pruned a day after their process's end) is dead once a reading newer than the
question lacks it. Clocks are assumed in step across machines (NTP), as the rooms' leases
already assume.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import Any

log = logging.getLogger("guandan.web")

#: The advisory locks' first key (``pg_advisory_lock(LOCK_CLASS, key)``): "gupr".
LOCK_CLASS = 0x67757072
#: Rows of processes ended (or silent) this long ago are deleted.
PRUNE_AFTER = 86400.0


def lock_key(process: str) -> int:
    """The advisory lock's second key of a process id (hex): 31 bits of it, never negative
    (``pg_locks.objid`` shows it as it is)."""
    return int(process[:8], 16) & 0x7FFFFFFF


class Processes:
    """This process's row, beaten by a thread, and the others' as last read (see the module
    docstring). ``sqlite`` names the SQLite file, or ``postgres`` the database's URL."""

    def __init__(self, me: str, beat: float, stale: float, sqlite: str | None = None,
                 postgres: str | None = None,
                 on_death: Callable[[set[str]], None] | None = None) -> None:
        if (sqlite is None) == (postgres is None):
            raise ValueError("one database: sqlite or postgres")
        self.me = me
        self.beat = beat
        self.stale = stale
        self.sqlite = sqlite
        self.postgres = postgres
        self.on_death = on_death
        #: Resolved once this process's row is written (before it marks any seat as its own).
        self.registered: Future[None] = Future()
        self._dead: dict[str, float] = {}  # id -> since when
        self._alive: set[str] = {me}
        self._read_at = 0.0  # when the last reading began
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- what others ask ---------------------------------------------------------------------

    def gone(self, ids: Iterable[str], asked: float) -> dict[str, float]:
        """Of ``ids``, those dead, with the time from which they count as gone. ``asked``:
        when the caller read where it found them (an id without a row counts as dead only in
        a reading begun after that)."""
        out: dict[str, float] = {}
        with self._lock:
            for p in ids:
                if p in self._dead:
                    out[p] = self._dead[p]
                elif p not in self._alive and self._read_at > asked:
                    out[p] = self._read_at
        return out

    def alive(self, process: str) -> bool | None:
        """Whether ``process`` lived at the last reading (None: not known yet)."""
        with self._lock:
            if process in self._alive:
                return True
            return False if process in self._dead else None

    # -- the thread ------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True,
                                            name="guandan-processes")
            self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """The row marked ended (others count this process gone from now), the lock freed."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _connect(self) -> tuple[Any, str]:
        """A connection of its own (the lock is its session's) and the parameters' mark."""
        if self.postgres is not None:
            import psycopg

            pg: Any = psycopg.connect(self.postgres, autocommit=True, connect_timeout=10)
            # Not waited for: another id with the same 31 bits (a chance in 2**31) would hold
            # it; the beat still tells.
            pg.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, lock_key(self.me)))
            return pg, "%s"
        import sqlite3

        conn = sqlite3.connect(self.sqlite or "", timeout=30, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("PRAGMA synchronous=NORMAL")  # a beat need not survive a power cut
        return conn, "?"

    def _run(self) -> None:
        started = time.time()
        failing = False  # told once per run of failures, not at every beat
        while not self._stop.is_set():
            conn = None
            try:
                conn, p = self._connect()
                self._write(conn, p, started, ended=0.0)
                if failing:
                    log.warning("processes: beating again")
                    failing = False
                if not self.registered.done():
                    conn.execute(f"DELETE FROM processes WHERE beat < {p} AND id <> {p}",
                                 (time.time() - PRUNE_AFTER, self.me))
                    self.registered.set_result(None)
                while not self._stop.is_set():
                    self._read(conn)
                    if self._stop.wait(self.beat):
                        break
                    self._write(conn, p, started, ended=0.0)
                self._write(conn, p, started, ended=time.time())
            except Exception as e:  # the database went away: again shortly
                if not self._stop.is_set():
                    if not failing:
                        log.warning("processes: beat failed (%s): trying again every %g s",
                                    type(e).__name__, self.beat)
                    failing = True
                    self._stop.wait(self.beat)
            finally:
                if conn is not None:
                    with contextlib.suppress(Exception):  # a broken connection's close
                        conn.close()

    def _write(self, conn: Any, p: str, started: float, ended: float) -> None:
        conn.execute(
            "INSERT INTO processes (id, host, pid, started, beat, ended) "
            f"VALUES ({p}, {p}, {p}, {p}, {p}, {p}) ON CONFLICT (id) DO UPDATE SET "
            "beat = excluded.beat, ended = excluded.ended",
            (self.me, socket.gethostname()[:200], os.getpid(), started, time.time(), ended))

    def _read(self, conn: Any) -> None:
        at = time.time()
        rows = conn.execute("SELECT id, beat, ended FROM processes").fetchall()
        held: set[int] | None = None
        if self.postgres is not None:
            held = {int(r[0]) for r in conn.execute(
                "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
                "AND objsubid = 2 AND granted", (LOCK_CLASS,)).fetchall()}
        dead: dict[str, float] = {}
        alive: set[str] = {self.me}
        for pid, beat, ended in rows:
            pid, beat, ended = str(pid), float(beat), float(ended)
            if pid == self.me:
                continue
            if ended > 0:
                dead[pid] = ended
            elif beat < at - self.stale or (held is not None and lock_key(pid) not in held):
                dead[pid] = beat
            else:
                alive.add(pid)
        with self._lock:
            new = set(dead) - set(self._dead)
            self._dead, self._alive, self._read_at = dead, alive, at
        if new and self.on_death is not None:
            self.on_death(new)
