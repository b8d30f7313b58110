"""One deal's play as a state to search on: turns, passes, tricks, the partner lead and the
finish order (the one place they live: the match, the records' replay and the AI all use it).

Turns go 1→2→3→4, skipping players who are out. The leader on an empty table must play; a
follower may pass (for that turn only). A trick ends when every other player still holding
cards has passed in a row after the last play; its player leads next, or, when that play
emptied their hand, their partner (接风) — or, if the partner is out too, the next seat in
turn order still holding cards.

The hand ends as soon as both players of one team are out, or three players are. The rest are
ranked after them: the last player holding cards is 4th; after a 1-2 finish, 3rd is the first
of the two losers in turn order after the 2nd finisher (their order changes nothing).

>>> from guandan.cards import parse_cards
>>> from guandan.readings import classify
>>> d = Deal({1: parse_cards("S3"), 2: parse_cards("S5 S6"), 3: parse_cards("S4 S9"),
...           4: parse_cards("S7 S8")}, level="2", leader=1)
>>> d.apply(classify(parse_cards("S3"), "2")[0])
>>> d.finish_order, d.to_act
([1], 2)
>>> copy = d.clone()
>>> d.apply(PASS); d.apply(PASS); d.apply(PASS)
>>> d.to_act, d.table is None, copy.to_act
(3, True, 2)

A position is small and its parts immutable (hands are tuples, passes a bit mask, the turns a
chain of tuples), so ``clone`` copies a handful of references: a search clones a deal per
play-out and applies actions to the copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import ClassVar, Final, NamedTuple, Protocol, cast

from guandan.cards import ALL_CARDS, Card, check_level
from guandan.plays import PlayGroups
from guandan.readings import Reading, beats, read_as
from guandan.sampling import Observed, SeenTurn, sample_hands
from guandan.seats import SEATS


class Pass:
    """The pass action (use the singleton :data:`PASS`)."""

    _instance: ClassVar[Pass | None] = None

    def __new__(cls) -> Pass:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> str:
        return "PASS"


PASS: Final = Pass()

#: What a seat does in a deal's play: a reading of cards it holds, or a pass.
Move = Reading | Pass


class TableEntry(NamedTuple):
    """The play to beat and the seat that made it."""

    seat: int
    play: Reading


class ObservedPosition(Observed, Protocol):
    """What one seat has seen of the hand in play (``guandan.match.Observation``), as
    ``Deal.at`` and ``Deal.sample`` read it: the deal imports nothing of the match."""

    @property
    def phase(self) -> str: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def leader(self) -> int: ...
    @property
    def table(self) -> TableEntry | None: ...
    @property
    def trick(self) -> Sequence[SeenTurn]: ...
    @property
    def finish_order(self) -> Sequence[int]: ...


# A deal's history, newest first: (seat, play or None for a pass, the turns before: another
# such tuple, or None). Typed loosely: mypyc compiles no recursive type alias.
_Turns = tuple[int, Reading | None, object] | None

#: Seat -> its bit in the masks of seats (holding cards, passed).
# Tuples of any length: mypyc indexes them in place (a fixed-length one would be boxed anew).
_BIT: Final[tuple[int, ...]] = (0, 2, 4, 8, 16)
_NEXT: Final[tuple[int, ...]] = (0, 2, 3, 4, 1)
_PARTNER: Final[tuple[int, ...]] = (0, 3, 4, 1, 2)
_ALL: Final = 2 | 4 | 8 | 16


def holding_mask(counts: Mapping[int, int]) -> int:
    """The seats holding cards, as the bit mask ``next_holding`` takes."""
    return sum(_BIT[s] for s in SEATS if counts.get(s, 0) > 0)


def next_holding(seat: int, holding: int) -> int:
    """The next seat after ``seat`` in turn order among ``holding`` (a bit mask of seats,
    ``holding_mask``); ``seat`` itself if no other holds cards. Out players are skipped.

    >>> next_holding(1, holding_mask({1: 5, 2: 0, 3: 2, 4: 0}))
    3
    """
    s = _NEXT[seat]
    for _ in range(3):
        if holding & _BIT[s]:
            return s
        s = _NEXT[s]
    return seat


@lru_cache(maxsize=1 << 16)
def _reading_error(cards: tuple[int, ...], level: str, kind: str, rank: str | None) -> str:
    """Why the cards of these indices cannot be played as ``kind`` ``rank`` ("" when they
    can); remembered, since a search plays the same few combinations over and over."""
    try:
        read_as([ALL_CARDS[i] for i in cards], level, kind, rank)
    except ValueError as e:
        return str(e)
    return ""


class _Shell:
    """Marks the blank deal ``clone`` fills in (no checks, no work)."""


_SHELL: Final = _Shell()


class Deal:
    """One deal's play from a position to the end of the hand.

    ``Deal(hands, level, leader)`` starts at the first lead (no tribute: that is the match's).
    ``to_act``, ``table``, ``level`` and ``leader`` are plain attributes for speed: read them,
    do not set them; act only through ``apply``.
    """

    __slots__ = ("_finish", "_groups", "_hands", "_holding", "_passed", "_turns", "_turns_taken",
                 "leader", "level", "table", "to_act", "trick_start")

    level: str
    leader: int
    to_act: int | None
    table: TableEntry | None
    trick_start: int
    _hands: list[tuple[int, ...]]  # per seat (index 0 unused): its cards' indices
    _holding: int
    _passed: int
    _finish: tuple[int, ...]
    _turns: _Turns
    _turns_taken: int
    # Per seat: its hand's plays as ``legal_plays`` generates them, once asked (at ``seat``
    # one per kind, rank and size; at ``seat + 5`` every distinct play); None again when the
    # seat plays. Shared by clones (what is kept depends only on the hand).
    _groups: list[PlayGroups | None]

    def __init__(self, hands: Mapping[int, Sequence[Card]] | _Shell, level: str = "2",
                 leader: int = 1) -> None:
        if isinstance(hands, _Shell):
            return
        if leader not in SEATS:
            raise ValueError(f"not a seat: {leader!r} (seats are 1, 2, 3, 4)")
        self.level = check_level(level)
        self._set_hands(hands)
        if not self._hands[leader]:
            raise ValueError(f"the leader, seat {leader}, holds no cards")
        self.leader = leader
        self.to_act = leader
        self.table = None
        self._passed = 0
        self._finish = ()
        self._turns = None
        self._turns_taken = 0
        #: Index in ``turns`` where the current trick began.
        self.trick_start = 0

    def _set_hands(self, hands: Mapping[int, Sequence[Card]]) -> None:
        if sorted(hands) != list(SEATS):
            raise ValueError(f"hands must give the cards of seats 1, 2, 3, 4, not {sorted(hands)}")
        for s in SEATS:
            if not all(isinstance(c, Card) for c in hands[s]):
                raise ValueError(f"seat {s}'s hand must be cards")
        # Card indices: ints compare in C, where a list of cards would call Card.__eq__.
        self._hands = [(), *(tuple(c.index for c in hands[s]) for s in SEATS)]
        self._holding = sum(_BIT[s] for s in SEATS if self._hands[s])
        self._groups = [None] * 10

    # -- the position ------------------------------------------------------------------------

    def clone(self) -> Deal:
        """An independent copy: acting on one never changes the other."""
        d = Deal(_SHELL)
        d.level = self.level
        d.leader = self.leader
        d.to_act = self.to_act
        d.table = self.table
        d.trick_start = self.trick_start
        d._hands = self._hands[:]
        d._groups = self._groups[:]
        d._holding = self._holding
        d._passed = self._passed
        d._finish = self._finish
        d._turns = self._turns
        d._turns_taken = self._turns_taken
        return d

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled (and deep-copied) by its state, as a compiled class must be."""
        return (_rebuild, (self.level, self.leader, self.to_act, self.table, self.trick_start,
                           tuple(self._hands), self._holding, self._passed, self._finish,
                           self._turns, self._turns_taken))

    @property
    def over(self) -> bool:
        """True once the hand has ended."""
        return self.to_act is None

    @property
    def hands(self) -> dict[int, list[Card]]:
        """Every seat's cards now (copies)."""
        return {s: [ALL_CARDS[i] for i in self._hands[s]] for s in SEATS}

    def held(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards now."""
        return tuple([ALL_CARDS[i] for i in self._hands[seat]])

    def count(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        return len(self._hands[seat])

    def counts(self) -> dict[int, int]:
        """How many cards each seat holds."""
        h = self._hands
        return {1: len(h[1]), 2: len(h[2]), 3: len(h[3]), 4: len(h[4])}

    @property
    def finish_order(self) -> list[int]:
        """The seats out so far, in order; all four once the hand is over."""
        return list(self._finish)

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed since the play on the table."""
        return tuple(s for s in SEATS if self._passed & _BIT[s])

    @property
    def turns(self) -> list[tuple[int, Reading | None]]:
        """Every turn applied to this deal, in order: ``(seat, play)``, ``None`` for a pass."""
        out: list[tuple[int, Reading | None]] = []
        t = self._turns
        while t is not None:
            out.append((t[0], t[1]))
            t = cast(_Turns, t[2])
        out.reverse()
        return out

    @property
    def turn_count(self) -> int:
        """How many turns were applied to this deal."""
        return self._turns_taken

    def next_holding(self, seat: int) -> int:
        """The next seat after ``seat`` in turn order that still holds cards (``seat`` if none)."""
        return next_holding(seat, self._holding)

    def legal_actions(self, every: bool = False) -> list[Move]:
        """The plays of the seat to act (as ``legal_plays`` lists them: with ``every=True``
        every distinct play) and PASS when it follows; empty once the hand is over."""
        seat = self.to_act
        if seat is None:
            return []
        actions = cast("list[Move]", self._groups_of(seat, every).plays(
            None if self.table is None else self.table.play))
        if self.table is not None:
            actions.append(PASS)
        return actions

    def play_out(self, rng: random.Random) -> None:
        """Play the hand to its end, each action chosen uniformly at random among
        ``legal_actions()`` with ``rng`` (the same state gives the same play): the random
        play-out of a search, in compiled code."""
        while self.to_act is not None:
            actions = self.legal_actions()
            self.apply(actions[int(rng.random() * len(actions))])

    def _groups_of(self, seat: int, every: bool) -> PlayGroups:
        at = seat + 5 if every else seat
        groups = self._groups[at]
        if groups is None:
            groups = self._groups[at] = PlayGroups([ALL_CARDS[i] for i in self._hands[seat]],
                                             self.level, every)
        return groups

    # -- acting ------------------------------------------------------------------------------

    def check_turn(self, seat: int) -> None:
        """``ValueError`` unless the hand is on and it is ``seat``'s turn."""
        if self.to_act is None:
            raise ValueError("the hand is over")
        if seat != self.to_act:
            raise ValueError(f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    def apply(self, action: object) -> None:
        """The seat to act plays ``action`` (a reading of cards it holds) or passes.

        An illegal action raises ``ValueError`` saying why and changes nothing. Checked in this
        order: the hand is on, the action is a play or PASS (a pass only when following), the
        play was read at the deal's level, the seat holds its cards, they read as the play's
        kind and rank, and it beats the table. (``action`` is typed ``object`` so that anything
        else is refused with a ValueError, compiled or not.)
        """
        seat = self.to_act
        if seat is None:
            raise ValueError("the hand is over")
        if action is PASS:
            self._pass(seat)
            return
        if not isinstance(action, Reading):
            raise ValueError(f"not an action: {action!r} (a play or PASS)")
        if action.level != self.level:
            raise ValueError(f"the play was read at level {action.level}, "
                             f"the hand is at level {self.level}")
        cards = action.cards
        if not cards:
            raise ValueError("a play needs at least one card")
        rest = list(self._hands[seat])
        played = tuple([c.index for c in cards])
        try:
            for i in played:
                rest.remove(i)
        except ValueError:
            missing = Counter(cards) - Counter(self.held(seat))
            shown = " ".join(c.notation for c in sorted(missing.elements()))
            raise ValueError(f"seat {seat} does not hold {shown}") from None
        groups = self._groups[seat]
        every = self._groups[seat + 5]
        if ((groups is None or not groups.offers(action))
                and (every is None or not every.offers(action))):  # not this hand's own
            why = _reading_error(played, self.level, action.kind, action.rank)
            if why:
                raise ValueError(why)
        table = self.table
        if table is not None and not beats(action, table.play):
            t = table.play
            raise ValueError(
                f"{action.kind} {action.rank} does not beat the table's {t.kind} {t.rank}")
        self._play(seat, action, tuple(rest))

    def _play(self, seat: int, play: Reading, rest: tuple[int, ...]) -> None:
        self._hands[seat] = rest
        self._groups[seat] = None
        self._groups[seat + 5] = None
        self._turns = (seat, play, self._turns)
        self._turns_taken += 1
        # tuple.__new__ builds the NamedTuple in C (its own __new__ is Python code).
        self.table = tuple.__new__(TableEntry, (seat, play))
        self._passed = 0
        if not rest:
            self._holding &= ~_BIT[seat]
            finish = self._finish = (*self._finish, seat)
            if len(finish) >= 3 or (len(finish) == 2 and _PARTNER[finish[0]] == finish[1]):
                self._rank_rest(seat)
                self.to_act = None
                self._groups = [None] * 10  # no more plays to list
                return
        self.to_act = next_holding(seat, self._holding)

    def _pass(self, seat: int) -> None:
        table = self.table
        if table is None:
            raise ValueError(f"seat {seat} leads and must play: no pass on an empty table")
        self._turns = (seat, None, self._turns)
        self._turns_taken += 1
        passed = self._passed = self._passed | _BIT[seat]
        last = table.seat
        if self._holding & ~_BIT[last] & ~passed:
            self.to_act = next_holding(seat, self._holding)
            return
        # Every other player holding cards passed: the trick ends.
        self.table = None
        self._passed = 0
        self.trick_start = self._turns_taken
        holding = self._holding
        if holding & _BIT[last]:
            self.to_act = last
        elif holding & _BIT[_PARTNER[last]]:
            self.to_act = _PARTNER[last]  # the partner leads for the player who went out
        else:
            self.to_act = next_holding(last, self._holding)

    def _rank_rest(self, last_out: int) -> None:
        finish = list(self._finish)
        s = _NEXT[last_out]
        while len(finish) < 4:
            if s not in finish:
                finish.append(s)
            s = _NEXT[s]
        self._finish = tuple(finish)

    # -- a position seen from one seat ---------------------------------------------------------

    @classmethod
    def at(cls, obs: ObservedPosition, hands: Mapping[int, Sequence[Card]]) -> Deal:
        """The position ``obs`` shows (table, passes of the trick, finish order, seat to act),
        with ``hands`` as every seat's cards: ``obs.hand`` for its seat, ``obs.counts`` cards
        for each other. ``ValueError`` when they do not fit or the hand's play is not on."""
        if obs.phase != "play" or obs.to_act is None:
            raise ValueError("the hand's play is not on (tribute, or the match is over)")
        d = Deal(_SHELL)
        d.level = obs.level
        d.leader = obs.leader
        d._set_hands(hands)
        if Counter(d._hands[obs.seat]) != Counter(c.index for c in obs.hand):
            raise ValueError(f"seat {obs.seat}'s hand is not the one observed")
        for s in SEATS:
            if len(d._hands[s]) != obs.counts[s]:
                raise ValueError(f"seat {s} holds {len(d._hands[s])} cards, "
                                 f"{obs.counts[s]} were observed")
        d.to_act = obs.to_act
        if not d._holding & _BIT[obs.to_act]:
            raise ValueError(f"seat {obs.to_act} is to act but holds no cards")
        d.table = obs.table
        passed = 0
        if obs.table is not None:
            for e in obs.trick:
                if e.kind == "play":
                    passed = 0
                elif e.kind == "pass":
                    passed |= _BIT[e.seat]
        d._passed = passed
        d._finish = tuple(obs.finish_order)
        d._turns = None
        d._turns_taken = 0
        d.trick_start = 0
        return d

    @classmethod
    def sample(cls, obs: ObservedPosition, rng: random.Random) -> Deal:
        """A deal consistent with everything ``obs``'s seat has seen (``sampling.sample_hands``
        draws the hidden cards)."""
        return cls.at(obs, sample_hands(obs, rng))


def _rebuild(level: str, leader: int, to_act: int | None, table: TableEntry | None,
             trick_start: int, hands: tuple[tuple[int, ...], ...], holding: int, passed: int,
             finish: tuple[int, ...], turns: _Turns, n: int) -> Deal:
    d = Deal(_SHELL)
    d.level, d.leader, d.to_act, d.table, d.trick_start = level, leader, to_act, table, trick_start
    d._hands = list(hands)
    d._groups = [None] * 10
    d._holding, d._passed, d._finish, d._turns, d._turns_taken = holding, passed, finish, turns, n
    return d


__all__ = ["PASS", "Deal", "Move", "ObservedPosition", "Pass", "TableEntry", "holding_mask",
           "next_holding"]
