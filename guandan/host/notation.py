"""The competition protocol's notation, and ours.

The 1st China AI Guandan Competition's clients write a card as suit + rank like us (suits
``S H C D``, ranks ``2``-``9 T J Q K A``) except the jokers: ``SB`` is the little joker (our
``LJ``) and ``HR`` the big one (our ``BJ``). A play is ``[kind, rank, cards]``:

==================  ===============  ==========================================================
ours                protocol         rank
==================  ===============  ==========================================================
``single``          ``Single``       the card's rank; jokers ``B`` (little), ``R`` (big)
``pair``            ``Pair``         as a single
``triple``          ``Trips``        the rank
``full_house``      ``ThreeWithTwo`` the triple's rank
``straight``        ``Straight``     the *lowest* rank (``A`` for A2345, ``T`` for TJQKA);
                                     ours is the highest
``tube``            ``ThreePair``    the lowest pair's rank (``A`` for AA2233)
``plate``           ``TwoTrips``     the lowest triple's rank (``A`` for AAA222)
``bomb``            ``Bomb``         the rank
``straight_flush``  ``StraightFlush``  the lowest rank
``joker_bomb``      ``Bomb``         ``JOKER``
pass                ``PASS``         ``["PASS", "PASS", "PASS"]``
a returned card     ``back``         ``["back", "back", [card]]``
==================  ===============  ==========================================================

Seats: the protocol's positions ``0 1 2 3`` are our seats ``1 2 3 4`` (play goes 0→1→2→3,
partners sit two apart), so position = seat - 1.

>>> from guandan.cards import parse_cards
>>> from guandan.readings import read_as
>>> play_to_wire(read_as(parse_cards("SA D2 C3 H4 S5"), "7", "straight", "5"))
['Straight', 'A', ['D2', 'C3', 'H4', 'S5', 'SA']]
>>> play_to_wire(read_as(parse_cards("BJ BJ LJ LJ"), "7", "joker_bomb", None))
['Bomb', 'JOKER', ['SB', 'SB', 'HR', 'HR']]
>>> wire_rank_to_ours("Straight", "A"), wire_rank_to_ours("TwoTrips", "K")
('5', 'A')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product
from typing import Any, Final

from guandan.cards import RANK_VALUE, RANKS, VALUE_RANK, Card, parse_card
from guandan.readings import Reading, read_as

#: Our kind -> the protocol's.
KIND_TO_WIRE: Final = {
    "single": "Single", "pair": "Pair", "triple": "Trips", "full_house": "ThreeWithTwo",
    "straight": "Straight", "tube": "ThreePair", "plate": "TwoTrips", "bomb": "Bomb",
    "straight_flush": "StraightFlush", "joker_bomb": "Bomb",
}
WIRE_TO_KIND: Final = {v: k for k, v in KIND_TO_WIRE.items() if k != "joker_bomb"}
#: A sequence kind -> (ranks it spans, cards per rank). The protocol names a sequence by its
#: lowest rank, we by its highest, so converting needs the span.
SEQUENCES: Final = {"straight": (5, 1), "straight_flush": (5, 1), "tube": (3, 2),
                    "plate": (2, 3)}
PASS_WIRE: Final = ["PASS", "PASS", "PASS"]
JOKER_BOMB_RANK: Final = "JOKER"
_JOKER_TO_WIRE: Final = {"LJ": "SB", "BJ": "HR"}
_JOKER_FROM_WIRE: Final = {"SB": "LJ", "HR": "BJ"}
_JOKER_RANK_TO_WIRE: Final = {"LJ": "B", "BJ": "R"}
_JOKER_RANK_FROM_WIRE: Final = {"B": "LJ", "R": "BJ"}
#: The protocol's suit order within a rank, as its server sorts a hand.
_SUIT_ORDER: Final = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}


def card_to_wire(card: Card) -> str:
    """``BJ`` -> ``HR``, ``LJ`` -> ``SB``; every other card is spelt the same."""
    return _JOKER_TO_WIRE.get(card.notation, card.notation)


def card_from_wire(text: object) -> Card:
    """A protocol card; ``ValueError`` naming it when it is not one."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    ours = _JOKER_FROM_WIRE.get(text, text)
    if ours in ("BJ", "LJ") and text not in _JOKER_FROM_WIRE:
        raise ValueError(f"not a protocol card: {text!r} (jokers are SB and HR)")
    if len(ours) != 2:
        raise ValueError(f"not a protocol card: {text!r}")
    return parse_card(ours)


