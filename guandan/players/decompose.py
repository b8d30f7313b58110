"""Hand decomposition: split a hand into the fewest, strongest plays.

A hand is worth roughly the number of tricks its owner must win (or lead) to empty it. The
decomposition finds the split of the hand into plays whose total *cost* is lowest: each normal
play costs about one turn, less when it is strong enough to win its trick (a big single, a high
pair); a bomb or straight flush costs less than nothing, since it takes a trick whenever its
owner likes. The two wild cards (hearts of the level) go where they save a play: filling a gap
in a sequence, turning a triple into a bomb, a pair into a triple that carries a pair, or a single
into a pair; or they stay level cards (strong singles).

The search works on rank counts (13 natural values, the wilds, the jokers) with memoisation,
so that evaluating the hand left after each candidate play is cheap enough for a player that
decides within milliseconds. Sequences are only taken out where they can save a play (they
take at least two cards that would otherwise be singles of a straight, pairs of a tube…) and
never break a bomb.

>>> from guandan.cards import parse_cards
>>> d = decompose(parse_cards("S3 D4 C5 S6 H7 S9 D9 C9 SK DK"), "2")
>>> [(p.kind, p.rank) for p in d.parts]
[('straight', '7'), ('full_house', '9')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from guandan.cards import RANK_VALUE, SUITS, VALUE_RANK, Card

#: Index of the level rank's strength.
_LEVEL_S: Final = 15
#: How likely a same-rank play of each strength wins its trick (2 … BJ), the "control" share.
_CONTROL: Final = {
    2: 0.0, 3: 0.0, 4: 0.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0, 9: 0.0, 10: 0.0,
    11: 0.05, 12: 0.12, 13: 0.25, 14: 0.4, 15: 0.6, 16: 0.78, 17: 0.92,
}
#: Extra cost of the weakest cards: they are the hardest to get rid of.
_LOW: Final = {s: max(0.0, (9 - s) * 0.025) for s in range(2, 18)}
BOMB_COST: Final = -0.35
#: Bigger bombs are worth a little more.
BOMB_STEP: Final = 0.05
SF_COST: Final = -0.4
JOKER_BOMB_COST: Final = -0.8


@dataclass(frozen=True, slots=True)
class Part:
    """One play of a decomposition: kind, rank (as ``Reading.rank``), size, cost.

    ``pair_rank`` is the rank of a full house's pair; ``suit`` the suit of a straight flush.
    """

    kind: str
    rank: str | None
    size: int
    cost: float
    pair_rank: str | None = None
    suit: str | None = None

    @property
    def is_bomb(self) -> bool:
        return self.kind in ("bomb", "straight_flush", "joker_bomb")


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The cheapest split found: its plays (weakest first) and total cost."""

    parts: tuple[Part, ...]
    cost: float

    @property
    def plays(self) -> int:
        """How many plays the split has."""
        return len(self.parts)

    @property
    def bombs(self) -> int:
        return sum(1 for p in self.parts if p.is_bomb)


def same_rank_cost(kind: str, strength: int) -> float:
    """Cost of a single, pair, triple or full house whose key has this strength."""
    c = _CONTROL[strength]
    if kind == "single":
        return 1.0 - c + _LOW[strength]
    if kind == "pair":
        return 1.0 - 0.9 * c + _LOW[strength]
    # triple and full house: rarely beaten when high, but fewer hands can follow them anyway
    return 1.0 - 0.7 * c


def sequence_cost(kind: str, top: int) -> float:
    """Cost of a straight, tube or plate with this natural top value."""
    if kind == "straight":
        return 1.0 - max(0, top - 10) * 0.08
    if kind == "tube":
        return 1.0 - max(0, top - 10) * 0.07
    return 1.0 - max(0, top - 9) * 0.06  # plate


def bomb_cost(size: int) -> float:
    return BOMB_COST - BOMB_STEP * (size - 4)


