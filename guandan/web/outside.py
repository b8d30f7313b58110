"""Outside programs at the page's seats: the competition's protocol on the web server.

(Its addresses are the routes of ``routers/outside.py``; this module is what they call.)

A new game may leave seats 2, 3 and/or 4 to outside programs (``NewGameIn.outside``). Each
such seat has its own address on this server, ``ws://HOST:PORT/game/<token>``
(``store.game.outside_path``: derived from the game's id, which the program never learns). A
program that connects there plays the seat with the protocol of ``guandan host``: the messages
are built and the answers read by ``guandan.host.relay.Relay`` (one per game), so the page and
``guandan host`` speak one protocol, with one set of rules for bad peers.

How it fits the page's flow:

- The page asks the server to step for the seat to act, as for the AI. For an outside seat
  the server asks its program (``Outside.decide``); once the seat is replaced (a bad answer
  twice, silence past ``timeout`` twice, a dropped connection) our AI decides for it for the
  rest of the hand, and the hand's record says so (``Game.outside_notes``).
- The relay follows the game on a copy of the match of its own (the *shadow*), brought up to
  the saved game after every change (``catch_up``): each action the person, the AI or a
  program took is told to the programs as the protocol's ``notify`` messages, built from each
  seat's own observation. The programs never receive another seat's cards, the browser never
  receives theirs.
- **Waiting**: a hand begins for the programs (their ``beginning`` message) only when every
  outside seat has its program. Until then nothing moves: the person's actions and the steps
  are refused with ``waiting_outside``, and ``GET /api/games/{id}/outside`` says which seats
  the game waits for. A program that connects during a hand it did not see begin plays from
  the next hand (our AI meanwhile). After the server restarted (or the game was opened in
  another process), the programs reconnect, are told the hand in play from its beginning,
  and play on.
- **Processes** (``guandan serve --processes N``, several servers on one PostgreSQL: the
  ``shared`` mode, with a ``ProgramSeats`` table): a program's connection lives in one server
  process, and the relay with it; the people's requests and a room's driver may be in others.
  The process that holds the program asks it: it says so in the database
  (``programs.ProgramSeats``, a lease renewed while the program is connected), follows the
  game from the database (a look every ``poll`` s: ``_follow``), tells its programs what
  happened, asks its program when the seat is to act, and commits the answer over the game
  as it read it (compare-and-set), like any action. The other processes never play a seat
  whose program is held: a step waits for the holder's action (``wait_program``), a room's
  driver waits. A hand waits, before its first action, until every outside seat's program is
  held somewhere (``waiting_outside``); once it is under way, a seat whose program left (or
  whose process died: its lease runs out) is played by our AI, the record says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import BackgroundTasks, WebSocket

from guandan.cards import parse_card, parse_cards
from guandan.host.relay import Peer, PeerGone, QueuedPeer, Relay
from guandan.host.server import SETTLE
from guandan.match import PASS, Action, Match, Observation
from guandan.players import Reason
from guandan.readings import read_as
from guandan.web import checks
from guandan.web.ai import AIPool, Decision
from guandan.web.errors import Refusal
from guandan.web.inflight import InFlight
from guandan.web.locks import changing, reading
from guandan.web.models import OutsideOut, OutsideSeatStatus, OutsideState
from guandan.web.programs import Address, ProgramSeats
from guandan.web.results import pending_result
from guandan.web.store import Changed, Game, GameNotFound, GameStore, difficulty_player
from guandan.web.store.game import OUTSIDE_SEATS, outside_path

log = logging.getLogger("guandan.web")
T = TypeVar("T")

#: Seconds an outside program has for each answer (``guandan serve --outside-timeout``).
DEFAULT_TIMEOUT = 10.0
OUTSIDE_REASON = Reason("바깥 프로그램이 골랐습니다.", "An outside program chose.",
                        "外部程序选的。")


class WebPeer(QueuedPeer):
    """An outside program on one of the page server's WebSockets.

    ``send`` never waits (the relay may call it on the event loop): messages go through
    ``outbox`` to a task that writes them, the first one ``SETTLE`` s after the handshake (the
    competition's ws4py clients break on a message that comes with the handshake's answer).
    What the program sends waits in ``inbox`` for the relay's ``receive`` (in a thread).
    """

    def __init__(self, ws: WebSocket, name: str, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(name)
        self.ws = ws
        self.loop = loop
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._since = time.monotonic()

    def send(self, message: Mapping[str, Any]) -> None:
        if self._gone.is_set():
            raise PeerGone(self.name)
        text = json.dumps(message, separators=(",", ":"))
        try:
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, text)
        except RuntimeError:  # the server's loop is closed: so is the connection
            self.closed()
            raise PeerGone(self.name) from None

    async def writer(self) -> None:
        """Write what ``send`` queued, until ``None`` or the connection fails."""
        await asyncio.sleep(max(0.0, self._since + SETTLE - time.monotonic()))
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            try:
                await self.ws.send_text(text)
            except Exception:  # closed under us: the reader notices too
                self.closed()
                return


def _action(item: list[Any], match: Match) -> Action:
    """The action of a saved match's entry (``Match.to_json``'s ``actions``)."""
    if item[1] == "pass":
        return PASS
    if item[1] == "return":
        return parse_card(item[2])
    return read_as(parse_cards(item[2]), match.level, str(item[3]),
                   None if item[4] is None else str(item[4]))


@dataclass(frozen=True)
class Snapshot:
    """A game's match as committed: its save, and how many of its actions are of the hand in
    play (read under the game's lock; used after it)."""

    saved: dict[str, Any]
    in_hand: int
    over: bool

    @classmethod
    def of(cls, game: Game) -> Snapshot:
        m = game.match
        return cls(m.to_json(), sum(1 for e in m.events if e.kind != "gift"),
                   m.to_act is None)

    def same(self, game: Game) -> bool:
        """Whether ``game``'s match is still the one of the snapshot, no action since."""
        now = game.match.to_json()
        return (now["seed"], now["match"], len(now["actions"])) == \
            (self.saved["seed"], self.saved["match"], len(self.saved["actions"]))


class Session:
    """The outside seats of one game in this process: their programs and the relay.

    The relay's methods run in a thread (``asyncio.to_thread``) under ``lock``, one at a time.
    """

    def __init__(self, game_id: str, seats: tuple[int, ...], timeout: float,
                 ai: str = "heuristic") -> None:
        self.game_id = game_id
        self.seats = seats
        self.peers: dict[int, WebPeer] = {}
        # ``ai`` only names the player of a replaced seat in the log: the AI pool decides.
        self.relay = Relay(self._seating, fallback=ai, timeout=timeout,
                           log=lambda text: log.info("outside seats of a game: %s", text))
        self.shadow: Match | None = None
        self.done = 0  # actions of the shadow's match told to the programs (or skipped)
        self.backlog = 0  # actions taken before this process followed the match: they may wait
        self.begun: tuple[int, int] | None = None  # (match, hand) whose beginning was told
        self.lock = asyncio.Lock()
        self.refused = dict.fromkeys(seats, 0)
        self.connections = dict.fromkeys(seats, 0)

    def _seating(self) -> dict[int, Peer]:
        return {s: p for s, p in self.peers.items() if not p.gone}

    def connected(self, seat: int) -> bool:
        peer = self.peers.get(seat)
        return peer is not None and not peer.gone

    def all_connected(self) -> bool:
        return all(self.connected(s) for s in self.seats)

    def waiting(self, match_number: int, hand: int, over: bool) -> list[int]:
        """The seats the hand (``match_number``, ``hand``) waits for: none once the programs
        were told its beginning."""
        if over or self.begun == (match_number, hand):
            return []
        return [s for s in self.seats if not self.connected(s)]

    # -- in a thread, under the lock ------------------------------------------------------------

    def _begin(self) -> None:
        """Tell the connected programs the shadow's hand in play begins."""
        sh = self.shadow
        assert sh is not None
        if sh.to_act is not None:
            self.relay.sync(sh)
            self.begun = (sh.match_number, sh.hand_number)

    def _hand_begun(self) -> bool:
        sh = self.shadow
        return sh is not None and self.begun == (sh.match_number, sh.hand_number)

    def catch_up(self, snap: Snapshot, force: bool = False) -> None:
        """Bring the shadow to ``snap``, telling the programs every action on the way.

        A hand the programs were not told the beginning of waits for all of them, unless an
        action of it was taken since this process follows the game (or ``force``): it then
        begins with the programs that are here (the others are replaced in it).
        """
        saved, actions = snap.saved, snap.saved["actions"]
        sh = self.shadow
        if sh is None or self.done > len(actions):
            # Following the game from here: the hand in play is told from its beginning, the
            # hands before it are not told (a finished match: nothing is told).
            start = len(actions) if snap.over else len(actions) - snap.in_hand
            sh = self.shadow = Match.from_json(saved | {"actions": actions[:start]})
            self.done, self.backlog = start, len(actions)
        elif (sh.seed, sh.match_number) != (saved["seed"], saved["match"]):
            sh = self.shadow = Match.from_json(saved | {"actions": []})  # a new match
            self.done = self.backlog = 0
        for i in range(self.done, len(actions)):
            if not self._hand_begun():
                if i < self.backlog and not force and not self.all_connected():
                    return  # the hand waits for its programs
                self._begin()
            item = actions[i]
            seat = item[0]
            before = sh.observation(seat)
            action = _action(item, sh)
            sh.apply(action)
            self.done = i + 1
            self.relay.applied(sh, seat, action, before)
        if not self._hand_begun() and (force or self.all_connected()):
            self._begin()

    def ask(self, snap: Snapshot, seat: int,
            obs: Observation) -> tuple[Action | None, dict[str, Any]]:
        """The program's action for ``seat`` (None: our AI decides, the seat is replaced), and
        the hand's notes for the record."""
        sh, saved = self.shadow, snap.saved
        if sh is not None and (sh.seed, sh.match_number) == (saved["seed"], saved["match"]) \
                and self.done > len(saved["actions"]):
            raise Changed("the game changed meanwhile")  # the programs know more already
        self.catch_up(snap, force=True)
        before = self.relay.stats.refused
        action = self.relay.ask(seat, obs)
        self.refused[seat] += self.relay.stats.refused - before
        return action, self.notes()

    def notes(self) -> dict[str, Any]:
        """``outside`` and ``replaced`` of the hand in play, as its record gives them."""
        out: dict[str, Any] = {}
        if self.relay.outside:
            out["outside"] = {str(s): n for s, n in sorted(self.relay.outside.items())}
        if self.relay.replacements:
            out["replaced"] = [r.to_json() for r in self.relay.replacements.values()]
        return out

    def finish(self) -> None:
        self.relay.finish()

    # -- for the page -------------------------------------------------------------------------

    def status(self, seat: int, game: Game) -> OutsideSeatStatus:
        m = game.match
        connected = self.connected(seat)
        begun = self.begun == (m.match_number, m.hand_number) and m.to_act is not None
        reason = detail = None
        state: OutsideState
        replaced = self.relay.replacements.get(seat) if begun else None
        if m.to_act is None:
            state = "playing" if connected else "ai"
        elif not begun:
            state = "ready" if connected else "waiting"
        elif replaced is not None:
            state, reason, detail = "replaced", replaced.code, replaced.reason
        elif seat in self.relay.outside and self.relay.is_outside(seat):
            state = "playing" if connected else "dropped"
        else:
            state = "next_hand" if connected else "ai"
        return OutsideSeatStatus(seat=seat, path=outside_path(game.id, seat),
                                 connected=connected, state=state, reason=reason,
                                 detail=detail, refused=self.refused[seat],
                                 connections=self.connections[seat])


#: How the process that holds a program commits its action (a room's match: ``rooms.hub``):
#: (game id, the game as the action was decided on, seat, the decision, the hand's notes).
Commit = Callable[[str, Snapshot, int, Decision, dict[str, Any]], Awaitable[None]]


def token_of(game_id: str, seat: int) -> str:
    return outside_path(game_id, seat).rsplit("/", 1)[1]


class Outside:
    """This server's outside seats: the sessions of its games and the ``/game/<token>``
    addresses they answer at (``available``: whether new games may have outside seats).

    ``programs``: the table of the programs' seats shared by several server processes (the
    ``shared`` mode, see the module docstring), whose ``ai`` plays a seat once its program
    is replaced, and whose followers look at their games every ``poll`` s.
    """

    def __init__(self, store: GameStore, available: bool = True,
                 timeout: float = DEFAULT_TIMEOUT, programs: ProgramSeats | None = None,
                 ai: AIPool | None = None, poll: float = 0.1) -> None:
        self.store = store
        self.available = available
        self.timeout = timeout
        self.programs = programs
        self.ai = ai
        self.poll = poll
        self.sessions: dict[str, Session] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        #: Games that are not the store's (a friends' room's match, ``rooms.hub``): how to
        #: read each as committed (None once it is gone), and how to commit an action of it.
        self.readers: dict[str, Callable[[], Awaitable[Game | None]]] = {}
        self.commits: dict[str, Commit] = {}
        self.room_of: dict[str, str] = {}  # a room's match's game id: the room's code
        #: Set by the rooms' hub: makes ``readers`` and ``commits`` of a room's match
        #: (game id, room code), for a program whose socket lands here first.
        self.open_room: Callable[[str, str], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._registered: set[str] = set()
        self._held: dict[str, tuple[str, int]] = {}  # token: (game, seat) held here
        self._followers: dict[str, asyncio.Task[None]] = {}
        self._wakes: dict[str, asyncio.Event] = {}
        self._renewer: asyncio.Task[None] | None = None
        self._work = InFlight()

    @property
    def shared(self) -> bool:
        """Several server processes: a program's seat is held through the database."""
        return self.programs is not None

    def session(self, game: Game) -> Session | None:
        """The game's session here (made on first use: its addresses then answer; with
        several processes, in all of them)."""
        if not game.outside or not self.available:
            return None
        s = self.sessions.get(game.id)
        if s is None:
            s = Session(game.id, game.outside, self.timeout, game.ai)
            self.sessions[game.id] = s
            for seat in game.outside:
                self.tokens[token_of(game.id, seat)] = (game.id, seat)
        if self.programs is not None and game.id not in self._registered:
            room = self.room_of.get(game.id, "")
            try:
                for seat in game.outside:
                    self.programs.register(token_of(game.id, seat),
                                           Address(game.id, seat, room))
                self._registered.add(game.id)
            except self.store.errors as e:  # the next use registers them again
                log.warning("outside seats: not registered (%s)", type(e).__name__)
        return s

    def _tokens(self, game: Game) -> dict[int, str]:
        return {seat: token_of(game.id, seat) for seat in game.outside}

    def holders(self, game: Game) -> dict[int, str]:
        """The game's outside seats whose program a live process holds (seat: process)."""
        assert self.programs is not None
        try:
            return self.programs.holders(self._tokens(game))
        except self.store.errors as e:
            raise Refusal("save_failed", f"the database failed ({type(e).__name__}): nothing "
                          "was changed", status=503) from None

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        """The programs' table's work, in a thread, finished before the server stops."""
        return await self._work.run(fn, *args)

    async def held(self, game: Game, seat: int) -> bool:
        """Whether a live process holds the program of ``seat`` (it plays the seat)."""
        return seat in await self._db(self.holders, game)

    # -- the routes' part -------------------------------------------------------------------

    def check_new(self, seats: list[int]) -> tuple[int, ...]:
        """The outside seats a new game asks for, or a refusal saying why not."""
        if len(set(seats)) != len(seats) or any(s not in OUTSIDE_SEATS for s in seats):
            raise Refusal("bad_request", "outside: distinct seats among 2, 3, 4", status=422)
        if seats and not self.available:
            raise Refusal("outside_unavailable",
                          "this server was made without outside seats "
                          "(create_app(outside_seats=False))", status=409)
        return tuple(sorted(seats))

    def check_ready(self, game: Game) -> None:
        """Refuse to move the game while its hand waits for an outside program."""
        s = self.session(game)
        if s is None:
            return
        m = game.match
        if self.shared:
            # Before the hand's first action, every outside seat's program must be held by
            # some process (the database says; read once a hand, when it matters).
            if m.to_act is None or any(e.kind != "gift" for e in m.events):
                return
            held = self.holders(game)
            waiting = [x for x in game.outside if x not in held]
            if waiting:
                raise Refusal("waiting_outside",
                              f"the hand waits for the outside program of seat {waiting[0]}",
                              seat=waiting[0], seats=waiting)
            return
        waiting = [x for x in s.waiting(m.match_number, m.hand_number, m.to_act is None)
                   if x in game.outside]
        if waiting:
            raise Refusal("waiting_outside",
                          f"the hand waits for the outside program of seat {waiting[0]}",
                          seat=waiting[0], seats=waiting)

    def gate(self, game: Game, later: BackgroundTasks) -> None:
        """Before a person's action: refuse it while the game waits; once the change is
        committed, tell the programs (``later`` runs after the answer)."""
        if not game.outside:
            return
        self.check_ready(game)
        if self.shared:
            later.add_task(self.wake, game.id)
        else:
            later.add_task(self.catch_up, game.id)

    def asks(self, game: Game, seat: int) -> Snapshot | None:
        """The game as it is, if an outside program (or our AI in its place) plays ``seat``
        through the relay; None for our AI's seats."""
        if seat not in game.outside:
            return None
        if self.session(game) is None:  # this server cannot seat programs: our AI plays
            return None
        return Snapshot.of(game)

    async def decide(self, game_id: str, snap: Snapshot, seat: int, obs: Observation,
                     name: str, ai: AIPool) -> tuple[Decision, dict[str, Any]]:
        """The action of outside seat ``seat``: its program's, or our AI's once it is
        replaced; and the hand's notes for its record."""
        s = self.sessions.get(game_id)
        if s is None:  # deleted meanwhile: the change that follows will say so
            return await ai.decide(name, seat, obs), {}
        async with s.lock:
            action, notes = await asyncio.to_thread(s.ask, snap, seat, obs)
        if action is not None:
            return Decision(action, OUTSIDE_REASON, "outside", 0.0), notes
        return await ai.decide(name, seat, obs), notes

    @staticmethod
    def note(game: Game, notes: dict[str, Any]) -> None:
        """Keep the hand's notes with the game (committed with the action)."""
        if not notes:
            return
        hand = game.match.hand_number
        old = game.outside_notes.get(hand, {})
        replaced = {r["seat"]: r for r in old.get("replaced", [])}
        replaced |= {r["seat"]: r for r in notes.get("replaced", [])}
        new = dict(old) | notes
        if replaced:
            new["replaced"] = [replaced[k] for k in sorted(replaced)]
        game.outside_notes[hand] = new

    def unavailable_note(self, game: Game, seat: int) -> None:
        """Our AI played an outside seat: the record says why (this server cannot seat
        programs; with several processes, no process holds the seat's program)."""
        Outside.note(game, self.absent(seat))

    def absent(self, seat: int) -> dict[str, Any]:
        """The hand's notes when our AI plays outside seat ``seat`` without asking a program."""
        reason = ("no outside program is connected" if self.available else
                  "this server cannot seat outside programs")
        return {"replaced": [{"seat": seat, "turn": 0, "reason": reason}]}

    def later(self, game: Game) -> None:
        """Tell the programs what was just committed, without holding up the answer."""
        if self.shared:
            self.wake(game.id)
        elif game.outside and game.id in self.sessions:
            self._later(game.id)

    def wake(self, game_id: str) -> None:
        """The game changed here: its follower (if any) looks at it now."""
        ev = self._wakes.get(game_id)
        if ev is not None:
            ev.set()

    def _later(self, game_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.catch_up(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def read(self, game_id: str) -> Game | None:
        """The game as committed (a room's match: read through the room), None if gone."""
        reader = self.readers.get(game_id)
        if reader is not None:
            return await reader()
        try:
            async with reading(self.store, game_id) as game:
                return game
        except GameNotFound:
            return None

    async def catch_up(self, game_id: str) -> None:
        s = self.sessions.get(game_id)
        if s is None:
            return
        try:
            async with s.lock:
                found = await self.read(game_id)
                if found is None:
                    return
                await asyncio.to_thread(s.catch_up, Snapshot.of(found))
        except Exception:  # a failure here must not stop the game: the next step retries
            log.exception("telling the outside programs of a game failed")

    # -- several processes: the process that holds a program asks it --------------------------

    async def wait_program(self, game: Game, seat: int) -> bool:
        """Another process's program (or this one's follower) plays ``seat`` of ``game`` (as
        read): wait until its action is committed (True), or until no live process holds the
        program any more (False: our AI plays the seat)."""
        version = game.version
        deadline = time.monotonic() + self.timeout * 2 + self._lease() + 5
        while time.monotonic() < deadline:
            held = await self.held(game, seat)
            now = await self.read(game.id)
            if now is None:
                raise GameNotFound(game.id)
            if now.version != version:
                return True
            if not held:
                return False
            await asyncio.sleep(self.poll)
        raise Changed("the outside program's process has not answered yet: step again")

    def _lease(self) -> float:
        return self.programs.lease if self.programs is not None else 0.0

    def _follow_game(self, game_id: str) -> None:
        task = self._followers.get(game_id)
        if task is None or task.done():
            self._wakes[game_id] = asyncio.Event()
            task = asyncio.get_running_loop().create_task(self._follow(game_id))
            self._followers[game_id] = task

    async def _follow(self, game_id: str) -> None:
        """While programs of the game are held here: follow it from the database, tell them
        what happens, ask the one whose seat is to act, and commit its answer."""
        assert self.programs is not None
        wake = self._wakes[game_id]
        while True:
            s = self.sessions.get(game_id)
            if s is None or not any(g == game_id for g, _ in self._held.values()):
                break
            try:
                game = await self.read(game_id)
                if game is None:
                    await self.close(game_id, "the game is over or deleted")
                    break
                for gone in [x for x in s.seats if x not in game.outside]:
                    await self.release(game_id, gone)
                snap = Snapshot.of(game)
                held = await self._db(self.holders, game)
                ready = snap.over or snap.in_hand > 0 or all(x in held for x in game.outside)
                async with s.lock:
                    await asyncio.to_thread(s.catch_up, snap, ready)
                seat = game.match.to_act
                if ready and seat is not None and held.get(seat) == self.programs.owner \
                        and s.connected(seat) and pending_result(game) is None:
                    await self._play(game, snap, seat)
                    continue
            except Changed:
                continue  # the game moved on meanwhile: look again
            except Exception:  # a failure must not stop the program's seat: look again
                log.exception("following a game for its outside programs failed")
                await asyncio.sleep(1)
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.poll)
        if self._followers.get(game_id) is asyncio.current_task():
            del self._followers[game_id]
            self._wakes.pop(game_id, None)
            s = self.sessions.get(game_id)
            if s is not None and not any(s.connected(x) for x in s.seats):
                # No program of the game here: the next one to connect gets a session that
                # follows the game afresh (told the hand in play from its beginning), not
                # one whose hand began for the program that left.
                del self.sessions[game_id]

    async def _renew(self) -> None:
        """This process's holds, renewed every third of the lease while it lives (a hold that
        ran out and was taken by another process: its program is closed here)."""
        assert self.programs is not None
        while self._held:
            await asyncio.sleep(self._lease() / 3)
            held = dict(self._held)
            try:
                kept = await self._db(self.programs.renew, list(held))
            except Exception as e:  # the database failed: try again (the lease may run out)
                log.warning("outside seats: renewing failed (%s)", type(e).__name__)
                continue
            for token in set(held) - kept:
                game_id, seat = held[token]
                s = self.sessions.get(game_id)
                if s is not None and self._held.get(token) == held[token]:
                    await self._drop(s, seat, "another server process holds the seat now")

    async def _play(self, game: Game, snap: Snapshot, seat: int) -> None:
        """Ask ``seat``'s program (held here) for its action and commit it."""
        assert self.ai is not None
        name = self.store.ai or difficulty_player(game.difficulty)
        d, notes = await self.decide(game.id, snap, seat, game.match.observation(seat), name,
                                     self.ai)
        commit = self.commits.get(game.id, self._commit)
        await commit(game.id, snap, seat, d, notes)

    async def _commit(self, game_id: str, snap: Snapshot, seat: int, d: Decision,
                      notes: dict[str, Any]) -> None:
        """A one-person game's outside seat acts: over the game as it was decided on."""
        async with changing(self.store, game_id) as game:
            if not snap.same(game) or game.match.to_act != seat:
                raise Changed("the game changed meanwhile")
            self.note(game, notes)
            checks.apply_action(game.match, d.action)

    async def _drop(self, s: Session, seat: int, reason: str) -> None:
        peer = s.peers.pop(seat, None)
        if peer is not None:
            peer.closed()
            peer.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await peer.ws.close(1013, reason)

    def status(self, game: Game) -> OutsideOut:
        s = self.session(game)
        if s is None:
            return OutsideOut(available=not game.outside or self.available, waiting=[], seats=[
                OutsideSeatStatus(seat=seat, path=outside_path(game.id, seat), connected=False,
                                  state="unavailable") for seat in game.outside])
        m = game.match
        if self.shared:
            return self._shared_status(s, game)
        return OutsideOut(available=True, waiting=[
            x for x in s.waiting(m.match_number, m.hand_number, m.to_act is None)
            if x in game.outside], seats=[s.status(seat, game) for seat in game.outside])

    def _shared_status(self, s: Session, game: Game) -> OutsideOut:
        """``status`` with several processes: a seat held here says what its relay knows;
        one held elsewhere, what the database says."""
        m = game.match
        held = self.holders(game)
        begun = m.to_act is None or any(e.kind != "gift" for e in m.events)
        waiting = [] if begun else [x for x in game.outside if x not in held]
        seats = []
        for seat in game.outside:
            if s.connected(seat):
                seats.append(s.status(seat, game))
                continue
            connected = seat in held
            state: OutsideState = ("playing" if connected else "ai") if begun else \
                ("ready" if connected else "waiting")
            seats.append(OutsideSeatStatus(seat=seat, path=outside_path(game.id, seat),
                                           connected=connected, state=state,
                                           refused=s.refused[seat],
                                           connections=s.connections[seat]))
        return OutsideOut(available=True, waiting=waiting, seats=seats)

    async def close(self, game_id: str, reason: str) -> None:
        """The game is gone: tell its programs the session is over and close them."""
        self.readers.pop(game_id, None)
        self.commits.pop(game_id, None)
        self.room_of.pop(game_id, None)
        self._registered.discard(game_id)
        s = self.sessions.pop(game_id, None)
        if s is None:
            return
        for token in [k for k, v in self.tokens.items() if v[0] == game_id]:
            del self.tokens[token]
        if s.lock.locked():  # a program is being asked: it is cut short, without gameResult
            for peer in list(s.peers.values()):
                peer.closed()
        async with s.lock:
            await asyncio.to_thread(s.finish)
        for peer in list(s.peers.values()):
            peer.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await peer.ws.close(1000, reason)

    async def release(self, game_id: str, seat: int) -> None:
        """``seat`` is no longer an outside program's: close its program (if any) and stop
        waiting for one. (The caller takes it out of ``Game.outside``.)"""
        s = self.sessions.get(game_id)
        if s is None:
            return
        path = outside_path(game_id, seat)
        self.tokens.pop(path.rsplit("/", 1)[1], None)
        s.seats = tuple(x for x in s.seats if x != seat)
        peer = s.peers.pop(seat, None)
        if peer is not None:
            peer.closed()
            peer.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await peer.ws.close(1000, "the page's AI plays this seat now")
        if not s.seats:
            await self.close(game_id, "no seat is left to outside programs")
        else:
            self._later(game_id)  # the others may all be here: the hand begins for them

    async def shutdown(self) -> None:
        for task in [*self._followers.values(), *([self._renewer] if self._renewer else [])]:
            task.cancel()
        if self.programs is not None and self._held:  # the others play these seats at once
            held, self._held = list(self._held), {}
            for token in held:
                with contextlib.suppress(Exception):
                    await self._db(self.programs.drop, token)
        self._work.close()
        await self._work.drain()  # the database's work on its way, before the store closes
        for game_id in list(self.sessions):
            s = self.sessions.pop(game_id)
            for peer in list(s.peers.values()):
                with contextlib.suppress(Exception):
                    await peer.ws.close(1001, "the server is stopping")

    # -- the programs' connections -----------------------------------------------------------

    async def serve(self, ws: WebSocket, token: str) -> None:
        """One program's connection to ``/game/<token>``: it plays that seat until it leaves
        or the game is deleted."""
        await ws.accept()
        where = self.tokens.get(token)
        if not self.available:
            return await self._refuse(ws, 1008, "this server cannot seat outside programs")
        if where is None and self.programs is not None:  # made in another process?
            where = await self._find(token)
        if where is None:
            return await self._refuse(ws, 1008, "no game waits for a program at this address "
                                                "here: open the game on the page first")
        game_id, seat = where
        s = self.sessions.get(game_id)
        if s is None and self.programs is not None and await self._find(token) is not None:
            s = self.sessions.get(game_id)
        if s is None:
            return await self._refuse(ws, 1008, "the game is over or deleted")
        if s.connected(seat):
            return await self._refuse(ws, 1013, f"seat {seat} already has its program")
        if self.programs is not None:
            try:
                mine = await self._db(self.programs.hold, token)
            except self.store.errors:
                mine = False
            if not mine:
                return await self._refuse(ws, 1013, f"seat {seat} already has its program "
                                                    "(in another server process)")
            self._held[token] = (game_id, seat)
            if self._renewer is None or self._renewer.done():
                self._renewer = asyncio.get_running_loop().create_task(self._renew())
            self._follow_game(game_id)
        peer = WebPeer(ws, "outside", asyncio.get_running_loop())
        s.peers[seat] = peer
        s.connections[seat] += 1
        log.info("an outside program took seat %d of a game", seat)
        writer = asyncio.create_task(peer.writer())
        self._tasks.add(writer)
        writer.add_done_callback(self._tasks.discard)
        self._later(game_id)  # everyone here now? the hand begins for them
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    text = (msg.get("bytes") or b"").decode("utf-8", "replace")
                peer.inbox.put(text)
        except Exception:  # the connection failed: the program is gone
            pass
        finally:
            peer.closed()
            peer.outbox.put_nowait(None)
            if s.peers.get(seat) is peer:
                del s.peers[seat]
            if self._held.pop(token, None) is not None and self.programs is not None:
                with contextlib.suppress(Exception):  # else its lease runs out
                    await self._db(self.programs.drop, token)
            log.info("the outside program of seat %d of a game left", seat)

    async def _find(self, token: str) -> tuple[str, int] | None:
        """The game and seat of an address registered by another process (its session made
        here), or None."""
        assert self.programs is not None
        try:
            found = await self._db(self.programs.find, token)
        except self.store.errors:
            return None
        if found is None:
            return None
        if found.room and self.open_room is not None:
            self.open_room(found.game_id, found.room)
        game = await self.read(found.game_id)
        if game is None or found.seat not in game.outside:
            return None
        self.session(game)
        return found.game_id, found.seat

    @staticmethod
    async def _refuse(ws: WebSocket, code: int, message: str) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps({"type": "error", "message": message}))
            await ws.close(code, message[:120])


__all__ = ["DEFAULT_TIMEOUT", "Outside", "Session", "Snapshot", "WebPeer"]
