"""The PettingZoo AEC environment: four agents, ``seat_1`` … ``seat_4``, taking turns.

Each observation is ``{"observation": observation_array, "action_mask": action_mask}`` (the
mask as int8, as gymnasium samples with it); an action is an id of
:mod:`guandan.encoding` (a play, PASS, a returned card). At the end of each hand the winners
each get the hand's promotion (+3, +2 or +1 for a 1-2, 1-3 or 1-4 win) and the losers its
negative.

- ``episode="hand"`` (default): an episode is one hand. ``reset(seed=S)`` starts match 1 of
  seed ``S`` at hand 1; ``reset()`` without a seed goes on to the next hand of the same match
  (levels and tribute carried over), or to the next match once one is won. So a run of
  episodes meets every level and every kind of tribute.
- ``episode="match"``: an episode is a whole match, to final victory (rewards after each hand);
  ``reset()`` without a seed starts the next match of the seed.

An agent's last observation of an episode is its view just before the hand's last play, with
an empty mask (the match deals the next hand at once; that is the next episode's).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from guandan.encoding import (
    ACTION_SIZE,
    OBSERVATION_SHAPE,
    action_mask,
    action_of,
    action_of_masked,
    observation_array,
)
from guandan.match import Match, Observation
from guandan.presets import get_preset
from guandan.readings import Reading
from guandan.seats import SEATS, team_of

Episode = Literal["hand", "match"]
AGENTS = tuple(f"seat_{s}" for s in SEATS)


def env(rules: str = "site", seed: int = 0, episode: Episode = "hand",
        render_mode: str | None = None) -> Any:
    """The environment, with PettingZoo's order-enforcing wrapper (see :class:`GuandanEnv`)."""
    return wrappers.OrderEnforcingWrapper(GuandanEnv(rules, seed, episode, render_mode))


def raw_env(rules: str = "site", seed: int = 0, episode: Episode = "hand",
            render_mode: str | None = None) -> GuandanEnv:
    """The environment without wrappers."""
    return GuandanEnv(rules, seed, episode, render_mode)


class GuandanEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Guandan as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "guandan_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "site", seed: int = 0, episode: Episode = "hand",
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.preset = get_preset(rules)
        if episode not in ("hand", "match"):
            raise ValueError(f"episode is 'hand' or 'match', not {episode!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        self.episode: Episode = episode
        self.render_mode = render_mode
        self.seed = seed
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 2.0, OBSERVATION_SHAPE, np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_SIZE,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(ACTION_SIZE) for a in AGENTS}
        self.match: Match | None = None
        self._match_number = 0
        self._final: dict[str, np.ndarray[Any, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episodes ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
                raise ValueError(f"the seed must be an integer, not {seed!r}")
            self.seed = int(seed)
            self.match = None
        if self.match is None:
            self._match_number = 1
            self.match = Match(self.preset, seed=self.seed, match_number=1)
        elif self.episode == "match" or self.match.to_act is None:
            self._match_number += 1
            self.match = Match(self.preset, seed=self.seed, match_number=self._match_number)
        # In hand episodes an unfinished match goes on: its next hand is already dealt.
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._final = {}
        self._obs: dict[int, Observation] = {}
        self._masks: dict[int, np.ndarray[Any, np.dtype[np.bool_]]] = {}
        self._select()

    def _select(self) -> None:
        assert self.match is not None
        seat = self.match.to_act
        assert seat is not None
        self.agent_selection = f"seat_{seat}"

    def _observation(self, seat: int) -> Observation:
        """The seat's observation now (kept until the match moves)."""
        assert self.match is not None
        obs = self._obs.get(seat)
        if obs is None:
            obs = self._obs[seat] = self.match.observation(seat)
        return obs

    def observe(self, agent: str) -> dict[str, Any]:
        if agent in self._final:
            return {"observation": self._final[agent],
                    "action_mask": np.zeros(ACTION_SIZE, dtype=np.int8)}
        seat = _seat(agent)
        obs = self._observation(seat)
        mask = self._masks.get(seat)
        if mask is None:
            mask = self._masks[seat] = action_mask(obs)
        return {"observation": observation_array(obs), "action_mask": mask.astype(np.int8)}

    # -- acting ---------------------------------------------------------------------------------

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        seat = _seat(agent)
        obs = self._observation(seat)
        mask = self._masks.get(seat)
        if mask is not None and 0 <= int(action) < ACTION_SIZE and mask[int(action)]:
            played = action_of_masked(int(action), obs)  # the mask it was shown says legal
        else:
            played = action_of(int(action), obs)  # ValueError if illegal, nothing changed
        hands_before = len(match.results)
        final: dict[str, np.ndarray[Any, Any]] = {}
        if isinstance(played, Reading) and len(played.cards) == len(obs.hand):
            # The seat goes out, which may end the hand: keep each seat's view of it.
            final = {a: observation_array(self._observation(_seat(a))) for a in self.agents}
        match.apply(played)
        self._obs = {}
        self._masks = {}
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if len(match.results) > hands_before:
            result = match.results[-1]
            steps = float(result.settlement.steps)
            for a in self.agents:
                won = team_of(_seat(a)) == result.winner
                self.rewards[a] = steps if won else -steps
            if self.episode == "hand" or match.to_act is None:
                self.terminations = dict.fromkeys(self.agents, True)
                self._final = final
        self._accumulate_rewards()
        if not self._final:
            self._select()

    def render(self) -> str | None:
        if self.render_mode is None or self.match is None:
            return None
        m = self.match
        lines = [f"hand {m.hand_number} at level {m.level}, {m.phase}, seat {m.to_act} to act"]
        for s in SEATS:
            lines.append(f"seat {s}: {len(m.hands[s])} cards")
        if m.table is not None:
            cards = " ".join(c.notation for c in m.table.play.cards)
            lines.append(f"table: seat {m.table.seat} {m.table.play.kind} {cards}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def _seat(agent: str) -> int:
    try:
        return AGENTS.index(agent) + 1
    except ValueError:
        raise ValueError(f"not an agent: {agent!r} (agents are {', '.join(AGENTS)})") from None
