"""The rooms of one server process: their changes, their sockets, and the driver of each room
this process owns (the AI's turns, the turn timer, the grace period, closing empty rooms).

- A change (``change``) runs under this process's lock of the room, on the room as committed,
  and is committed over the version it read (compare-and-set), before anyone is told.
- Every socket of a room gets, after each change, the room as its seat may see it
  (``seat_view.room_view``); other processes learn of the change from the database: PostgreSQL's
  ``NOTIFY`` (``bus="postgres"``) or, on SQLite with several processes, a look at the rooms'
  versions every ``poll`` seconds (``bus="poll"``).
- A room is driven by one process at a time: the owner of its row's lease (``RoomStore.claim``),
  renewed while it lives; when it dies, another process with an interest in the room (a
  socket, a request) takes it over once the lease has run out, from the room as committed.
- A seat is connected through the processes holding its person's sockets (``Seat.via``). Each
  process beats in the database (``processes``); a process seen dead (killed: at once on
  PostgreSQL, after ``lease / 2`` s of silence on SQLite) has its ids taken out of the seats
  by any process driving the room, the seats left without one disconnected from when it
  died, so that the grace period runs. A process marks its seats again whenever the room says
  otherwise than its sockets (a process wrongly thought dead, a lost mark), and unmarks them
  when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import uuid
import weakref
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from guandan.web import checks, results, shown
from guandan.web.ai import AIPool, Decision
from guandan.web.errors import Refusal
from guandan.web.inflight import InFlight
from guandan.web.models import HintOut
from guandan.web.outside import Outside, Snapshot
from guandan.web.rooms import actions
from guandan.web.rooms.processes import Processes
from guandan.web.rooms.room import Room, Seat, valid_code
from guandan.web.rooms.seat_view import room_view
from guandan.web.rooms.store import RoomNotFound, RoomStore
from guandan.web.store import Changed, Game, SaveFailed, difficulty_player
from guandan.web.store.sqlite import SqliteStore

log = logging.getLogger("guandan.web")
T = TypeVar("T")

#: The quick phrases and emotes a seat may send (their words are the catalogs': no free text).
PHRASES = ("hello", "nice", "thanks", "sorry", "hurry", "wow", "gg", "again",
           "smile", "cry", "angry", "clap")


@dataclass(frozen=True)
class RoomTimes:
    """The room's clocks, in seconds (tests shorten them)."""

    grace: float = 30.0  # a disconnected person's seat is held this long before 자동
    pace: float = 0.9  # an AI seat's action follows the last one after this long
    result_wait: float = 20.0  # a hand's result is shown this long, unless someone goes on
    idle_close: float = 1800.0  # a room with nobody connected is closed after this long
    lease: float = 10.0  # a process drives a room for this long without renewing;
    # it beats every lease / 10 s, and is dead after lease / 2 s without a beat (``processes``)
    timer_scale: float = 1.0  # the turn timer's second, in seconds (tests: a fraction)


@dataclass(frozen=True)
class RoomLimits:
    rooms_per_client: int = 5  # open rooms a client address may have made
    joins_per_minute: int = 20  # seats taken and room codes looked up, per client address
    messages_per_10s: int = 50  # messages per socket: past it the socket is closed (1008)
    message_bytes: int = 4096  # the largest socket message (1009 past it)


class Link:
    """One socket of a room: for a seat (its token checked), or a spectator."""

    def __init__(self, ws: WebSocket, code: str, seat: int | None, token: str = "") -> None:
        self.ws = ws
        self.code = code
        self.seat = seat
        self.token = token  # the hash of its seat's token: the seat follows its person
        self.sent = -1  # the room's version last sent
        self.lock = asyncio.Lock()
        self.times: deque[float] = deque()


