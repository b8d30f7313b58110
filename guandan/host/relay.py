"""Outside programs at a match: what they are told, what they are asked, and bad peers.

A :class:`Relay` stands between a :class:`~guandan.match.Match` and the outside programs seated
at it (each a :class:`Peer`). The loop that plays the match calls it around every action::

    relay.sync(match)                       # the new hand's beginning, tribute, anti-tribute
    obs = match.observation(seat)
    action = relay.act(seat, obs) if seat in outside else ours[seat].act(obs)
    match.apply(action)
    relay.applied(match, seat, action, obs) # play/pass, back, episodeOver, gameOver

Every message to a seat is built from that seat's own observation and what every seat sees
(plays, passes, tribute gifts), so an outside program never receives another seat's cards: a
return it was not part of is left out of its ``back`` notice (a seat with no part in any return
gets none: the competition's server tells every return to every seat), and ``episodeOver``
lists only its own remaining cards.

A bad answer (an index outside ``actionList``, malformed JSON, no answer within ``timeout``) is
refused: the ``act`` message is sent again with an ``error`` field saying why (``retries`` times,
default once). After one more bad answer, or at once when the connection drops, the seat is
played by our ``fallback`` player for the rest of the hand; the hand's record lists it under
``replaced`` (and every hand's record names its outside programs under ``outside``).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from guandan.cards import Card
from guandan.host.notation import (
    PASS_WIRE,
    card_to_wire,
    cards_to_wire,
    expand,
    play_to_wire,
)
from guandan.match import PASS, Action, Match, Observation
from guandan.players import Player, Reason, make_player
from guandan.readings import Reading
from guandan.seats import SEATS, team_of
from guandan.tribute import givers


class PeerGone(Exception):
    """The outside program's connection is closed."""


class Peer:
    """One outside program's connection (the server gives a WebSocket one; tests fake it)."""

    name: str = "outside"
    #: Answers still owed for earlier questions (asked again after a timeout, a client that
    #: answers every copy owes one per copy): they are read and thrown away, never taken as
    #: the answer to a later question.
    stale: int = 0
    #: Copies of the current question sent and not answered yet.
    unanswered: int = 0

    def send(self, message: Mapping[str, Any]) -> None:
        """Send one JSON message; ``PeerGone`` if the connection is closed."""
        raise NotImplementedError

    def receive(self, timeout: float) -> str:
        """The next text received; ``TimeoutError`` after ``timeout`` s, ``PeerGone`` if closed."""
        raise NotImplementedError


    @property
    def gone(self) -> bool:
        return False


class QueuedPeer(Peer):
    """A peer whose connection's reader puts what arrives in ``inbox`` (a thread-safe queue),
    for ``receive`` to take; ``closed`` once the connection is gone."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inbox: queue.Queue[object] = queue.Queue()
        self._gone = threading.Event()

    def receive(self, timeout: float) -> str:
        try:
            item = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None
        if item is _CLOSED:
            self.inbox.put(_CLOSED)  # stays closed for the next reader
            raise PeerGone(self.name)
        return item if isinstance(item, str) else repr(item)

    @property
    def gone(self) -> bool:
        return self._gone.is_set()

    def closed(self) -> None:
        """The connection is gone: every later ``receive`` raises ``PeerGone``."""
        if not self._gone.is_set():
            self._gone.set()
            self.inbox.put(_CLOSED)


_CLOSED = object()


def protocol_pos(seat: int) -> int:
    """The protocol's position of our seat (seats 1-4 are positions 0-3)."""
    return seat - 1


@dataclass
class Replacement:
    """An outside seat played by our player for the rest of a hand."""

    seat: int
    turn: int  # actions of the hand already taken (returns included) when it was replaced
    reason: str
    #: Why, as a word for a page to say in its language: ``closed`` (the connection),
    #: ``absent`` (no program), ``silent`` (no answer in time), ``refused`` (bad answers).
    code: str = "refused"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "turn": self.turn, "reason": self.reason}


