"""One hand's play: turns, passes, tricks, the partner lead and the finish order.

Turns go 1→2→3→4, skipping players who are out. The leader on an empty table must play; a
follower may pass (for that turn only). A trick ends when every other player still holding
cards has passed in a row after the last play; its player leads next, or, when that play
emptied their hand, their partner (접풍) — or, if the partner is out too, the next seat in
turn order still holding cards.

The hand ends as soon as both players of one team are out, or three players are. The rest are
ranked after them: the last player holding cards is 4th; after a 1-2 finish, 3rd is the first
of the two losers in turn order after the 2nd finisher (their order changes nothing).

>>> from guandan.cards import parse_cards
>>> from guandan.readings import classify
>>> h = Hand({1: parse_cards("S3"), 2: parse_cards("S5 S6"), 3: parse_cards("S4 S9"),
...           4: parse_cards("S7 S8")}, "2", leader=1)
>>> h.play(1, classify(parse_cards("S3"), "2")[0])
>>> h.finish_order, h.to_act
([1], 2)
>>> h.pass_turn(2); h.pass_turn(3); h.pass_turn(4)
>>> h.to_act, h.table is None
(3, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from guandan.cards import Card
from guandan.plays import legal_plays
from guandan.readings import Reading, beats, read_as
from guandan.seats import SEATS, next_seat, partner, team_of


@dataclass(frozen=True)
class TableEntry:
    """The play to beat and the seat that made it."""

    seat: int
    play: Reading


class Hand:
    """The play of one deal from the first lead to the end of the hand.

    ``hands`` are copied. Every method that acts checks first and raises ``ValueError`` with the
    reason, changing nothing, when the action is illegal.
    """

    def __init__(self, hands: Mapping[int, Sequence[Card]], level: str, leader: int) -> None:
        if leader not in SEATS:
            raise ValueError(f"not a seat: {leader!r}")
        self.level = level
        self.hands: dict[int, list[Card]] = {s: list(hands[s]) for s in SEATS}
        self.leader = leader
        self.table: TableEntry | None = None
        self.passed: set[int] = set()
        self.finish_order: list[int] = []
        self.to_act: int | None = leader
        #: Every turn so far: ``(seat, play)``, ``play`` is ``None`` for a pass.
        self.turns: list[tuple[int, Reading | None]] = []
        #: Index in ``turns`` where the current trick began.
        self.trick_start = 0
        if not self.hands[leader]:
            raise ValueError(f"the leader, seat {leader}, holds no cards")

    # -- queries ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the hand has ended."""
        return self.to_act is None

    def holding(self) -> list[int]:
        """Seats still holding cards, in seat order."""
        return [s for s in SEATS if self.hands[s]]

    def legal_plays(self, seat: int) -> list[Reading]:
        """The plays ``seat`` may make now (one per kind/rank/cards); empty if not its turn."""
        if seat != self.to_act:
            return []
        return legal_plays(self.hands[seat], self.level,
                           None if self.table is None else self.table.play)

    def may_pass(self, seat: int) -> bool:
        """True when ``seat`` is to act and follows (the table is not empty)."""
        return seat == self.to_act and self.table is not None

    def ranking(self) -> list[int]:
        """The full finish order of an ended hand (see the module docstring)."""
        if not self.over:
            raise ValueError("the hand is not over")
        return list(self.finish_order)

    # -- actions ---------------------------------------------------------------------------

    def check_play(self, seat: int, play: Reading) -> Reading:
        """The engine's reading of ``play`` by ``seat``; ``ValueError`` saying why it is illegal."""
        if not isinstance(play, Reading):
            raise ValueError(f"not a play: {play!r}")
        if play.level != self.level:
            raise ValueError(
                f"the play was read at level {play.level}, the hand is at level {self.level}")
        return self.check_cards(seat, play.cards, play.kind, play.rank)

    def check_cards(self, seat: int, cards: Sequence[Card], kind: str, rank: str | None) -> Reading:
        """The reading of ``cards`` played by ``seat`` as ``kind`` ``rank``, if legal now.

        Checks, in this order: the hand is on, it is ``seat``'s turn, ``seat`` holds the cards,
        they read as ``kind`` ``rank`` at the hand's level, and the play beats the table.
        """
        if self.to_act is None:
            raise ValueError("the hand is over")
        if seat != self.to_act:
            raise ValueError(f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if not cards:
            raise ValueError("a play needs at least one card")
        missing = Counter(cards) - Counter(self.hands[seat])
        if missing:
            shown = " ".join(c.notation for c in sorted(missing.elements()))
            raise ValueError(f"seat {seat} does not hold {shown}")
        reading = read_as(cards, self.level, kind, rank)
        if self.table is not None and not beats(reading, self.table.play):
            t = self.table.play
            raise ValueError(
                f"{reading.kind} {reading.rank} does not beat the table's {t.kind} {t.rank}")
        return reading

    def play(self, seat: int, play: Reading) -> None:
        """``seat`` plays ``play``."""
        reading = self.check_play(seat, play)
        hand = self.hands[seat]
        for c in reading.cards:
            hand.remove(c)
        self.turns.append((seat, reading))
        self.table = TableEntry(seat, reading)
        self.passed = set()
        if not hand:
            self.finish_order.append(seat)
            if self._ended():
                self._rank_rest(seat)
                self.to_act = None
                return
        self.to_act = self._next_holding(seat)

    def pass_turn(self, seat: int) -> None:
        """``seat`` passes (only when following)."""
        if self.to_act is None:
            raise ValueError("the hand is over")
        if seat != self.to_act:
            raise ValueError(f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if self.table is None:
            raise ValueError(f"seat {seat} leads and must play: no pass on an empty table")
        self.turns.append((seat, None))
        self.passed.add(seat)
        last = self.table.seat
        if all(s in self.passed for s in self.holding() if s != last):
            self.table = None
            self.passed = set()
            self.trick_start = len(self.turns)
            self.to_act = self._next_leader(last)
        else:
            self.to_act = self._next_holding(seat)

    # -- helpers ---------------------------------------------------------------------------

    def _next_holding(self, seat: int) -> int:
        s = next_seat(seat)
        while not self.hands[s]:
            s = next_seat(s)
        return s

    def _next_leader(self, last: int) -> int:
        if self.hands[last]:
            return last
        if self.hands[partner(last)]:
            return partner(last)
        return self._next_holding(last)

    def _ended(self) -> bool:
        out = self.finish_order
        if len(out) >= 3:
            return True
        return len(out) == 2 and team_of(out[0]) == team_of(out[1])

    def _rank_rest(self, last_out: int) -> None:
        s = next_seat(last_out)
        while len(self.finish_order) < 4:
            if s not in self.finish_order:
                self.finish_order.append(s)
            s = next_seat(s)
