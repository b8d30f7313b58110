"""Fixed action ids, action masks and observation arrays, for learning agents.

**Actions.** Every play that can exist has one id, fixed for all time: the id depends only on
what the play is — its kind, its rank, the ranks of its natural cards with their counts, the
number of wild hearts it uses (a level heart counts as a wild even where it stands for itself)
and, for a straight flush, its suit — never on the hand it comes from or on the level. So
``999+JJ`` and ``999+33`` have two ids, ``99`` and ``9``+wild two, a 5-9 straight flush of
spades and one of hearts two. ``PASS`` has an id and so has each card returned as tribute (54
ids, apart from the ids of playing those cards as singles). The table is built once at import
by enumerating every pattern (:data:`ACTION_TABLE`), in the order of :data:`ACTION_RANGES`.

>>> from guandan.match import Match
>>> m = Match("site", seed=1)
>>> obs = m.observation(1)
>>> mask = action_mask(obs)
>>> all(mask[action_id(a, obs)] for a in obs.legal_actions)
True
>>> action_of(action_id(obs.legal_actions[0], obs), obs).kind == obs.legal_actions[0].kind
True

**Observations.** :func:`observation_array` writes what one seat may know into a float32
vector, seats taken relative to the observer (0 itself, 1 the next seat in turn, 2 its
partner, 3 the seat before it); :data:`OBSERVATION_LAYOUT` names the segments in order (the
README's researchers' section describes each).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # the learning extra is optional
    raise ImportError("guandan.encoding needs numpy: pip install 'guandan-lab[learn]'") from e

from guandan.cards import ALL_CARDS, RANK_VALUE, RANKS, SUITS, VALUE_RANK, Card
from guandan.match import PASS, Action, Observation, Pass
from guandan.readings import KINDS, Reading, beats, classify, read_as
from guandan.seats import other_team, team_of
from guandan.tribute import TributeKind

BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

# -- the action table ------------------------------------------------------------------------

#: What makes a play itself: kind, rank, ((natural value, count), ...) in value order (jokers
#: are natural values 16 and 17, an ace 14), wilds used, and the suit of a straight flush.
PlayKey = tuple[str, str | None, tuple[tuple[int, int], ...], int, str]

_VALUES: Final = tuple(range(2, 15))
_JOKER_VALUES: Final = (16, 17)
_JOKER_RANK: Final = {16: "LJ", 17: "BJ"}
_MAX_COPIES: Final = 8  # two decks: eight natural cards of one rank at most


def _window(top: int, length: int) -> tuple[int, ...]:
    """The natural values of a sequence ending at ``top`` (a low ace, value 1, as 14)."""
    return tuple(14 if v == 1 else v for v in range(top - length + 1, top + 1))


def _runs(kind: str, tops: Iterable[int], length: int, per: int,
          suits: Sequence[str]) -> list[PlayKey]:
    """Sequences: every count of natural cards per position (``per`` at most) that the two
    wilds can complete."""
    out: list[PlayKey] = []
    for top in tops:
        window = _window(top, length)
        for suit in suits:
            for counts in itertools.product(range(per + 1), repeat=length):
                wilds = per * length - sum(counts)
                if wilds > 2:
                    continue
                nat = tuple(sorted((v, c) for v, c in zip(window, counts, strict=True) if c))
                out.append((kind, VALUE_RANK[top], nat, wilds, suit))
    return out


def _enumerate_plays() -> list[PlayKey]:
    """Every play that can exist, kind by kind (the order of the ids)."""
    plays: list[PlayKey] = []
    for n, kind in ((1, "single"), (2, "pair"), (3, "triple")):
        for v in _VALUES:
            for wilds in range(min(n, 2) + 1):
                c = n - wilds
                if c == 0 and n == 3:
                    continue
                # Wilds alone are the level rank: one id per rank, as the rank is the level.
                plays.append((kind, VALUE_RANK[v], ((v, c),) if c else (), wilds, ""))
        if n <= 2:
            for j in _JOKER_VALUES:
                plays.append((kind, _JOKER_RANK[j], ((j, n),), 0, ""))
    for t in _VALUES:
        # A triple (one natural at least) and a pair of another rank, or of two wilds.
        for p in _VALUES:
            if p == t:
                continue
            for ct, cp in ((3, 2), (3, 1), (2, 2), (2, 1), (1, 2)):
                wilds = (3 - ct) + (2 - cp)
                plays.append(("full_house", VALUE_RANK[t],
                              tuple(sorted(((t, ct), (p, cp)))), wilds, ""))
        plays.append(("full_house", VALUE_RANK[t], ((t, 3),), 2, ""))
    plays += _runs("straight", range(5, 15), 5, 1, ("",))
    plays += _runs("tube", range(3, 15), 3, 2, ("",))
    plays += _runs("plate", range(2, 15), 2, 3, ("",))
    for v in _VALUES:
        for wilds in range(3):
            for c in range(max(1, 4 - wilds), _MAX_COPIES + 1):
                plays.append(("bomb", VALUE_RANK[v], ((v, c),), wilds, ""))
    plays += _runs("straight_flush", range(5, 15), 5, 1, SUITS)
    plays.append(("joker_bomb", None, ((16, 2), (17, 2)), 0, ""))
    return plays


PASS_ID: Final = 0
_PLAYS: Final = _enumerate_plays()
#: The play of each play id (``ACTION_TABLE[i - 1]`` for ``1 <= i <= len(ACTION_TABLE)``).
ACTION_TABLE: Final[tuple[PlayKey, ...]] = tuple(_PLAYS)
_PLAY_ID: Final[dict[PlayKey, int]] = {k: i + 1 for i, k in enumerate(_PLAYS)}
FIRST_RETURN_ID: Final = 1 + len(_PLAYS)
#: The number of ids: PASS, every play, then a return id per distinct card.
ACTION_SIZE: Final = FIRST_RETURN_ID + len(ALL_CARDS)
assert len(_PLAY_ID) == len(_PLAYS), "two patterns give one play"


def _ranges() -> dict[str, tuple[int, int]]:
    spans: dict[str, tuple[int, int]] = {"pass": (PASS_ID, PASS_ID + 1)}
    for i, key in enumerate(_PLAYS, start=1):
        lo, _ = spans.get(key[0], (i, i))
        spans[key[0]] = (lo, i + 1)
    spans["return"] = (FIRST_RETURN_ID, ACTION_SIZE)
    return spans


#: The ids of each kind of action, ``[start, stop)``: ``pass``, each play kind, ``return``.
ACTION_RANGES: Final = _ranges()


def play_key(play: Reading) -> PlayKey:
    """What makes ``play`` itself (see the module docstring); depends on nothing else."""
    counts: dict[int, int] = {}
    wilds = 0
    suit = ""
    level = play.level
    for c in play.cards:
        if c.suit == "H" and c.rank == level:
            wilds += 1
        else:
            counts[c.value] = counts.get(c.value, 0) + 1
            suit = c.suit
    return (play.kind, play.rank, tuple(sorted(counts.items())), wilds,
            suit if play.kind == "straight_flush" else "")


def play_id(play: Reading) -> int:
    """The fixed id of a play, whatever the hand and the level."""
    try:
        return _PLAY_ID[play_key(play)]
    except KeyError:
        raise ValueError(f"not a play: {play!r}") from None


def return_id(card: Card) -> int:
    """The id of returning ``card`` as tribute (not the id of playing it as a single)."""
    return FIRST_RETURN_ID + card.index


# -- which plays a hand has: the one place that needs every distinct play ----------------------
#
# A play of the table is feasible for a hand when the hand holds its natural cards (of its suit,
# for a straight flush) and its wilds, and it reads as its kind and rank at the level. Only
# the second part depends on the level, and it is the same for every hand: it is worked out
# once per level, by ``classify`` itself on a set of cards made for each play, and kept as a
# bit set (as is, per level and table play, the set of plays that ``beats`` the table).
# The one thing left that depends on the hand's suits, a plain straight of five natural cards
# (five cards of one suit are a straight flush only), is asked of ``classify`` on cards chosen
# from the hand.
#
# The interim stand-in for ``legal_plays(hand, level, table, every=True)`` (issue 23), to be
# replaced when it lands. Two functions use it, and only they: ``_every_play_bits`` (the ids,
# as bit ``id - 1``) becomes ``sum(1 << (play_id(p) - 1) for p in legal_plays(...,
# every=True))``, and ``_play_of`` (the play of one id) returns that list's play with the id.
# ``tests/test_encoding.py`` checks both against every reading of every card set of small hands.

_N: Final = len(_PLAYS)
# Resources a play needs: natural cards per value (0-17), per suit and value (18 + 15 * s + v),
# wilds (78).
_SUITED: Final = 18
_WILD_COLUMN: Final = _SUITED + 15 * len(SUITS)
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}


def _needs() -> list[dict[int, int]]:
    out = []
    for kind, _rank, nat, wilds, suit in _PLAYS:
        need: dict[int, int] = {}
        for v, c in nat:
            col = _SUITED + 15 * _SUIT_INDEX[suit] + v if kind == "straight_flush" else v
            need[col] = c
        if wilds:
            need[_WILD_COLUMN] = wilds
        out.append(need)
    return out


def _short_sets() -> list[list[int]]:
    """Per resource column and count held k: the bit set of plays needing more than k."""
    table = [[0] * (_MAX_COPIES + 2) for _ in range(_WILD_COLUMN + 1)]
    for i, need in enumerate(_needs()):
        for col, c in need.items():
            for k in range(c):
                table[col][k] |= 1 << i
    return table


_SHORT: Final = _short_sets()
_ALL_PLAYS: Final = (1 << _N) - 1
#: Plain straights of five natural cards: their suits decide.
_NATURAL_STRAIGHTS: Final = sum(1 << i for i, k in enumerate(_PLAYS)
                                if k[0] == "straight" and k[3] == 0)


def _cards_for(key: PlayKey, level: str, pick: dict[int, list[Card]] | None) -> list[Card] | None:
    """Cards that play ``key`` at ``level``: from ``pick`` (the hand's natural cards per value,
    best copies first) or, when ``pick`` is None, made up. None when they cannot be found."""
    kind, _rank, nat, wilds, suit = key
    lv = RANK_VALUE[level]
    cards: list[Card] = []
    for v, c in nat:
        if v > 14:
            pool = [ALL_CARDS[52 + (v - 16)]] * 2
        elif pick is not None:
            pool = pick.get(v, [])
            if kind == "straight_flush":
                pool = [x for x in pool if x.suit == suit]
        elif kind == "straight_flush":
            pool = [] if (suit == "H" and v == lv) else [_card(suit, v)] * 2
        else:
            suits = [s for s in ("D", "S", "C", "H") if not (s == "H" and v == lv)]
            pool = [_card(s, v) for s in suits for _ in range(2)]
        if len(pool) < c:
            return None
        cards.extend(pool[:c])
    if kind == "straight" and not wilds and len({x.suit for x in cards}) == 1:
        # Five of one suit are a straight flush only: take another suit's copy where there is one.
        for i, x in enumerate(cards):
            pool = pick.get(x.value, []) if pick is not None else [_card("S", x.value)]
            other = next((y for y in pool if y.suit != x.suit), None)
            if other is not None:
                cards[i] = other
                break
    return cards + [_card("H", lv)] * wilds


def _card(suit: str, value: int) -> Card:
    return ALL_CARDS[4 * (value - 2) + _SUIT_INDEX[suit]]


@dataclass(frozen=True)
class _Level:
    """What the action table is at one level: the plays that exist, each as a reading."""

    valid: int  # bit set of the plays that exist at this level
    readings: tuple[Reading | None, ...]  # a reading of each (made-up cards), None if none


@lru_cache(maxsize=len(RANKS))
def _level(level: str) -> _Level:
    valid = 0
    readings: list[Reading | None] = []
    for i, key in enumerate(_PLAYS):
        cards = _cards_for(key, level, None)
        found = None if cards is None else _reading(cards, level, key)
        if found is not None:
            valid |= 1 << i
        readings.append(found)
    return _Level(valid, tuple(readings))


def _reading(cards: Sequence[Card], level: str, key: PlayKey) -> Reading | None:
    """The reading of ``cards`` as ``key``'s kind and rank, if it is one and is ``key``."""
    for r in classify(cards, level):
        if r.kind == key[0] and r.rank == key[1]:
            return r if play_key(r) == key else None
    return None