def wire_order(card: Card, level: str) -> tuple[int, int]:
    """Sort key of the protocol's hands: ``2`` … ``A``, the level rank, ``SB``, ``HR``; within a
    rank ``S H C D``."""
    return card.strength(level), _SUIT_ORDER[card.suit]


def cards_to_wire(cards: Iterable[Card], level: str) -> list[str]:
    """Cards in protocol spelling, in the protocol's hand order."""
    return [card_to_wire(c) for c in sorted(cards, key=lambda c: wire_order(c, level))]


def cards_from_wire(items: object) -> list[Card]:
    if not isinstance(items, list):
        raise ValueError(f"not a list of cards: {items!r}")
    return [card_from_wire(x) for x in items]


def _step(rank: str, steps: int) -> str:
    """The natural rank ``steps`` above ``rank`` in a sequence (A is 1 at the bottom)."""
    value = 1 if rank == "A" and steps > 0 else RANK_VALUE[rank]
    value += steps
    if not 1 <= value <= 14:
        raise ValueError(f"no sequence reaches {steps:+d} ranks from {rank}")
    return VALUE_RANK[value]


def rank_to_wire(kind: str, rank: str | None) -> str:
    """Our rank of a play of ``kind`` in the protocol's terms."""
    if kind == "joker_bomb" or rank is None:
        return JOKER_BOMB_RANK
    if rank in _JOKER_RANK_TO_WIRE:
        return _JOKER_RANK_TO_WIRE[rank]
    if kind in SEQUENCES:
        span = SEQUENCES[kind][0]
        return _step(rank, -(span - 1))
    return rank


def wire_rank_to_ours(wire_kind: str, wire_rank: str) -> str | None:
    """The protocol's rank of a play of ``wire_kind`` in our terms (``None``: the joker bomb)."""
    if wire_rank == JOKER_BOMB_RANK:
        return None
    if wire_rank in _JOKER_RANK_FROM_WIRE:
        return _JOKER_RANK_FROM_WIRE[wire_rank]
    if wire_rank not in RANK_VALUE:
        raise ValueError(f"not a protocol rank: {wire_rank!r}")
    kind = WIRE_TO_KIND.get(wire_kind)
    if kind in SEQUENCES:
        return _step(wire_rank, SEQUENCES[kind][0] - 1)
    return wire_rank


def play_to_wire(play: Reading) -> list[Any]:
    """``[kind, rank, cards]`` of a play, cards in the protocol's hand order."""
    return [KIND_TO_WIRE[play.kind], rank_to_wire(play.kind, play.rank),
            cards_to_wire(play.cards, play.level)]


def play_from_wire(item: object, level: str) -> Reading | None:
    """Our reading of a protocol play ``[kind, rank, cards]`` (``None`` for ``PASS``).

    ``ValueError`` when it is malformed or its cards do not read as that kind and rank under
    our rules (another server may allow plays that docs/rules.md does not).
    """
    if not isinstance(item, list) or len(item) != 3:
        raise ValueError(f"not a protocol play: {item!r}")
    wire_kind, wire_rank, raw = item
    if wire_kind == "PASS":
        return None
    if not isinstance(wire_kind, str) or not isinstance(wire_rank, str):
        raise ValueError(f"not a protocol play: {item!r}")
    if wire_kind not in WIRE_TO_KIND:
        raise ValueError(f"not a protocol kind: {wire_kind!r}")
    cards = cards_from_wire(raw)
    rank = wire_rank_to_ours(wire_kind, wire_rank)
    kind = "joker_bomb" if wire_kind == "Bomb" and rank is None else WIRE_TO_KIND[wire_kind]
    return read_as(cards, level, kind, rank)


# -- every physical choice of a play ---------------------------------------------------------