@dataclass
class HostStats:
    """What the relay counted: outside decisions, refusals, replacements, host time per act."""

    asked: int = 0
    refused: int = 0
    stale: int = 0  # late answers to earlier questions, thrown away
    replaced: int = 0
    hands_replaced: int = 0
    build_seconds: float = 0.0  # building act messages and reading answers, not waiting
    actions: list[int] = field(default_factory=list)  # actionList sizes


def action_list(obs: Observation) -> tuple[list[list[Any]], list[Action]]:
    """The ``actionList`` of an ``act`` message for ``obs`` and our action for each index.

    Playing: ``PASS`` first when following, then every physical choice of every legal play.
    Returning: one ``back`` entry per card that may be returned.
    """
    wire: list[list[Any]] = []
    ours: list[Action] = []
    cards = [a for a in obs.legal_actions if isinstance(a, Card)]
    if cards:
        for c in sorted(cards, key=lambda c: cards_to_wire([c], obs.level)):
            wire.append(["back", "back", [card_to_wire(c)]])
            ours.append(c)
        return wire, ours
    if any(a is PASS for a in obs.legal_actions):
        wire.append(list(PASS_WIRE))
        ours.append(PASS)
    plays = [a for a in obs.legal_actions if isinstance(a, Reading)]
    for v in expand(plays, obs.hand):
        wire.append(play_to_wire(v))
        ours.append(v)
    return wire, ours


def _wire_action(action: Action | None) -> list[Any] | None:
    if action is None:
        return None
    if isinstance(action, Reading):
        return play_to_wire(action)
    return list(PASS_WIRE)


#: The competition server's action of nobody: ``curAction`` and ``greaterAction`` of an ``act``
#: that asks for a lead (or a return), where ``curPos`` and ``greaterPos`` are -1.
NO_ACTION: Final = (None, None, None)


def act_message(obs: Observation, wire: list[list[Any]], last: tuple[int, Action] | None,
                error: str | None = None) -> dict[str, Any]:
    """The ``act`` message asking ``obs.seat`` to choose from ``wire``.

    As the competition's server sends it: a seat asked to lead a new trick (the hand's first
    lead, a lead after everyone else passed, the lead a partner inherits from a seat that went
    out) or to return a card is told ``curPos`` and ``greaterPos`` -1 with no action
    (``[null, null, null]``): programs written against that server tell a lead from a follow
    by these fields. A follow names the last action (``curPos``, ``curAction``, a pass too)
    and the play to beat (``greaterPos``, ``greaterAction``).
    """
    seat, level = obs.seat, obs.level
    areas: dict[int, list[Any] | None] = dict.fromkeys(SEATS)
    for e in obs.trick:
        if e.kind == "play" and e.play is not None:
            areas[e.seat] = play_to_wire(e.play)
        elif e.kind == "pass":
            areas[e.seat] = list(PASS_WIRE)
    own, other = team_of(seat), "24" if team_of(seat) == "13" else "13"
    table = obs.table
    stage = "back" if wire and wire[0][0] == "back" else "play"
    cur: tuple[int, list[Any] | None] = (-1, list(NO_ACTION))
    greater: tuple[int, list[Any] | None] = (-1, list(NO_ACTION))
    if stage == "play" and table is not None:  # a follow (a lead has no table)
        greater = (protocol_pos(table.seat), play_to_wire(table.play))
        cur = (protocol_pos(last[0]), _wire_action(last[1])) if last is not None else greater
    msg: dict[str, Any] = {
        "type": "act",
        "stage": stage,
        "handCards": cards_to_wire(obs.hand, level),
        "publicInfo": [{"rest": obs.counts[s], "playArea": areas[s]} for s in SEATS],
        "selfRank": obs.team_levels[own],
        "oppoRank": obs.team_levels[other],
        "curRank": level,
        "curPos": cur[0],
        "curAction": cur[1],
        "greaterPos": greater[0],
        "greaterAction": greater[1],
        "actionList": wire,
        "indexRange": len(wire) - 1,
    }
    if error is not None:
        msg["error"] = error
    return msg


