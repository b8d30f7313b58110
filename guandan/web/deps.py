"""The routes' dependencies: the store, the AI, the outside seats, the game of the path's id.

A game is read or changed under this process's lock of it (``locks``). ``ChangeGame`` commits
the change when the route returns, before the answer is sent: a failed commit answers 503
instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request

from guandan.web.ai import AIPool
from guandan.web.errors import Refusal
from guandan.web.locks import changing, reading
from guandan.web.outside import Outside
from guandan.web.store import Game, GameStore

# The small dependencies are ``async``: FastAPI would run a plain ``def`` in a thread.


async def get_store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


async def get_ai(request: Request) -> AIPool:
    ai: AIPool = request.app.state.ai
    return ai


async def get_outside(request: Request) -> Outside:
    outside: Outside = request.app.state.outside
    return outside


StoreDep = Annotated[GameStore, Depends(get_store)]
AIDep = Annotated[AIPool, Depends(get_ai)]
OutsideDep = Annotated[Outside, Depends(get_outside)]


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