def _sequences() -> list[tuple[str, int, int, tuple[int, ...], float]]:
    """Every sequence shape: kind, natural top, cards per rank, rank indices (A low is 14)."""
    out = []
    shapes = (("straight", 5, 1, 5), ("tube", 3, 2, 3), ("plate", 2, 3, 2))
    for kind, length, per, low_top in shapes:
        for top in range(low_top, 15):
            idxs = tuple(14 if v == 1 else v for v in range(top - length + 1, top + 1))
            out.append((kind, top, per, idxs, sequence_cost(kind, top)))
    return out


_SEQUENCES: Final = _sequences()

#: Rank counts are read as a number in base 5, a digit per natural value 1 (the low ace) to 14,
#: counts above 3 written 4 (a bomb); the digits of a sequence's window then say at once how
#: many wilds it needs and whether it is worth taking (see ``_window_table``).
_DIGIT_INDEXES: Final = tuple(14 if v == 1 else v for v in range(14, 0, -1))  # highest first


def _window_table(per: int, length: int) -> tuple[int, ...]:
    """For each window of ``length`` base-5 digits: the wilds a sequence of ``per`` cards a
    rank needs there, or 99 if it would break a bomb or saves too little to be worth taking
    (it must use at least two ranks that hold exactly ``per`` cards, or wilds)."""
    out = []
    for code in range(5**length):
        need = useful = 0
        for _ in range(length):
            n, code = code % 5, code // 5
            if n < per:
                need += per - n
            elif n == per:
                useful += 1
            elif n >= 4:
                need = 99
                break
        out.append(need if need < 99 and useful + need >= 2 else 99)
    return tuple(out)


def _shapes() -> tuple[tuple[str, int, int, tuple[int, ...], float, int, int, tuple[int, ...]],
                       ...]:
    """``_SEQUENCES``, each with the divisor and modulus that cut its window out of the
    counts' number and the window's table."""
    tables = {(per, len(idxs)): _window_table(per, len(idxs)) for _, _, per, idxs, _ in _SEQUENCES}
    out = []
    for kind, top, per, idxs, cost in _SEQUENCES:
        length = len(idxs)
        out.append((kind, top, per, idxs, cost, 5 ** (top - length), 5**length,
                    tables[per, length]))
    return tuple(out)


_SHAPES: Final = _shapes()


def counts_code(cnt: Sequence[int]) -> int:
    """Rank counts as the base-5 number that ``_SHAPES``' windows are cut from."""
    code = 0
    for i in _DIGIT_INDEXES:
        n = cnt[i]
        code = code * 5 + (n if n < 4 else 4)
    return code


_Result = tuple[float, tuple[tuple[str, int], ...]]  # cost, the sequences taken (kind, top)


