"""Readings: what a set of cards is when played, and which reading beats which.

A *reading* is one way to play exactly a given set of cards at a level: its kind, the rank that
orders it, the cards and the level. Wilds (the hearts of the level rank) make one set of cards
readable in several ways, so ``classify`` returns all of them, strongest first.

>>> from guandan.cards import parse_cards
>>> [(r.kind, r.rank) for r in classify(parse_cards("H7 S9 D9"), "7")]
[('triple', '9')]
>>> a = classify(parse_cards("S9 D9 C9 S3 D3"), "2")[0]
>>> b = classify(parse_cards("S8 D8 C8 SA DA"), "2")[0]
>>> beats(a, b)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from guandan.cards import (
    LEVEL_STRENGTH,
    RANK_OF_VALUE,
    RANK_VALUE,
    Card,
    check_level,
    rank_strength,
)

KINDS: Final[tuple[str, ...]] = (
    "single", "pair", "triple", "full_house", "straight", "tube", "plate",
    "bomb", "straight_flush", "joker_bomb",
)
#: Kinds ordered by the natural sequence, not by strength.
SEQUENCE_KINDS: Final = frozenset({"straight", "tube", "plate", "straight_flush"})
#: Kinds whose size is fixed (every kind but the bomb).
KIND_SIZE: Final = {
    "single": 1, "pair": 2, "triple": 3, "full_house": 5, "straight": 5, "tube": 6,
    "plate": 6, "straight_flush": 5, "joker_bomb": 4,
}

_SF_POWER: Final = 11
_JOKER_BOMB_POWER: Final = 30


def special_power(kind: str, size: int) -> int:
    """Order of the special kinds (0 for a normal combination).

    ``4-bomb < 5-bomb < straight_flush < 6-bomb < … < 10-bomb < joker_bomb``.
    """
    if kind == "bomb":
        return 2 * size
    if kind == "straight_flush":
        return _SF_POWER
    if kind == "joker_bomb":
        return _JOKER_BOMB_POWER
    return 0


class Reading:
    """One way to play a set of cards: ``kind``, ``rank``, ``cards`` and ``level``.

    ``key`` orders readings of one kind and size; ``power`` orders the special kinds (0 for a
    normal combination). Readings are immutable and compare equal when kind, rank, level and
    the multiset of cards are equal.
    """

    __slots__ = ("cards", "key", "kind", "level", "power", "rank")

    kind: str
    rank: str | None
    cards: tuple[Card, ...]
    level: str
    key: int
    power: int

    def __init__(self, kind: str, rank: str | None, cards: Sequence[Card], level: str,
                 key: int = -1, power: int = -1) -> None:
        """``key`` and ``power`` are worked out from the rest unless the caller passes them
        (``legal_plays`` knows them already)."""
        self.kind = kind
        self.rank = rank
        self.cards = tuple(cards)
        self.level = level
        if key >= 0:
            self.key = key
        elif rank is None:
            self.key = 0
        elif kind in SEQUENCE_KINDS:
            self.key = RANK_VALUE[rank]
        else:
            self.key = rank_strength(rank, level)
        self.power = power if power >= 0 else special_power(kind, len(self.cards))

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def is_special(self) -> bool:
        """Bombs, straight flushes and the joker bomb: they beat every normal combination."""
        return self.power > 0

    def signature(self) -> tuple[str, str | None, tuple[int, ...]]:
        """What makes two plays the same: kind, rank and the multiset of cards."""
        return (self.kind, self.rank, tuple(sorted(c.index for c in self.cards)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reading):
            return NotImplemented
        return self.level == other.level and self.signature() == other.signature()

    def __hash__(self) -> int:
        return hash((self.level, self.signature()))

    def __repr__(self) -> str:
        cards = " ".join(c.notation for c in self.cards)
        return f"Reading({self.kind!r}, {self.rank!r}, '{cards}', level={self.level!r})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Copied and pickled by its constructor (compiled, the class keeps no __dict__).
        return (Reading, (self.kind, self.rank, self.cards, self.level, self.key, self.power))

    def to_json(self) -> dict[str, object]:
        """The play as a hand record writes it (without the seat)."""
        return {"cards": [c.notation for c in self.cards], "kind": self.kind, "rank": self.rank}


def beats(a: Reading, b: Reading) -> bool:
    """True when ``a`` may be played on ``b``.

    A normal combination beats only the same kind with the same number of cards and a higher
    key; the special kinds beat every normal one and each other in their own order. Equal keys
    never beat.
    """
    if a.power or b.power:
        if a.power != b.power:
            return a.power > b.power
        return a.key > b.key  # same bomb size, or two straight flushes; joker bombs tie at 0
    return a.kind == b.kind and len(a.cards) == len(b.cards) and a.key > b.key


def why_not_beats(a: Reading, b: Reading) -> str | None:
    """Why ``a`` may not be played on ``b``: ``"wrong_kind"`` (another kind or size of normal
    combination), ``"not_higher"`` (comparable but not stronger), or ``None`` when it beats.

    >>> from guandan.cards import parse_cards
    >>> pair = classify(parse_cards("S9 D9"), "2")[0]
    >>> why_not_beats(classify(parse_cards("SK"), "2")[0], pair)
    'wrong_kind'
    >>> why_not_beats(classify(parse_cards("S3 D3"), "2")[0], pair)
    'not_higher'
    """
    if beats(a, b):
        return None
    if not a.power and not b.power and (a.kind != b.kind or len(a.cards) != len(b.cards)):
        return "wrong_kind"
    return "not_higher"


def strength_order(r: Reading) -> tuple[int, int, int]:
    """Sort key: special kinds by power, then the key; used to list readings strongest first."""
    return (r.power, r.key, len(r.cards))


def _window_masks(length: int) -> tuple[int, ...]:
    """By top value, a bit per natural value of the sequence of ``length`` ending there (a low
    A, value 1, is the A's bit 14); 0 where no such sequence ends."""
    masks = [0] * 15
    for top in range(length, 15):
        for v in range(top - length + 1, top + 1):
            masks[top] |= 1 << (14 if v == 1 else v)
    return tuple(masks)


_WINDOWS: Final = {length: _window_masks(length) for length in (2, 3, 5)}


def classify(cards: Iterable[Card], level: str) -> list[Reading]:
    """Every distinct reading of exactly ``cards`` at ``level``, strongest first; ``[]`` if none.

    >>> from guandan.cards import parse_cards
    >>> [(r.kind, r.rank) for r in classify(parse_cards("H2 S3 D4 C5 S6"), "2")]
    [('straight', '7'), ('straight', '6')]
    >>> classify(parse_cards("BJ LJ"), "2")
    []
    """
    level = check_level(level)
    cs = tuple(cards)
    n = len(cs)
    if n == 0 or n > 10:
        return []
    lv = RANK_VALUE[level]
    counts = [0] * 15  # naturals per value
    values = 0  # a bit per natural value held
    suits = 0  # a bit per suit of the naturals (in the order of SUITS)
    jokers = w = 0
    for c in cs:
        v = c.value
        if v > 14:
            jokers += 1
        elif v == lv and c.index & 3 == 1:  # a heart of the level: a wild
            w += 1
        else:
            counts[v] += 1
            values |= 1 << v
            suits |= 1 << (c.index & 3)
    out: list[Reading] = []

    if jokers:
        first = cs[0].rank
        if n == 1:
            out.append(Reading("single", first, cs, level))
        elif n == 2 and jokers == 2 and cs[1].rank == first:
            out.append(Reading("pair", first, cs, level))
        elif n == 4 and sorted(c.rank for c in cs) == ["BJ", "BJ", "LJ", "LJ"]:
            out.append(Reading("joker_bomb", None, cs, level))
        return out

    held = [v for v in range(2, 15) if counts[v]]
    # Same-rank kinds: every natural of one rank, wilds fill; wilds alone are the level rank.
    if len(held) <= 1:
        value = held[0] if held else lv
        key = LEVEL_STRENGTH if value == lv else value
        if n <= 3:
            out.append(Reading(("single", "pair", "triple")[n - 1], RANK_OF_VALUE[value], cs,
                               level, key, 0))
        elif n >= 4:
            out.append(Reading("bomb", RANK_OF_VALUE[value], cs, level, key, 2 * n))

    if n == 5:
        # Full house: a triple and a pair of another rank; wilds may fill either part (the
        # triple needs a natural card: two wilds cannot make three).
        if len(held) <= 2:
            for t in held:
                others = [v for v in held if v != t]
                if counts[t] <= 3 and (not others or counts[others[0]] <= 2):
                    key = LEVEL_STRENGTH if t == lv else t
                    out.append(Reading("full_house", RANK_OF_VALUE[t], cs, level, key, 0))
        # Straights and straight flushes: five distinct natural values in a window.
        if len(held) == n - w:
            one_suit = suits & (suits - 1) == 0
            for top, window in enumerate(_WINDOWS[5]):
                if window and not values & ~window:
                    if one_suit:
                        out.append(Reading("straight_flush", RANK_OF_VALUE[top], cs, level, top,
                                           _SF_POWER))
                    if not one_suit or w > 0:
                        out.append(Reading("straight", RANK_OF_VALUE[top], cs, level, top, 0))

    if n == 6:
        for length, per, kind in ((3, 2, "tube"), (2, 3, "plate")):
            if any(counts[v] > per for v in held):
                continue
            for top, window in enumerate(_WINDOWS[length]):
                if window and not values & ~window:
                    out.append(Reading(kind, RANK_OF_VALUE[top], cs, level, top, 0))

    if len(out) > 1:
        out = _dedupe(out)
        out.sort(key=strength_order, reverse=True)
    return out


def _dedupe(readings: list[Reading]) -> list[Reading]:
    seen: set[tuple[str, str | None]] = set()
    result = []
    for r in readings:
        k = (r.kind, r.rank)
        if k not in seen:
            seen.add(k)
            result.append(r)
    return result


def read_as(cards: Iterable[Card], level: str, kind: str, rank: str | None) -> Reading:
    """The reading of ``cards`` with this kind and rank; ``ValueError`` saying why if none."""
    cs = list(cards)
    readings = classify(cs, level)
    for r in readings:
        if r.kind == kind and r.rank == rank:
            return r
    names = ", ".join(f"{r.kind} {r.rank}" for r in readings) or "no combination"
    shown = " ".join(c.notation for c in cs)
    raise ValueError(
        f"{shown} cannot be played as {kind} {rank} at level {level} (it reads as {names})"
    )