@lru_cache(maxsize=1 << 14)
def _reads_as(i: int, level: str, suits: tuple[str, ...]) -> bool:
    """Whether five natural cards of play ``i``'s ranks, of these suits (in value order), read
    as play ``i`` at ``level``. Kept by suits, not copies: two copies of one card are equal."""
    cards = [_card(suit, v) for (v, _), suit in zip(_PLAYS[i][2], suits, strict=True)]
    return _reading(cards, level, _PLAYS[i]) is not None


@cache  # at most 13 levels x 2,134 plays, a few hundred bytes each
def _beating(level: str, table_id: int) -> int:
    """Bit set of the plays that beat the play ``table_id`` at ``level``."""
    lv = _level(level)
    table = lv.readings[table_id - 1]
    assert table is not None
    out = 0
    for i, r in enumerate(lv.readings):
        if r is not None and beats(r, table):
            out |= 1 << i
    return out


#: Per card index: its natural value's column and its suit's column in ``_needs``.
_VALUE_COLUMN: Final = tuple(c.value for c in ALL_CARDS)
_SUIT_COLUMN: Final = tuple(_SUITED + 15 * _SUIT_INDEX[c.suit] + c.value if c.suit else -1
                            for c in ALL_CARDS)


def _have(hand: Iterable[Card], level: str) -> list[int]:
    """Resources held (see ``_needs``)."""
    have = [0] * (_WILD_COLUMN + 1)
    wild = _card("H", RANK_VALUE[level]).index
    for c in hand:
        i = c.index
        if i == wild:
            have[_WILD_COLUMN] += 1
        else:
            have[_VALUE_COLUMN[i]] += 1
            col = _SUIT_COLUMN[i]
            if col >= 0:
                have[col] += 1
    return have


