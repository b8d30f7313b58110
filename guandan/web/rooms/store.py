"""The rooms in the game store's database: one row ``rooms(code, version, client, created,
updated, closed, owner, lease, data)`` per room, beside the games.

Every change of a room writes over the version it read (compare-and-set), as a game's does: two
processes (or two requests) never both apply an action. ``owner`` and ``lease`` say which
server process drives the room (its AI seats, timers and grace periods) until when: a process
renews its lease while it lives, and another takes the room over once the lease has run out.
Each process keeps the rooms it served lately, decoded, as a cache checked against the row's
version.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator

from guandan.web.rooms.room import Room, decode_room
from guandan.web.store import GameStore, SaveFailed, client_key
from guandan.web.store.base import Tx
from guandan.web.store.sqlite import SqliteStore


class RoomNotFound(Exception):
    """No open room has this code."""


class TooManyRooms(Exception):
    """The client made as many rooms as it may."""


class RoomStore:
    """Rooms in ``games``' database (its transactions, its errors)."""

    def __init__(self, games: GameStore, keep: int = 2000) -> None:
        self.db = games
        self.keep = keep
        self._cache: OrderedDict[str, Room] = OrderedDict()
        self._lock = threading.Lock()

    def _remember(self, room: Room) -> None:
        with self._lock:
            self._cache[room.code] = room
            self._cache.move_to_end(room.code)
            while len(self._cache) > self.keep:
                self._cache.popitem(last=False)

    def forget(self, code: str) -> None:
        with self._lock:
            self._cache.pop(code, None)

    def create(self, room: Room, client: str, per_client: int) -> bool:
        """Insert a new room (False if its code is taken): at most ``per_client`` open rooms
        per client address."""
        who = client_key(client)
        now = time.time()
        try:
            with self.db.transaction(write=True) as tx:
                self.db.lock_for_create(tx)
                n = int(tx.execute("SELECT COUNT(*) FROM rooms WHERE client = ? AND closed = 0",
                             (who,)).fetchone()[0])
                if n >= per_client:
                    raise TooManyRooms(f"at most {per_client} open rooms per client")
                if tx.execute("SELECT 1 FROM rooms WHERE code = ?", (room.code,)).fetchone():
                    return False
                tx.execute("INSERT INTO rooms (code, version, client, created, updated, closed, "
                     "owner, lease, data) VALUES (?, ?, ?, ?, ?, 0, '', 0, ?)",
                     (room.code, room.version, who, now, now, room.encode()))
        except self.db.errors as e:
            raise SaveFailed(f"the room could not be saved ({type(e).__name__})") from None
        self._remember(room)
        return True

    def load(self, code: str) -> Room:
        """The room as committed (a cached copy if it is the current version)."""
        try:
            with self.db.transaction(write=False) as tx:
                row = tx.execute("SELECT version, closed FROM rooms WHERE code = ?",
                           (code,)).fetchone()
                if row is None or int(row[1]):
                    self.forget(code)
                    raise RoomNotFound(code)
                version = int(row[0])
                with self._lock:
                    room = self._cache.get(code)
                if room is not None and room.version == version:
                    return room
                data = tx.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
        except self.db.errors as e:
            raise SaveFailed(f"the room cannot be read ({type(e).__name__})") from None
        if data is None:
            raise RoomNotFound(code)
        room = decode_room(bytes(data[0]), version)
        self._remember(room)
        return room

    @staticmethod
    def _update(room: Room, old: int) -> Callable[[Tx], bool]:
        args = (room.version, time.time(), int(room.closed), room.encode(), room.code, old)

        def write(tx: Tx) -> bool:
            cur = tx.execute("UPDATE rooms SET version = ?, updated = ?, closed = ?, data = ? "
                       "WHERE code = ? AND version = ?", args)
            return bool(cur.rowcount == 1)
        return write

    @property
    def group_commit(self) -> bool:
        """Whether the database commits writes in groups (SQLite's writer thread): a save is
        then awaited on the event loop, no thread taken."""
        return isinstance(self.db, SqliteStore)

    async def save_async(self, room: Room, old: int) -> bool:
        """``save`` through SQLite's group commit, awaited."""
        assert isinstance(self.db, SqliteStore)
        with self._saving(room):
            ok = await asyncio.wrap_future(self.db.queue(self._update(room, old)))
        return self._saved(room, ok)

    def save(self, room: Room, old: int) -> bool:
        """Write ``room`` over version ``old`` (its ``version`` is ``old + 1``); False if the
        room moved on meanwhile (the cached copy is dropped then)."""
        with self._saving(room), self.db.transaction(write=True) as tx:
            ok = self._update(room, old)(tx)
        return self._saved(room, ok)

    @contextlib.contextmanager
    def _saving(self, room: Room) -> Iterator[None]:
        """A database's failure to save: the cached copy dropped, ``SaveFailed`` raised."""
        try:
            yield
        except self.db.errors as e:
            self.forget(room.code)
            raise SaveFailed(f"the room could not be saved ({type(e).__name__}): "
                             "nothing was changed") from None

    def _saved(self, room: Room, ok: bool) -> bool:
        """Keep the saved room as this process's copy, or drop a copy that lost the race."""
        if ok:
            self._remember(room)
        else:
            self.forget(room.code)
        return ok

    def claim(self, code: str, owner: str, lease: float) -> bool:
        """Drive the room for ``lease`` seconds more: True if this process owns it now (it
        did, or the last owner's lease ran out)."""
        now = time.time()
        try:
            with self.db.transaction(write=True) as tx:
                cur = tx.execute("UPDATE rooms SET owner = ?, lease = ? "
                                 "WHERE code = ? AND closed = 0 AND (owner = ? OR lease < ?)",
                                 (owner, now + lease, code, owner, now))
                return bool(cur.rowcount == 1)
        except self.db.errors:
            return False

    def release(self, code: str, owner: str) -> None:
        try:
            with self.db.transaction(write=True) as tx:
                tx.execute("UPDATE rooms SET lease = 0 WHERE code = ? AND owner = ?", (code, owner))
        except self.db.errors:
            pass

    def held_by(self, processes: Iterable[str]) -> list[str]:
        """The open rooms whose save names any of ``processes`` (ids: a seat's ``via``): a
        scan, made only when a process dies."""
        find = "instr(data, ?) > 0" if isinstance(self.db, SqliteStore) \
            else "position(? in data) > 0"
        codes: set[str] = set()
        try:
            with self.db.transaction(write=False) as tx:
                for p in processes:
                    rows = tx.execute(f"SELECT code FROM rooms WHERE closed = 0 AND {find}",
                                      (f'"{p}"'.encode(),)).fetchall()
                    codes.update(str(r[0]) for r in rows)
        except self.db.errors as e:
            raise SaveFailed(f"the rooms cannot be read ({type(e).__name__})") from None
        return sorted(codes)

    def versions(self, codes: Iterable[str]) -> dict[str, int]:
        """The committed version of each open room among ``codes``."""
        codes = list(codes)
        if not codes:
            return {}
        try:
            with self.db.transaction(write=False) as tx:
                marks = ", ".join("?" for _ in codes)
                rows = tx.execute(f"SELECT code, version FROM rooms WHERE closed = 0 AND code IN "
                            f"({marks})", codes).fetchall()
        except self.db.errors:
            return {}
        return {str(c): int(v) for c, v in rows}
