"""Batched tables: N tables stepped together, arrays in and arrays out, for training loops.

>>> import numpy as np
>>> tables = Tables(4, rules="site", seed=0)
>>> obs, mask, seat = tables.reset()
>>> obs.shape, mask.shape, seat.tolist()
((4, 1019), (4, 2189), [1, 1, 1, 1])
>>> actions = np.array([np.flatnonzero(m)[0] for m in mask])
>>> obs, mask, seat, rewards, dones = tables.step(actions)
>>> rewards.shape, dones.tolist()
((4, 4), [False, False, False, False])

Each table plays its own matches, one after another: table ``i`` starts with match ``i + 1`` of
``seed`` and every new match takes the next match number, so the run is repeatable from the
seed. (``first_match`` and ``match_step`` number them ``first_match + k * match_step``
instead: ``Tables`` on ``K`` machines, numbered ``1 … K`` and stepping by ``K``, never play
one match twice; :class:`guandan.env.ray_tables.RayTables` does that.)

At every step each table's seat to act takes the id given for that table; the arrays
returned then hold, per table, the observation and mask of the next seat to act and which seat
that is (1-4), the rewards of the four seats for a hand that ended at this step (column
``seat - 1``: the hand's promotion for the winners, its negative for the losers, 0 otherwise)
and whether an episode ended (a hand, or a match with ``episode="match"``). A table whose
episode ended has already gone on: its arrays show the first decision of the next one.

The output arrays are kept and overwritten by the next call: copy what must outlive it. They
are exactly ``observation_array`` and ``action_mask`` of the position (tests check it), but
kept up to date a turn at a time rather than rebuilt:

- each table plays on a :class:`~guandan.deal.Deal` directly; between hands the levels come
  from :func:`~guandan.levels.settle`, the level, the deal and the tribute from
  :func:`~guandan.match.hand_start`, which a ``Match`` starts its hands with;
- what each seat may know is kept as its observation, four per table in one preallocated
  block; a turn writes only the counts it changes (worked out once in absolute seats, then
  added into the views of the seats that see them through a table of targets) and moves the
  trick's blocks whole, and the step copies out the view of each table's seat to act; all of
  it through flat memoryviews of the numpy blocks, a few hundred nanoseconds a table, so that
  one table steps as fast per decision as many (the PettingZoo environment is one table);
- the mask is the ids of ``legal_plays(..., every=True)`` against the table (``play_ids``),
  written into one preallocated block;
- the step is compiled with mypyc (setup.py), as the engine is.

``keep_final=True`` keeps, for each table, the four seats' observations just before the last
play of the hand that ended last (``final_views``) and that hand's match (``final_match``):
the PettingZoo environment's last observation of an episode. ``views(i)`` is table ``i``'s four
kept observations, ``restart(i)`` starts table ``i``'s next match at once.

``observation(i)`` and ``matches`` give a :class:`~guandan.match.Match` view of each table for
players that take an ``Observation`` (it replays the turns taken since it was last asked, so
tables nobody asks about pay nothing for it).
"""

from __future__ import annotations

from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from guandan.cards import ALL_CARDS, RANKS, Card
from guandan.deal import PASS, Deal
from guandan.encoding import (
    ACTION_SIZE,
    OBSERVATION_LAYOUT,
    OBSERVATION_OFFSETS,
    OBSERVATION_SHAPE,
    PASS_ID,
    play_ids,
    return_id,
)
from guandan.levels import Settlement, settle
from guandan.match import Action, Match, Observation, hand_start
from guandan.presets import Preset, get_preset
from guandan.readings import KINDS, Reading
from guandan.tribute import TributeExchange

IntArray = npt.NDArray[np.int64]

# -- the kept row: what every seat may know, seats and teams absolute ----------------------------

_C: Final = len(ALL_CARDS)
_KINDS: Final = len(KINDS)
_RANK_SLOTS: Final = 15
_MAX_HELD: Final = 27
_EVENT: Final = _C + 1 + 4
_EXCHANGE: Final = _C + 4 + 4
_TRIBUTE_KINDS: Final = ("none", "single", "double", "exempt")
_RANK_SLOT: Final = {r: i for i, r in enumerate(RANKS)} | {"LJ": 13, "BJ": 14}
_KIND_SLOT: Final = {k: i for i, k in enumerate(KINDS)}
_TEAM_SLOT: Final = {"13": 0, "24": 1}


