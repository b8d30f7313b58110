"""A game read or changed under this process's lock of it.

The lock is awaited on the event loop (no thread is held, nothing spins), so the store is
called with ``lock=False``; the database work runs in a thread (``contextmanager_in_threadpool``),
so the event loop never waits for a disk or a database, except where it never waits anyway
(SQLite's reads; its commits are awaited: ``GameStore.changing_async``).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi.concurrency import contextmanager_in_threadpool

from guandan.web.errors import Refusal
from guandan.web.store import Game, GameStore

#: This process's locks of the games in use, one per game (and event loop): a lock lives as
#: long as a request holds or awaits it.
_locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = \
    weakref.WeakValueDictionary()


@asynccontextmanager
async def held(store: GameStore, game_id: str) -> AsyncIterator[None]:
    """This process's lock of the game."""
    key = (id(asyncio.get_running_loop()), store.key_of(game_id))
    lock = _locks.get(key)
    if lock is None:
        lock = _locks[key] = asyncio.Lock()
    async with lock:
        yield


@asynccontextmanager
async def reading(store: GameStore, game_id: str) -> AsyncIterator[Game]:
    """The game as committed, to read."""
    async with held(store, game_id):
        if store.inline_reads:  # a read that never waits (SQLite's WAL): no thread needed
            with store.reading(game_id, lock=False) as game:
                yield game
        else:
            async with contextmanager_in_threadpool(store.reading(game_id, lock=False)) as game:
                yield game


@asynccontextmanager
async def changing(store: GameStore, game_id: str,
                   expect: int | None = None) -> AsyncIterator[Game]:
    """The game to change (at version ``expect``, if given): committed when the block ends
    without an error, as it was otherwise (a ``Refusal`` changes nothing)."""
    async with held(store, game_id):
        if store.inline_changes:  # SQLite: read at once, the commit awaited (no thread)
            async with store.changing_async(game_id, expect, refusals=(Refusal,)) as game:
                yield game
        else:
            async with contextmanager_in_threadpool(
                    store.changing(game_id, expect, refusals=(Refusal,), lock=False)) as game:
                yield game