def _naturals(hand: Iterable[Card], level: str) -> dict[int, list[Card]]:
    """The hand's natural cards (jokers included, wilds not) per value."""
    pick: dict[int, list[Card]] = {}
    for c in hand:
        if not (c.suit == "H" and c.rank == level):
            pick.setdefault(c.value, []).append(c)
    return pick


def _every_play_bits(hand: Sequence[Card], level: str, table: Reading | None) -> int:
    """Bit set (bit ``id - 1``) of every distinct play of ``hand`` that may be played now."""
    have = _have(hand, level)
    short = 0
    for col, k in enumerate(have):
        row = _SHORT[col]
        short |= row[k if k < len(row) else -1]
    bits = _ALL_PLAYS & ~short & _level(level).valid
    if table is not None:
        bits &= _beating(level, play_id(table))
    straights = bits & _NATURAL_STRAIGHTS
    pick = _naturals(hand, level) if straights else {}
    while straights:
        low = straights & -straights
        i = low.bit_length() - 1
        cards = _cards_for(_PLAYS[i], level, pick)
        if cards is None or not _reads_as(
                i, level, tuple(c.suit for c in sorted(cards, key=lambda c: c.value))):
            bits &= ~low
        straights ^= low
    return bits


def _every_play(hand: Sequence[Card], level: str, table: Reading | None) -> list[int]:
    """The ids of every distinct play (``every=True``) of ``hand`` at ``level`` that may be
    played on ``table`` (any, on an empty table), in id order."""
    bits = _every_play_bits(hand, level, table)
    ids = []
    while bits:
        low = bits & -bits
        ids.append(low.bit_length())  # bit i is id i + 1
        bits ^= low
    return ids