def _multisets(pool: Sequence[tuple[Card, int]], k: int) -> list[list[Card]]:
    """Every multiset of ``k`` cards from ``pool`` (card, copies available)."""
    if k == 0:
        return [[]]
    if not pool:
        return []
    (card, avail), rest = pool[0], pool[1:]
    out: list[list[Card]] = []
    for n in range(min(avail, k), -1, -1):
        for tail in _multisets(rest, k - n):
            out.append([card] * n + tail)
    return out


def _slots(play: Reading) -> list[list[tuple[str, int]]]:
    """The ways to split ``play``'s cards into ranks: each a list of (rank, cards of it).

    Only the full house has more than one (its pair may be of any other rank).
    """
    kind, rank, n = play.kind, play.rank, len(play.cards)
    assert rank is not None
    if kind in SEQUENCES:
        span, per = SEQUENCES[kind]
        return [[(_step(rank, -i), per) for i in range(span)]]
    if kind == "full_house":
        return [[(rank, 3), (p, 2)] for p in RANKS if p != rank]
    return [[(rank, n)]]


def variants(play: Reading, hand: Sequence[Card]) -> list[Reading]:
    """Every physical choice of cards from ``hand`` that reads as ``play``'s kind and rank with
    as many cards: which suits, how many wild hearts, and for a full house which pair.

    The rules engine (``read_as``) decides each one; this only proposes cards.

    >>> from guandan.cards import parse_cards
    >>> from guandan.readings import read_as
    >>> hand = parse_cards("S9 D9 C9 H2 S3")
    >>> pair = read_as(parse_cards("S9 D9"), "2", "pair", "9")
    >>> sorted(" ".join(c.notation for c in v.cards) for v in variants(pair, hand))
    ['C9 H2', 'D9 C9', 'D9 H2', 'S9 C9', 'S9 D9', 'S9 H2']
    """
    if any(c.is_joker for c in play.cards):
        return [play]  # jokers come in one spelling each
    level = play.level
    naturals: dict[str, Counter[Card]] = {}
    wilds = 0
    for c in hand:
        if c.is_wild(level):
            wilds += 1
        elif not c.is_joker:
            naturals.setdefault(c.rank, Counter())[c] += 1
    flush_suits = {c.suit for c in play.cards if not c.is_wild(level)}
    seen: set[tuple[int, ...]] = set()
    out: list[Reading] = []
    wild_card = parse_card("H" + level)
    for split in _slots(play):
        per_slot: list[list[list[Card]]] = []
        for rank, k in split:
            pool = sorted((naturals.get(rank) or Counter()).items())
            if play.kind == "straight_flush":
                pool = [(c, m) for c, m in pool if c.suit in flush_suits]
            choices = []
            for w in range(min(k, wilds) + 1):
                for nat in _multisets(pool, k - w):
                    choices.append(nat + [wild_card] * w)
            per_slot.append(choices)
        for combo in product(*per_slot):
            cards = [c for part in combo for c in part]
            if sum(c is wild_card for c in cards) > wilds:
                continue
            key = tuple(sorted(c.index for c in cards))
            if key in seen:
                continue
            seen.add(key)
            try:
                out.append(read_as(cards, level, play.kind, play.rank))
            except ValueError:
                continue
    return out


def expand(plays: Iterable[Reading], hand: Sequence[Card]) -> list[Reading]:
    """Every physical choice of each of ``plays`` (see :func:`variants`), each once."""
    seen: set[tuple[str, str | None, tuple[int, ...]]] = set()
    out: list[Reading] = []
    for play in plays:
        for v in variants(play, hand):
            sig = v.signature()
            if sig not in seen:
                seen.add(sig)
                out.append(v)
    return out


__all__ = ["JOKER_BOMB_RANK", "KIND_TO_WIRE", "PASS_WIRE", "SEQUENCES", "WIRE_TO_KIND",
           "card_from_wire", "card_to_wire", "cards_from_wire", "cards_to_wire", "expand",
           "play_from_wire", "play_to_wire", "rank_to_wire", "variants", "wire_order",
           "wire_rank_to_ours"]
