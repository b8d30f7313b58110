"""The person's cards arranged for the page: by strength (세기순), or in groups (묶음순)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from guandan.cards import Card
from guandan.plays import legal_plays
from guandan.readings import Reading


def strength_order(hand: Iterable[Card], level: str) -> list[Card]:
    """Strongest first (jokers, the level rank, A, K …); the engine's card strength."""
    return sorted(hand, key=lambda c: (-c.strength(level), c.suit != "H", c.index))


def group_order(hand: Sequence[Card], level: str) -> list[list[Card]]:
    """The hand in groups: bombs and straight flushes together first, then rank groups.

    The bombs and straight flushes are the engine's own (``legal_plays``), taken greedily from
    the strongest and never sharing a card; wilds are kept apart so they stay free to use.
    """
    rest = Counter(c for c in hand if not c.is_wild(level))
    groups: list[list[Card]] = []
    wilds = [c for c in hand if c.is_wild(level)]
    plays = [p for p in legal_plays(list(rest.elements()), level) if p.is_special]
    specials = [p for p in plays if p.kind != "bomb"]
    bombs = [p for p in plays if p.kind == "bomb"]
    # Bombs: the biggest of each rank (all natural cards of that rank).
    by_rank: dict[str | None, Reading] = {}
    for b in bombs:
        if b.rank not in by_rank or b.size > by_rank[b.rank].size:
            by_rank[b.rank] = b
    chosen: list[Reading] = []
    for p in sorted(specials, key=lambda r: (r.power, r.key), reverse=True):
        if p.kind == "joker_bomb" or not (Counter(p.cards) - rest):
            chosen.append(p)
            rest -= Counter(p.cards)
    for b in sorted(by_rank.values(), key=lambda r: (r.power, r.key), reverse=True):
        if not (Counter(b.cards) - rest):
            chosen.append(b)
            rest -= Counter(b.cards)
    chosen.sort(key=lambda r: (r.power, r.key), reverse=True)
    if wilds:
        groups.append(wilds)
    for p in chosen:
        groups.append(strength_order(p.cards, level))
    by_strength: dict[int, list[Card]] = {}
    for c in strength_order(rest.elements(), level):
        by_strength.setdefault(c.strength(level), []).append(c)
    groups.extend(by_strength.values())
    return [g for g in groups if g]