def _pick_order(hand: Sequence[Card], level: str, values: Iterable[int]) -> dict[int, list[Card]]:
    """The hand's natural cards per value, for ``values`` the copies that fewest same-suit
    neighbours hold first (so a single or pair leaves a possible straight flush whole)."""
    pick = _naturals(hand, level)
    held = {c.index for cs in pick.values() for c in cs}
    for v in values:
        cs = pick.get(v)
        if cs is None or len(cs) < 2 or v > 14:
            continue

        def ties(c: Card) -> tuple[int, int]:
            near = sum(_card(c.suit, 14 if u == 1 else u).index in held
                       for u in range(max(c.value - 4, 1), min(c.value + 5, 15)) if u != c.value)
            return (near, c.index)

        cs.sort(key=ties)
    return pick


def _play_of(i: int, hand: Sequence[Card], level: str) -> Reading:
    """The play with id ``i`` made of ``hand``'s cards (one choice of the physical copies)."""
    key = _PLAYS[i - 1]
    pick = _pick_order(hand, level, [] if key[0] == "straight_flush" else [v for v, _ in key[2]])
    cards = _cards_for(key, level, pick)
    if cards is None or sum(c.suit == "H" and c.rank == level for c in hand) < key[3]:
        raise ValueError(f"the hand cannot make {_describe(key)}")
    return read_as(cards, level, key[0], key[1])


