"""The play-outs: a hand split into plays, and the fast policy that plays a deal to its end.

The search (:mod:`guandan.players.search`) weighs each candidate by playing sampled deals out
to the end of the hand. A seat's hand is its split (:func:`~guandan.players.decompose.decompose`)
as plays with their cards (``APlay``, ``abstract_hand``), and the fast policy (``Rollout``)
plays every seat by the heuristic's rules on those plays: it leads its weakest (the seat's team
in the heuristic's order of the moment: ``HeuristicCore.lead_order_of``), follows with the play
that costs its split least (a whole part, or a single or pair out of a bigger group, or a triple
joined to a full house's pair), bombs an opponent's play once a seat is getting low
(``tracker.urgency`` 1 or 2) or for the lead when the heuristic would
(``HeuristicCore.finish_plays``), and overtakes its partner only with a single or pair that
keeps the next opponent, holding no more cards than it, from going out. It plays on a
clone of the sampled :class:`~guandan.deal.Deal`: the deal keeps the turns, tricks, partner
lead and finish order, the policy only chooses real plays of real cards
(``docs/ai-notebook.md`` says how often it makes the heuristic's own choice).

>>> from guandan.cards import parse_cards
>>> from guandan.deal import Deal
>>> hands = {1: parse_cards("S3 H4 S5 D6 S7 HK"), 2: parse_cards("D9 DT"),
...          3: parse_cards("C2 C4"), 4: parse_cards("H8 H9")}
>>> [(p.kind, p.rank) for p in abstract_hand(hands[1], "2")]  # the weakest first
[('straight', '7'), ('single', 'K')]
>>> r = Rollout(Deal(hands, "2", 1), {s: abstract_hand(h, "2") for s, h in hands.items()})
>>> r.run()  # seat 1 leads its straight, then its king; its partner, seat 3, lets it go
>>> r.deal.finish_order, r.value(1)  # seats 1 and 3 out first and second: three levels
([1, 3, 4, 2], 3.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from guandan.cards import RANK_VALUE, Card, rank_strength
from guandan.deal import PASS, Deal
from guandan.levels import promotion
from guandan.players.decompose import SF_COST, Part, decompose, same_rank_cost
from guandan.players.heuristic import BOMB_FINISH, CONTROL_KEEP, FOLLOW_SLACK
from guandan.players.leads import LEAD_SIZE, lead_order
from guandan.players.tracker import race_on
from guandan.players.tracker import urgency as seat_urgency
from guandan.readings import SEQUENCE_KINDS, Reading, special_power
from guandan.seats import SEATS, partner, team_of

if TYPE_CHECKING:
    from guandan.match import Event


@dataclass(frozen=True, slots=True)
class APlay:
    """A play of a hand's split, as the fast policy weighs it, with the cards it plays
    (``cards`` empty for a play only compared, such as the table's or a calm lead's)."""

    kind: str
    size: int
    key: int
    power: int
    cost: float = 1.0
    pair_key: int = 0  # a full house's pair, by strength (it may follow a pair on its own)
    rank: str | None = None
    cards: tuple[Card, ...] = ()
    #: The play as the deal takes it (made once: a sampled hand's parts serve every candidate).
    reading: Reading | None = None

    def beats(self, other: APlay) -> bool:
        if self.power or other.power:
            if self.power != other.power:
                return self.power > other.power
            return self.key > other.key
        return self.kind == other.kind and self.size == other.size and self.key > other.key

    @property
    def control(self) -> bool:
        """Wins most tricks: a bomb, a level-rank or joker single/pair/triple, an A-high run."""
        if self.power:
            return True
        if self.kind in SEQUENCE_KINDS:
            return self.key >= 14
        return self.key >= 15


def abstract_part(part: Part, level: str, cards: tuple[Card, ...] = ()) -> APlay:
    if part.kind == "joker_bomb":
        key = 0
    elif part.kind in SEQUENCE_KINDS:
        key = RANK_VALUE[part.rank or "2"]
    else:
        key = rank_strength(part.rank or "2", level)
    pair_key = rank_strength(part.pair_rank, level) if part.pair_rank else 0
    return APlay(part.kind, part.size, key, special_power(part.kind, part.size), part.cost,
                 pair_key, part.rank, cards,
                 Reading(part.kind, part.rank, cards, level) if cards else None)


def same_rank_play(kind: str, cards: tuple[Card, ...], level: str) -> APlay:
    """A single, pair or triple of these cards (wilds alone are the level rank)."""
    rank = level
    for c in cards:
        if not c.is_wild(level):
            rank = c.rank
            break
    key = rank_strength(rank, level)
    return APlay(kind, len(cards), key, 0, same_rank_cost(kind, key), 0, rank, cards,
                 Reading(kind, rank, cards, level))


def abstract_reading(r: Reading) -> APlay:
    return APlay(r.kind, len(r.cards), r.key, r.power)


def lead_rank(p: APlay, per_card: float = LEAD_SIZE) -> tuple[float, int]:
    """How weak a play is as a lead: the careful lead is the play of the split that ranks
    highest, as the heuristic's (``leads.lead_order``)."""
    return lead_order(p.cost, p.size, per_card)



