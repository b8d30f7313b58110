"""The routes' dependencies: the store, the AI, the game looked up by its id.

A game is read or changed under this process's lock of it, waited for without holding a
thread (``held``); the database work runs in a thread (``contextmanager_in_threadpool``), so
the event loop never waits for a disk or a database, except where it never waits anyway
(SQLite's reads; its commits are awaited: ``GameStore.changing_async``). ``ChangeGame`` commits
the change when the route returns, before the answer is sent: a failed commit answers 503
instead.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.concurrency import contextmanager_in_threadpool

from guandan.web import views
from guandan.web.ai import AIPool
from guandan.web.models import GameState
from guandan.web.store import Game, GameStore
from guandan.web.views import Refusal

# The small dependencies are ``async``: FastAPI would run a plain ``def`` in a thread.


async def get_store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


async def get_ai(request: Request) -> AIPool:
    ai: AIPool = request.app.state.ai
    return ai


StoreDep = Annotated[GameStore, Depends(get_store)]
AIDep = Annotated[AIPool, Depends(get_ai)]


async def if_match(if_match: Annotated[str | None, Header()] = None) -> int | None:
    """The version a change is based on (``If-Match: 12``, quoted or not), if the client
    names one: the change then applies only to that version of the game."""
    if if_match is None or if_match.strip() == "*":
        return None
    text = if_match.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise Refusal("bad_request", "If-Match: the game's version, a number", status=422)
    return int(text)


ExpectDep = Annotated[int | None, Depends(if_match)]


#: This process's locks of the games in use, one per game (and event loop): a lock lives as
#: long as a request holds or awaits it.
_locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = \
    weakref.WeakValueDictionary()


@asynccontextmanager
async def held(store: GameStore, game_id: str) -> AsyncIterator[None]:
    """This process's lock of the game, awaited on the event loop (no thread is held, nothing
    spins), so the store is called with ``lock=False``."""
    key = (id(asyncio.get_running_loop()), store.key_of(game_id))
    lock = _locks.get(key)
    if lock is None:
        lock = _locks[key] = asyncio.Lock()
    async with lock:
        yield


@asynccontextmanager
async def reading(store: GameStore, game_id: str) -> AsyncIterator[Game]:
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
    async with held(store, game_id):
        if store.inline_changes:  # SQLite: read at once, the commit awaited (no thread)
            async with store.changing_async(game_id, expect, refusals=(Refusal,)) as game:
                yield game
        else:
            async with contextmanager_in_threadpool(
                    store.changing(game_id, expect, refusals=(Refusal,), lock=False)) as game:
                yield game


async def read_game(game_id: str, store: StoreDep) -> AsyncIterator[Game]:
    async with reading(store, game_id) as game:
        yield game


async def change_game(game_id: str, store: StoreDep, expect: ExpectDep) -> AsyncIterator[Game]:
    async with changing(store, game_id, expect) as game:
        yield game


#: The game of the path's id, as committed, for reading.
ReadGame = Annotated[Game, Depends(read_game, scope="function")]
#: The game of the path's id, locked to change: committed when the route returns.
ChangeGame = Annotated[Game, Depends(change_game, scope="function")]


def state_of(game: Game) -> GameState:
    """The state seat 1 sees, with the game's version."""
    state = views.state_out(game)
    state.version = game.version
    return state
