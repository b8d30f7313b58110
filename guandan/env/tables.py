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
seed. At every step each table's seat to act takes the id given for that table; the arrays
returned then hold, per table, the observation and mask of the next seat to act and which seat
that is (1-4), the rewards of the four seats for a hand that ended at this step (column
``seat - 1``: the hand's promotion for the winners, its negative for the losers, 0 otherwise)
and whether an episode ended (a hand, or a match with ``episode="match"``). A table whose
episode ended has already gone on: its arrays show the first decision of the next one.

The output arrays are kept and overwritten by the next call: copy what must outlive it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from guandan.encoding import (
    ACTION_SIZE,
    OBSERVATION_SHAPE,
    action_mask,
    action_of_masked,
    observation_array,
)
from guandan.match import Match, Observation
from guandan.presets import get_preset

IntArray = npt.NDArray[np.int64]


class Tables:
    """``n`` tables under one preset, stepped together (see the module docstring)."""

    def __init__(self, n: int, rules: str = "site", seed: int = 0,
                 episode: Literal["hand", "match"] = "hand") -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of tables is an integer ≥ 1, not {n!r}")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode is 'hand' or 'match', not {episode!r}")
        self.n = n
        self.preset = get_preset(rules)
        self.seed = seed
        self.episode = episode
        self.observations = np.zeros((n, *OBSERVATION_SHAPE), dtype=np.float32)
        self.masks = np.zeros((n, ACTION_SIZE), dtype=np.bool_)
        self.seats = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        self.dones = np.zeros(n, dtype=np.bool_)
        self.matches: list[Match] = []
        self._obs: list[Observation] = []
        self._next_match = 1

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], IntArray]:
        """Start every table afresh; the observations, masks and seats to act."""
        self._next_match = 1
        self.matches = [self._new_match() for _ in range(self.n)]
        self._obs = [self._observe(i) for i in range(self.n)]
        self.rewards[:] = 0.0
        self.dones[:] = False
        return self.observations, self.masks, self.seats

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.bool_], IntArray,
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Each table's seat to act takes its id; ``ValueError`` (naming the table) if an id is
        not legal there, with no table changed."""
        ids = np.asarray(actions)
        if not self.matches:
            raise ValueError("reset the tables before stepping them")
        if ids.shape != (self.n,) or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"give one integer action id per table: shape ({self.n},), "
                             f"not {ids.shape} of {ids.dtype}")
        bad = np.flatnonzero(~self.masks[np.arange(self.n), np.clip(ids, 0, ACTION_SIZE - 1)]
                             | (ids < 0) | (ids >= ACTION_SIZE))
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"table {i}: action {int(ids[i])} is not legal for seat "
                             f"{int(self.seats[i])} now")
        self.rewards[:] = 0.0
        self.dones[:] = False
        for i in range(self.n):
            match = self.matches[i]
            hands = len(match.results)
            match.apply(action_of_masked(int(ids[i]), self._obs[i]))
            if len(match.results) > hands:
                result = match.results[-1]
                steps = float(result.settlement.steps)
                row = self.rewards[i]
                row[:] = -steps
                if result.winner == "13":
                    row[0] = row[2] = steps
                else:
                    row[1] = row[3] = steps
                self.dones[i] = self.episode == "hand" or match.to_act is None
                if match.to_act is None:
                    self.matches[i] = self._new_match()
            self._obs[i] = self._observe(i)
        return self.observations, self.masks, self.seats, self.rewards, self.dones

    def _new_match(self) -> Match:
        match = Match(self.preset, seed=self.seed, match_number=self._next_match)
        self._next_match += 1
        return match

    def _observe(self, i: int) -> Observation:
        match = self.matches[i]
        seat = match.to_act
        assert seat is not None
        obs = match.observation(seat)
        observation_array(obs, self.observations[i])
        action_mask(obs, self.masks[i])
        self.seats[i] = seat
        return obs

    def observation(self, i: int) -> Observation:
        """Table ``i``'s observation of the seat to act (for players that take one)."""
        return self._obs[i]

    def __repr__(self) -> str:
        return f"Tables({self.n}, rules={self.preset.name!r}, seed={self.seed})"


__all__ = ["Tables"]
