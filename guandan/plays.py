"""Legal plays: everything a hand can play, generated from rank counts (never by subsets).

``legal_plays`` lists one play per kind, rank and size, wild readings included. Where several
physical choices give the same kind and rank, the representative uses the fewest wilds, copies
that no straight flush of the hand needs and, for a full house, the cheapest pair. On a table,
only plays that beat it are listed.

>>> from guandan.cards import parse_cards
>>> hand = parse_cards("S9 D9 H7 BJ BJ")
>>> [(p.kind, p.rank) for p in legal_plays(hand, "7")]  # doctest: +NORMALIZE_WHITESPACE
[('single', '7'), ('single', '9'), ('single', 'BJ'), ('pair', '9'), ('pair', 'BJ'),
 ('triple', '9')]
>>> table = legal_plays(parse_cards("SK"), "7")[0]
>>> [p.cards[0].notation for p in legal_plays(hand, "7", table)]
['H7', 'BJ']
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations

from guandan.cards import RANK_VALUE, SUITS, VALUE_RANK, Card, check_level
from guandan.readings import Reading

_SF = 11
_JOKER_BOMB = 30
_VALUES = range(2, 15)


#: Straight flush windows start at values 1 (a low A) to 10: a bit per start.
_WINDOW_STARTS = 0b111_1111_1110


@lru_cache(maxsize=1 << 16)
def _flush_tiers(mask: int, need: int) -> tuple[int, ...]:
    """The values of one suit (``mask``: a bit per value held) that straight flushes could use.

    One bit mask per tier, from the values in a window of five holding all five (a natural
    straight flush) down to those in a window holding ``need`` (the wilds fill the rest); each
    tier holds the one before it. Empty when no window holds ``need``.
    """
    if mask >> 14 & 1:
        mask |= 2  # a low A
    tiers: list[int] = []
    for k in range(5, need - 1, -1):
        starts = 0
        for missing in combinations(range(5), 5 - k):
            x = _WINDOW_STARTS
            for j in range(5):
                if j not in missing:
                    x &= mask >> j
            starts |= x
        covered = (starts | starts << 1 | starts << 2 | starts << 3 | starts << 4) & mask
        if covered & 2:
            covered |= 1 << 14
        if covered:
            tiers.append(covered)
        elif tiers:
            tiers.append(tiers[-1])
    return tuple(tiers)


def _free_copies_first(nat: list[list[Card]], masks: dict[str, int], wilds: int) -> None:
    """Put each value's copies that no straight flush of the hand needs first, in place.

    Representatives take a value's first copies, so a single, pair, triple or run then leaves
    a straight flush whole when a free copy of its rank is there: ``S2 C2`` with ``S3-S6``
    plays the single 2 as ``C2``. A copy is needed when five consecutive values of its suit
    around it hold enough natural cards for the wilds to complete; the more of the five they
    hold, the more it is needed (a whole natural straight flush most). ``masks`` has a bit per
    value held in each suit.
    """
    need = 5 - wilds
    tiers: dict[str, tuple[int, ...]] = {}
    any_tied = 0
    for suit, mask in masks.items():
        if mask.bit_count() >= need:
            t = _flush_tiers(mask, need)
            if t:
                tiers[suit] = t
                any_tied |= t[-1]
    if not tiers:
        return
    for v in _VALUES:
        cs = nat[v]
        if any_tied >> v & 1 and len(cs) > 1:
            need_of = {s: sum(b >> v & 1 for b in t) for s, t in tiers.items()}
            cs.sort(key=lambda c: need_of.get(c.suit, 0))


class _Groups:
    """A hand split by rank: natural cards per value, wilds, jokers, suits per value."""

    __slots__ = ("bj", "level", "lj", "lv", "nat", "suited", "wilds")

    def __init__(self, hand: Iterable[Card], level: str) -> None:
        self.level = level
        lv = self.lv = RANK_VALUE[level]
        nat: list[list[Card]] = [[] for _ in range(15)]
        wilds: list[Card] = []
        lj: list[Card] = []
        bj: list[Card] = []
        masks = dict.fromkeys(SUITS, 0)
        for c in hand:
            v = c.value
            if v > 14:
                (bj if v == 17 else lj).append(c)
            elif v == lv and c.suit == "H":
                wilds.append(c)
            else:
                nat[v].append(c)
                masks[c.suit] |= 1 << v
        nat[1] = nat[14]  # a low A
        _free_copies_first(nat, masks, len(wilds))
        self.nat, self.wilds, self.lj, self.bj = nat, wilds, lj, bj
        self.suited: dict[str, tuple[int, list[Card | None]]] | None = None

    def strength(self, v: int) -> int:
        return 15 if v == self.lv else v

    # -- same-rank kinds ------------------------------------------------------------------

    def _same_rank(self, kind: str, n: int, min_key: int) -> list[Reading]:
        out = []
        level, lv, nat, wilds = self.level, self.lv, self.nat, self.wilds
        w = len(wilds)
        for v in _VALUES:
            key = 15 if v == lv else v
            if key <= min_key:
                continue
            cs = nat[v]
            c = len(cs)
            if c == 0 and not (v == lv and n <= w):
                continue
            if c + w < n:
                continue
            take = c if c < n else n
            cards = tuple(cs[:take]) + tuple(wilds[: n - take])
            out.append(Reading._known(kind, VALUE_RANK[v], cards, level, key, 0))
        if n <= 2:
            for jokers, rank, key in ((self.lj, "LJ", 16), (self.bj, "BJ", 17)):
                if len(jokers) >= n and key > min_key:
                    out.append(Reading._known(kind, rank, tuple(jokers[:n]), level, key, 0))
        return out

    def singles(self, min_key: int) -> list[Reading]:
        return self._same_rank("single", 1, min_key)

    def pairs(self, min_key: int) -> list[Reading]:
        return self._same_rank("pair", 2, min_key)

    def triples(self, min_key: int) -> list[Reading]:
        return self._same_rank("triple", 3, min_key)

    def full_houses(self, min_key: int) -> list[Reading]:
        out = []
        level, lv, nat, wilds = self.level, self.lv, self.nat, self.wilds
        w = len(wilds)
        for t in _VALUES:
            key = 15 if t == lv else t
            ct = len(nat[t])
            if key <= min_key or ct == 0 or ct + w < 3:
                continue
            used_t = ct if ct < 3 else 3
            rem = w - (3 - used_t)
            # The cheapest pair: fewest wilds, then one that breaks no triple or bomb, then weakest.
            best: tuple[int, int, int] | None = None
            best_cards: tuple[Card, ...] = ()
            for p in _VALUES:
                if p == t:
                    continue
                cp = len(nat[p])
                if cp >= 2:
                    cost = (0, 0 if cp == 2 else (1 if cp == 3 else 2), 15 if p == lv else p)
                    cards = (nat[p][0], nat[p][1])
                elif cp == 1 and rem >= 1:
                    cost = (1, 0, 15 if p == lv else p)
                    cards = (nat[p][0], wilds[w - 1])
                else:
                    continue
                if best is None or cost < best:
                    best, best_cards = cost, cards
            if best is None:
                if rem < 2:
                    continue
                best_cards = (wilds[0], wilds[1])  # both wilds stand as a pair of another rank
            trip = tuple(nat[t][:used_t]) + tuple(wilds[: 3 - used_t])
            house = trip + best_cards
            out.append(Reading._known("full_house", VALUE_RANK[t], house, level, key, 0))
        return out

    # -- sequences --------------------------------------------------------------------------

    def _runs(self, kind: str, length: int, per: int, min_top: int, min_key: int) -> list[Reading]:
        out = []
        nat, wilds, level = self.nat, self.wilds, self.level
        w = len(wilds)
        for top in range(max(min_top, min_key + 1), 15):
            need = 0
            for v in range(top - length + 1, top + 1):
                c = len(nat[v])
                if c < per:
                    need += per - c
            if need > w:
                continue
            cards: list[Card] = []
            for v in range(top - length + 1, top + 1):
                cards.extend(nat[v][:per])
            cards.extend(wilds[:need])
            out.append(Reading._known(kind, VALUE_RANK[top], tuple(cards), level, top, 0))
        return out

    def straights(self, min_key: int) -> list[Reading]:
        out = []
        nat, wilds, level = self.nat, self.wilds, self.level
        w = len(wilds)
        for top in range(max(5, min_key + 1), 15):
            window = range(top - 4, top + 1)
            missing = 0
            for v in window:
                if not nat[v]:
                    missing += 1
            if missing > w:
                continue
            cards = [nat[v][0] for v in window if nat[v]]
            used = missing
            if not missing and len({c.suit for c in cards}) == 1:
                # Five natural cards of one suit are a straight flush, never a plain straight:
                # take another suit at some position, or let a wild stand for one.
                suit = cards[0].suit
                for i, v in enumerate(window):
                    other = next((c for c in nat[v] if c.suit != suit), None)
                    if other is not None:
                        cards[i] = other
                        break
                else:
                    if w == 0:
                        continue
                    cards[0] = wilds[0]
                    used = -1  # the wild is already in cards
            if used > 0:
                cards.extend(wilds[:used])
            out.append(Reading._known("straight", VALUE_RANK[top], tuple(cards), level, top, 0))
        return out

    def tubes(self, min_key: int) -> list[Reading]:
        return self._runs("tube", 3, 2, 3, min_key)

    def plates(self, min_key: int) -> list[Reading]:
        return self._runs("plate", 2, 3, 2, min_key)

    def _suited(self) -> dict[str, tuple[int, list[Card | None]]]:
        """Per suit: a bit mask of the values held (bit 1 is a low A) and a card per value."""
        if self.suited is None:
            suited: dict[str, tuple[int, list[Card | None]]] = {}
            rows: dict[str, list[Card | None]] = {s: [None] * 15 for s in SUITS}
            for v in _VALUES:
                for c in self.nat[v]:
                    rows[c.suit][v] = c
            for s, row in rows.items():
                row[1] = row[14]
                mask = 0
                for v in range(1, 15):
                    if row[v] is not None:
                        mask |= 1 << v
                suited[s] = (mask, row)
            self.suited = suited
        return self.suited

    def straight_flushes(self, min_key: int) -> list[Reading]:
        out: list[Reading] = []
        wilds, level = self.wilds, self.level
        need = 5 - len(wilds)  # natural cards of one suit a window needs
        rows = [(mask, row) for mask, row in self._suited().values() if mask.bit_count() >= need]
        if not rows:
            return out
        for top in range(max(5, min_key + 1), 15):
            best: list[Card | None] | None = None
            best_held = need - 1
            for mask, row in rows:
                held = ((mask >> (top - 4)) & 31).bit_count()
                if held > best_held:
                    best, best_held = row, held
            if best is None:
                continue
            cards = tuple(c for c in best[top - 4 : top + 1] if c is not None)
            cards += tuple(wilds[: 5 - best_held])
            out.append(Reading._known("straight_flush", VALUE_RANK[top], cards, level, top, _SF))
        return out

    # -- specials ---------------------------------------------------------------------------

    def specials(self, min_power: int, min_key: int) -> list[Reading]:
        """Bombs, straight flushes and the joker bomb above ``(min_power, min_key)``."""
        out = []
        level, lv, nat, wilds = self.level, self.lv, self.nat, self.wilds
        w = len(wilds)
        for v in _VALUES:
            cs = nat[v]
            c = len(cs)
            if c + w < 4 or c == 0:
                continue
            key = 15 if v == lv else v
            for n in range(4, c + w + 1):
                power = 2 * n
                if power < min_power or (power == min_power and key <= min_key):
                    continue
                take = c if c < n else n
                cards = tuple(cs[:take]) + tuple(wilds[: n - take])
                out.append(Reading._known("bomb", VALUE_RANK[v], cards, level, key, power))
        if min_power < _SF:
            out.extend(self.straight_flushes(0))
        elif min_power == _SF:
            out.extend(self.straight_flushes(min_key))
        if min_power < _JOKER_BOMB and len(self.lj) == 2 and len(self.bj) == 2:
            jb = (self.lj[0], self.lj[1], self.bj[0], self.bj[1])
            out.append(Reading._known("joker_bomb", None, jb, level, 0, _JOKER_BOMB))
        return out

    def normal(self, kind: str, min_key: int) -> list[Reading]:
        return _NORMAL[kind](self, min_key)


_NORMAL = {
    "single": _Groups.singles,
    "pair": _Groups.pairs,
    "triple": _Groups.triples,
    "full_house": _Groups.full_houses,
    "straight": _Groups.straights,
    "tube": _Groups.tubes,
    "plate": _Groups.plates,
}


def legal_plays(hand: Iterable[Card], level: str, table: Reading | None = None) -> list[Reading]:
    """Every distinct play from ``hand`` at ``level``: on an empty table, or beating ``table``.

    One play per kind, rank and size, wild readings included, grouped by kind (singles, pairs,
    triples, full houses, straights, tubes, plates, then bombs, straight flushes and the joker
    bomb); within a kind in natural rank order (the level rank in its natural place), jokers last.
    """
    groups = _Groups(hand, check_level(level))
    if table is None:
        out: list[Reading] = []
        for gen in _NORMAL.values():
            out.extend(gen(groups, 0))
        out.extend(groups.specials(0, 0))
        return out
    if table.power == 0:
        return groups.normal(table.kind, table.key) + groups.specials(1, 0)
    return groups.specials(table.power, table.key)
