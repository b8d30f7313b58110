"""Outside programs' seats: their status, giving a seat to our AI, and a program's WebSocket
(the work is ``guandan.web.outside``'s)."""

from __future__ import annotations

from fastapi import APIRouter, BackgroundTasks, WebSocket

from guandan.web import shown
from guandan.web.deps import ChangeGame, OutsideDep
from guandan.web.errors import Refusal
from guandan.web.locks import reading
from guandan.web.models import GameState, OutsideOut
from guandan.web.outside import Outside
from guandan.web.store.game import HUMAN

router = APIRouter()


@router.get("/api/games/{game_id}/outside")
async def outside_status(game_id: str, outside: OutsideDep) -> OutsideOut:
    """The outside seats of the game now: their addresses, programs and what the game waits
    for (the page asks while it shows the game)."""
    async with reading(outside.store, game_id) as game:
        return outside.status(game)


@router.post("/api/games/{game_id}/outside/{seat}/ai")
async def give_to_ai(seat: int, game: ChangeGame, outside: OutsideDep,
                     later: BackgroundTasks) -> GameState:
    """Stop waiting for an outside program at ``seat``: our AI plays it from now on (its
    program, if any, is closed once the change is committed)."""
    if seat not in game.outside:
        raise Refusal("not_outside", f"seat {seat} is not left to an outside program",
                      status=409, seat=seat)
    game.outside = tuple(s for s in game.outside if s != seat)
    later.add_task(outside.release, game.id, seat)
    return shown.game_state(game, HUMAN)


@router.websocket("/game/{token}")
async def outside_seat(ws: WebSocket, token: str) -> None:
    outside: Outside = ws.app.state.outside
    await outside.serve(ws, token)
