"""Legal plays: everything a hand can play, generated from rank counts (never by subsets).

``legal_plays`` lists one play per kind, rank and size, wild readings included. Where several
physical choices give the same kind and rank, the representative uses the fewest wilds, copies
that no straight flush of the hand needs and, for a full house, the cheapest pair. On a table,
only plays that beat it are listed.

With ``every=True`` it lists every distinct play (docs/api.md): two plays are the same only
when they have the same kind and rank, the same natural ranks with the same counts, the same
number of wilds (a level heart is a wild even where it stands for itself) and, for a straight
flush, the same suit. The generators are the same; ``every`` only widens the choices each one
makes (how many naturals against wilds, which pair goes with a triple, which suit of a
straight flush, which naturals of a sequence a wild replaces).

>>> from guandan.cards import parse_cards
>>> hand = parse_cards("S9 D9 H7 BJ BJ")
>>> [(p.kind, p.rank) for p in legal_plays(hand, "7")]  # doctest: +NORMALIZE_WHITESPACE
[('single', '7'), ('single', '9'), ('single', 'BJ'), ('pair', '9'), ('pair', 'BJ'),
 ('triple', '9')]
>>> table = legal_plays(parse_cards("SK"), "7")[0]
>>> [p.cards[0].notation for p in legal_plays(hand, "7", table)]
['H7', 'BJ']
>>> [" ".join(map(str, p.cards)) for p in legal_plays(hand, "7", every=True) if p.kind == "pair"]
['S9 D9', 'S9 H7', 'BJ BJ']
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from guandan.cards import RANK_OF_VALUE, RANK_VALUE, Card, check_level
from guandan.readings import Reading

_SF: Final = 11
_JOKER_BOMB: Final = 30
_NORMAL_KINDS: Final[tuple[str, ...]] = (
    "single", "pair", "triple", "full_house", "straight", "tube", "plate",
)


#: Straight flush windows start at values 1 (a low A) to 10: a bit per start.
_WINDOW_STARTS: Final = 0b111_1111_1110


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


def _free_copies_first(nat: list[list[Card]], masks: list[int], wilds: int) -> list[int]:
    """Put each value's copies that no straight flush of the hand needs first, in place.

    Representatives take a value's first copies, so a single, pair, triple or run then leaves
    a straight flush whole when a free copy of its rank is there: ``S2 C2`` with ``S3-S6``
    plays the single 2 as ``C2``. A copy is needed when five consecutive values of its suit
    around it hold enough natural cards for the wilds to complete; the more of the five they
    hold, the more it is needed (a whole natural straight flush most). ``masks`` has a bit per
    value held in each suit (in the order of ``SUITS``). Returns the suits (indices into
    ``SUITS``) that hold a straight flush, natural or completed by the wilds.
    """
    need = 5 - wilds
    tiers: list[tuple[int, ...]] = []
    any_tied = 0
    for mask in masks:
        key = mask | wilds  # a mask has no bits 0 and 1; at most two wilds
        t = _TIERS[key]
        if t is None:
            t = _flush_tiers(mask, need)
            _TIERS[key] = t
        if t:
            any_tied |= t[-1]
        tiers.append(t)
    if not any_tied:
        return []
    needs = [0, 0, 0, 0]  # per suit (in the order of SUITS): how much a copy is needed
    for v in range(2, 15):
        cs = nat[v]
        if any_tied >> v & 1 and len(cs) > 1:
            for s in range(4):
                needs[s] = 0
                for b in tiers[s]:
                    needs[s] += b >> v & 1
            _sort_by_need(cs, needs)
    return [s for s in range(4) if tiers[s]]


#: ``_flush_tiers`` by ``mask | wilds`` (a bit per value 2-14, and 0-2 wilds), filled as
#: suit patterns come: a list, so that looking one up takes no hashing (tuples of ints, which
#: the garbage collector does not follow).
_TIERS: Final[list[tuple[int, ...] | None]] = [None] * (1 << 15)


def _sort_by_need(cards: list[Card], needs: list[int]) -> None:
    """Order ``cards`` (a few copies of one value) by the need of their suits, stably."""
    for i in range(1, len(cards)):
        card = cards[i]
        need = needs[card.index & 3]
        j = i - 1
        while j >= 0 and needs[cards[j].index & 3] > need:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


#: Bits set in each number below 32 (five values of a window).
_POPCOUNT: Final[tuple[int, ...]] = tuple(bin(i).count("1") for i in range(32))
def _take(cards: list[Card], k: int, wilds: list[Card], extra: int) -> tuple[Card, ...]:
    """The first ``k`` of ``cards`` and ``extra`` wilds."""
    if extra == 0:
        if k == 1:
            return (cards[0],)
        return tuple(cards[:k])
    return tuple(cards[:k] + wilds[:extra])


def _swaps(positions: list[int], spare: int) -> list[tuple[int, ...]]:
    """The sets of ``positions`` (held naturals of a sequence) a wild may stand in for instead,
    at most ``spare`` of them: every such choice is a play of its own with ``every=True``."""
    out: list[tuple[int, ...]] = [()]
    for k in range(1, min(spare, len(positions)) + 1):
        out.extend(combinations(positions, k))
    return out


class PlayGroups:
    """A hand split by rank: natural cards per value, wilds, jokers, suits per value."""

    def __init__(self, hand: list[Card], level: str, every: bool) -> None:
        self.level = level
        self.every = every
        lv = self.lv = RANK_VALUE[level]
        # A value's list is made when a card of it comes: one shared empty list stands for
        # the others (it is never added to: ``_sort_by_need`` orders only lists of two or more).
        # Wilds and jokers too (most hands hold none).
        none: list[Card] = []
        nat: list[list[Card]] = [none] * 15
        wilds = lj = bj = none
        m0 = m1 = m2 = m3 = 0  # a bit per value held, per suit (native ints, not a list's)
        for c in hand:
            v = c.value
            suit = c.index & 3
            if v > 14:
                if v == 17:
                    bj = [c] if bj is none else [*bj, c]
                else:
                    lj = [c] if lj is none else [*lj, c]
            elif v == lv and suit == 1:  # a heart of the level: a wild
                wilds = [c] if wilds is none else [*wilds, c]
            else:
                cs = nat[v]
                if cs is none:
                    nat[v] = [c]
                else:
                    cs.append(c)
                if suit == 0:
                    m0 |= 1 << v
                elif suit == 1:
                    m1 |= 1 << v
                elif suit == 2:
                    m2 |= 1 << v
                else:
                    m3 |= 1 << v
        nat[1] = nat[14]  # a low A
        masks = [m0, m1, m2, m3]
        self.flush_suits = _free_copies_first(nat, masks, len(wilds))
        self.nat = nat
        self.wilds = wilds
        self.w = len(wilds)
        self.lj = lj
        self.bj = bj
        self.masks = masks
        # By kind (the order of ``_NORMAL_KINDS``), the plays generated so far: those with a
        # key above ``by_kind_above``, once generated.
        self.by_kind: list[list[Reading] | None] = [None, None, None, None, None, None, None]
        self.by_kind_above = [0, 0, 0, 0, 0, 0, 0]
        self.special: list[Reading] | None = None

    def _least(self, most: int, lowest: int, n: int) -> int:
        """The fewest naturals of a value a play of ``n`` cards of it takes when ``most`` are
        at hand (the wilds fill the rest; a rank other than the level's needs ``lowest``). The
        plays take ``most`` down to this many: only ``most`` unless ``every``, none when this
        is above ``most``."""
        least = max(lowest, n - self.w)
        return least if self.every or least > most else most

    # -- same-rank kinds ------------------------------------------------------------------

    def _same_rank(self, kind: str, n: int, above: int) -> list[Reading]:
        out: list[Reading] = []
        level, lv, nat, wilds = self.level, self.lv, self.nat, self.wilds
        for v in range(2, 15):
            key = 15 if v == lv else v
            if key <= above:
                continue
            most = min(len(nat[v]), n)
            if most + self.w < n or (most == 0 and v != lv):
                continue  # too few cards (what ``_least`` would say, without the call)
            # Wilds alone are the level rank; any other rank needs a natural card.
            for k in range(most, self._least(most, 0 if v == lv else 1, n) - 1, -1):
                cards = _take(nat[v], k, wilds, n - k)
                out.append(Reading(kind, RANK_OF_VALUE[v], cards, level, key, 0))
        if n <= 2:
            if len(self.lj) >= n and above < 16:
                out.append(Reading(kind, "LJ", tuple(self.lj[:n]), level, 16, 0))
            if len(self.bj) >= n and above < 17:
                out.append(Reading(kind, "BJ", tuple(self.bj[:n]), level, 17, 0))
        return out

    def full_houses(self, above: int) -> list[Reading]:
        out: list[Reading] = []
        level, lv, nat, wilds, w = self.level, self.lv, self.nat, self.wilds, self.w
        for t in range(2, 15):
            key = 15 if t == lv else t
            if key <= above:
                continue
            most = min(len(nat[t]), 3)
            for kt in range(most, self._least(most, 1, 3) - 1, -1):
                trip = _take(nat[t], kt, wilds, 3 - kt)
                rem = w - (3 - kt)  # wilds left for the pair
                pairs = self._all_pairs(t, rem) if self.every else self._cheapest_pair(t, rem)
                for pair in pairs:
                    out.append(Reading("full_house", RANK_OF_VALUE[t], trip + pair, level, key, 0))
        return out

    def _cheapest_pair(self, t: int, rem: int) -> list[tuple[Card, ...]]:
        """The pair the representative full house of triple ``t`` takes: fewest wilds, then one
        that breaks no triple or bomb, then the weakest."""
        nat, wilds, lv = self.nat, self.wilds, self.lv
        best = -1
        best_cards: tuple[Card, ...] = ()
        for p in range(2, 15):
            if p == t:
                continue
            cp = len(nat[p])
            # cost: wilds used, then the triple or bomb broken, then strength (base 16)
            strength = 15 if p == lv else p
            if cp >= 2:
                cost = (0 if cp == 2 else (1 if cp == 3 else 2)) * 16 + strength
                cards = (nat[p][0], nat[p][1])
            elif cp == 1 and rem >= 1:
                cost = 256 + strength
                cards = (nat[p][0], wilds[self.w - 1])
            else:
                continue
            if best < 0 or cost < best:
                best, best_cards = cost, cards
        if best < 0:
            if rem < 2:
                return []
            best_cards = (wilds[0], wilds[1])  # both wilds stand as a pair of another rank
        return [best_cards]

    def _all_pairs(self, t: int, rem: int) -> list[tuple[Card, ...]]:
        """Every distinct pair for the triple ``t``: each other rank with two naturals or one
        and a wild, and two wilds standing as a pair of some other rank."""
        nat, wilds, w = self.nat, self.wilds, self.w
        out: list[tuple[Card, ...]] = []
        for p in range(2, 15):
            if p == t:
                continue
            cp = len(nat[p])
            if cp >= 2:
                out.append((nat[p][0], nat[p][1]))
            if cp >= 1 and rem >= 1:
                out.append((nat[p][0], wilds[w - 1]))
        if rem >= 2:
            out.append((wilds[w - 2], wilds[w - 1]))
        return out

    # -- sequences --------------------------------------------------------------------------

    def _runs(self, kind: str, length: int, per: int, min_top: int, above: int) -> list[Reading]:
        out: list[Reading] = []
        nat, wilds, level, w = self.nat, self.wilds, self.level, self.w
        full = 0  # a bit per value holding ``per`` naturals (bit 1: a low A)
        for v in range(1, 15):
            if len(nat[v]) >= per:
                full |= 1 << v
        window = (1 << length) - 1
        for top in range(max(min_top, above + 1), 15):
            if w == 0 and full >> (top - length + 1) & window != window:
                continue  # without wilds every value needs ``per`` naturals
            need = 0
            for v in range(top - length + 1, top + 1):
                c = len(nat[v])
                if c < per:
                    need += per - c
            if need > w:
                continue
            if not self.every:
                cards: list[Card] = []
                for v in range(top - length + 1, top + 1):
                    cards.extend(nat[v][:per])
                cards.extend(wilds[:need])
                out.append(Reading(kind, RANK_OF_VALUE[top], tuple(cards), level, top, 0))
                continue
            # Every split of the wilds over the positions: k naturals of each, per - k wilds.
            for takes in self._run_takes(top - length + 1, length, per, w):
                cards = []
                used = 0
                for i, k in enumerate(takes):
                    cards.extend(nat[top - length + 1 + i][:k])
                    used += per - k
                cards.extend(wilds[:used])
                out.append(Reading(kind, RANK_OF_VALUE[top], tuple(cards), level, top, 0))
        return out

    def _run_takes(self, low: int, length: int, per: int, spare: int) -> list[list[int]]:
        """How many naturals each position of a run takes, for every choice that leaves at most
        ``spare`` positions' worth of cards to the wilds."""
        takes: list[list[int]] = [[]]
        for v in range(low, low + length):
            most = min(len(self.nat[v]), per)
            nxt: list[list[int]] = []
            for t in takes:
                left = spare - sum(per - k for k in t)
                for k in range(most, max(0, per - left) - 1, -1):
                    nxt.append([*t, k])
            takes = nxt
        return takes

    def straights(self, above: int) -> list[Reading]:
        out: list[Reading] = []
        nat, wilds, level, w = self.nat, self.wilds, self.level, self.w
        m = self.masks
        values = m[0] | m[1] | m[2] | m[3]  # a bit per value held (bit 1: a low A)
        if values >> 14 & 1:
            values |= 2
        for top in range(max(5, above + 1), 15):
            missing = 5 - _POPCOUNT[values >> (top - 4) & 31]  # values of the five not held
            if missing > w:
                continue
            rank = RANK_OF_VALUE[top]
            if not self.every:
                cards = [nat[v][0] for v in range(top - 4, top + 1) if nat[v]]
                used = missing
                if not missing and not self._mix_suits(cards, top):
                    # Five naturals of one suit only: a straight flush, never a plain straight.
                    if w == 0:
                        continue
                    del cards[0]  # a wild stands for one of them, in another suit
                    used = 1
                out.append(Reading("straight", rank, tuple(cards + wilds[:used]), level, top, 0))
                continue
            held = [i for i in range(5) if nat[top - 4 + i]]
            for swapped in _swaps(held, w - missing):
                cards = [nat[top - 4 + i][0] for i in held if i not in swapped]
                used = missing + len(swapped)
                if not used and not self._mix_suits(cards, top):
                    continue  # only a straight flush
                out.append(Reading("straight", rank, tuple(cards + wilds[:used]), level, top, 0))
        return out

    def _mix_suits(self, cards: list[Card], top: int) -> bool:
        """Make five natural cards of a straight not all of one suit, swapping one copy for
        another of its value; False when every copy of the five values is of one suit."""
        suit = cards[0].suit
        for c in cards:
            if c.suit != suit:
                return True
        for i in range(5):
            for c in self.nat[top - 4 + i]:
                if c.suit != suit:
                    cards[i] = c
                    return True
        return False

    def _in_suit(self, v: int, suit: int) -> Card:
        """A natural card of value ``v`` in ``suit`` (an index into ``SUITS``); held."""
        for c in self.nat[v]:
            if c.index & 3 == suit:
                return c
        raise AssertionError("no such card")  # the masks say it is held

    def straight_flushes(self) -> list[Reading]:
        out: list[Reading] = []
        wilds, level, w = self.wilds, self.level, self.w
        need = 5 - w  # natural cards of one suit a window needs
        masks = [m | 2 if m >> 14 & 1 else m for m in self.masks]  # bit 1: a low A
        suits = self.flush_suits
        for top in range(5, 15):
            low = top - 4
            if not self.every:
                # The suit holding most of the window (the first such suit on a tie).
                best = -1
                best_held = need - 1
                for s in suits:
                    held = _POPCOUNT[masks[s] >> low & 31]
                    if held > best_held:
                        best, best_held = s, held
                if best >= 0:
                    cards = [self._in_suit(v, best) for v in range(low, top + 1)
                             if masks[best] >> v & 1]
                    out.append(Reading("straight_flush", RANK_OF_VALUE[top],
                                       tuple(cards + wilds[: 5 - best_held]), level, top, _SF))
                continue
            for s in suits:
                in_suit = [i for i in range(5) if masks[s] >> (low + i) & 1]
                missing = 5 - len(in_suit)
                if missing > w:
                    continue
                for swapped in _swaps(in_suit, w - missing):
                    cards = [self._in_suit(low + i, s) for i in in_suit if i not in swapped]
                    out.append(Reading("straight_flush", RANK_OF_VALUE[top],
                                       tuple(cards + wilds[: missing + len(swapped)]),
                                       level, top, _SF))
        return out

    # -- specials ---------------------------------------------------------------------------

    def specials(self) -> list[Reading]:
        """Bombs, straight flushes and the joker bomb, in the order ``legal_plays`` lists them
        (generated once)."""
        if self.special is not None:
            return self.special
        out: list[Reading] = []
        level, lv, nat, wilds, w = self.level, self.lv, self.nat, self.wilds, self.w
        for v in range(2, 15):
            c = len(nat[v])
            if c + w < 4 or c == 0:
                continue
            key = 15 if v == lv else v
            for n in range(4, c + w + 1):
                power = 2 * n
                most = min(c, n)
                for k in range(most, self._least(most, 1, n) - 1, -1):
                    cards = _take(nat[v], k, wilds, n - k)
                    out.append(Reading("bomb", RANK_OF_VALUE[v], cards, level, key, power))
        if self.flush_suits:  # no suit holds one otherwise
            out.extend(self.straight_flushes())
        if len(self.lj) == 2 and len(self.bj) == 2:
            jb = (self.lj[0], self.lj[1], self.bj[0], self.bj[1])
            out.append(Reading("joker_bomb", None, jb, level, 0, _JOKER_BOMB))
        self.special = out
        return out

    def normal(self, kind: str, above: int) -> list[Reading]:
        """The plays of one normal kind with a key above ``above`` (-1 for all), in the order
        ``legal_plays`` lists them. Generated once per hand from the lowest ``above`` asked:
        a trick's keys only rise, so following it again filters what is kept."""
        i = _kind_index(kind)
        if i < 0:
            raise ValueError(f"not a normal kind: {kind!r}")
        kept = self.by_kind[i]
        if kept is not None and self.by_kind_above[i] <= above:
            if self.by_kind_above[i] == above:
                return kept
            return [p for p in kept if p.key > above]
        plays = self._generate(i, above)
        self.by_kind[i] = plays
        self.by_kind_above[i] = above
        return plays

    def _generate(self, i: int, above: int) -> list[Reading]:
        if i == 0:
            return self._same_rank("single", 1, above)
        if i == 1:
            return self._same_rank("pair", 2, above)
        if i == 2:
            return self._same_rank("triple", 3, above)
        if i == 3:
            return self.full_houses(above)
        if i == 4:
            return self.straights(above)
        if i == 5:
            return self._runs("tube", 3, 2, 3, above)
        return self._runs("plate", 2, 3, 2, above)

    def plays(self, table: Reading | None) -> list[Reading]:
        """``legal_plays`` of this hand (a new list): every play on an empty table, or those
        beating ``table``."""
        out: list[Reading] = []
        if table is None:
            for kind in _NORMAL_KINDS:
                out.extend(self.normal(kind, -1))
            out.extend(self.specials())
            return out
        power, key = table.power, table.key
        if power == 0:  # the same kind (of one size) with a higher key, and every special play
            out.extend(self.normal(table.kind, key))
            out.extend(self.specials())
            return out
        for p in self.specials():  # a stronger kind of special play, or a higher one of its kind
            if p.power > power or (p.power == power and p.key > key):
                out.append(p)
        return out

    def offers(self, play: Reading) -> bool:
        """True when ``play`` is one of the plays this hand generated (the very object): then
        it is a reading of cards of this hand, as the engine read them."""
        if play.power:
            kept = self.special
        else:
            i = _kind_index(play.kind)
            kept = self.by_kind[i] if i >= 0 else None
        if kept is not None:
            for p in kept:
                if p is play:
                    return True
        return False


def _kind_index(kind: str) -> int:
    """The place of a normal kind in ``_NORMAL_KINDS``; -1 for any other."""
    for i in range(7):
        if _NORMAL_KINDS[i] == kind:
            return i
    return -1


#: The hands analysed lately, by their cards in order, level and ``every``: searching and
#: playing ask again about a hand that has not changed (a pass, another trick to follow), and
#: a hand's plays are then only filtered by the table. The same cards in the same order give
#: the same plays, so what is kept changes no result. Sixteen hands (the oldest goes first)
#: catch nearly every hand asked about again in random self-play; more cost the garbage
#: collector more than they save.
_ANALYSED: Final[dict[tuple[tuple[int, ...], str, bool], PlayGroups]] = {}
_ANALYSED_KEPT: Final = 16


def _groups_of(hand: Iterable[Card], level: str, every: bool) -> PlayGroups:
    cards = list(hand)
    key = (tuple([c.index for c in cards]), level, every)
    groups = _ANALYSED.get(key)
    if groups is None:
        if len(_ANALYSED) >= _ANALYSED_KEPT:
            del _ANALYSED[next(iter(_ANALYSED))]  # the oldest
        groups = _ANALYSED[key] = PlayGroups(cards, level, every)
    return groups


def forget_analysed() -> None:
    """Forget the hands analysed lately, so that the next ``legal_plays`` starts cold (for
    the tests that check what is kept changes nothing, and the benchmarks of a cold start)."""
    _ANALYSED.clear()


def legal_plays(hand: Iterable[Card], level: str, table: Reading | None = None,
                every: bool = False) -> list[Reading]:
    """Every distinct play from ``hand`` at ``level``: on an empty table, or beating ``table``.

    By default one play per kind, rank and size, wild readings included; with ``every=True``
    every distinct play (the module docstring says when two are the same). Grouped by kind
    (singles, pairs, triples, full houses, straights, tubes, plates, then bombs, straight
    flushes and the joker bomb); within a kind in natural rank order (the level rank in its
    natural place), jokers last.
    """
    return _groups_of(hand, check_level(level), every).plays(table)
