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

The environment is one of the batched :class:`~guandan.env.tables.Tables` (compiled, kept a
turn at a time): a step is the table's step, an observation a copy of the seat's kept view,
the mask a copy of the table's. So the arrays are those of the batched tables (and so
``observation_array`` and ``action_mask`` of the position: tests check each, step by step),
and the rules are played by the same ``Deal`` code. ``env.match`` replays the table's turns
into a :class:`~guandan.match.Match` when asked (for ``render`` and inspection).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from guandan.encoding import ACTION_SIZE, OBSERVATION_SHAPE, describe_action
from guandan.env.tables import Tables
from guandan.match import Match
from guandan.presets import get_preset
from guandan.seats import SEATS

Episode = Literal["hand", "match"]
AGENTS = tuple(f"seat_{s}" for s in SEATS)
_SEAT = {a: s for s, a in zip(SEATS, AGENTS, strict=True)}


def env(rules: str = "site", seed: int = 0, episode: Episode = "hand",
        render_mode: str | None = None) -> Any:
    """The environment, with PettingZoo's order-enforcing wrapper (see :class:`GuandanEnv`)."""
    return _OrderEnforcing(GuandanEnv(rules, seed, episode, render_mode))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the reads of every turn passed straight on.

    Its base answers ``agents``, ``agent_selection`` and the four dictionaries ``last()`` reads
    through two ``__getattr__`` (about a microsecond each, eight a turn: as much as the table's
    step); here ``last()``, ``step()`` and those two are plain calls, with the same checks."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent: str = self.env.agent_selection
        return agent

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:  # the base's error or warning
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        out: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return out


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
        self._tables: Tables | None = None
        self._views: list[np.ndarray[Any, Any]] = []  # each seat's kept view (the table's)
        self._mask = np.zeros(ACTION_SIZE, dtype=np.int8)  # the table's mask, seen as int8
        self._no_ids = np.zeros(ACTION_SIZE, dtype=np.int8)
        self._to_act = 1
        self._rewards_row = np.zeros(4, dtype=np.float32)
        self._ended = False  # the last episode ended (the table has gone on by itself)
        self._rewarded = False  # rewards holds a hand's promotion, cleared at the next step
        self._final: dict[str, np.ndarray[Any, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def match(self) -> Match | None:
        """The match being played as a :class:`~guandan.match.Match` (replayed from the table's
        turns when asked); after an episode that won the match, that match."""
        tables = self._tables
        if tables is None:
            return None
        if self._ended and self._final:
            finished = tables.final_match(0)
            if finished.final_winner is not None:
                return finished
        return tables.matches[0]

    # -- episodes ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        tables = self._tables
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
                raise ValueError(f"the seed must be an integer, not {seed!r}")
            self.seed = int(seed)
            tables = None
        if tables is None:
            tables = self._tables = Tables(1, rules=self.preset.name, seed=self.seed,
                                           episode=self.episode, keep_final=True)
            tables.reset()
            views = tables.views(0)
            self._views = [views[k] for k in range(4)]  # views of the table's memory, kept
            self._mask = tables.masks[0].view(np.int8)
            self._rewards_row = tables.rewards[0]
        elif self.episode == "match" and not self._ended:
            tables.restart(0)  # an unfinished match is left for the next one
        # Otherwise the table has gone on by itself: the next hand (hand episodes; an unfinished
        # hand goes on), or the next match once one is won.
        self._ended = False
        self._to_act = int(tables.seats[0])
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._final = {}
        self._rewarded = False
        self.agent_selection = AGENTS[self._to_act - 1]

    def observe(self, agent: str) -> dict[str, Any]:
        if agent in self._final:
            return {"observation": self._final[agent], "action_mask": self._no_ids.copy()}
        seat = _SEAT.get(agent) or _seat(agent)  # ValueError for a name that is no agent
        return {"observation": self._views[seat - 1].copy(),
                "action_mask": (self._mask if seat == self._to_act else self._no_ids).copy()}

    # -- acting ---------------------------------------------------------------------------------

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        tables = self._tables
        assert tables is not None
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        if type(action) is not int:  # numpy's integers too, never a bool
            if isinstance(action, bool) or not isinstance(action, np.integer):
                raise ValueError(f"an action is an integer id, not {action!r}")
            action = int(action)
        if not (0 <= action < ACTION_SIZE and self._mask[action]):  # nothing changed
            what = describe_action(action) if 0 <= action < ACTION_SIZE else "no such id"
            raise ValueError(f"action {action} ({what}) is not legal for {agent} now")
        seat = tables.act(0, action)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        row = self._rewards_row
        if row[0] != 0.0:  # a hand ended: its promotion, won or lost, is never 0
            self._rewarded = True
            for a, r in zip(AGENTS, row.tolist(), strict=True):
                self.rewards[a] = r
            self._accumulate_rewards()
            if tables.dones[0]:
                self._ended = True
                self.terminations = dict.fromkeys(self.agents, True)
                final = tables.final_views(0)
                self._final = {a: final[k].copy() for k, a in enumerate(AGENTS)}
                return
        self._to_act = seat
        self.agent_selection = AGENTS[seat - 1]

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