def _segments() -> dict[str, int]:
    """The kept row's segments (name -> start) and its size (``"size"``)."""
    sizes = (("hand", 4 * _C), ("played", 4 * _C), ("unseen", 4 * _C),
             ("table_cards", _C), ("table_kind", _KINDS), ("table_rank", _RANK_SLOTS),
             ("table_seat", 4), ("trick", 3 * _EVENT), ("cards_left", 4 * (_MAX_HELD + 1)),
             ("finished", 16), ("team_levels", 2 * len(RANKS)), ("level", len(RANKS)),
             ("level_team", 2), ("a_tries", 8), ("tribute_kind", 4), ("gifts", 2 * _EXCHANGE),
             ("returns", 4 * 2 * _EXCHANGE), ("phase", 2), ("to_act", 4))
    out: dict[str, int] = {}
    at = 0
    for name, size in sizes:
        out[name] = at
        at += size
    out["size"] = at
    return out


_K: Final = _segments()
_ROW: Final = _K["size"]
_OBS: Final = OBSERVATION_SHAPE[0]
# Blocks of the observation that a turn empties or shifts whole, in every seat's view.
_TABLE_BLOCK: Final = (OBSERVATION_OFFSETS["table_cards"][0], OBSERVATION_OFFSETS["table_seat"][1])
_TRICK_BLOCK: Final = OBSERVATION_OFFSETS["trick"]
assert _TABLE_BLOCK[1] == _TRICK_BLOCK[0]


def _gather_map(me: int) -> npt.NDArray[np.intp]:
    """For seat ``me`` (1-4): the absolute row's position of each entry of its observation.
    Seat ``r`` places after the observer is absolute seat ``(me - 1 + r) % 4``; team slot 0 is
    its own team. (``unseen`` is its own: see ``_views``.)"""
    seat = [(me - 1 + r) % 4 for r in range(4)]
    own = _TEAM_SLOT["13" if me in (1, 3) else "24"]
    team = (own, 1 - own)
    out: list[int] = []
    for name, shape in OBSERVATION_LAYOUT:
        k = _K.get(name, -1)
        if name == "hand":
            out += [k + _C * (me - 1) + j for j in range(_C)]
        elif name == "played":
            out += [k + _C * seat[r] + j for r in range(4) for j in range(_C)]
        elif name == "unseen":
            out += [k + _C * (me - 1) + j for j in range(_C)]
        elif name in ("table_cards", "table_kind", "table_rank", "level", "tribute_kind",
                      "phase"):
            out += [k + j for j in range(int(np.prod(shape)))]
        elif name in ("table_seat", "to_act"):
            out += [k + seat[r] for r in range(4)]
        elif name == "trick":
            for e in range(3):
                out += [k + _EVENT * e + j for j in range(_C + 1)]
                out += [k + _EVENT * e + _C + 1 + seat[r] for r in range(4)]
        elif name == "cards_left":
            out += [k + (_MAX_HELD + 1) * seat[r] + n for r in range(4)
                    for n in range(_MAX_HELD + 1)]
        elif name == "finished":
            out += [k + 4 * seat[r] + p for r in range(4) for p in range(4)]
        elif name in ("team_levels", "a_tries"):
            width = shape[1]
            out += [k + width * team[t] + j for t in range(2) for j in range(width)]
        elif name == "level_team":
            out += [k + team[t] for t in range(2)]
        elif name in ("gifts", "returns"):
            if name == "returns":
                k += 2 * _EXCHANGE * (me - 1)  # the returns this seat gave or received
            for g in range(2):
                at = k + _EXCHANGE * g
                out += [at + j for j in range(_C)]
                out += [at + _C + seat[r] for r in range(4)]
                out += [at + _C + 4 + seat[r] for r in range(4)]
        else:
            raise AssertionError(f"the kept row does not know the segment {name!r}")
    assert len(out) == OBSERVATION_SHAPE[0]
    return np.asarray(out, dtype=np.intp)


_GATHER: Final = np.stack([_gather_map(s) for s in (1, 2, 3, 4)])
_HAND: Final = OBSERVATION_OFFSETS["hand"]
_PLAYED: Final = OBSERVATION_OFFSETS["played"]
_UNSEEN: Final = OBSERVATION_OFFSETS["unseen"]