def _describe(key: PlayKey) -> str:
    kind, rank, nat, wilds, suit = key
    names = " ".join(f"{_rank_name(v)}x{c}" for v, c in nat)
    text = f"{kind} {rank} ({names}{' + ' if nat and wilds else ''}"
    return text + (f"{wilds} wild" if wilds else "") + (f", {suit}" if suit else "") + ")"


def _rank_name(v: int) -> str:
    return _JOKER_RANK.get(v) or VALUE_RANK[v]


# -- ids of actions ---------------------------------------------------------------------------


def action_id(action: Action, obs: Observation) -> int:
    """The fixed id of ``action``, a legal action of ``obs``; ``ValueError`` if it is not one."""
    if isinstance(action, Pass):
        if PASS not in obs.legal_actions:
            raise ValueError(f"seat {obs.seat} may not pass now")
        return PASS_ID
    if isinstance(action, Card):
        if obs.phase != "return" or action not in obs.legal_actions:
            raise ValueError(f"seat {obs.seat} may not return {action.notation} now")
        return return_id(action)
    if isinstance(action, Reading):
        i = play_id(action)
        if not _is_play_now(obs) or not (_every_play_bits(obs.hand, obs.level, _table(obs))
                                         >> (i - 1) & 1):
            raise ValueError(f"seat {obs.seat} may not play {action!r} now")
        return i
    raise ValueError(f"not an action: {action!r} (a play, PASS, or a card to return)")


def action_of(i: int, obs: Observation) -> Action:
    """The action with id ``i`` among ``obs``'s legal actions; ``ValueError`` if there is none."""
    if isinstance(i, bool) or not isinstance(i, int | np.integer):
        raise ValueError(f"an action id is an integer, not {i!r}")
    i = int(i)
    if not 0 <= i < ACTION_SIZE:
        raise ValueError(f"no action has id {i} (ids are 0 to {ACTION_SIZE - 1})")
    if i == PASS_ID:
        if PASS in obs.legal_actions:
            return PASS
    elif i >= FIRST_RETURN_ID:
        card = ALL_CARDS[i - FIRST_RETURN_ID]
        if obs.phase == "return" and card in obs.legal_actions:
            return card
    elif _is_play_now(obs) and _every_play_bits(obs.hand, obs.level, _table(obs)) >> (i - 1) & 1:
        return _play_of(i, obs.hand, obs.level)
    raise ValueError(f"action {i} ({describe_action(i)}) is not legal for seat {obs.seat} now")


def action_of_masked(i: int, obs: Observation) -> Action:
    """The action with id ``i``, which the caller knows is True in ``action_mask(obs)`` (the
    batched tables check ids against their masks): ``action_of`` without checking again."""
    if i == PASS_ID:
        return PASS
    if i >= FIRST_RETURN_ID:
        return ALL_CARDS[i - FIRST_RETURN_ID]
    return _play_of(i, obs.hand, obs.level)


def describe_action(i: int) -> str:
    """What the id ``i`` stands for, in words (``"pair 9 (9x1 + 1 wild)"``)."""
    if i == PASS_ID:
        return "pass"
    if FIRST_RETURN_ID <= i < ACTION_SIZE:
        return f"return {ALL_CARDS[i - FIRST_RETURN_ID].notation}"
    if 0 < i < FIRST_RETURN_ID:
        return _describe(_PLAYS[i - 1])
    raise ValueError(f"no action has id {i}")


def _is_play_now(obs: Observation) -> bool:
    return obs.phase == "play" and obs.to_act == obs.seat


def _table(obs: Observation) -> Reading | None:
    return None if obs.table is None else obs.table.play