def abstract_hand(cards: Sequence[Card], level: str) -> list[APlay]:
    """A hand as the plays of its split, weakest (costliest) first, each with its cards."""
    if not cards:
        return []
    parts = decompose(cards, level).parts
    lv = RANK_VALUE[level]
    naturals: dict[int, list[Card]] = {}
    wilds: list[Card] = []
    jokers: dict[str, list[Card]] = {"LJ": [], "BJ": []}
    for c in cards:
        if c.is_joker:
            jokers[c.rank].append(c)
        elif c.value == lv and c.suit == "H":
            wilds.append(c)
        else:
            naturals.setdefault(c.value, []).append(c)

    def take(value: int, n: int, suit: str | None = None) -> list[Card]:
        """``n`` cards of a natural value (of ``suit`` if given), wilds filling what lacks."""
        have = naturals.get(value, [])
        out: list[Card] = []
        for c in list(have):
            if len(out) == n:
                break
            if suit is None or c.suit == suit:
                have.remove(c)
                out.append(c)
        while len(out) < n:
            out.append(wilds.pop())
        return out

    # Straight flushes first (they need given suits), then the other sequences, then the
    # groups of one rank: the order in which the split itself took the cards.
    order = sorted(range(len(parts)), key=lambda i: (
        0 if parts[i].kind == "straight_flush" else 1 if parts[i].kind in SEQUENCE_KINDS else 2))
    taken: list[tuple[Card, ...]] = [()] * len(parts)
    for i in order:
        part = parts[i]
        kind = part.kind
        rank = part.rank
        got: list[Card] = []
        if kind in SEQUENCE_KINDS:
            length = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}[kind]
            per = part.size // length
            top = RANK_VALUE[rank or "2"]
            for v in range(top - length + 1, top + 1):
                got.extend(take(14 if v == 1 else v, per, part.suit))
            if (kind == "straight" and len({c.suit for c in got}) == 1
                    and not any(c.is_wild(level) for c in got)):
                # Five natural cards of one suit are a straight flush, never a straight: swap
                # one for a copy of another suit, or play them as the straight flush they are.
                for j, c in enumerate(got):
                    other = [x for x in naturals.get(c.value, []) if x.suit != c.suit]
                    if other:
                        naturals[c.value].remove(other[0])
                        naturals[c.value].append(c)
                        got[j] = other[0]
                        break
                else:
                    part = Part("straight_flush", rank, 5, SF_COST, suit=got[0].suit)
                    parts = (*parts[:i], part, *parts[i + 1:])
        elif kind == "joker_bomb":
            got = jokers["LJ"][:2] + jokers["BJ"][:2]
        elif rank in ("LJ", "BJ"):
            got = jokers[rank][:part.size]
        else:
            got = take(RANK_VALUE[rank or "2"], 3 if kind == "full_house" else part.size)
            if kind == "full_house":
                got.extend(take(RANK_VALUE[part.pair_rank or "2"], 2))
        taken[i] = tuple(got)
    return [abstract_part(p, level, taken[i]) for i, p in enumerate(parts)]