class _Solver:
    """Memoised search over rank counts at one level."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.lv = RANK_VALUE[level]
        self.memo: dict[tuple[tuple[int, ...], int], _Result] = {}
        self.rest_memo: dict[tuple[tuple[int, ...], int], float] = {}
        self._tables()

    def strength(self, v: int) -> int:
        return _LEVEL_S if v == self.lv else v

    # -- what is left after the sequences ----------------------------------------------------

    def _tables(self) -> None:
        lv = self.lv
        self.single_c = [0.0] * 15
        self.pair_c = [0.0] * 15
        self.triple_c = [0.0] * 15
        for v in range(2, 15):
            s = _LEVEL_S if v == lv else v
            self.single_c[v] = same_rank_cost("single", s)
            self.pair_c[v] = same_rank_cost("pair", s)
            self.triple_c[v] = same_rank_cost("triple", s)
        #: values from weakest to strongest at this level (the level rank just below jokers)
        self.by_strength = sorted(range(2, 15), key=self.strength)
        self.bomb_c = [bomb_cost(n) if n >= 4 else 0.0 for n in range(11)]

    def groups_cost(self, cnt: Sequence[int]) -> float:
        """Cost of singles, pairs, triples, bombs and full houses from rank counts (no wilds)."""
        total = 0.0
        pair_costs: list[float] = []
        triples = 0
        for v in self.by_strength:
            n = cnt[v]
            if n == 0:
                continue
            if n == 1:
                total += self.single_c[v]
            elif n == 2:
                pair_costs.append(self.pair_c[v])
            elif n == 3:
                total += self.triple_c[v]
                triples += 1
            else:
                total += self.bomb_c[n]
        # Each triple carries the weakest pair left as a full house (weakest pairs come first).
        return total + sum(pair_costs[triples:], 0.0)

    def groups_parts(self, cnt: Sequence[int]) -> list[Part]:
        """The parts that ``groups_cost`` counts."""
        parts: list[Part] = []
        pairs: list[int] = []
        triples: list[int] = []
        for v in self.by_strength:
            n = cnt[v]
            if n >= 4:
                parts.append(Part("bomb", VALUE_RANK[v], n, self.bomb_c[n]))
            elif n == 3:
                triples.append(v)
            elif n == 2:
                pairs.append(v)
            elif n == 1:
                parts.append(Part("single", VALUE_RANK[v], 1, self.single_c[v]))
        for i, tv in enumerate(triples):
            if i < len(pairs):
                pr = VALUE_RANK[pairs[i]]
                parts.append(Part("full_house", VALUE_RANK[tv], 5, self.triple_c[tv], pair_rank=pr))
            else:
                parts.append(Part("triple", VALUE_RANK[tv], 3, self.triple_c[tv]))
        for pv in pairs[len(triples):]:
            parts.append(Part("pair", VALUE_RANK[pv], 2, self.pair_c[pv]))
        return parts

    def _targets(self, cnt: tuple[int, ...]) -> list[int]:
        """Where a wild may go: stay a level card, or join a group it improves."""
        targets = [self.lv]
        singles = 0
        pairs = 0
        for v in self.by_strength:
            n = cnt[v]
            if n == 1 and singles < 2:
                singles += 1
                targets.append(v)
            elif n == 2 and pairs < 2:
                pairs += 1
                targets.append(v)
            elif n >= 3:
                targets.append(v)
        return list(dict.fromkeys(targets))

    def rest(self, cnt: tuple[int, ...], w: int) -> float:
        """Cost of the best use of ``w`` wilds over the same-rank groups of ``cnt``."""
        if w == 0:
            return self.groups_cost(cnt)
        key = (cnt, w)
        hit = self.rest_memo.get(key)
        if hit is not None:
            return hit
        best = float("inf")
        lst = list(cnt)
        for t in self._targets(cnt):
            lst[t] += 1
            c = self.rest(tuple(lst), w - 1)
            lst[t] -= 1
            if c < best:
                best = c
        self.rest_memo[key] = best
        return best

    def rest_parts(self, cnt: tuple[int, ...], w: int) -> list[Part]:
        if w == 0:
            return self.groups_parts(cnt)
        target = self.rest(cnt, w)
        lst = list(cnt)
        for t in self._targets(cnt):
            lst[t] += 1
            if self.rest(tuple(lst), w - 1) <= target + 1e-9:
                return self.rest_parts(tuple(lst), w - 1)
            lst[t] -= 1
        raise AssertionError("no wild placement reaches the memoised cost")

    # -- sequences ----------------------------------------------------------------------------

    def best(self, cnt: tuple[int, ...], w: int) -> _Result:
        key = (cnt, w)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        best_cost = self.rest(cnt, w)
        best_seqs: tuple[tuple[str, int], ...] = ()
        code = counts_code(cnt)
        for kind, top, per, idxs, seq_cost, div, mod, table in _SHAPES:
            need = table[code // div % mod]
            if need > w:
                continue
            lst = list(cnt)
            for i in idxs:
                lst[i] -= per if lst[i] >= per else lst[i]
            c, seqs = self.best(tuple(lst), w - need)
            c += seq_cost
            if c < best_cost - 1e-9:
                best_cost = c
                best_seqs = ((kind, top), *seqs)
        result = (best_cost, best_seqs)
        self.memo[key] = result
        return result

    def parts(self, cnt: tuple[int, ...], w: int) -> tuple[float, list[Part]]:
        """The cheapest split of counts and wilds, with its parts."""
        cost, seqs = self.best(cnt, w)
        lst = list(cnt)
        out: list[Part] = []
        for kind, top in seqs:
            length, per = {"straight": (5, 1), "tube": (3, 2), "plate": (2, 3)}[kind]
            for v in range(top - length + 1, top + 1):
                i = 14 if v == 1 else v
                take = min(per, lst[i])
                lst[i] -= take
                w -= per - take
            out.append(Part(kind, VALUE_RANK[top], length * per, sequence_cost(kind, top)))
        out.extend(self.rest_parts(tuple(lst), w))
        return cost, out


_SOLVERS: dict[str, _Solver] = {}
#: Memo entries kept over all levels together: a long arena run or web session visits every
#: level, and a limit per level let the memos of thirteen levels add up.
_CACHE_LIMIT: Final = 200_000


def _solver(level: str) -> _Solver:
    if sum(len(x.memo) + len(x.rest_memo) for x in _SOLVERS.values()) > _CACHE_LIMIT:
        _SOLVERS.clear()
    s = _SOLVERS.get(level)
    if s is None:
        s = _SOLVERS[level] = _Solver(level)
    return s


def _joker_parts(lj: int, bj: int) -> list[Part]:
    if lj == 2 and bj == 2:
        return [Part("joker_bomb", None, 4, JOKER_BOMB_COST)]
    out = []
    for n, rank, s in ((lj, "LJ", 16), (bj, "BJ", 17)):
        if n == 2:
            out.append(Part("pair", rank, 2, same_rank_cost("pair", s)))
        elif n == 1:
            out.append(Part("single", rank, 1, same_rank_cost("single", s)))
    return out


def _sort_key(p: Part) -> tuple[float, int]:
    return (-p.cost, p.size)


def decompose(hand: Iterable[Card], level: str) -> Decomposition:
    """The cheapest split of ``hand`` into plays at ``level`` (parts ordered weakest first)."""
    cards = list(hand)
    lv = RANK_VALUE[level]
    cnt = [0] * 15
    w = lj = bj = 0
    for c in cards:
        v = c.value
        if v == 16:
            lj += 1
        elif v == 17:
            bj += 1
        elif v == lv and c.suit == "H":
            w += 1
        else:
            cnt[v] += 1
    solver = _solver(level)
    jparts = _joker_parts(lj, bj)
    jcost = sum((p.cost for p in jparts), 0.0)
    base_cost, base_parts = solver.parts(tuple(cnt), w)
    best_cost, best_parts = base_cost, base_parts
    for suit, top, used_w in _straight_flushes(cards, lv, w):
        lst = list(cnt)
        for v in range(top - 4, top + 1):
            i = 14 if v == 1 else v
            if any(x.suit == suit and x.value == i for x in cards if not x.is_wild(level)):
                lst[i] -= 1
        sf_cost, parts = solver.parts(tuple(lst), w - used_w)
        sf_cost += SF_COST
        if sf_cost < best_cost - 1e-9:
            best_cost = sf_cost
            best_parts = [Part("straight_flush", VALUE_RANK[top], 5, SF_COST, suit=suit), *parts]
    parts = sorted([*best_parts, *jparts], key=_sort_key)
    return Decomposition(tuple(parts), best_cost + jcost)


def hand_cost(hand: Iterable[Card], level: str) -> float:
    """The cost of the cheapest split (see ``decompose``)."""
    return decompose(hand, level).cost


def _straight_flushes(cards: list[Card], lv: int, w: int) -> list[tuple[str, int, int]]:
    """Straight flushes the hand could make: (suit, top, wilds used), at most one wild used."""
    have: dict[str, set[int]] = {s: set() for s in SUITS}
    for c in cards:
        if c.suit and not (c.suit == "H" and c.value == lv):
            have[c.suit].add(c.value)
    out = []
    for s in SUITS:
        vals = have[s]
        if len(vals) < 4:
            continue
        if 14 in vals:
            vals = vals | {1}
        for top in range(5, 15):
            missing = sum(1 for v in range(top - 4, top + 1) if v not in vals)
            if missing == 0 or (missing == 1 and w >= 1):
                out.append((s, top, missing))
    return out


def clear_cache() -> None:
    """Forget the memoised splits (tests use it to time a cold start)."""
    _SOLVERS.clear()