def legal_action_ids(obs: Observation) -> list[int]:
    """The ids of ``obs``'s legal actions, in id order (every distinct play, ``every=True``)."""
    return [int(i) for i in np.flatnonzero(action_mask(obs))]


_BYTES: Final = (_N + 7) // 8


def action_mask(obs: Observation, out: BoolArray | None = None) -> BoolArray:
    """Bool array of ``ACTION_SIZE``: True exactly at the ids of ``obs``'s legal actions (all
    False for a seat that is not to act). ``out``, when given, is filled instead."""
    mask = np.zeros(ACTION_SIZE, dtype=np.bool_) if out is None else out
    if out is not None:
        mask[:] = False
    if obs.to_act != obs.seat:
        return mask
    if obs.phase == "return":
        mask[[return_id(a) for a in obs.legal_actions if isinstance(a, Card)]] = True
    elif obs.phase == "play":
        table = _table(obs)
        bits = _every_play_bits(obs.hand, obs.level, table)
        plays = np.unpackbits(np.frombuffer(bits.to_bytes(_BYTES, "little"), dtype=np.uint8),
                              count=_N, bitorder="little")
        mask[1:FIRST_RETURN_ID] = plays.view(np.bool_)
        mask[PASS_ID] = any(a is PASS for a in obs.legal_actions)
    return mask


# -- observations -----------------------------------------------------------------------------

_CARDS: Final = len(ALL_CARDS)
_RANK_SLOTS: Final = 15  # 2..A, LJ, BJ
_MAX_HELD: Final = 27
_TRIBUTE_KINDS: Final[tuple[TributeKind, ...]] = ("none", "single", "double", "exempt")
_TRICK_EVENTS: Final = 3
_EVENT_SIZE: Final = _CARDS + 1 + 4
_EXCHANGE_SIZE: Final = _CARDS + 4 + 4

#: The observation's segments in order: name, shape. Seats are relative to the observer.
OBSERVATION_LAYOUT: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("hand", (_CARDS,)),                        # own cards: copies held of each card (0-2)
    ("played", (4, _CARDS)),                    # cards each seat has played this hand
    ("unseen", (_CARDS,)),                      # copies neither held nor played (0-2)
    ("table_cards", (_CARDS,)),                 # the play to beat (all 0 on an empty table)
    ("table_kind", (len(KINDS),)),              # its kind, one-hot
    ("table_rank", (_RANK_SLOTS,)),             # its rank, one-hot (2..A, LJ, BJ)
    ("table_seat", (4,)),                       # who played it, one-hot
    ("trick", (_TRICK_EVENTS, _EVENT_SIZE)),    # the trick's last 3 turns, latest first:
                                                # cards, pass flag, seat one-hot
    ("cards_left", (4, _MAX_HELD + 1)),         # cards held per seat, one-hot 0..27
    ("finished", (4, 4)),                       # place out per seat (1st..4th), one-hot
    ("team_levels", (2, len(RANKS))),           # own team's level, the other team's, one-hot
    ("level", (len(RANKS),)),                   # the level being played, one-hot
    ("level_team", (2,)),                       # whose level it is: own team, other team
    ("a_tries", (2, 4)),                        # failed tries at A: own team, other (0-3)
    ("tribute_kind", (len(_TRIBUTE_KINDS),)),   # none, single, double, exempt
    ("gifts", (2, _EXCHANGE_SIZE)),             # each gift: card, giver, receiver one-hot
    ("returns", (2, _EXCHANGE_SIZE)),           # returns the seat gave or received, as gifts
    ("phase", (2,)),                            # returning, playing
    ("to_act", (4,)),                           # the seat to act, one-hot
)


def _offsets() -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, shape in OBSERVATION_LAYOUT:
        size = int(np.prod(shape))
        out[name] = (at, at + size)
        at += size
    return out


#: ``name -> (start, stop)`` in the flat observation.
OBSERVATION_OFFSETS: Final = _offsets()
OBSERVATION_SHAPE: Final = (max(stop for _, stop in OBSERVATION_OFFSETS.values()),)
_SIZE: Final = OBSERVATION_SHAPE[0]
_O: Final = {name: start for name, (start, _) in OBSERVATION_OFFSETS.items()}
_RANK_SLOT: Final = {r: i for i, r in enumerate(RANKS)} | {"LJ": 13, "BJ": 14}
_KIND_SLOT: Final = {k: i for i, k in enumerate(KINDS)}


