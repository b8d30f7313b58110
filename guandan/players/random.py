"""The random player: a uniform choice among the legal actions, from its own generator.

>>> from guandan.match import Match
>>> m = Match(seed=1)
>>> p = RandomPlayer(seed=5)
>>> p.act(m.observation(1)) in m.legal_actions
True
"""

from __future__ import annotations

import random

from guandan.match import PASS, Action, Observation
from guandan.players.base import Reason


class RandomPlayer:
    """Picks any legal action with equal chance; repeatable from ``seed``."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random-player:{seed}")
        self.reason = Reason("아직 고르지 않았습니다.", "Nothing chosen yet.")

    def act(self, obs: Observation) -> Action:
        if not obs.legal_actions:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        action = self.rng.choice(obs.legal_actions)
        if action is PASS:
            self.reason = Reason("무작위로 패스를 골랐습니다.", "Passed at random.", code="random")
        else:
            self.reason = Reason("합법적인 행동 중 무작위로 골랐습니다.",
                                 "Chose at random among the legal actions.", code="random")
        return action