def as_reading(p: APlay, level: str) -> Reading:
    """The play of a part, as the deal takes it."""
    if p.reading is not None:
        return p.reading
    return Reading(p.kind, p.rank, p.cards, level)


class Rollout:
    """A deal played to its end by the fast policy: every seat plays the plays of its split.

    The deal (``guandan.deal.Deal``) keeps the turns, the tricks, the partner lead and the
    finish order; the policy only chooses, and each choice is a real play of real cards.
    """

    __slots__ = ("deal", "finish", "lead_size", "level", "parts", "race", "styles", "table",
                 "table_of")

    def __init__(self, deal: Deal, parts: dict[int, list[APlay]],
                 lead_size: float = LEAD_SIZE, styles: dict[int, float] | None = None,
                 finish: dict[int, int] | None = None, race: dict[int, int] | None = None
                 ) -> None:
        self.deal = deal
        #: Per seat, the cards an opponent must be down to for it to bomb a play it would not
        #: follow cheaply (``tracker.race_on``; 0, no race, for a seat not named).
        self.race = race or {}
        #: Per seat, how few plays must finish its hand after a calm bomb for it to bomb for
        #: the lead (``HeuristicCore.finish_plays``; ``BOMB_FINISH`` for a seat not named).
        self.finish = finish or {}
        #: The lead order (``leads.lead_order``) of every seat, and of the seats that lead
        #: otherwise (``styles``: seat -> its lead size).
        self.lead_size = lead_size
        self.styles = styles or {}
        self.level = deal.level
        self.parts = parts
        #: The table's play as an APlay, and the reading it stands for (computed once).
        self.table: APlay | None = None
        self.table_of: Reading | None = None

    def play(self, seat: int, p: APlay) -> None:
        self.parts[seat].remove(p)
        reading = as_reading(p, self.level)
        self.deal.apply(reading)
        self.table, self.table_of = p, reading

    def table_play(self, entry: Reading) -> APlay:
        """The table's play as an APlay (the policy's own when it played it)."""
        if entry is not self.table_of or self.table is None:
            self.table, self.table_of = abstract_reading(entry), entry
        return self.table

    # -- the fast policy: the heuristic's rules on the split's plays ---------------------------

    def choose(self, seat: int) -> APlay | None:
        if self.deal.table is None:
            return self.lead(seat)
        return self.follow(seat)

    def lead(self, seat: int) -> APlay:
        decided, safe = self.lead_choices(seat)
        if decided is not None:
            return decided
        per_card = self.styles.get(seat, self.lead_size)
        return max(safe, key=lambda p: lead_order(p.cost, p.size, per_card))

    def lead_choices(self, seat: int) -> tuple[APlay | None, list[APlay]]:
        """The lead one of the policy's rules decides (its last play, a sure finish, feeding a
        partner low on cards, nothing safe left), or None and the safe plays it then ranks by
        ``lead_order``."""
        parts = self.parts[seat]
        if len(parts) == 1:
            return parts[0], []
        counts = self.deal.counts()
        mate = partner(seat)
        sure = [p for p in parts if p.control and not p.power]
        if sure and sum(1 for p in parts if not p.control) <= 1:
            return max(sure, key=lambda p: p.size), []
        opps = [s for s in SEATS if s != seat and s != mate and counts[s] > 0]
        low = min((counts[s] for s in opps), default=99)
        pc = counts[mate]
        if 0 < pc <= 2 and low > 1:
            kind = "single" if pc == 1 else "pair"
            same = [p for p in parts if p.kind == kind]
            if same:
                return min(same, key=lambda p: p.key), []
        normal = [p for p in parts if not p.power]
        if normal:
            safe = [p for p in normal if not (
                p.kind in ("single", "pair") and not p.control
                and any(counts[s] == p.size for s in opps))]
            if safe:
                return None, safe
            return max(normal, key=lambda p: (p.size, p.key)), []
        return min(parts, key=lambda p: (p.power, p.key)), []

    def follow(self, seat: int) -> APlay | None:
        parts = self.parts[seat]
        entry = self.deal.table
        assert entry is not None
        table, owner = self.table_play(entry.play), entry.seat
        if len(parts) == 1 and parts[0].beats(table):
            return parts[0]
        counts = self.deal.counts()
        level = self.level
        if owner == partner(seat):
            nxt = self.deal.next_holding(seat)
            if (table.kind in ("single", "pair") and nxt != owner
                    and counts[nxt] <= table.size):
                beat = [p for p in parts if not p.power and p.beats(table)]
                if beat:
                    return max(beat, key=lambda p: p.key)
            return None
        urgency = seat_urgency(seat, owner, counts)
        # As the heuristic: the follow that raises the hand's cost least (d), a big card kept
        # back from a small trick when calm. Besides whole parts, a single or pair may come out
        # of a bigger group, a pair out of a full house, and a triple joins a full house's pair
        # to follow a full house (the heuristic finds these by splitting the hand again).
        keep = urgency == 0 and table.key < 12 and len(parts) > 3
        best: APlay | None = None
        best_d = 99.0
        split: tuple[APlay, APlay, APlay | None] | None = None  # (taken, left, other part)
        tkind, tkey = table.kind, table.key
        for p in parts:
            if p.power or not p.beats(table):
                continue
            d = -p.cost
            if keep and p.key >= 15 and p.kind not in SEQUENCE_KINDS:
                d += CONTROL_KEEP
            if d < best_d or (d == best_d and best is not None and p.key < best.key):
                best, best_d, split = p, d, None
        if tkind == "single" or tkind == "pair":
            need = table.size
            for p in parts:
                kind = p.kind
                if kind == "pair" or kind == "triple":
                    if p.size <= need or p.key <= tkey:
                        continue
                    left_kind = "single" if p.size - need == 1 else "pair"
                    d = same_rank_cost(left_kind, p.key) - p.cost
                    if keep and p.key >= 15:
                        d += CONTROL_KEEP
                    if d < best_d or (d == best_d and best is not None and p.key < best.key):
                        # The naturals come first in a part's cards: the play keeps its rank.
                        best = same_rank_play(tkind, p.cards[:need], level)
                        left = same_rank_play(left_kind, p.cards[need:], level)
                        best_d, split = d, (p, left, None)
                elif kind == "full_house" and need == 2 and p.pair_key > tkey:
                    d = same_rank_cost("triple", p.key) - p.cost
                    if keep and p.pair_key >= 15:
                        d += CONTROL_KEEP
                    if (d < best_d
                            or (d == best_d and best is not None and p.pair_key < best.key)):
                        best = same_rank_play("pair", p.cards[3:], level)
                        left = same_rank_play("triple", p.cards[:3], level)
                        best_d, split = d, (p, left, None)
        elif tkind == "full_house":
            houses = [p for p in parts if p.kind == "full_house"]
            if houses:
                f = min(houses, key=lambda h: (h.pair_key, h.key))  # gives up its lowest pair
                left_cost = same_rank_cost("triple", f.key)
                for t in parts:
                    if t.kind != "triple" or t.key <= tkey:
                        continue
                    d = left_cost - f.cost - t.cost
                    if keep and t.key >= 15:
                        d += CONTROL_KEEP
                    if d < best_d or (d == best_d and best is not None and t.key < best.key):
                        best = APlay("full_house", 5, t.key, 0, 1.0, f.pair_key, t.rank,
                                     t.cards + f.cards[3:])
                        best_d = d
                        split = (f, same_rank_play("triple", f.cards[:3], level), t)
        if best is not None and best_d <= FOLLOW_SLACK[urgency]:
            if split is not None:
                taken, left, other = split
                parts.remove(taken)
                parts.append(left)
                if other is not None:
                    parts.remove(other)
                parts.append(best)  # played at once: ``play`` takes it out again
            return best
        bombs = [p for p in parts if p.power and p.beats(table)]
        # ``parts`` still holds the bomb: the plays left after it are one fewer.
        if bombs and (urgency >= 1 or len(parts) <= self.finish.get(seat, BOMB_FINISH) + 1
                      or race_on(seat, counts, self.race.get(seat, 0))):
            return min(bombs, key=lambda p: (p.power, p.key))
        return None

    def run(self, limit: int = 400) -> None:
        deal = self.deal
        for _ in range(limit):
            seat = deal.to_act
            if seat is None:
                return
            p = self.choose(seat)
            if p is None:
                deal.apply(PASS)
            else:
                self.play(seat, p)

    def value(self, seat: int) -> float:
        """Levels won (positive) or lost by ``seat``'s team.

        A run stopped before the end ranks the seats still holding cards by cards left.
        """
        deal = self.deal
        f = deal.finish_order
        f.extend(sorted((s for s in SEATS if s not in f), key=deal.count))
        team, steps = promotion(f)
        return float(steps if team == team_of(seat) else -steps)