class RateWindow:
    """Events per client in a sliding minute (joins and lookups of codes)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.seen: dict[str, deque[float]] = defaultdict(deque)

    def hit(self, client: str) -> bool:
        now = time.monotonic()
        q = self.seen[client]
        while q and q[0] < now - 60:
            q.popleft()
        if len(q) >= self.per_minute:
            return False
        q.append(now)
        if len(self.seen) > 10000:  # forget clients gone quiet
            for k in [k for k, v in self.seen.items() if not v or v[-1] < now - 60]:
                del self.seen[k]
        return True


class RoomHub:
    """The rooms as this process serves them (see the module docstring)."""

    def __init__(self, store: RoomStore, ai: AIPool, times: RoomTimes | None = None,
                 limits: RoomLimits | None = None, bus: str = "local",
                 database: str | None = None, poll: float = 0.2,
                 allow_seed: bool = False, outside: Outside | None = None) -> None:
        self.store = store
        self.ai = ai
        self.times = times or RoomTimes()
        self.limits = limits or RoomLimits()
        self.bus = bus
        self.database = database
        self.poll = poll
        self.allow_seed = allow_seed
        self.outside = outside  # outside programs' seats (``guandan.web.outside``), if any
        if outside is not None:
            outside.open_room = self._attach
        self.shared = bus != "local"  # several processes: the lease decides who drives
        self.owner = uuid.uuid4().hex
        self.links: dict[str, set[Link]] = defaultdict(set)
        self.joins = RateWindow(self.limits.joins_per_minute)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = \
            weakref.WeakValueDictionary()
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._views: dict[tuple[str, int, int], str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._work = InFlight()
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._syncing: set[tuple[str, str]] = set()
        self.pushed = 0  # pushes sent (health)
        db = store.db
        lease = self.times.lease
        self.processes = Processes(
            self.owner, beat=max(0.05, lease / 10), stale=lease / 2, on_death=self._deaths,
            sqlite=str(db.path) if isinstance(db, SqliteStore) else None,
            postgres=database if not isinstance(db, SqliteStore) else None) \
            if isinstance(db, SqliteStore) or database else None

    def stats(self) -> dict[str, object]:
        return {"owner": self.owner, "sockets": sum(len(v) for v in self.links.values()),
                "rooms_with_sockets": len(self.links), "drivers": len(self._drivers),
                "pushed": self.pushed, "bus": self.bus}

    # -- the room, read and changed ---------------------------------------------------------

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        """The database's work, in a thread, finished before the server stops."""
        return await self._work.run(fn, *args)

    @contextlib.asynccontextmanager
    async def locked(self, code: str) -> AsyncIterator[None]:
        lock = self._locks.get(code)
        if lock is None:
            lock = self._locks[code] = asyncio.Lock()
        async with lock:
            yield

    async def read(self, code: str) -> Room:
        """The room as committed: read under this process's lock of it, so that a change on
        its way (its copy changed, its commit awaited) is never seen."""
        async with self.locked(code):
            return await self._read(code)

    async def _read(self, code: str) -> Room:
        if not valid_code(code):
            raise RoomNotFound(code)
        if self.store.db.inline_reads:  # SQLite's WAL: a read never waits for a writer
            return self.store.load(code)
        return await self._db(self.store.load, code)

    async def change(self, code: str, fn: Callable[[Room], T], expect: int | None = None) -> T:
        """Apply ``fn`` to the room as committed and commit it (version + 1) before anyone is
        told; a ``Refusal`` (or any error) leaves it as it was."""
        async with self.locked(code):
            room = await self._read(code)
            if expect is not None and room.version != expect:
                raise Changed(f"the room is at version {room.version}, not {expect}")
            old = room.version
            try:
                out = fn(room)
                actions.settle(room)
            except BaseException:
                self.store.forget(code)  # a copy half changed is never served
                raise
            room.version = old + 1
            saved = await self.store.save_async(room, old) if self.store.group_commit \
                else await self._db(self.store.save, room, old)
            if not saved:
                raise Changed("the room changed meanwhile")
        self.changed(code, room)
        if self.bus == "postgres":
            await self._db(self._notify, code)
        if room.game is not None and room.game.outside and self._programs(room):
            self.outside.later(room.game)  # type: ignore[union-attr]
        return out

    def changed(self, code: str, room: Room | None = None) -> None:
        """The room changed (here or in another process): its sockets are told (``room``: as
        just committed here, else read), its driver woken."""
        self._ensure_loop()
        if code in self.links:
            asyncio.get_running_loop().create_task(self.push(code, room))
        ev = self._wake.get(code)
        if ev is not None:
            ev.set()
        self.drive(code)

    def _programs(self, room: Room) -> bool:
        """Whether outside programs play seats of the room's match here (its session open,
        its addresses answering); False without an ``Outside`` or where it cannot seat them
        (several processes: our AI plays those seats)."""
        game = room.game
        if self.outside is None or game is None or not game.outside:
            return False
        self._attach(game.id, room.code)
        return self.outside.session(game) is not None

    def _attach(self, game_id: str, code: str) -> None:
        """How ``outside`` reads the room's match as committed, and commits an action of its
        program's seat (in the process that holds the program, see ``outside``)."""
        assert self.outside is not None
        if game_id in self.outside.readers:
            return

        async def committed() -> Game | None:
            try:
                return (await self.read(code)).game
            except RoomNotFound:
                return None

        async def commit(game_id: str, snap: Snapshot, seat: int, d: Decision,
                         notes: dict[str, Any]) -> None:
            def act(r: Room) -> None:
                g = r.game
                if g is None or g.id != game_id or not snap.same(g) or \
                        g.match.to_act != seat or results.pending_result(g) is not None:
                    raise Changed("the room changed meanwhile")
                Outside.note(g, notes)
                actions.ai_act(r, seat, d.action, False)
            await self.change(code, act)

        self.outside.readers[game_id] = committed
        self.outside.commits[game_id] = commit
        self.outside.room_of[game_id] = code

    # -- pushes ---------------------------------------------------------------------------------

    def view(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The room as ``seat`` (None: a spectator) may see it."""
        return room_view(room, seat, self.times.grace, self.times.timer_scale)

    def view_text(self, room: Room, seat: int | None) -> str:
        key = (room.code, room.version, seat or 0)
        text = self._views.get(key)
        if text is None:
            view = room_view(room, seat, self.times.grace, self.times.timer_scale,
                             as_json=True)
            game = view.pop("game")
            # The match's part is written by pydantic (fast), the room's around it.
            text = json.dumps(view | {"game": None}, ensure_ascii=False, separators=(",", ":"))
            if game is not None:
                text = text[:-len('"game":null}')] + '"game":' + game + "}"
            if len(self._views) > 4000:
                self._views.clear()
            self._views[key] = text
        return text

    async def push(self, code: str, room: Room | None = None) -> None:
        try:
            if room is None:
                room = await self.read(code)
        except RoomNotFound:
            for link in list(self.links.get(code, ())):
                await self._close(link, 1000, "room closed")
            return
        # Every socket's text made now, before any wait: the room object may be changed by
        # the next change while the frames are on their way.
        frames = [(link, self._frame_for(link, room)) for link in list(self.links.get(code, ()))]
        for link, text in frames:
            await self._deliver(link, room.version, text)

    async def send_room(self, link: Link, room: Room) -> None:
        await self._deliver(link, room.version, self._frame_for(link, room))

    def _frame_for(self, link: Link, room: Room) -> str | None:
        """The room as this socket's person may see it (None: nothing new; "" : their seat is
        gone)."""
        if link.sent >= room.version:
            return None
        if link.seat is not None:
            # The person may have been moved to another seat, or freed: the socket follows
            # the token, never the seat number (another person may sit there now).
            seat = next((s for s, st in room.seats.items()
                         if st.taken and st.token == link.token), None)
            if seat is None:
                return ""
            link.seat = seat
        text = self.view_text(room, link.seat)
        return text[:-1] + f',"now":{time.time():.3f}}}'

    async def _deliver(self, link: Link, version: int, text: str | None) -> None:
        if text is None:
            return
        if text == "":
            await self._close(link, 4001, "seat freed")
            return
        async with link.lock:
            if link.sent >= version:
                return
            link.sent = version
            with contextlib.suppress(Exception):
                await link.ws.send_text(text)
                self.pushed += 1

    async def _send(self, link: Link, data: dict[str, Any]) -> None:
        async with link.lock:
            with contextlib.suppress(Exception):
                await link.ws.send_text(json.dumps(data, ensure_ascii=False))

    async def _close(self, link: Link, code: int, reason: str) -> None:
        self.links.get(link.code, set()).discard(link)
        with contextlib.suppress(Exception):
            if link.ws.application_state == WebSocketState.CONNECTED:
                await link.ws.close(code=code, reason=reason)

    # -- a socket's life ---------------------------------------------------------------------

    async def serve_socket(self, ws: WebSocket, code: str,
                           lookup: Callable[[], bool] | None = None) -> None:
        """A room's socket: the first message names the seat (its token) or asks to watch;
        then pushes out, actions in. A hello that holds no seat of the room is a lookup of
        its code: ``lookup()`` (the client's limit) is asked first, and False closes the
        socket (1008) without saying whether the room exists."""
        self._ensure_loop()
        await ws.accept()
        try:
            first = await asyncio.wait_for(ws.receive_text(), timeout=10)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            with contextlib.suppress(Exception):
                await ws.close(code=1008, reason="hello expected")
            return
        try:
            hello = self._message(first)
            found: Room | None = await self.read(code)
        except RoomNotFound:
            found = None
        except Refusal as r:
            await ws.close(code=1008, reason=r.code)
            return
        token = hello.get("token")
        seat = found.seat_of(token) if found is not None and isinstance(token, str) else None
        if seat is None and lookup is not None and not lookup():
            await ws.close(code=1008, reason="too many lookups")
            return
        if found is None:
            await ws.close(code=4004, reason="no such room")
            return
        room = found
        if token and seat is None:
            await ws.send_text(json.dumps({"type": "error", "error": {
                "code": "bad_token", "message": "this token holds no seat of this room"}}))
            await ws.close(code=4003, reason="bad token")
            return
        if seat is None and not room.settings.spectators:
            await ws.send_text(json.dumps({"type": "error", "error": {
                "code": "no_spectators", "message": "this room has no spectators"}}))
            await ws.close(code=4003, reason="no spectators")
            return
        link = Link(ws, code, seat, room.seats[seat].token if seat is not None else "")
        self.links[code].add(link)
        try:
            if seat is not None:
                await self._connected(code, link.token)
            room = await self.read(code)
            await self.send_room(link, room)
            self.drive(code)
            while True:
                text = await ws.receive_text()
                if not self._count(link):
                    await self._close(link, 1008, "too many messages")
                    return
                if len(text.encode()) > self.limits.message_bytes:
                    await self._close(link, 1009, "message too big")
                    return
                await self._answer(link, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.links[code].discard(link)
            if not self.links[code]:
                del self.links[code]
            if link.seat is not None:
                # A task of its own: the socket's handler may be being cancelled.
                self._sync_soon(code, link.token)

    def _count(self, link: Link) -> bool:
        now = time.monotonic()
        while link.times and link.times[0] < now - 10:
            link.times.popleft()
        link.times.append(now)
        return len(link.times) <= self.limits.messages_per_10s

    def _message(self, text: str) -> dict[str, Any]:
        if len(text.encode()) > self.limits.message_bytes:
            raise Refusal("too_big", "the message is too big", status=413)
        try:
            msg = json.loads(text)
        except ValueError:
            raise Refusal("bad_request", "a message is a JSON object", status=422) from None
        if not isinstance(msg, dict):
            raise Refusal("bad_request", "a message is a JSON object", status=422)
        return msg

    async def _answer(self, link: Link, text: str) -> None:
        mid: Any = None
        try:
            msg = self._message(text)
            mid = msg.get("id")
            if link.seat is None:
                raise Refusal("spectator", "a spectator acts for no seat", status=403)
            out = await self.dispatch(link.code, link.token, msg)
            await self._send(link, {"type": "answer", "id": mid, "ok": True} | out)
        except Refusal as r:
            await self._send(link, {"type": "answer", "id": mid, "ok": False, "error": {
                "code": r.code, "message": r.message, "params": r.params}})
        except Changed:
            await self._send(link, {"type": "answer", "id": mid, "ok": False, "error": {
                "code": "changed", "message": "the room changed meanwhile", "params": {}}})
        except RoomNotFound:
            await self._close(link, 4004, "no such room")

    # -- who is connected, through which process --------------------------------------------

    def _here(self, code: str, token: str) -> bool:
        """Whether a socket of the person of ``token`` is open in this process."""
        return any(link.token == token for link in self.links.get(code, ()))

    async def _connected(self, code: str, token: str) -> None:
        """Mark the person of ``token`` connected through this process if a socket of theirs
        is open here, else not: what the sockets here say when it commits (so it may be
        called again at any time; a mark already right commits nothing)."""
        if self.processes is not None:  # our row first: nobody may count us gone unseen
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.wrap_future(self.processes.registered), 5)

        def mark(room: Room) -> None:
            st = next((st for st in room.seats.values() if st.taken and st.token == token),
                      None)
            if st is not None:
                _present(st, self.owner, self._here(code, token), time.time())
                _empty_since(room, time.time())

        for _ in range(5):
            try:
                room = await self.read(code)
                st = next((st for st in room.seats.values() if st.taken and st.token == token),
                          None)
                if st is None or (self.owner in st.via) == self._here(code, token):
                    return
                await self.change(code, mark)
                return
            except Changed:
                continue
            except (RoomNotFound, SaveFailed):
                return

    def _sync_soon(self, code: str, token: str) -> None:
        """``_connected`` in a task of its own (once at a time per person)."""
        if (code, token) in self._syncing:
            return
        self._syncing.add((code, token))

        async def run() -> None:
            try:
                await self._connected(code, token)
            finally:
                self._syncing.discard((code, token))
        task = asyncio.get_running_loop().create_task(run())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _presence(self, room: Room, asked: float) -> bool:
        """The room's seats against the living processes (``asked``: when it was read): the
        ids of dead processes taken out, a seat left with none disconnected from when its
        last died (a save older than ``via``: from now); the seats this process holds, or
        no longer holds, marked again. True if the room was changed."""
        code = room.code
        for st in room.seats.values():
            if st.taken and (self.owner in st.via) != self._here(code, st.token):
                self._sync_soon(code, st.token)
        if self.processes is None:
            return False
        others = {p for st in room.seats.values() if st.taken for p in st.via
                  if p != self.owner}
        dead = self.processes.gone(others, asked) if others else {}
        unknown = any(st.taken and st.connected and not st.via for st in room.seats.values())
        if not dead and not unknown:
            return False
        now = time.time()

        def reap(r: Room) -> None:
            for st in r.seats.values():
                gone = [dead[p] for p in st.via if p in dead]
                if gone or (st.taken and st.connected and not st.via):
                    st.via = [p for p in st.via if p not in dead]
                    _present(st, "", False, min(max(gone, default=now), now))
            _empty_since(r, min(max(dead.values(), default=now), now))
        await self.change(code, reap, room.version)
        log.info("room %s: seats of gone processes disconnected (%s)", code,
                 ", ".join(sorted(dead)) or "connected through processes unknown")
        return True

    def _deaths(self, ids: set[str]) -> None:
        """``processes`` saw processes die (its thread): every driver here looks, and the
        rooms they held that no driver here serves get one (``_sweep``)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._sweep_soon, ids)

    def _sweep_soon(self, ids: set[str]) -> None:
        for ev in self._wake.values():
            ev.set()
        if not self._stop.is_set():
            task = asyncio.get_running_loop().create_task(self._sweep(ids))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def _sweep(self, ids: set[str]) -> None:
        """The open rooms with a seat connected through a dead process, driven here for a
        look even if nobody here is in them (nobody else may be): their seats disconnected,
        an empty room's idle clock started."""
        try:
            codes = await self._db(self.store.held_by, ids)
        except SaveFailed:
            return
        for code in codes:
            self.drive(code)

    # -- what a seat asks for ---------------------------------------------------------------------

    async def dispatch(self, code: str, who: str, msg: dict[str, Any]) -> dict[str, Any]:
        """One request of the person whose token hashes to ``who``: the change, committed, or
        what they asked for (a hint: to their seat only). Their seat is looked up by the token,
        and checked again in the change: a seat number alone acts for nobody."""
        room = await self.read(code)
        seat = next((s for s, st in room.seats.items() if st.taken and st.token == who), None)
        if seat is None:
            raise Refusal("bad_token", "this token holds no seat of this room", status=403)
        kind = msg.get("type")
        expect = msg.get("version")
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise Refusal("bad_request", "version: a number", status=422)

        def mine(room: Room) -> None:  # the token's seat must still be this person's
            if room.seats[seat].token != who or not room.seats[seat].taken:
                raise Refusal("bad_token", "this seat is no longer yours", status=403)

        def run(fn: Callable[[Room], None]) -> Callable[[Room], None]:
            def inner(room: Room) -> None:
                mine(room)
                fn(room)
            return inner

        if kind in ("play", "pass", "return") and room.game is not None \
                and self._programs(room):
            self.outside.check_ready(room.game)  # type: ignore[union-attr]
        if kind == "play":
            cards = msg.get("cards")
            if not isinstance(cards, list) or len(cards) > 27 or \
                    not all(isinstance(c, str) and len(c) <= 4 for c in cards):
                raise Refusal("bad_request", "cards: a list of cards", status=422)
            k, r = msg.get("kind"), msg.get("rank")
            if not (k is None or isinstance(k, str)) or not (r is None or isinstance(r, str)):
                raise Refusal("bad_request", "kind and rank: text", status=422)
            await self.change(code, run(lambda room: actions.play(room, seat, cards, k, r)),
                              expect)
        elif kind == "pass":
            await self.change(code, run(lambda room: actions.pass_turn(room, seat)), expect)
        elif kind == "return":
            card = msg.get("card")
            if not isinstance(card, str) or len(card) > 4:
                raise Refusal("bad_request", "card: a card", status=422)
            await self.change(code, run(lambda room: actions.return_card(room, seat, card)),
                              expect)
        elif kind == "ready":
            on = msg.get("ready", True)
            await self.change(code, run(lambda room: actions.set_ready(room, seat, bool(on))))
        elif kind == "start":
            seed = self._seed(msg)
            await self.change(code, run(lambda room: actions.start(room, seat, seed)))
        elif kind == "again":
            seed = self._seed(msg)
            await self.change(code, run(lambda room: actions.again(room, seat, seed)))
        elif kind == "next":
            await self.change(code, run(actions.go_on), expect)
        elif kind == "takeback":
            await self.change(code, run(lambda room: actions.take_back(room, seat)))
        elif kind == "leave":
            await self.change(code, run(lambda room: actions.leave(room, seat)))
        elif kind == "move":
            frm, to = msg.get("from"), msg.get("to")
            await self.change(code, run(lambda room: actions.move(
                room, seat, actions.seat_number(frm), actions.seat_number(to))))
        elif kind == "free":
            which = msg.get("seat")
            await self.change(code, run(lambda room: actions.free(
                room, seat, actions.seat_number(which))))
        elif kind == "outside":
            which, on = msg.get("seat"), msg.get("on", True)
            await self.change(code, run(lambda room: actions.set_outside(
                room, seat, actions.seat_number(which), bool(on))))
        elif kind == "settings":
            changes = msg.get("settings")
            if not isinstance(changes, dict):
                raise Refusal("bad_request", "settings: an object", status=422)
            await self.change(code, run(lambda room: actions.set_settings(room, seat, changes)))
        elif kind == "hint":
            return {"hint": (await self.hint(code, seat)).model_dump()}
        elif kind == "readings":
            return {"readings": await self.readings(code, seat, msg.get("cards"))}
        elif kind == "phrase":
            await self.phrase(code, seat, msg.get("phrase"))
        else:
            raise Refusal("bad_request", "unknown message type", status=422)
        return {}

    def _seed(self, msg: dict[str, Any]) -> int | None:
        seed = msg.get("seed")
        if seed is None:
            return None
        if not self.allow_seed:
            raise Refusal("seed_not_allowed", "this server deals its own cards", status=403)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise Refusal("bad_request", "seed: a number", status=422)
        return seed

    def player(self, room: Room) -> str:
        return self.store.db.ai or difficulty_player(room.settings.level)

    async def hint(self, code: str, seat: int) -> HintOut:
        """The AI's choice for ``seat`` on its turn, answered to it alone."""
        room = await self.read(code)
        game = actions.check_playing(room)
        if game.match.to_act != seat or results.pending_result(game) is not None:
            raise Refusal("not_your_turn", "a hint is given on your turn",
                          seat=game.match.to_act)
        obs = game.match.observation(seat)
        d = await self.ai.decide(self.store.db.hint_ai, seat, obs)
        return shown.hint_out(d.action, d.reason, d.played_by)

    async def readings(self, code: str, seat: int, cards: Any) -> dict[str, Any]:
        if not isinstance(cards, list) or len(cards) > 27:
            raise Refusal("bad_request", "cards: a list of cards", status=422)
        room = await self.read(code)
        game = actions.check_playing(room)
        obs = game.match.observation(seat)
        parsed = checks.parse_input_cards(cards)
        checks.check_held(obs, parsed)
        all_, legal = checks.readings_of(obs, parsed)
        return {"readings": [shown.play_out(r).model_dump() for r in all_],
                "legal": [shown.play_out(r).model_dump() for r in legal]}

    async def phrase(self, code: str, seat: int, phrase: Any) -> None:
        room = await self.read(code)
        if not room.settings.phrases:
            raise Refusal("phrases_off", "the room's maker turned quick phrases off")
        if phrase not in PHRASES:
            raise Refusal("bad_request", "an unknown phrase", status=422)
        frame = {"type": "phrase", "seat": seat, "phrase": phrase}
        await self._broadcast(code, frame)
        if self.bus == "postgres":
            await self._db(self._notify, code, f"{seat}:{phrase}")

    async def _broadcast(self, code: str, frame: dict[str, Any]) -> None:
        for link in list(self.links.get(code, ())):
            await self._send(link, frame)

    # -- driving a room: the AI's turns and the clocks ---------------------------------------------

    def drive(self, code: str) -> None:
        """Make sure a driver runs for the room in this process (it drives only while it holds
        the room's lease)."""
        if self._stop.is_set():
            return  # stopping: no new driver
        task = self._drivers.get(code)
        if task is None or task.done():
            self._wake[code] = asyncio.Event()
            self._drivers[code] = asyncio.get_running_loop().create_task(self._driver(code))

    def due(self, room: Room, now: float) -> tuple[float, str, int] | None:
        """The room's next timed event: (when, what, seat), or None."""
        t = self.times
        events: list[tuple[float, str, int]] = []
        if room.empty_since is not None:
            events.append((room.empty_since + t.idle_close, "close", 0))
        for s, st in room.seats.items():
            if st.taken and not st.connected and not st.auto and st.gone_since is not None:
                events.append((st.gone_since + t.grace, "auto", s))
        game = room.game
        if room.phase == "playing" and game is not None:
            if results.pending_result(game) is not None:
                events.append((room.result_since + t.result_wait, "next", 0))
            else:
                to_act = game.match.to_act
                if to_act is not None:
                    if room.ai_plays(to_act):
                        events.append((room.turn_since + t.pace, "ai", to_act))
                    elif room.settings.timer:
                        events.append((room.turn_since + room.settings.timer * t.timer_scale,
                                       "timeout",
                                       to_act))
        return min(events) if events else None

    def _needs_driver(self, room: Room) -> bool:
        return room.phase == "playing" or room.empty_since is not None or \
            any(st.gone_since is not None and not st.auto for st in room.seats.values())

    async def _driver(self, code: str) -> None:
        wake = self._wake[code]
        owned_until = 0.0
        while True:
            try:
                room = await self.read(code)
            except RoomNotFound:
                break
            except Exception:
                log.exception("room %s: cannot be read", code)
                await asyncio.sleep(1)
                continue
            try:  # first: a driver started for a dead process's room (``_sweep``) looks
                if await self._presence(room, time.time()):
                    continue
            except (Changed, SaveFailed):
                await asyncio.sleep(0.05)
                continue
            except RoomNotFound:
                break
            if not self._needs_driver(room) and code not in self.links:
                break
            now = time.time()
            if self.shared and owned_until - now < self.times.lease / 2:
                if await self._db(self.store.claim, code, self.owner, self.times.lease):
                    owned_until = now + self.times.lease
                else:
                    owned_until = 0.0
                    wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), self.times.lease / 2)
                    continue
            nxt = self.due(room, now)
            wait = self.times.lease / 3 if nxt is None else nxt[0] - now
            if self.shared:
                wait = min(wait, self.times.lease / 3)
            if nxt is None or wait > 0:
                wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), max(0.0, wait))
                continue
            try:
                await self._do(room, nxt[1], nxt[2])
            except Refusal as r:
                if r.code == "waiting_outside":  # until its program connects
                    wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), 0.5)
                continue
            except Changed:
                continue  # the room moved on meanwhile: look again
            except RoomNotFound:
                break
            except Exception:
                log.exception("room %s: its driver failed", code)
                await asyncio.sleep(1)
        self._drivers.pop(code, None)
        if self.shared:
            await self._db(self.store.release, code, self.owner)

    async def _do(self, room: Room, what: str, seat: int) -> None:
        code, version = room.code, room.version
        if what == "close":
            def close(r: Room) -> None:
                r.closed = True
            await self.change(code, close, version)
        elif what == "auto":
            def auto(r: Room) -> None:
                r.seats[seat].auto = True
            await self.change(code, auto, version)
        elif what == "next":
            await self.change(code, actions.go_on, version)
        elif what in ("ai", "timeout"):
            game = room.game
            assert game is not None
            obs = game.match.observation(seat)
            notes: dict[str, Any] = {}
            if seat in game.outside and self._programs(room) and \
                    self.outside is not None and self.outside.shared:
                self.outside.check_ready(game)  # waiting_outside: the driver waits
                # Several processes: the process that holds the seat's program asks it and
                # commits its action; our AI plays the seat only when none holds it.
                if await self.outside.held(game, seat):
                    raise Refusal("waiting_outside", "the seat's program is being asked")
                d = await self.ai.decide(self.player(room), seat, obs)
                notes = self.outside.absent(seat)
            elif seat in game.outside and self._programs(room):
                assert self.outside is not None
                self.outside.check_ready(game)  # waiting_outside: the driver waits
                snap = self.outside.asks(game, seat)
                assert snap is not None
                d, notes = await self.outside.decide(game.id, snap, seat, obs,
                                                     self.player(room), self.ai)
            else:
                d = await self.ai.decide(self.player(room), seat, obs)

            def act(r: Room) -> None:
                assert r.game is not None
                Outside.note(r.game, notes)
                actions.ai_act(r, seat, d.action, what == "timeout")
            await self.change(code, act, version)

    # -- other processes ---------------------------------------------------------------------------

    def start(self) -> None:
        """On the server's loop, as it starts: this process's beat (``processes``), the other
        processes' changes listened to."""
        self._ensure_loop()

    def _ensure_loop(self) -> None:
        if self._loop is not None:
            return
        self._loop = asyncio.get_running_loop()
        if self.processes is not None:
            self.processes.start()
        if self.bus == "postgres":
            self._listener = threading.Thread(target=self._listen, daemon=True,
                                              name="guandan-rooms-listen")
            self._listener.start()
        elif self.bus == "poll":
            self._tasks.append(self._loop.create_task(self._poll()))

    def _notify(self, code: str, phrase: str = "") -> None:
        try:
            with self.store.db.transaction(write=True) as tx:
                tx.execute("SELECT pg_notify('guandan_rooms', ?)",
                           (f"{self.owner}:{code}:{phrase}",))
        except self.store.db.errors as e:
            log.warning("rooms: NOTIFY failed: %s", type(e).__name__)

    def _listen(self) -> None:
        """PostgreSQL's ``LISTEN``: every process hears every room's change."""
        import psycopg

        while not self._stop.is_set():
            try:
                assert self.database is not None
                with psycopg.connect(self.database, autocommit=True) as conn:
                    conn.execute("LISTEN guandan_rooms")
                    # (Re)connected: what changed while nobody listened is pushed now.
                    assert self._loop is not None
                    self._loop.call_soon_threadsafe(self._heard_all)
                    # One connection for good: ``notifies`` ends after ``timeout`` in all
                    # (then the stop flag is looked at), and a NOTIFY sent while no
                    # connection listened (one closed and opened every second) is lost.
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=1.0, stop_after=None):
                            if self._stop.is_set():
                                return
                            self._heard(n.payload)
            except Exception as e:  # the database went away: listen again shortly
                if self._stop.is_set():
                    return
                log.warning("rooms: LISTEN lost (%s): listening again", type(e).__name__)
                time.sleep(0.5)

    def _heard(self, payload: str) -> None:
        owner, _, rest = payload.partition(":")
        code, _, phrase = rest.partition(":")
        if owner == self.owner or self._loop is None:
            return
        if phrase:
            seat, _, what = phrase.partition(":")
            frame = {"type": "phrase", "seat": int(seat), "phrase": what}
            self._loop.call_soon_threadsafe(
                lambda: self._loop.create_task(self._broadcast(code, frame))  # type: ignore[union-attr]
                if code in self.links else None)
            return
        self._loop.call_soon_threadsafe(self._remote, code)

    def _heard_all(self) -> None:
        for code in list(self.links):
            self._remote(code)

    def _remote(self, code: str) -> None:
        if code in self.links or code in self._drivers:
            self.changed(code)

    async def _poll(self) -> None:
        """SQLite with several processes: the rooms with sockets here, looked at every
        ``poll`` s; a newer version is pushed."""
        while True:
            await asyncio.sleep(self.poll)
            codes = list(self.links)
            if not codes:
                continue
            versions = await self._db(self.store.versions, codes)
            for code in codes:
                v = versions.get(code)
                links = self.links.get(code, set())
                if v is None or any(link.sent < v for link in links):
                    self.changed(code)

    async def shutdown(self) -> None:
        held = {(link.code, link.token) for links in self.links.values() for link in links
                if link.seat is not None}
        self._stop.set()
        for task in [*self._drivers.values(), *self._tasks]:
            task.cancel()
        for links in list(self.links.values()):
            for link in list(links):
                await self._close(link, 1001, "server stopping")
        # A clean stop: its people's seats disconnected now (their sockets here are closed),
        # then its row says ended, which the others read as gone at once.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(
                *(self._connected(code, token) for code, token in held), *self._pending,
                return_exceptions=True), 5)
        if self.processes is not None:
            await asyncio.to_thread(self.processes.stop)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, 3)
        await self._work.drain()  # the database's work on its way, before the store closes


def _present(st: Seat, process: str, on: bool, when: float) -> None:
    """The seat connected through ``process`` (or not): connected while any process holds it;
    gone since ``when`` once none does."""
    st.via = [p for p in st.via if p != process] + ([process] if on and process else [])
    if st.via:
        st.connected, st.gone_since = True, None
    elif st.connected:
        st.connected, st.gone_since = False, when


def _empty_since(room: Room, when: float) -> None:
    if any(s.connected for s in room.seats.values()):
        room.empty_since = None
    elif room.empty_since is None:
        room.empty_since = when