def _own_other(me: int) -> tuple[str, str]:
    own = team_of(me)
    return own, other_team(own)


def observation_array(obs: Observation, out: FloatArray | None = None) -> FloatArray:
    """What ``obs``'s seat may know as a float32 vector of :data:`OBSERVATION_SHAPE` (see
    :data:`OBSERVATION_LAYOUT`). ``out``, when given, is filled instead of a new array."""
    # Every entry is a count of hits: the flat positions are gathered in a list and counted
    # once (numpy's per-element writes cost more than the whole count).
    me = obs.seat
    o = _O
    hand = o["hand"]
    hits = [hand + c.index for c in obs.hand]
    played = o["played"]
    for e in obs.history:
        if e.play is not None:
            base = played + _CARDS * ((e.seat - me) % 4)
            hits.extend([base + c.index for c in e.play.cards])
    if obs.table is not None:
        play = obs.table.play
        base = o["table_cards"]
        hits.extend([base + c.index for c in play.cards])
        hits.append(o["table_kind"] + _KIND_SLOT[play.kind])
        if play.rank is not None:
            hits.append(o["table_rank"] + _RANK_SLOT[play.rank])
        hits.append(o["table_seat"] + (obs.table.seat - me) % 4)
    base = o["trick"]
    for k, e in enumerate(reversed(obs.trick[-_TRICK_EVENTS:])):
        at = base + _EVENT_SIZE * k
        if e.play is not None:
            hits.extend([at + c.index for c in e.play.cards])
        else:
            hits.append(at + _CARDS)  # a pass
        hits.append(at + _CARDS + 1 + (e.seat - me) % 4)
    base = o["cards_left"]
    for seat, n in obs.counts.items():
        hits.append(base + (_MAX_HELD + 1) * ((seat - me) % 4) + min(n, _MAX_HELD))
    base = o["finished"]
    for place, seat in enumerate(obs.finish_order):
        hits.append(base + 4 * ((seat - me) % 4) + place)
    own, other = _own_other(me)
    for slot, team in enumerate((own, other)):
        hits.append(o["team_levels"] + len(RANKS) * slot + _RANK_SLOT[obs.team_levels[team]])
        hits.append(o["a_tries"] + 4 * slot + min(obs.a_tries.get(team, 0), 3))
    hits.append(o["level"] + _RANK_SLOT[obs.level])
    if obs.level_team is not None:
        hits.append(o["level_team"] + (0 if obs.level_team == own else 1))
    hits.append(o["tribute_kind"] + _TRIBUTE_KINDS.index(obs.tribute.kind))
    for name, exchanges in (("gifts", obs.tribute.gifts), ("returns", obs.tribute.returns)):
        for k, g in enumerate(exchanges[:2]):
            at = o[name] + _EXCHANGE_SIZE * k
            hits += (at + g.card.index, at + _CARDS + (g.giver - me) % 4,
                     at + _CARDS + 4 + (g.receiver - me) % 4)
    if obs.phase != "over":
        hits.append(o["phase"] + (0 if obs.phase == "return" else 1))
    if obs.to_act is not None:
        hits.append(o["to_act"] + (obs.to_act - me) % 4)
    counts = np.bincount(hits, minlength=_SIZE)
    x = counts.astype(np.float32) if out is None else out
    if out is not None:
        x[:] = counts
    seen = x[hand:hand + _CARDS] + x[played:played + 4 * _CARDS].reshape(4, _CARDS).sum(axis=0)
    np.maximum(2.0 - seen, 0.0, out=x[o["unseen"]:o["unseen"] + _CARDS])
    return x


__all__ = ["ACTION_RANGES", "ACTION_SIZE", "ACTION_TABLE", "FIRST_RETURN_ID",
           "OBSERVATION_LAYOUT", "OBSERVATION_OFFSETS", "OBSERVATION_SHAPE", "PASS_ID",
           "action_id", "action_mask", "action_of", "action_of_masked", "describe_action",
           "legal_action_ids", "observation_array", "play_id", "play_key", "return_id"]
