"""Friends' rooms: make one, look at it, take a seat, act, watch its socket.

A seat's token travels in the ``X-Room-Token`` header (HTTP) or the socket's first message,
never in an address. Every request with a token is checked against the room: the token must
hold a seat of this room now (a freed or moved-out seat's old token holds none).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, FastAPI, Header, Request, WebSocket
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from guandan.web import results, shown
from guandan.web.errors import Refusal, error, retry_after
from guandan.web.models import RecordsOut, ReplayOut
from guandan.web.rooms import actions
from guandan.web.rooms.hub import RoomHub
from guandan.web.rooms.room import CorruptRoom, Room, Settings, token_hash, valid_code
from guandan.web.rooms.store import RoomNotFound, TooManyRooms
from guandan.web.routers.pages import STATIC

router = APIRouter()


async def get_hub(request: Request) -> RoomHub:
    hub: RoomHub = request.app.state.rooms
    return hub


HubDep = Annotated[RoomHub, Depends(get_hub)]
TokenDep = Annotated[str | None, Header(alias="X-Room-Token", max_length=64)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewRoomIn(_In):
    name: str = Field(max_length=64)
    preset: Literal["site", "national", "huaian", "nanjing"] = "site"
    level: Literal["easy", "normal", "hard"] = "normal"
    timer: Literal[0, 15, 30, 60] = 0
    spectators: bool = True
    counter: bool = True
    phrases: bool = True


class JoinIn(_In):
    seat: int = Field(ge=1, le=4)
    name: str = Field(max_length=64)


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


def _code(code: str) -> str:
    code = code.upper()
    if not valid_code(code):
        raise RoomNotFound(code)
    return code


def _limit(hub: RoomHub, request: Request) -> None:
    if not hub.joins.hit(_client(request)):
        raise Refusal("too_many_joins", "too many rooms looked up or joined: wait a minute",
                      status=429)


async def _room(hub: RoomHub, request: Request, code: str,
                token: str | None) -> tuple[Room, int | None]:
    """The room and the seat its token holds. A request that holds no seat of the room (no
    token, a forged or a stale one) counts as a lookup of the code before anything about the
    code is told (404 or 403): a code is not found by trying, whatever token comes along,
    while four friends behind one address reload and reconnect as often as they like."""
    try:
        room: Room | None = await hub.read(code)
    except RoomNotFound:
        room = None
    seat = room.seat_of(token) if room is not None else None
    if seat is None:
        _limit(hub, request)
    if room is None:
        raise RoomNotFound(code)
    return room, seat


async def _seat(hub: RoomHub, request: Request, code: str,
                token: str | None) -> tuple[Room, int]:
    room, seat = await _room(hub, request, code, token)
    if seat is None:
        raise Refusal("bad_token", "this token holds no seat of this room", status=403)
    return room, seat


@router.get("/r/{code}", include_in_schema=False)
def room_page(code: str) -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


@router.post("/api/rooms", status_code=201)
async def create_room(body: NewRoomIn, request: Request, hub: HubDep) -> dict[str, Any]:
    settings = Settings(preset=body.preset, level=body.level, timer=body.timer,
                        spectators=body.spectators, counter=body.counter, phrases=body.phrases)
    for _ in range(20):  # a code taken already (one in a billion): another
        room, token = actions.new_room(settings, body.name)
        actions.settle(room)
        if await run_in_threadpool(hub.store.create, room, _client(request),
                                   hub.limits.rooms_per_client):
            break
    else:  # pragma: no cover
        raise Refusal("server_full", "no free room code", status=503)
    return {"code": room.code, "seat": 1, "token": token,
            "room": hub.view(room, 1)}


@router.get("/api/rooms/{code}")
async def get_room(code: str, request: Request, hub: HubDep,
                   token: TokenDep = None) -> dict[str, Any]:
    code = _code(code)
    room, seat = await _room(hub, request, code, token)
    if token is not None and seat is None:
        raise Refusal("bad_token", "this token holds no seat of this room", status=403)
    view = hub.view(room, seat)
    if seat is None and not room.settings.spectators:
        view["game"] = None  # the lobby only: whoever has the link may take a free seat
    return view


@router.post("/api/rooms/{code}/join")
async def join(code: str, body: JoinIn, request: Request, hub: HubDep) -> dict[str, Any]:
    code = _code(code)
    _limit(hub, request)
    holder: list[str] = []

    def take(room: Room) -> None:
        holder.append(actions.take_seat(room, body.seat, body.name))

    await hub.change(code, take)
    room = await hub.read(code)
    return {"code": code, "seat": body.seat, "token": holder[0],
            "room": hub.view(room, body.seat)}


@router.post("/api/rooms/{code}/do")
async def do(code: str, request: Request, hub: HubDep, token: TokenDep = None) -> Any:
    """One action of the token's seat: ``{"type": "play" | "pass" | "return" | "ready" |
    "start" | "next" | "again" | "takeback" | "leave" | "move" | "free" | "settings" | "hint" |
    "readings" | "phrase", …}``; answers what it asked for and the room as the seat sees it."""
    code = _code(code)
    body = await request.body()
    try:
        msg = json.loads(body or b"null")
    except ValueError:
        raise Refusal("bad_request", "a JSON object", status=422) from None
    if not isinstance(msg, dict):
        raise Refusal("bad_request", "a JSON object", status=422)
    _, seat = await _seat(hub, request, code, token)
    out = await hub.dispatch(code, token_hash(token or ""), msg)
    if msg.get("type") == "leave":
        return out | {"room": None}
    room = await hub.read(code)
    return out | {"room": hub.view(room, seat)}


async def _viewer(hub: RoomHub, request: Request, code: str, token: str | None) -> Room:
    room, seat = await _room(hub, request, code, token)
    if seat is None and not room.settings.spectators:
        raise Refusal("no_spectators", "this room has no spectators", status=403)
    if room.game is None:
        raise Refusal("not_started", "the match has not started")
    return room


@router.get("/api/rooms/{code}/records")
async def records(code: str, request: Request, hub: HubDep,
                  token: TokenDep = None) -> RecordsOut:
    room = await _viewer(hub, request, _code(code), token)
    game = room.game
    assert game is not None
    return RecordsOut(preset=game.preset, match_number=game.match_number,
                      results=results.hand_results(game), hands=len(game.match.records))


@router.get("/api/rooms/{code}/replay/{hand}")
async def replay(code: str, hand: int, request: Request, hub: HubDep,
                 token: TokenDep = None) -> ReplayOut:
    """A finished hand (every seat's cards open, as at its end for everyone)."""
    room = await _viewer(hub, request, _code(code), token)
    assert room.game is not None
    return shown.hand_replay(room.game, hand)


def origin_ok(ws: WebSocket) -> bool:
    """A browser's socket must come from this site's page (its ``Origin`` names the host it
    asked): another site's page cannot act with a visitor's token. Programs send none."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    host = ws.headers.get("x-forwarded-host") or ws.headers.get("host") or ""
    return urlsplit(origin).netloc.lower() == host.lower()


@router.websocket("/api/rooms/{code}/socket")
async def socket(ws: WebSocket, code: str) -> None:
    hub: RoomHub = ws.app.state.rooms
    if not origin_ok(ws):
        await ws.close(code=1008, reason="origin")
        return
    code = code.upper()
    client = ws.client.host if ws.client else ""
    if not valid_code(code):
        await ws.close(code=1008, reason="no such room")
        return
    # A socket whose hello holds a seat of the room is no lookup; any other counts (the hub
    # asks before telling whether the room exists).
    await hub.serve_socket(ws, code, lookup=lambda: hub.joins.hit(client))


def install(app: FastAPI) -> None:
    """The rooms' errors."""

    @app.exception_handler(RoomNotFound)
    async def not_found(request: Request, exc: RoomNotFound) -> JSONResponse:
        return error(404, "room_not_found", "no open room has this code")

    @app.exception_handler(TooManyRooms)
    async def too_many(request: Request, exc: TooManyRooms) -> JSONResponse:
        return retry_after(error(429, "too_many_rooms", str(exc)), 60)

    @app.exception_handler(CorruptRoom)
    async def corrupt(request: Request, exc: CorruptRoom) -> JSONResponse:
        return error(409, "corrupt_room", str(exc))