def _views() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """Where each absolute position shows in each seat's view (``[q, s]``: the offset in the
    four views of one table, ``s * _OBS + entry``) and whether seat ``s + 1`` sees it at all.
    A card played by seat ``x`` counts down ``unseen`` in the views of the three others: the
    absolute ``unseen`` segment of seat ``x`` stands for that."""
    at = np.zeros((_ROW, 4), dtype=np.intp)
    seen = np.zeros((_ROW, 4), dtype=np.bool_)
    for s in range(4):
        for entry, q in enumerate(_GATHER[s].tolist()):
            at[q, s] = s * _OBS + entry
            seen[q, s] = True
    u = _K["unseen"]
    at[u:u + 4 * _C] = 0
    seen[u:u + 4 * _C] = False
    for x in range(4):
        for s in range(4):
            if s != x:
                for c in range(_C):
                    at[u + _C * x + c, s] = s * _OBS + _UNSEEN[0] + c
                    seen[u + _C * x + c, s] = True
    return at, seen


_VIEW_AT, _VIEW_SEEN = _views()


def _targets() -> list[list[int]]:
    """For each absolute position, its offsets in the four views of one table (the seats that
    see it)."""
    return [[int(_VIEW_AT[q, s]) for s in range(4) if _VIEW_SEEN[q, s]] for q in range(_ROW)]


_TARGETS: Final = _targets()
# The kept row's segments a turn writes, as plain ints (a dict lookup each costs more).
_HAND_AT: Final = _K["hand"]
_PLAYED_AT: Final = _K["played"]
_UNSEEN_AT: Final = _K["unseen"]
_TABLE_AT: Final = _K["table_cards"]
_KIND_AT: Final = _K["table_kind"]
_RANK_AT: Final = _K["table_rank"]
_SEAT_AT: Final = _K["table_seat"]
_TRICK_AT: Final = _K["trick"]
_LEFT_AT: Final = _K["cards_left"]
_FINISHED_AT: Final = _K["finished"]
_TO_ACT_AT: Final = _K["to_act"]


class _Table:
    """One table's match as the batched step plays it (levels, the deal, the tribute)."""

    __slots__ = ("a_tries", "deal", "exchange", "hand_number", "ids", "level", "level_team",
                 "log", "match", "match_number", "plays", "synced", "team_levels", "watched")

    def __init__(self, preset: Preset, seed: int, match_number: int) -> None:
        # The match's first hand as a Match starts it; the Match also answers observation().
        self.match = Match(preset, seed=seed, match_number=match_number)
        self.match_number = match_number
        self.hand_number = self.match.hand_number
        self.team_levels = dict(self.match.team_levels)
        self.a_tries = dict(self.match.a_tries)
        self.level_team = self.match.level_team
        self.level = self.match.level
        self.exchange = self.match.exchange
        deal = self.match.current_deal
        self.deal: Deal | None = None if deal is None else deal.clone()
        if self.deal is None:  # never on a first hand; kept apart from the Match's anyway
            self.exchange = TributeExchange(self.match.dealt_hands, self.level, preset, None)
        self.log: list[Action] = []  # the match's turns, for the Match view
        self.synced = 0
        self.watched = False  # asked for its Match: then kept in step at each hand's end
        self.ids: list[int] = []  # the legal ids of the seat to act, and their actions
        self.plays: list[Action] = []

    def next_hand(self, seed: int, preset: Preset, result: Settlement,
                  finish: list[int]) -> None:
        """The next hand of the match, after ``result`` (not a final victory)."""
        self.hand_number += 1
        self.team_levels = dict(result.team_levels_after)
        self.a_tries = dict(result.a_tries_after)
        self.level_team = result.level_team
        self.level, _, self.exchange = hand_start(preset, seed, self.match_number,
                                                  self.hand_number, self.team_levels,
                                                  self.level_team, finish)
        self.deal = (Deal(self.exchange.hands, self.level, self.exchange.leader)
                     if self.exchange.done else None)

    def to_act(self) -> int:
        seat = self.exchange.to_return if self.deal is None else self.deal.to_act
        assert seat is not None
        return seat

    def synced_match(self) -> Match:
        """The Match with every turn taken so far."""
        self.watched = True
        for action in self.log[self.synced:]:
            self.match.apply(action)
        self.synced = len(self.log)
        return self.match


