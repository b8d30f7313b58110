"""Cards, ranks and their notation.

A card is a suit (``S H D C``) and a rank (``2-9 T J Q K A``), or one of the two jokers,
``BJ`` (big) and ``LJ`` (little). Two decks are used, so every card exists twice; a hand is
a list of cards and may hold both copies. Cards are small immutable values, interned: parsing
``"H7"`` twice gives the same object.

>>> parse_cards("H7 S9 10d ♠9 BJ LJ")
[Card('H7'), Card('S9'), Card('DT'), Card('S9'), Card('BJ'), Card('LJ')]
>>> format_cards(parse_cards("h7 s10"))
'H7 ST'
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

# Typed as tuples of any length: mypyc keeps a fixed-length tuple as a C struct and would
# build a new Python tuple each time one is indexed by a variable.
SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
RANKS: Final[tuple[str, ...]] = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
JOKERS: Final[tuple[str, ...]] = ("LJ", "BJ")
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: Natural value of each rank: ``2`` is 2 … ``A`` is 14 (A is also 1 at the low end of a sequence).
RANK_VALUE: Final = {r: i + 2 for i, r in enumerate(RANKS)}
VALUE_RANK: Final = {v: r for r, v in RANK_VALUE.items()} | {1: "A"}
#: The same as a tuple indexed by value (1 is a low A; 0 is no rank).
RANK_OF_VALUE: Final[tuple[str, ...]] = ("", "A", *RANKS)

#: Strength of the level rank and the jokers for singles, pairs, triples and bombs.
LEVEL_STRENGTH: Final = 15
JOKER_STRENGTH: Final = {"LJ": 16, "BJ": 17}


class Card:
    """One playing card. Compare with ``==``; both copies of a card are equal.

    ``index`` numbers the 54 distinct cards 0-53 (jokers last), for counting arrays.
    """

    __slots__ = ("index", "notation", "rank", "suit", "value")

    suit: str  # "S" "H" "D" "C", or "" for a joker
    rank: str  # "2".."A", or "LJ" / "BJ"
    value: int  # natural value 2..14; 16 / 17 for the jokers
    index: int
    notation: str

    def __new__(cls, notation: str, index: int = -1) -> Card:
        """The card written ``notation`` (the interned one, as ``parse_card`` reads it).

        Only ``_build`` passes ``index``: it makes the 54 cards once, at import.
        """
        if index < 0:
            return parse_card(notation)
        card = super().__new__(cls)
        rank = notation[-2:] if notation in JOKERS else notation[1:]
        object.__setattr__(card, "suit", notation[: len(notation) - len(rank)])
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "value", RANK_VALUE.get(rank) or JOKER_STRENGTH[rank])
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "notation", notation)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @property
    def is_joker(self) -> bool:
        return not self.suit

    def is_wild(self, level: str) -> bool:
        """True for the two hearts of the level rank (``H7`` at level 7)."""
        return self.suit == "H" and self.rank == level

    def strength(self, level: str) -> int:
        """Single-card strength: ``BJ > LJ > level rank > A > K > … > 2``; suits never count."""
        if self.rank == level:
            return LEVEL_STRENGTH
        return self.value

    def __repr__(self) -> str:
        return f"Card('{self.notation}')"

    def __str__(self) -> str:
        return self.notation

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.notation,))


def _build() -> tuple[list[Card], dict[str, Card]]:
    cards: list[Card] = []
    for rank in RANKS:
        for suit in SUITS:
            cards.append(Card(suit + rank, len(cards)))
    for joker in JOKERS:
        cards.append(Card(joker, len(cards)))
    return cards, {c.notation: c for c in cards}


#: The 54 distinct cards, ordered by rank then suit (``S2 H2 D2 C2 S3 … CA LJ BJ``).
_CARDS = _build()
ALL_CARDS: Final[list[Card]] = _CARDS[0]  # Final: compiled code reads it without a lookup
_BY_NOTATION: Final[dict[str, Card]] = _CARDS[1]
BIG_JOKER: Final = _BY_NOTATION["BJ"]
LITTLE_JOKER: Final = _BY_NOTATION["LJ"]

_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def parse_card(token: str) -> Card:
    """Read one card: ``H7``, ``h7``, ``7H``, ``♥7``, ``S10``, ``BJ``, ``LJ``.

    Raises ``ValueError`` naming the token when it is not a card.
    """
    text = token.strip()
    upper = text.upper()
    if upper in ("BJ", "LJ"):
        return _BY_NOTATION[upper]
    if len(text) >= 2:
        for suit_first in (True, False):
            s, r = (text[0], text[1:]) if suit_first else (text[-1], text[:-1])
            suit = _SUIT_ALIASES.get(s, s.upper())
            rank = r.upper()
            if rank == "10":
                rank = "T"
            if suit in SUITS and rank in RANK_VALUE:
                return _BY_NOTATION[suit + rank]
    raise ValueError(f"not a card: {token!r} (write suit S H D C then rank 2-9 T J Q K A, "
                     f"or BJ / LJ for the jokers)")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, or an iterable of card tokens.

    >>> parse_cards("S9,D9  H7")
    [Card('S9'), Card('D9'), Card('H7')]
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in notation, separated by single spaces (the inverse of ``parse_cards``)."""
    return " ".join(c.notation for c in cards)


def card_list(cards: Iterable[Card]) -> list[str]:
    """Cards as a list of notation strings, as JSON records store them."""
    return [c.notation for c in cards]


def check_level(level: str) -> str:
    """Return ``level`` if it is a rank ``2``…``A`` (``10`` accepted), else raise ``ValueError``."""
    if isinstance(level, str) and level in RANK_VALUE:  # the common case, kept as it is
        return level
    lv = "T" if level == "10" else str(level).upper()
    if lv not in RANK_VALUE:
        raise ValueError(f"not a level: {level!r} (a rank 2-9 T J Q K A)")
    return lv


def full_deck() -> list[Card]:
    """The 108 cards of two decks, in a fixed order."""
    return ALL_CARDS + ALL_CARDS


def shuffled_hands(rng: random.Random) -> dict[int, list[Card]]:
    """Shuffle two decks with ``rng`` and give 27 cards to each seat 1-4 (the hands a hand of a
    match starts from; the play on them is a ``guandan.deal.Deal``)."""
    deck = full_deck()
    rng.shuffle(deck)
    return {seat: sort_cards(deck[(seat - 1) * 27 : seat * 27], None) for seat in (1, 2, 3, 4)}


def sort_cards(cards: Iterable[Card], level: str | None) -> list[Card]:
    """Cards from weakest to strongest at ``level`` (natural order when ``level`` is None)."""
    if level is None:
        return sorted(cards, key=lambda c: c.index)
    return sorted(cards, key=lambda c: (c.strength(level), c.index))


def rank_strength(rank: str, level: str) -> int:
    """Strength of a rank for singles, pairs, triples, full houses and bombs."""
    if rank == level:
        return LEVEL_STRENGTH
    return RANK_VALUE.get(rank) or JOKER_STRENGTH[rank]
