"""Tribute (진공) and return (환공) between two hands.

From hand 2 on, the previous finish order decides who gives: when the winners were not 1-2, the
4th gives one card to the 1st (even when the 4th is the 1st's partner); after a 1-2 win the 3rd
and the 4th each give one. The gift is automatic: the strongest card by single strength, never
a wild heart of the current level. Each receiver then returns one card to their giver.

>>> from guandan.cards import parse_cards
>>> hands = {s: parse_cards("S3 S4 S5") for s in (1, 2, 3, 4)}
>>> hands[4] = parse_cards("H4 SA S2")
>>> plan = plan_tribute([1, 2, 3, 4], hands, "4", get_preset("site"))
>>> plan.kind, [(g.giver, g.receiver, g.card.notation) for g in plan.gifts], plan.leader
('single', [(4, 1, 'SA')], 4)
>>> [c.notation for c in returnable_cards(parse_cards("S3 S4 S5 SA"), "4", "site", received=None)]
['S3', 'S5']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from guandan.cards import RANK_VALUE, Card, sort_cards
from guandan.presets import Preset, get_preset
from guandan.seats import SEATS, next_seat, partner, previous_seat

TributeKind = Literal["none", "single", "double", "exempt"]


@dataclass(frozen=True)
class Gift:
    """One card handed over: a tribute gift, or a return (``giver`` is then the receiver)."""

    giver: int
    receiver: int
    card: Card

    def to_json(self) -> dict[str, object]:
        return {"from": self.giver, "to": self.receiver, "card": self.card.notation}


@dataclass(frozen=True)
class TributePlan:
    """What the previous finish order and the new deal decide, before any return.

    ``gifts`` are in the order the receivers return (the 1st's first); ``leader`` leads the
    hand once every return is made.
    """

    kind: TributeKind
    gifts: tuple[Gift, ...]
    leader: int


def check_finish_order(order: Sequence[int]) -> tuple[int, int, int, int]:
    """Return ``order`` as a tuple if it ranks the four seats, else raise ``ValueError``."""
    if sorted(order) != list(SEATS) or not all(type(s) is int for s in order):
        raise ValueError(f"a finish order ranks the seats 1, 2, 3, 4 once each, not {order!r}")
    return (order[0], order[1], order[2], order[3])


def givers(finish_order: Sequence[int]) -> tuple[int, ...]:
    """Who must give: ``(4th,)`` for a single tribute, ``(3rd, 4th)`` after a 1-2 win.

    >>> givers([1, 3, 2, 4]), givers([1, 2, 4, 3]), givers([1, 2, 3, 4])
    ((2, 4), (3,), (4,))
    """
    first, second, third, fourth = check_finish_order(finish_order)
    if second == partner(first):
        return (third, fourth)
    return (fourth,)


def gift_card(hand: Iterable[Card], level: str) -> Card:
    """The automatic gift: the strongest card by single strength, never a wild heart.

    Suits never break a tie; among equals the card listed last in natural order is given.

    >>> from guandan.cards import parse_cards
    >>> gift_card(parse_cards("H7 S7 SA"), "7")
    Card('S7')
    """
    candidates = [c for c in hand if not c.is_wild(level)]
    if not candidates:
        raise ValueError("no card to give: the hand holds only wild hearts")
    return max(candidates, key=lambda c: (c.strength(level), c.index))


def is_exempt(hands: Mapping[int, Sequence[Card]], giving: Sequence[int]) -> bool:
    """True when the givers hold both big jokers between them (the receivers' do not count)."""
    return sum(1 for s in giving for c in hands[s] if c.rank == "BJ") >= 2


def _to_first(first: int, a: int, b: int, rule: str) -> int:
    """Which of two givers of equal gifts gives to the 1st under ``rule``."""
    if rule == "first_met":
        seat = next_seat(first)
        while seat not in (a, b):
            seat = next_seat(seat)
        return seat
    return a if a == previous_seat(first) else b


def plan_tribute(
    previous_finish: Sequence[int] | None,
    hands: Mapping[int, Sequence[Card]],
    level: str,
    preset: Preset | str,
) -> TributePlan:
    """Gifts and first leader of a hand, from the previous finish order and the deal.

    ``previous_finish`` is ``None`` for the first hand of a match (no tribute, seat 1 leads).
    Seed §19: the 1st is seat 1, the 2nd seat 3, seats 2 and 4 both give an A: 2→1, 4→3.
    """
    rules = get_preset(preset)
    if previous_finish is None:
        return TributePlan("none", (), 1)
    order = check_finish_order(previous_finish)
    first, second = order[0], order[1]
    giving = givers(order)
    if is_exempt(hands, giving):
        return TributePlan("exempt", (), first)
    if len(giving) == 1:
        giver = giving[0]
        return TributePlan("single", (Gift(giver, first, gift_card(hands[giver], level)),), giver)
    a, b = giving
    card_a, card_b = gift_card(hands[a], level), gift_card(hands[b], level)
    sa, sb = card_a.strength(level), card_b.strength(level)
    to_first = _to_first(first, a, b, rules.equal_gift) if sa == sb else (a if sa > sb else b)
    other = b if to_first == a else a
    cards = {a: card_a, b: card_b}
    gifts = (Gift(to_first, first, cards[to_first]), Gift(other, second, cards[other]))
    return TributePlan("double", gifts, to_first)


def returnable_cards(
    hand: Sequence[Card], level: str, preset: Preset | str, received: Card | None
) -> list[Card]:
    """The distinct cards a receiver holding ``hand`` may return, weakest first.

    ``hand`` includes the gift; ``received`` is the card just received: that physical copy may
    not go back, but a second copy of the same card may.

    ``site``: a card ≤ 10 that is not of the level rank and not a joker; ``national`` and
    ``nanjing``: a card ≤ 10; ``huaian``: any card. Where no card qualifies, the weakest held.

    >>> from guandan.cards import parse_cards
    >>> [c.notation for c in returnable_cards(parse_cards("S3 S7 S8 ST SJ"), "7", "site", None)]
    ['S3', 'S8', 'ST']
    >>> [c.notation for c in returnable_cards(parse_cards("SA S2 BJ"), "2", "site", None)]
    ['SA']
    """
    rules = get_preset(preset)
    pool = list(hand)
    if received is not None:
        if received not in pool:
            raise ValueError(f"the received card {received.notation} is not in the hand")
        pool.remove(received)
    if not pool:
        return []
    if rules.return_rule == "any":
        allowed = pool
    elif rules.return_rule == "low":
        allowed = [c for c in pool if not c.is_joker and RANK_VALUE[c.rank] <= 10]
    else:
        allowed = [
            c for c in pool if not c.is_joker and c.rank != level and RANK_VALUE[c.rank] <= 10
        ]
    if not allowed:
        weakest = min(c.strength(level) for c in pool)
        allowed = [c for c in pool if c.strength(level) == weakest]
    return sort_cards(set(allowed), level)


def default_return(
    hand: Sequence[Card], level: str, preset: Preset | str, received: Card | None
) -> Card:
    """The suggested return: the weakest returnable card."""
    cards = returnable_cards(hand, level, preset, received)
    if not cards:
        raise ValueError("nothing to return: the hand is empty")
    return cards[0]


class TributeExchange:
    """The tribute phase of one hand: gifts made at once, then each receiver returns in turn.

    ``hands`` are copied; the exchange changes only its own copies.

    >>> from guandan.cards import parse_cards
    >>> hands = {s: parse_cards("S3 S4 S5") for s in (1, 2, 3, 4)}
    >>> hands[4] = parse_cards("H4 SA S2")
    >>> ex = TributeExchange(hands, "4", "site", previous_finish=[1, 2, 3, 4])
    >>> ex.to_return, [c.notation for c in ex.returnable(1)]
    (1, ['S3', 'S5'])
    >>> ex.apply_return(1, Card("S5"))
    >>> ex.done, [c.notation for c in ex.hands[4]]
    (True, ['H4', 'S2', 'S5'])
    """

    def __init__(
        self,
        hands: Mapping[int, Sequence[Card]],
        level: str,
        preset: Preset | str,
        previous_finish: Sequence[int] | None,
    ) -> None:
        self.level = level
        self.preset = get_preset(preset)
        self.plan = plan_tribute(previous_finish, hands, level, self.preset)
        self.hands: dict[int, list[Card]] = {s: list(hands[s]) for s in SEATS}
        for g in self.plan.gifts:
            self.hands[g.giver].remove(g.card)
            self.hands[g.receiver].append(g.card)
        self.returns: list[Gift] = []

    @property
    def kind(self) -> TributeKind:
        return self.plan.kind

    @property
    def gifts(self) -> tuple[Gift, ...]:
        return self.plan.gifts

    @property
    def leader(self) -> int:
        return self.plan.leader

    @property
    def done(self) -> bool:
        """True once every receiver has returned a card."""
        return len(self.returns) == len(self.plan.gifts)

    @property
    def to_return(self) -> int | None:
        """The receiver who must return now, or ``None`` when every return is made."""
        return None if self.done else self.plan.gifts[len(self.returns)].receiver

    def returnable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may return now (empty when it is not ``seat``'s turn to return)."""
        if seat != self.to_return:
            return []
        gift = self.plan.gifts[len(self.returns)]
        return returnable_cards(self.hands[seat], self.level, self.preset, gift.card)

    def check_return(self, seat: int, card: Card) -> Gift:
        """The return ``seat`` would make with ``card``; ``ValueError`` saying why it is refused."""
        if self.done:
            raise ValueError("no return is due")
        if seat != self.to_return:
            raise ValueError(f"seat {self.to_return} returns now, not seat {seat}")
        allowed = self.returnable(seat)
        if card not in allowed:
            gift = self.plan.gifts[len(self.returns)]
            if card not in self.hands[seat] or (
                card == gift.card and self.hands[seat].count(card) == 1
            ):
                why = ("it is the card just received" if card == gift.card
                       else "the seat does not hold it")
            else:
                why = f"{self.preset.name} rules allow only " + " ".join(
                    c.notation for c in allowed)
            raise ValueError(f"seat {seat} cannot return {card.notation}: {why}")
        return Gift(seat, self.plan.gifts[len(self.returns)].giver, card)

    def apply_return(self, seat: int, card: Card) -> None:
        """Return ``card`` from ``seat`` to its giver; if illegal, ``ValueError`` and no change."""
        ret = self.check_return(seat, card)
        self.hands[seat].remove(card)
        self.hands[ret.receiver].append(card)
        self.returns.append(ret)
