"""The game store's one interface, over a SQL database (SQLite or PostgreSQL).

The database holds the one copy of every game: a row ``games(key, version, client, created,
updated, finished, data)`` per game, ``key`` the hash of its id, ``data`` its save. A request
that changes a game does it in one transaction: it locks the row, reads it, applies the action,
writes the new save with ``version + 1`` and commits, and only then answers. Should the commit
fail (a full disk, a lost connection), the request answers ``SaveFailed`` and the game is as it
was, in the database and in this process. Every server process sharing the database sees each
commit: the rows' ``version`` says when a copy in memory is out of date.

Each process keeps the games it served lately in memory (rebuilding a match replays its
actions), but only as a cache keyed by version: every request reads the row's version first and
uses the copy only if it is the current one.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guandan.players import STRONGEST
from guandan.web.store.files import read_file_saves
from guandan.web.store.game import (
    ID_PATTERN,
    CorruptSave,
    Game,
    GameNotFound,
    decode,
    difficulty_player,
    id_hash,
    usable,
)

log = logging.getLogger("guandan.web")


class SaveFailed(Exception):
    """The change could not be committed: nothing was changed."""


class Changed(Exception):
    """The game changed since the version the request was based on."""


class TooManyGames(Exception):
    """A limit on games is reached: ``per_client`` says which one."""

    def __init__(self, message: str, per_client: bool) -> None:
        super().__init__(message)
        self.per_client = per_client


@dataclass(frozen=True)
class Limits:
    """Limits on the games a store keeps (``guandan serve --max-games …``)."""

    max_games: int = 100_000  # in all
    max_games_per_client: int = 20  # per client address (the page deletes the game it leaves)
    finished_ttl: float = 24 * 3600.0  # a finished match is deleted this long after its end
    idle_ttl: float = 30 * 24 * 3600.0  # any game untouched this long is deleted
    cleanup_every: float = 60.0  # seconds between two cleanups on new games


def client_key(address: str) -> str:
    """The client's address as the store keeps it (hashed: the store holds no addresses)."""
    return hashlib.sha256(("client:" + address).encode()).hexdigest()[:24]


def row_version(value: object) -> int:
    """A row's ``version`` as read: a count, or ``CorruptSave`` (SQLite keeps whatever a hand
    edit wrote in a column, text or a fraction too)."""
    if type(value) is not int or value < 0:
        raise CorruptSave(f"the game's row is damaged (version {_shown(value)} is not a count)")
    return value