def read_answer(text: str, size: int) -> int:
    """The index in an answer ``{"actIndex": i}``; ``ValueError`` saying what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise ValueError(f"not JSON: {shown!r}; answer {{\"actIndex\": i}}") from None
    if not isinstance(data, dict) or "actIndex" not in data:
        raise ValueError("the answer must be an object {\"actIndex\": i}")
    i = data["actIndex"]
    if isinstance(i, bool) or not isinstance(i, int):
        raise ValueError(f"actIndex must be an integer, not {i!r}")
    if not 0 <= i < size:
        raise ValueError(f"actIndex {i} is not in actionList (0-{size - 1})")
    return i


class Relay:
    """Tells the outside seats of a match what happens and asks them for their actions.

    ``seating()`` gives, at the start of each hand, the outside programs and their seats for
    that hand (a program that connects later takes its seat from the next hand on).
    ``fallback`` names our player for a replaced seat; ``setting`` is the number of hands the
    session will play (the ``settingTimes`` of ``gameOver``).
    """

    def __init__(
        self,
        seating: Callable[[], Mapping[int, Peer]],
        *,
        fallback: str = "heuristic",
        fallback_settings: Mapping[str, Any] | None = None,
        timeout: float = 10.0,
        retries: int = 1,
        seed: int = 0,
        setting: int = 0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.seating = seating
        self.fallback = fallback
        self.fallback_settings = dict(fallback_settings or {})
        self.timeout = timeout
        self.retries = retries
        self.seed = seed
        self.setting = setting
        self.log = log or (lambda _text: None)
        self.stats = HostStats()
        self.hands_done = 0
        self.wins = dict.fromkeys(SEATS, 0)
        self._match: Match | None = None
        self._hand = 0
        self._peers: dict[int, Peer] = {}
        self._replaced: dict[int, Replacement] = {}
        self._held: dict[int, list[Card]] = {}
        self._last: tuple[int, Action] | None = None
        self._turns = 0
        self._game_over_sent = True
        self._fallbacks: dict[int, Player] = {}
        self._records = 0
        self._outside: dict[int, str] = {}

    # -- telling ---------------------------------------------------------------------------

    def _send(self, seat: int, message: Mapping[str, Any]) -> None:
        peer = self._peers.get(seat)
        if peer is None:
            return
        try:
            peer.send(message)
        except PeerGone:
            self._peers.pop(seat, None)
            self._replace(seat, "the connection closed", "closed")

    def _replace(self, seat: int, reason: str, code: str = "refused") -> None:
        if seat in self._replaced or self._match is None:
            return
        self._replaced[seat] = Replacement(seat, self._turns, reason, code)
        self.stats.replaced += 1
        self.log(f"seat {seat} is played by {self.fallback} for the rest of hand "
                 f"{self._hand}: {reason}")

    def sync(self, match: Match) -> None:
        """Send what is due before the next action: a new hand's opening notices."""
        if match is not self._match:
            self._end_match()
            self._match = match
            self._hand = 0
            self._records = len(match.records)
            self._game_over_sent = False
        if match.to_act is not None and match.hand_number != self._hand:
            self._begin_hand(match)

    def _begin_hand(self, match: Match) -> None:
        self._hand = match.hand_number
        self._replaced = {}
        self._held = {}
        self._last = None
        self._turns = 0
        self._peers = {s: p for s, p in self.seating().items() if not p.gone}
        self._outside = {s: p.name for s, p in self._peers.items()}
        previous = match.records[-1]["finish_order"] if match.records else None
        for seat in list(self._peers):
            obs = match.observation(seat)
            dealt = list(obs.hand)
            for g in obs.tribute.gifts:  # the hand as dealt: before the gifts
                if g.receiver == seat:
                    dealt.remove(g.card)
                if g.giver == seat:
                    dealt.append(g.card)
            self._held[seat] = list(obs.hand)
            own = team_of(seat)
            other = "24" if own == "13" else "13"
            self._send(seat, {"type": "notify", "stage": "beginning", "myPos": protocol_pos(seat),
                              "handCards": cards_to_wire(dealt, obs.level),
                              "curRank": obs.level, "selfRank": obs.team_levels[own],
                              "oppoRank": obs.team_levels[other]})
            kind = obs.tribute.kind
            if kind in ("single", "double"):
                self._send(seat, {"type": "notify", "stage": "tribute", "result": [
                    [protocol_pos(g.giver), protocol_pos(g.receiver), card_to_wire(g.card)]
                    for g in obs.tribute.gifts]})
            elif kind == "exempt" and previous is not None:
                anti = [protocol_pos(s) for s in givers(previous)]
                self._send(seat, {"type": "notify", "stage": "anti-tribute",
                                  "antiNum": len(anti), "antiPos": anti})

    def applied(self, match: Match, seat: int, action: Action, before: Observation) -> None:
        """Tell the outside seats about ``action`` just taken by ``seat`` (``before``: its
        observation when it chose)."""
        self._turns += 1
        if isinstance(action, Card):
            now = match.to_act
            if now is None or not any(isinstance(a, Card)
                                      for a in match.observation(now).legal_actions):
                self._tell_returns(match)
            return
        self._last = (seat, action)
        wire = _wire_action(action)
        if isinstance(action, Reading):
            greater: tuple[int, list[Any] | None] = (protocol_pos(seat), wire)
            if seat in self._held:
                for c in action.cards:
                    self._held[seat].remove(c)
        else:
            table = before.table
            greater = ((protocol_pos(table.seat), play_to_wire(table.play)) if table is not None
                       else (-1, list(NO_ACTION)))
        for s in list(self._peers):
            self._send(s, {"type": "notify", "stage": "play", "curPos": protocol_pos(seat),
                           "curAction": wire, "greaterPos": greater[0],
                           "greaterAction": greater[1]})
        if len(match.records) > self._records:
            self._records = len(match.records)
            self._end_hand(match)

    def _tell_returns(self, match: Match) -> None:
        for s in list(self._peers):
            obs = match.observation(s)
            self._held[s] = list(obs.hand)
            if obs.tribute.returns:  # a seat with no part in a return learns nothing of it
                self._send(s, {"type": "notify", "stage": "back", "result": [
                    [protocol_pos(r.giver), protocol_pos(r.receiver), card_to_wire(r.card)]
                    for r in obs.tribute.returns]})

    def _end_hand(self, match: Match) -> None:
        record = match.records[-1]
        order = record["finish_order"]
        self.hands_done += 1
        winners = team_of(order[0])
        for s in SEATS:
            if team_of(s) == winners:
                self.wins[s] += 1
        if self._outside:
            record["outside"] = {str(s): name for s, name in sorted(self._outside.items())}
        if self._replaced:
            record["replaced"] = [r.to_json() for r in self._replaced.values()]
            self.stats.hands_replaced += 1
        for s in list(self._peers):
            rest = self._held.get(s, [])
            self._send(s, {"type": "notify", "stage": "episodeOver",
                           "order": [protocol_pos(x) for x in order], "curRank": record["level"],
                           "restCards": [[protocol_pos(s), cards_to_wire(rest, record["level"])]]
                           if rest else []})
        if match.final_winner is not None:
            self._game_over()

    def _game_over(self) -> None:
        if self._game_over_sent:
            return
        self._game_over_sent = True
        for s in list(self._peers):
            self._send(s, {"type": "notify", "stage": "gameOver", "curTimes": self.hands_done,
                           "settingTimes": self.setting})

    def _end_match(self) -> None:
        if self._match is not None:
            self._game_over()

    def finish(self) -> None:
        """The session is over: ``gameOver`` for an unfinished match, then ``gameResult``."""
        self._end_match()
        draws = [0, 0, 0, 0]
        for s in list(self._peers):
            self._send(s, {"type": "notify", "stage": "gameResult",
                           "victoryNum": [self.wins[x] for x in SEATS], "draws": draws})

    # -- asking ----------------------------------------------------------------------------

    @property
    def hand(self) -> int:
        """The number of the hand whose beginning was told (0: none yet)."""
        return self._hand

    @property
    def outside(self) -> dict[int, str]:
        """The outside programs of the current hand, by seat (those told its beginning)."""
        return dict(self._outside)

    @property
    def replacements(self) -> dict[int, Replacement]:
        """The outside seats played by our player for the rest of the current hand."""
        return dict(self._replaced)

    def is_outside(self, seat: int) -> bool:
        """Whether an outside program plays ``seat`` now (not replaced)."""
        return seat in self._peers and seat not in self._replaced

    def _fallback(self, seat: int) -> Player:
        if seat not in self._fallbacks:
            self._fallbacks[seat] = make_player(self.fallback, seed=self.seed * 4 + seat,
                                                **self.fallback_settings)
        return self._fallbacks[seat]

    def act(self, seat: int, obs: Observation) -> Action:
        """The action of outside seat ``seat``: its program's answer, or our player's once it
        has been replaced."""
        action = self.ask(seat, obs)
        return self._fallback(seat).act(obs) if action is None else action

    def ask(self, seat: int, obs: Observation) -> Action | None:
        """The answer of outside seat ``seat``'s program, or None once the seat is replaced:
        our player then decides (``act`` asks ``fallback``; the web game asks its AI)."""
        peer = self._peers.get(seat)
        if peer is None or seat in self._replaced or peer.gone:
            if seat not in self._replaced:
                self._replace(seat, *(("no outside program is connected", "absent")
                                      if peer is None else ("the connection closed", "closed")))
            return None
        t0 = time.perf_counter()
        wire, ours = action_list(obs)
        self.stats.asked += 1
        self.stats.actions.append(len(wire))
        peer.stale += peer.unanswered
        peer.unanswered = 0
        error: str | None = None
        code = "refused"
        for attempt in range(self.retries + 1):
            message = act_message(obs, wire, self._last, error)
            self.stats.build_seconds += time.perf_counter() - t0
            try:
                peer.send(message)
                peer.unanswered += 1
                text = self._answer(peer)
            except PeerGone:
                self._peers.pop(seat, None)
                self._replace(seat, "the connection closed", "closed")
                return None
            except TimeoutError:
                error, code = f"no answer within {self.timeout:g} s", "silent"
            else:
                t0 = time.perf_counter()
                try:
                    i = read_answer(text, len(wire))
                except ValueError as e:
                    error, code = str(e), "refused"
                else:
                    self.stats.build_seconds += time.perf_counter() - t0
                    return ours[i]
            t0 = time.perf_counter()
            self.stats.refused += 1
            self.log(f"seat {seat} ({peer.name}): refused, {error}"
                     + ("; asking again" if attempt < self.retries else ""))
        self._replace(seat, f"{error} ({self.retries + 1} times)" if error else "no answer",
                      code)
        return None


    def _answer(self, peer: Peer) -> str:
        """The next answer to the current question within the time limit, skipping answers
        still owed for earlier ones."""
        deadline = time.monotonic() + self.timeout
        while True:
            text = peer.receive(max(0.0, deadline - time.monotonic()))
            if peer.stale > 0:
                peer.stale -= 1
                self.stats.stale += 1
                continue
            peer.unanswered = max(0, peer.unanswered - 1)
            return text


class OutsideSeat:
    """A seat played through a relay, with the interface of our players (for the arena)."""

    name = "outside"

    def __init__(self, relay: Relay, seat: int) -> None:
        self.relay = relay
        self.seat = seat
        self.reason = Reason("바깥 프로그램이 골랐습니다.", "An outside program chose.")

    def act(self, obs: Observation) -> Action:
        return self.relay.act(self.seat, obs)


__all__ = ["HostStats", "OutsideSeat", "Peer", "PeerGone", "QueuedPeer", "Relay", "Replacement",
           "act_message", "action_list", "read_answer"]
