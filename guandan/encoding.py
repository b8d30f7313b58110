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
from typing import Final

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # the learning extra is optional
    raise ImportError("guandan.encoding needs numpy: pip install 'guandan-lab[learn]'") from e

from guandan.cards import ALL_CARDS, RANKS, SUITS, VALUE_RANK, Card
from guandan.match import PASS, Action, Observation, Pass
from guandan.plays import legal_plays
from guandan.readings import KINDS, Reading
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
    i = _FAST_ID.get((play.kind, play.rank, _signature(play)))
    if i is None:
        raise ValueError(f"not a play: {play!r}")
    return i


# The same key, made fast: ``play_key``'s natural counts and wilds packed into one integer (4
# bits per slot: values 2..A, the two jokers, then the wilds), summed from a per-level weight
# per card, so a batch of plays needs no sorting. A straight flush's weights also count its
# naturals per suit (bits 64 up), which tells its suit.
_WILD_SHIFT: Final = 60
_SUIT_SHIFT: Final = 64


def _slot_shift(value: int) -> int:
    return 4 * (value - 2 if value <= 14 else value - 3)  # jokers 16, 17 -> slots 13, 14


def _signature_of_key(key: PlayKey) -> int:
    sig = sum(c << _slot_shift(v) for v, c in key[2]) + (key[3] << _WILD_SHIFT)
    if key[0] == "straight_flush":
        sig += sum(c for _, c in key[2]) << (_SUIT_SHIFT + 4 * SUITS.index(key[4]))
    return sig


_FAST_ID: Final[dict[tuple[str, str | None, int], int]] = {
    (k[0], k[1], _signature_of_key(k)): i for k, i in _PLAY_ID.items()}
assert len(_FAST_ID) == len(_PLAY_ID)
#: The same, by kind, then rank, then signature (no tuple to build per play).
_BY_KIND: Final[dict[str, dict[str | None, dict[int, int]]]] = {}
for (_kind, _rank, _sig), _i in _FAST_ID.items():
    _BY_KIND.setdefault(_kind, {}).setdefault(_rank, {})[_sig] = _i
_WEIGHTS: Final[dict[str, list[int]]] = {
    level: [1 << _WILD_SHIFT if c.suit == "H" and c.rank == level else 1 << _slot_shift(c.value)
            for c in ALL_CARDS] for level in RANKS}
_FLUSH_WEIGHTS: Final[dict[str, list[int]]] = {
    level: [w + (0 if w == 1 << _WILD_SHIFT or not c.suit
                 else 1 << (_SUIT_SHIFT + 4 * SUITS.index(c.suit)))
            for w, c in zip(ws, ALL_CARDS, strict=True)] for level, ws in _WEIGHTS.items()}


def _signature(play: Reading) -> int:
    w = (_FLUSH_WEIGHTS if play.kind == "straight_flush" else _WEIGHTS)[play.level]
    return sum([w[c.index] for c in play.cards])


def play_ids(plays: Sequence[Reading]) -> list[int]:
    """``[play_id(p) for p in plays]``, faster, for plays read at one level (as
    ``legal_plays`` gives them)."""
    out: list[int] = []
    if not plays:
        return out
    w = _WEIGHTS[plays[0].level]
    by_kind = _BY_KIND
    for p in plays:
        sig = 0
        for c in p.cards:
            sig += w[c.index]
        by_rank = by_kind.get(p.kind)
        by_sig = None if by_rank is None else by_rank.get(p.rank)
        i = None if by_sig is None else by_sig.get(sig)
        out.append(play_id(p) if i is None else i)  # a straight flush: its suit
    return out


def return_id(card: Card) -> int:
    """The id of returning ``card`` as tribute (not the id of playing it as a single)."""
    return FIRST_RETURN_ID + card.index


# -- which plays a hand has: the one place that needs every distinct play ----------------------
#
# Which plays a hand holds is the engine's to say: ``legal_plays(..., every=True)`` lists every
# distinct play, and the encoding only numbers them (``play_id``). Asked twice for one hand
# (the mask, then the chosen id), ``legal_plays`` answers the second time from its store.


def _every_play(hand: Sequence[Card], level: str, table: Reading | None) -> list[int]:
    """The ids of every distinct play (``every=True``) of ``hand`` at ``level`` that may be
    played on ``table`` (any, on an empty table), in id order."""
    return sorted(play_ids(legal_plays(hand, level, table, every=True)))


def _play_of(i: int, hand: Sequence[Card], level: str) -> Reading:
    """The play with id ``i`` made of ``hand``'s cards (the engine's choice of the copies)."""
    plays = legal_plays(hand, level, None, every=True)
    for k, j in enumerate(play_ids(plays)):
        if j == i:
            return plays[k]
    raise ValueError(f"the hand cannot make {_describe(_PLAYS[i - 1])}")


def _describe(key: PlayKey) -> str:
    kind, rank, nat, wilds, suit = key
    names = " ".join(f"{_rank_name(v)}x{c}" for v, c in nat)
    text = f"{kind} {rank} ({names}{' + ' if nat and wilds else ''}"
    return text + (f"{wilds} wild" if wilds else "") + (f", {suit}" if suit else "") + ")"


def _rank_name(v: int) -> str:
    return _JOKER_RANK.get(v) or VALUE_RANK[v]


# -- ids of actions ---------------------------------------------------------------------------


def action_id(action: object, obs: Observation) -> int:
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
        if not _is_play_now(obs) or i not in _every_play(obs.hand, obs.level, _table(obs)):
            raise ValueError(f"seat {obs.seat} may not play {action!r} now")
        return i
    raise ValueError(f"not an action: {action!r} (a play, PASS, or a card to return)")


def _as_id(i: object) -> int:
    """``i`` as an id (a Python or numpy integer); ``ValueError`` for anything else. (Typed
    ``object``: compiled, a narrower type would refuse numpy integers with a TypeError.)"""
    if isinstance(i, bool) or not isinstance(i, int | np.integer):
        raise ValueError(f"an action id is an integer, not {i!r}")
    return int(i)


def action_of(i: object, obs: Observation) -> Action:
    """The action with id ``i`` among ``obs``'s legal actions; ``ValueError`` if there is none."""
    i = _as_id(i)
    if not 0 <= i < ACTION_SIZE:
        raise ValueError(f"no action has id {i} (ids are 0 to {ACTION_SIZE - 1})")
    if i == PASS_ID:
        if PASS in obs.legal_actions:
            return PASS
    elif i >= FIRST_RETURN_ID:
        card = ALL_CARDS[i - FIRST_RETURN_ID]
        if obs.phase == "return" and card in obs.legal_actions:
            return card
    elif _is_play_now(obs) and i in _every_play(obs.hand, obs.level, _table(obs)):
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


def describe_action(i: object) -> str:
    """What the id ``i`` stands for, in words (``"pair 9 (9x1 + 1 wild)"``)."""
    i = _as_id(i)
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
        mask[_every_play(obs.hand, obs.level, _table(obs))] = True
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
           "legal_action_ids", "observation_array", "play_id", "play_ids", "play_key",
           "return_id"]