def hand_turns(history: Sequence[Event]) -> list[tuple[int, Reading | None]]:
    """The hand's turns in order, as ``replay_misses`` takes them: (seat, play or None for a
    pass); the tribute's gifts and returns left out."""
    return [(e.seat, e.play if e.kind == "play" else None) for e in history
            if e.kind == "play" or e.kind == "pass"]


def start_hands(hands: dict[int, list[Card]], turns: Sequence[tuple[int, Reading | None]]
                ) -> dict[int, list[Card]]:
    """Every seat's cards at the first lead: its cards now and those it has played since."""
    start = {s: list(hands[s]) for s in SEATS}
    for seat, play in turns:
        if play is not None:
            start[seat].extend(play.cards)
    return start


def replay_misses(start: dict[int, list[Card]], level: str,
                  events: Sequence[tuple[int, Reading | None]], seats: Sequence[int],
                  lead_size: float = LEAD_SIZE, styles: dict[int, float] | None = None,
                  finish: dict[int, int] | None = None) -> dict[int, int]:
    """How many of their own turns ``seats`` played otherwise than the fast policy would have,
    the hand replayed from its first lead with ``start`` as every seat's cards then.

    ``events`` are the hand's turns in order (seat, play or None for a pass). A turn counts as
    the policy's when it plays the same kind, rank and size, or passes where the policy passes.
    After any other turn (or the same play made of other cards, not a miss) the seat's hand is
    split again, and its later turns are judged on the hand as it then is.
    The sampled deals weigh a hand by its misses: a seat that plays as the policy does makes
    few with its real cards, and more with cards dealt at random.

    >>> from guandan.cards import parse_cards
    >>> from guandan.readings import read_as
    >>> hands = {1: parse_cards("S3 DK"), 2: parse_cards("D9 DT"),
    ...          3: parse_cards("C2 C4 C6"), 4: parse_cards("H8 H9")}
    >>> def single(card): return read_as(parse_cards(card), "2", "single", card[1])
    >>> replay_misses(hands, "2", [(1, single("S3"))], [1])  # its weakest play: the policy's
    {1: 0}
    >>> replay_misses(hands, "2", [(1, single("DK")), (2, None)], [1, 2])  # DT is no use on DK
    {1: 1, 2: 0}
    >>> replay_misses(hands, "2", [(1, single("S3")), (2, single("DT"))], [1, 2])  # not D9
    {1: 0, 2: 1}
    """
    misses = dict.fromkeys(seats, 0)
    if not events:
        return misses
    deal = Deal(start, level, events[0][0])
    parts = {s: abstract_hand(start[s], level) for s in seats}
    r = Rollout(deal, parts, lead_size, styles, finish)
    for seat, actual in events:
        if seat not in misses:
            deal.apply(PASS if actual is None else actual)
            continue
        pred = r.choose(seat)
        if pred is None and actual is None:
            deal.apply(PASS)
            continue
        if pred is not None and actual is not None:
            if not (pred.kind == actual.kind and pred.rank == actual.rank
                    and pred.size == len(actual.cards)):
                misses[seat] += 1
            elif sorted(c.index for c in pred.cards) == sorted(c.index for c in actual.cards):
                r.play(seat, pred)  # the same cards read the same: the split stays whole
                continue
        else:
            misses[seat] += 1
        deal.apply(PASS if actual is None else actual)
        parts[seat] = abstract_hand(deal.held(seat), level)
    return misses