class Tables:
    """``n`` tables under one preset, stepped together (see the module docstring)."""

    def __init__(self, n: object, rules: object = "site", seed: object = 0,
                 episode: object = "hand", keep_final: object = False,
                 first_match: object = 1, match_step: object = 1) -> None:
        # Typed ``object`` so that bad input meets these ValueErrors even compiled (a typed
        # parameter of a compiled function refuses a wrong type with a bare TypeError).
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of tables is an integer ≥ 1, not {n!r}")
        if not isinstance(rules, str):
            raise ValueError(f"rules is the name of a preset, not {rules!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        if episode != "hand" and episode != "match":
            raise ValueError(f"episode is 'hand' or 'match', not {episode!r}")
        if not isinstance(keep_final, bool):
            raise ValueError(f"keep_final is True or False, not {keep_final!r}")
        for name, value in (("first_match", first_match), ("match_step", match_step)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} is an integer ≥ 1, not {value!r}")
        assert isinstance(first_match, int) and isinstance(match_step, int)
        self.first_match: int = first_match
        self.match_step: int = match_step
        self.n: int = n
        self.preset = get_preset(rules)
        self.seed: int = seed
        self.episode: Literal["hand", "match"] = episode
        self.keep_final: bool = keep_final
        self.observations = np.zeros((n, *OBSERVATION_SHAPE), dtype=np.float32)
        self.masks = np.zeros((n, ACTION_SIZE), dtype=np.bool_)
        self.seats = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        self.dones = np.zeros(n, dtype=np.bool_)
        # What each seat of each table may know, kept as its observation (row 4 * i + seat - 1).
        self._kept = np.zeros(4 * n * _OBS, dtype=np.float32)
        self._views: npt.NDArray[np.float32] = self._kept.reshape(n, 4, _OBS)
        # Flat memoryviews of the blocks: compiled code reads and writes their items in tens of
        # nanoseconds (a numpy item costs a hundred, a numpy call a microsecond).
        self._kept_at: memoryview[float] = self._kept.data.cast("B").cast("f")
        self._obs_at: memoryview[float] = self.observations.data.cast("B").cast("f")
        self._mask_at: memoryview[bool] = self.masks.data.cast("B").cast("?")
        self._rewards_at: memoryview[float] = self.rewards.data.cast("B").cast("f")
        self._dones_at: memoryview[bool] = self.dones.data.cast("B").cast("?")
        self._zeros: memoryview[float] = np.zeros(max(_OBS, 4 * n), dtype=np.float32).data.cast(
            "B").cast("f")
        self._no_ids: memoryview[bool] = np.zeros(max(ACTION_SIZE, n), dtype=np.bool_).data.cast(
            "B").cast("?")
        self._tables: list[_Table] = []
        self._next_match = first_match
        self._final_views: dict[int, npt.NDArray[np.float32]] = {}
        self._final_tables: dict[int, _Table] = {}

    # -- the batch ---------------------------------------------------------------------------

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], IntArray]:
        """Start every table afresh; the observations, masks and seats to act."""
        self._next_match = self.first_match
        self._tables = [self._new_table() for _ in range(self.n)]
        self._final_views = {}
        self._final_tables = {}
        for i, t in enumerate(self._tables):
            self._rebuild(i, t)
            self._legal(i, t)
        self._gather()
        self.rewards[:] = 0.0
        self.dones[:] = False
        return self.observations, self.masks, self.seats

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.bool_], IntArray,
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Each table's seat to act takes its id; ``ValueError`` (naming the table) if an id is
        not legal there, with no table changed."""
        ids = np.asarray(actions)
        if not self._tables:
            raise ValueError("reset the tables before stepping them")
        if ids.shape != (self.n,) or ids.dtype.kind not in "iu":  # integers (not bools)
            raise ValueError(f"give one integer action id per table: shape ({self.n},), "
                             f"not {ids.shape} of {ids.dtype}")
        tables = self._tables
        actions_now = ids.tolist()
        picks: list[int] = []  # where each table's id is among its legal ids
        for i, action in enumerate(actions_now):
            legal = tables[i].ids
            if action not in legal:
                raise ValueError(f"table {i}: action {action} is not legal for seat "
                                 f"{int(self.seats[i])} now")
            picks.append(legal.index(action))
        self._rewards_at[:] = self._zeros[:4 * self.n]
        self._dones_at[:] = self._no_ids[:self.n]
        for i, pick in enumerate(picks):
            self._play(i, tables[i], pick)
        self._gather()
        return self.observations, self.masks, self.seats, self.rewards, self.dones

    def act(self, i: object, action: object) -> int:
        """Table ``i`` alone: its seat to act takes ``action`` (an id), the other tables wait.
        Its row of ``observations``, ``masks``, ``seats``, ``rewards`` and ``dones`` then holds
        this turn's (the other rows are left as they were); returns the seat to act now. For
        driving one table a turn at a time (the PettingZoo environment): the same step as
        ``step``'s, without a batch's arrays in and out. ``ValueError`` if the id is not legal,
        with nothing changed."""
        if not self._tables:
            raise ValueError("reset the tables before stepping them")
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.n:
            raise ValueError(f"no table {i!r} (tables are 0 to {self.n - 1})")
        if isinstance(action, np.integer):
            action = int(action)
        t = self._tables[i]
        if isinstance(action, bool) or not isinstance(action, int) or action not in t.ids:
            raise ValueError(f"table {i}: action {action!r} is not legal for seat "
                             f"{t.to_act()} now")
        self._rewards_at[4 * i:4 * i + 4] = self._zeros[:4]
        self._dones_at[i] = False
        self._play(i, t, t.ids.index(action))
        t = self._tables[i]  # a new one if the match ended
        seat = t.to_act()
        at = (4 * i + seat - 1) * _OBS
        self._obs_at[_OBS * i:_OBS * (i + 1)] = self._kept_at[at:at + _OBS]
        return seat

    def _play(self, i: int, t: _Table, pick: int) -> None:
        """Table ``i``'s seat to act takes its legal action number ``pick``: the deal moves, and
        the kept views change by the counts the turn changes."""
        deal = t.deal
        chosen = t.plays[pick]
        t.log.append(chosen)
        if deal is None:
            self._return(i, t, chosen)
            return
        seat = deal.to_act
        assert seat is not None
        s = seat - 1
        block = 4 * _OBS * i
        trick = _TRICK_AT
        up: list[int] = []  # absolute positions (in the kept row's layout) counted up by one
        down: list[int] = []  # ... and down by one
        if chosen is PASS:
            deal.apply(PASS)
            if deal.table is None:  # the trick ends: the table and the trick empty
                self._clear(block, _TABLE_BLOCK[0], _TRICK_BLOCK[1])
            else:
                self._shift(i, _TRICK_BLOCK[0])
                up += (trick + _C, trick + _C + 1 + s)
        else:
            assert isinstance(chosen, Reading)
            before = deal.count(seat)
            deal.apply(chosen)
            if deal.to_act is None:
                self._end_hand(i, t)
                return
            self._shift(i, _TABLE_BLOCK[0])  # the table empties too
            own = _C * s
            hand, unseen, played = _HAND_AT + own, _UNSEEN_AT + own, _PLAYED_AT + own
            for card in chosen.cards:
                c = card.index
                down += (hand + c, unseen + c)
                up += (played + c, _TABLE_AT + c, trick + c)
            up += (trick + _C + 1 + s, _KIND_AT + _KIND_SLOT[chosen.kind], _SEAT_AT + s)
            if chosen.rank is not None:
                up.append(_RANK_AT + _RANK_SLOT[chosen.rank])
            at = _LEFT_AT + (_MAX_HELD + 1) * s
            after = before - len(chosen.cards)
            down.append(at + min(before, _MAX_HELD))
            up.append(at + min(after, _MAX_HELD))
            if not after:
                up.append(_FINISHED_AT + 4 * s + len(deal.finish_order) - 1)
        after_seat = deal.to_act
        assert after_seat is not None
        if after_seat != seat:  # the same seat again: its partner went out (it leads)
            down.append(_TO_ACT_AT + s)
            up.append(_TO_ACT_AT + after_seat - 1)
        kept = self._kept_at
        targets = _TARGETS
        for q in down:
            for off in targets[q]:
                kept[block + off] -= 1.0
        for q in up:
            for off in targets[q]:
                kept[block + off] += 1.0
        self._legal(i, t)

    def _clear(self, block: int, lo: int, hi: int) -> None:
        """Empty entries ``lo:hi`` of the four views starting at ``block``."""
        kept = self._kept_at
        zeros = self._zeros[:hi - lo]
        for v in range(4):
            at = block + _OBS * v
            kept[at + lo:at + hi] = zeros

    def _shift(self, i: int, lo: int) -> None:
        """Move the trick's two newest turns down one place in table ``i``'s four views (the
        oldest of three goes) and empty entries ``lo`` up to the newest place, for this turn
        (``lo`` is the start of the trick, or of the table before it to empty that too)."""
        views = self._views[i]
        start = _TRICK_BLOCK[0]
        # numpy copies overlapping blocks as if through a buffer; one call for the four views.
        views[:, start + _EVENT:start + 3 * _EVENT] = views[:, start:start + 2 * _EVENT]
        views[:, lo:start + _EVENT] = 0.0

    def _gather(self) -> None:
        """Each table's observation of its seat to act, copied from its kept views."""
        kept, out = self._kept_at, self._obs_at
        for i, t in enumerate(self._tables):
            at = (4 * i + t.to_act() - 1) * _OBS
            out[_OBS * i:_OBS * (i + 1)] = kept[at:at + _OBS]

    # -- one table ---------------------------------------------------------------------------

    def _new_table(self) -> _Table:
        t = _Table(self.preset, self.seed, self._next_match)
        self._next_match += self.match_step
        return t

    def _legal(self, i: int, t: _Table) -> None:
        """Table ``i``'s seat to act, its legal ids and actions, written into the mask."""
        deal = t.deal
        if deal is None:
            seat = t.exchange.to_return
            assert seat is not None
            cards: list[Card] = t.exchange.returnable(seat)
            t.plays = list(cards)
            t.ids = [return_id(c) for c in cards]
        else:
            seat = deal.to_act
            assert seat is not None
            # The deal keeps each seat's plays until it plays: a pass asks again for free.
            plays: list[Action] = deal.legal_actions(every=True)  # type: ignore[assignment]
            if deal.table is not None:
                plays.pop()  # PASS, numbered apart
                t.ids = play_ids(plays)  # type: ignore[arg-type]  # readings only, so far
                t.ids.append(PASS_ID)
                plays.append(PASS)
            else:
                t.ids = play_ids(plays)  # type: ignore[arg-type]
            t.plays = plays
        self.seats[i] = seat
        mask = self._mask_at
        at = i * ACTION_SIZE
        mask[at:at + ACTION_SIZE] = self._no_ids
        for j in t.ids:
            mask[at + j] = True

    def _return(self, i: int, t: _Table, card: Action) -> None:
        assert isinstance(card, Card)
        seat = t.exchange.to_return
        assert seat is not None
        t.exchange.apply_return(seat, card)
        if t.exchange.done:
            t.deal = Deal(t.exchange.hands, t.level, t.exchange.leader)
        self._rebuild(i, t)
        self._legal(i, t)

    def _end_hand(self, i: int, t: _Table) -> None:
        deal = t.deal
        assert deal is not None
        finish = deal.finish_order
        result = settle(t.team_levels, t.a_tries, t.level_team, finish, self.preset)
        steps = float(result.steps)
        row = self.rewards[i]
        row[:] = -steps
        if result.winner == "13":
            row[0] = row[2] = steps
        else:
            row[1] = row[3] = steps
        over = result.final_winner is not None
        if t.watched:
            t.synced_match()
        if self.keep_final:  # the views before the last play are still the kept ones
            self._final_views[i] = self._views[i].copy()
            self._final_tables[i] = t
        self.dones[i] = self.episode == "hand" or over
        if over:
            t = self._tables[i] = self._new_table()
        else:
            t.next_hand(self.seed, self.preset, result, finish)
        self._rebuild(i, t)
        self._legal(i, t)

    def _rebuild(self, i: int, t: _Table) -> None:
        """Write table ``i``'s kept views whole, as a hand starts or a card goes back (no card
        is played yet: no table, no trick, nobody out)."""
        k = _K
        hits: list[int] = []
        hands = t.exchange.hands if t.deal is None else t.deal.hands
        for s, cards in hands.items():
            hits += [k["hand"] + _C * (s - 1) + c.index for c in cards]
            hits.append(k["cards_left"] + (_MAX_HELD + 1) * (s - 1) + min(len(cards), _MAX_HELD))
        for team, slot in _TEAM_SLOT.items():
            hits.append(k["team_levels"] + len(RANKS) * slot + _RANK_SLOT[t.team_levels[team]])
            hits.append(k["a_tries"] + 4 * slot + min(t.a_tries.get(team, 0), 3))
        hits.append(k["level"] + _RANK_SLOT[t.level])
        if t.level_team is not None:
            hits.append(k["level_team"] + _TEAM_SLOT[t.level_team])
        ex = t.exchange
        hits.append(k["tribute_kind"] + _TRIBUTE_KINDS.index(ex.kind))
        for g_at, g in enumerate(ex.gifts[:2]):
            at = k["gifts"] + _EXCHANGE * g_at
            hits += (at + g.card.index, at + _C + g.giver - 1, at + _C + 4 + g.receiver - 1)
        for s in (1, 2, 3, 4):
            seen = [r for r in ex.returns if s in (r.giver, r.receiver)]
            for r_at, r in enumerate(seen[:2]):
                at = k["returns"] + 2 * _EXCHANGE * (s - 1) + _EXCHANGE * r_at
                hits += (at + r.card.index, at + _C + r.giver - 1, at + _C + 4 + r.receiver - 1)
        hits.append(k["phase"] + (0 if t.deal is None else 1))
        hits.append(k["to_act"] + t.to_act() - 1)
        row = np.bincount(hits, minlength=_ROW).astype(np.float32)
        views = self._views[i]
        np.take(row, _GATHER, out=views)
        known = views[:, _HAND[0]:_HAND[1]] + views[:, _PLAYED[0]:_PLAYED[1]].reshape(
            4, 4, _C).sum(axis=1)
        np.maximum(2.0 - known, 0.0, out=views[:, _UNSEEN[0]:_UNSEEN[1]])

    # -- one table at a time (the PettingZoo environment) --------------------------------------

    def views(self, i: int) -> npt.NDArray[np.float32]:
        """Table ``i``'s kept observations of its four seats, ``(4, *OBSERVATION_SHAPE)``: a
        view of the tables' own memory, which every step changes (copy what must stay)."""
        views: npt.NDArray[np.float32] = self._views[i]
        return views

    def restart(self, i: int) -> None:
        """Table ``i`` leaves its match and starts the next match (the next match number);
        ``observations``, ``masks`` and ``seats`` show its first decision at once."""
        if not self._tables:
            raise ValueError("reset the tables before restarting one")
        t = self._tables[i] = self._new_table()
        self._rebuild(i, t)
        self._legal(i, t)
        at = (4 * i + t.to_act() - 1) * _OBS
        self._obs_at[_OBS * i:_OBS * (i + 1)] = self._kept_at[at:at + _OBS]

    def final_views(self, i: int) -> npt.NDArray[np.float32]:
        """With ``keep_final``: the four seats' observations (``(4, *OBSERVATION_SHAPE)``, seat
        ``s`` at ``s - 1``) just before the last play of the hand that table ``i`` ended last."""
        if i not in self._final_views:
            raise ValueError(f"table {i} has kept no ended hand (keep_final=True keeps them)")
        return self._final_views[i]

    def final_match(self, i: int) -> Match:
        """With ``keep_final``: the match of the hand that table ``i`` ended last, replayed to
        that hand's end (a match won then is no longer the table's)."""
        if i not in self._final_tables:
            raise ValueError(f"table {i} has kept no ended hand (keep_final=True keeps them)")
        return self._final_tables[i].synced_match()

    # -- views for players that take an Observation ------------------------------------------

    def observation(self, i: int) -> Observation:
        """Table ``i``'s observation of the seat to act (for players that take one)."""
        match = self._tables[i].synced_match()
        return match.observation(int(self.seats[i]))

    @property
    def matches(self) -> list[Match]:
        """Each table's match as a :class:`~guandan.match.Match` (replayed up to now)."""
        return [t.synced_match() for t in self._tables]

    def __repr__(self) -> str:
        return f"Tables({self.n}, rules={self.preset.name!r}, seed={self.seed})"


__all__ = ["Tables"]