def row_data(value: object) -> bytes:
    """A row's ``data`` as read (``Tx.data``: bytes, whatever a hand edit left): the save,
    for ``decode`` to check; ``CorruptSave`` if there is none."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise CorruptSave(f"the game's row is damaged (its save is {_shown(value)}, not data)")


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


class Tx:
    """One transaction on a DB-API cursor: the store's SQL, in one place for both databases
    (``?`` placeholders, rewritten for the driver)."""

    def __init__(self, cur: Any, param: str = "?", lock: str = "",
                 data: str = "CAST(data AS BLOB)") -> None:
        self.cur = cur
        self.param = param
        self.lock = lock  # " FOR UPDATE" where the database locks rows so
        # How a save is selected as bytes: SQLite returns a column as the type of its value,
        # and a hand edit (``json_set``, ``substr``) leaves text, invalid UTF-8 even.
        self.data = data

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        self.cur.execute(sql if self.param == "?" else sql.replace("?", self.param), args)
        return self.cur

    def version(self, key: str, lock: bool = False) -> int | None:
        row = self.execute("SELECT version FROM games WHERE key = ?" + (self.lock if lock else ""),
                     (key,)).fetchone()
        return None if row is None else row_version(row[0])

    def row(self, key: str) -> tuple[int, bytes] | None:
        row = self.execute(f"SELECT version, {self.data} FROM games WHERE key = ?",
                           (key,)).fetchone()
        return None if row is None else (row_version(row[0]), row_data(row[1]))

    def insert(self, key: str, version: int, client: str, created: float, updated: float,
               finished: bool, data: bytes) -> None:
        self.execute("INSERT INTO games (key, version, client, created, updated, finished, data) "
               "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
               (key, version, client, created, updated, int(finished), data))

    def update(self, key: str, old: int, new: int, finished: bool, data: bytes) -> bool:
        """Compare-and-set: write only over version ``old``."""
        cur = self.execute("UPDATE games SET version = ?, updated = ?, finished = ?, data = ? "
                     "WHERE key = ? AND version = ?",
                     (new, time.time(), int(finished), data, key, old))
        return bool(cur.rowcount == 1)

    def delete(self, key: str) -> bool:
        return bool(self.execute("DELETE FROM games WHERE key = ?", (key,)).rowcount)

    def count(self, client: str | None = None) -> int:
        if client is None:
            return int(self.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        row = self.execute("SELECT COUNT(*) FROM games WHERE client = ?", (client,)).fetchone()
        return int(row[0])

    def cleanup(self, limits: Limits, now: float) -> int:
        cur = self.execute("DELETE FROM games WHERE (finished = 1 AND updated < ?) OR updated < ?",
                     (now - limits.finished_ttl, now - limits.idle_ttl))
        return max(0, int(cur.rowcount))

    def meta(self, name: str) -> str | None:
        row = self.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, name: str, value: str) -> None:
        self.execute("INSERT INTO meta (name, value) VALUES (?, ?) "
               "ON CONFLICT (name) DO UPDATE SET value = excluded.value", (name, value))


class GameStore(ABC):
    """Games in a database (see the module docstring); ``SqliteStore`` and ``PostgresStore``
    say how to reach it."""

    #: Whether a read may run on the server's event loop: it never waits for a writer and
    #: takes microseconds (SQLite in WAL mode), so a thread would cost more than it saves.
    inline_reads = False
    #: Locks of this process, by a stripe of the key: one request at a time per game here
    #: (the database's row lock or write lock orders the processes).
    STRIPES = 256

    def __init__(self, ai: str | None = None, limits: Limits | None = None,
                 keep: int = 1000) -> None:
        self.ai = ai  # the override (``--ai``), or None
        self.hint_ai = ai or usable(STRONGEST)
        self.limits = limits or Limits()
        self.keep = keep  # games kept in memory (a cache: the database has them all)
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(self.STRIPES)]
        self._last_cleanup = 0.0

    # -- the database: each backend says how ----------------------------------------------

    @abstractmethod
    @contextlib.contextmanager
    def transaction(self, write: bool) -> Iterator[Tx]:
        """A transaction: committed when the block ends, rolled back on an exception.
        ``write`` takes the database's write lock where it has one (SQLite)."""

    @abstractmethod
    def lock_for_create(self, tx: Tx) -> None:
        """Order the processes creating games, so that counting then inserting holds."""

    @abstractmethod
    def close(self) -> None: ...

    @property
    @abstractmethod
    def errors(self) -> tuple[type[BaseException], ...]:
        """The driver's errors that mean the database failed (not the request)."""

    # -- the cache ---------------------------------------------------------------------------

    def _stripe(self, key: str) -> threading.Lock:
        return self._stripes[int(key[:6], 16) % self.STRIPES]

    def lock_of(self, game_id: str) -> threading.Lock:
        """This process's lock of the game (taken by ``reading`` and ``changing`` unless told
        that the caller holds it: a server waits for it without blocking a thread)."""
        return self._stripe(self.key_of(game_id))

    def _cached(self, key: str, version: int) -> Game | None:
        with self._cache_lock:
            game = self._cache.get(key)
            if game is None or game.version != version:
                return None
            self._cache.move_to_end(key)
            return game

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            self._cache[game.key] = game
            self._cache.move_to_end(game.key)
            while len(self._cache) > self.keep:
                self._cache.popitem(last=False)

    def forget(self, key: str) -> None:
        with self._cache_lock:
            self._cache.pop(key, None)

    def cached(self) -> int:
        return len(self._cache)

    def set_players(self, game: Game) -> Game:
        """Name the game's players: its difficulty's, unless the server's ``--ai`` says."""
        game.ai = self.ai or difficulty_player(game.difficulty)
        game.hint_ai = self.hint_ai
        return game

    def _load(self, tx: Tx, game_id: str, key: str, version: int) -> Game:
        game = self._cached(key, version)
        if game is not None:
            return game
        row = tx.row(key)
        if row is None:
            raise GameNotFound(game_id)
        game = self.set_players(decode(game_id, row[1], row[0]))
        self._remember(game)
        return game

    @staticmethod
    def key_of(game_id: str) -> str:
        if not ID_PATTERN.match(game_id):
            raise GameNotFound(game_id)
        return id_hash(game_id)

    # -- the interface -------------------------------------------------------------------------

    @contextlib.contextmanager
    def reading(self, game_id: str, lock: bool = True) -> Iterator[Game]:
        """The game's current copy, for reading: no change of it here meanwhile."""
        key = self.key_of(game_id)
        with self._stripe(key) if lock else contextlib.nullcontext():
            try:
                with self.transaction(write=False) as tx:
                    version = tx.version(key)
                    if version is None:
                        self.forget(key)
                        raise GameNotFound(game_id)
                    game = self._load(tx, game_id, key, version)
            except self.errors as e:
                raise SaveFailed(f"the game store cannot be read ({type(e).__name__})") from None
            yield game

    @contextlib.contextmanager
    def changing(self, game_id: str, expect: int | None = None,
                 refusals: tuple[type[BaseException], ...] = (),
                 lock: bool = True) -> Iterator[Game]:
        """The game, locked, to change; committed with ``version + 1`` when the block ends.

        ``expect``: the version the change was decided on (``Changed`` if the game moved on
        since). An exception of ``refusals`` (a refused request, raised before any change)
        leaves the game as it is; any other exception, or a failed commit (``SaveFailed``),
        also drops this process's copy, so the next request reads the game as committed.
        """
        key = self.key_of(game_id)
        with self._stripe(key) if lock else contextlib.nullcontext():
            held: list[Game] = []
            with self._outcome(key, refusals, held), self._change_transaction() as tx:
                version = self._current(tx, game_id, key, expect, lock=True)
                game = self._load(tx, game_id, key, version)
                held.append(game)
                game.version = version + 1
                yield game
                if not self._write(tx, key, version, game.finished, game.encode()):
                    raise Changed("the game changed meanwhile")

    #: Whether a change may run on the server's event loop (``changing_async``): its read never
    #: waits and its write is awaited, not waited for in a thread.
    inline_changes = False

    @contextlib.asynccontextmanager
    async def changing_async(self, game_id: str, expect: int | None = None,
                             refusals: tuple[type[BaseException], ...] = ()
                             ) -> AsyncIterator[Game]:
        """``changing`` for a caller on an event loop that holds the game's lock (stores with
        ``inline_changes``): the game is read at once, and its write awaited (``_write_async``),
        so no thread is taken, whether for the read or while the commit is on its way."""
        key = self.key_of(game_id)
        held: list[Game] = []
        with self._outcome(key, refusals, held):
            with self.transaction(write=False) as tx:
                version = self._current(tx, game_id, key, expect)
                game = self._load(tx, game_id, key, version)
            held.append(game)
            game.version = version + 1
            yield game
            if not await self._write_async(key, version, game.finished, game.encode()):
                raise Changed("the game changed meanwhile")

    async def _write_async(self, key: str, old: int, finished: bool, data: bytes) -> bool:
        """``_write`` awaited (stores with ``inline_changes`` say how)."""
        raise NotImplementedError

    def _current(self, tx: Tx, game_id: str, key: str, expect: int | None,
                 lock: bool = False) -> int:
        """The game's committed version (``Changed`` if not ``expect``)."""
        version = tx.version(key, lock=lock)
        if version is None:
            self.forget(key)
            raise GameNotFound(game_id)
        if expect is not None and version != expect:
            raise Changed(f"the game is at version {version}, not {expect}")
        return version

    @contextlib.contextmanager
    def _outcome(self, key: str, refusals: tuple[type[BaseException], ...],
                 held: list[Game]) -> Iterator[None]:
        """How a change that fails ends: a refusal (raised before any change) leaves the game
        as it is; any other failure drops this process's copy, so that the next request
        reads the game as committed; a database's failure is ``SaveFailed``."""
        try:
            yield
        except refusals:
            for game in held:
                game.version -= 1
            raise
        except (GameNotFound, Changed, CorruptSave):
            self.forget(key)
            raise
        except self.errors as e:
            self.forget(key)
            log.error("a change of a game could not be saved: %s: %s", type(e).__name__, e)
            raise SaveFailed(f"the game could not be saved ({type(e).__name__}): "
                             "nothing was changed") from None
        except BaseException:
            self.forget(key)
            raise

    def _change_transaction(self) -> contextlib.AbstractContextManager[Tx]:
        """The transaction a change reads its game in: here one that locks the row until the
        change is written in it (``_write``)."""
        return self.transaction(write=True)

    def _write(self, tx: Tx, key: str, old: int, finished: bool, data: bytes) -> bool:
        """Write a change over version ``old`` (compare-and-set); False if the game moved on.
        Durable when this returns (here: when ``tx`` commits)."""
        return tx.update(key, old, old + 1, finished, data)

    def create(self, game: Game, client: str) -> Game:
        """Store a new game for ``client`` (an address), within the limits."""
        self.set_players(game)
        who = client_key(client)
        lim = self.limits
        now = time.time()
        try:
            with self.transaction(write=True) as tx:
                self.lock_for_create(tx)
                if now - self._last_cleanup >= lim.cleanup_every:
                    self._last_cleanup = now
                    self._cleanup(tx, now)
                if tx.count() >= lim.max_games and self._cleanup(tx, now) == 0:
                    raise TooManyGames(f"the server keeps at most {lim.max_games} games",
                                       per_client=False)
                if tx.count(who) >= lim.max_games_per_client:
                    raise TooManyGames(f"at most {lim.max_games_per_client} games per client: "
                                       "delete one first", per_client=True)
                tx.insert(game.key, game.version, who, game.created, now, game.finished,
                          game.encode())
        except self.errors as e:
            log.error("a new game could not be saved: %s: %s", type(e).__name__, e)
            raise SaveFailed(f"the game could not be saved ({type(e).__name__})") from None
        self._remember(game)
        return game

    def _cleanup(self, tx: Tx, now: float) -> int:
        n = tx.cleanup(self.limits, now)
        if n:
            log.info("cleaned up %d finished or idle games", n)
            with self._cache_lock:
                self._cache.clear()  # the deleted ones must not be served from memory
        return n

    def delete(self, game_id: str, lock: bool = True) -> None:
        """Forget a game (a damaged one too: its save is not read)."""
        key = self.key_of(game_id)
        with self._stripe(key) if lock else contextlib.nullcontext():
            self.forget(key)
            try:
                with self.transaction(write=True) as tx:
                    found = tx.delete(key)
            except self.errors as e:
                raise SaveFailed(f"the game could not be deleted ({type(e).__name__})") from None
        if not found:
            raise GameNotFound(game_id)

    def count(self) -> int:
        with self.transaction(write=False) as tx:
            return tx.count()

    def import_files(self, data_dir: Path | None) -> int:
        """Bring in the saves of the file store (``<data_dir>/games/*.json``) once: on the
        first start, each becomes a row as it is (a damaged one answers ``corrupt_save`` and
        can be deleted); the folder is then renamed ``games.imported``. Left-over temp files
        of the file store are deleted."""
        if data_dir is None:
            return 0
        folder = Path(data_dir).expanduser() / "games"
        if not folder.is_dir():
            return 0
        mark = "imported:" + str(folder.resolve())
        saves = read_file_saves(folder)
        with self.transaction(write=True) as tx:
            self.lock_for_create(tx)
            if tx.meta(mark) is not None:  # once only: a game deleted since stays deleted
                saves = []
            for key, data, mtime in saves:
                tx.insert(key, 0, "", mtime, mtime, False, data)
            tx.set_meta(mark, str(time.time()))
        with contextlib.suppress(OSError):
            folder.rename(folder.with_name("games.imported"))
        if saves:
            log.info("imported %d saved games of the file store", len(saves))
        return len(saves)
