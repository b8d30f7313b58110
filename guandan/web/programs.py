"""Which server process holds each outside program, in the database the processes share.

With several server processes (``guandan serve --processes N`` on one SQLite file, several
``guandan serve`` on one PostgreSQL), an outside program's socket (``/game/<token>``) lands
on any of them, while the people's requests and the room's driver land on others. The process
that holds the program's socket is the one that asks it (``outside.Outside``'s follower); the
others must know that a program holds the seat, so that they wait for its action instead of
playing the seat with our AI. That is this table:

    outside_programs(key, data, owner, lease, updated)

one row per outside seat's address: ``key`` a hash of the address's token, ``data`` the game
(and room) the address is of, sealed with a key derived from the token (a copy of the
database reveals no game id, as the games' table does not), ``owner`` the process that holds
the seat's program until ``lease`` (renewed while the program is connected, cleared when it
leaves; when the process dies, the lease runs out and the others play the seat again).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

from guandan.web.store import GameStore

SCHEMA = ("CREATE TABLE IF NOT EXISTS outside_programs (key TEXT PRIMARY KEY, "
          "data TEXT NOT NULL, owner TEXT NOT NULL, lease DOUBLE PRECISION NOT NULL, "
          "updated DOUBLE PRECISION NOT NULL)")
#: Rows of addresses nobody registered again for this long are deleted (games live less).
FORGET_AFTER = 90 * 86400.0


def _key(token: str) -> str:
    return hashlib.sha256(f"guandan outside program {token}".encode()).hexdigest()[:40]


def _stream(token: str, n: int) -> bytes:
    return hashlib.shake_256(f"guandan outside seal {token}".encode()).digest(n)


def seal(token: str, text: str) -> str:
    """``text`` readable only with ``token`` (one key stream per token, one text per token)."""
    raw = text.encode()
    return bytes(a ^ b for a, b in zip(raw, _stream(token, len(raw)), strict=True)).hex()


def unseal(token: str, sealed: str) -> str:
    raw = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(raw, _stream(token, len(raw)), strict=True)).decode()


@dataclass(frozen=True)
class Address:
    """What an outside seat's address is of: a game (a friends' room's match: ``room``)."""

    game_id: str
    seat: int
    room: str = ""


class ProgramSeats:
    """The ``outside_programs`` table in the games' database; ``owner`` names this process."""

    def __init__(self, db: GameStore, owner: str, lease: float) -> None:
        self.db = db
        self.owner = owner
        self.lease = lease
        with db.transaction(write=True) as tx:
            tx.execute(SCHEMA)
            tx.execute("DELETE FROM outside_programs WHERE updated < ? AND lease < ?",
                       (time.time() - FORGET_AFTER, time.time()))

    def register(self, token: str, address: Address) -> None:
        """The address answers in every process from now on."""
        data = seal(token, json.dumps([address.game_id, address.seat, address.room]))
        with self.db.transaction(write=True) as tx:
            tx.execute("INSERT INTO outside_programs (key, data, owner, lease, updated) "
                       "VALUES (?, ?, '', 0, ?) ON CONFLICT (key) DO UPDATE SET "
                       "updated = excluded.updated", (_key(token), data, time.time()))

    def find(self, token: str) -> Address | None:
        with self.db.transaction(write=False) as tx:
            row = tx.execute("SELECT data FROM outside_programs WHERE key = ?",
                             (_key(token),)).fetchone()
        if row is None:
            return None
        game_id, seat, room = json.loads(unseal(token, str(row[0])))
        return Address(str(game_id), int(seat), str(room))

    def hold(self, token: str) -> bool:
        """This process holds the address's program now (True), unless another one does."""
        now = time.time()
        with self.db.transaction(write=True) as tx:
            cur = tx.execute("UPDATE outside_programs SET owner = ?, lease = ? WHERE key = ? "
                             "AND (owner = ? OR owner = '' OR lease < ?)",
                             (self.owner, now + self.lease, _key(token), self.owner, now))
            return bool(cur.rowcount == 1)

    def renew(self, tokens: list[str]) -> set[str]:
        """Renew this process's holds of ``tokens``: those still held (a hold that ran out
        and was taken by another process is lost)."""
        kept = set()
        now = time.time()
        with self.db.transaction(write=True) as tx:
            for token in tokens:
                cur = tx.execute("UPDATE outside_programs SET lease = ? WHERE key = ? AND "
                                 "owner = ?", (now + self.lease, _key(token), self.owner))
                if cur.rowcount == 1:
                    kept.add(token)
        return kept

    def drop(self, token: str) -> None:
        """The program left: nobody holds the seat."""
        with self.db.transaction(write=True) as tx:
            tx.execute("UPDATE outside_programs SET owner = '', lease = 0 WHERE key = ? AND "
                       "owner = ?", (_key(token), self.owner))

    def holders(self, tokens: dict[int, str]) -> dict[int, str]:
        """The seats among ``tokens`` (seat: its address's token) whose program is held by a
        live process now: seat -> that process."""
        keys = {_key(t): s for s, t in tokens.items()}
        if not keys:
            return {}
        marks = ", ".join("?" for _ in keys)
        with self.db.transaction(write=False) as tx:
            rows = tx.execute(f"SELECT key, owner FROM outside_programs WHERE key IN ({marks}) "
                              f"AND owner <> '' AND lease >= ?",
                              (*keys, time.time())).fetchall()
        return {keys[str(k)]: str(o) for k, o in rows}


__all__ = ["Address", "ProgramSeats", "seal", "unseal"]
