"""The greedy player: the smallest play that does the job, never a plan.

- Following: the weakest play of the table's own kind that beats it; if there is none, the
  smallest bomb (by the special order, then key); passes only when it has nothing.
- Leading: the play with the weakest key, using the most cards among plays of that key
  (so ``33`` before ``3``, ``A2345`` before a single 5); bombs only when nothing else is left.
- Returning a tribute card: the weakest returnable card.

>>> from guandan.match import Match
>>> m = Match(seed=1)
>>> p = GreedyPlayer()
>>> play = p.act(m.observation(1))
>>> play in m.legal_actions, p.reason.en.startswith("Lead")
(True, True)
"""

from __future__ import annotations

from guandan.cards import Card
from guandan.match import PASS, Action, Observation
from guandan.players.base import Reason
from guandan.players.describe import reason_params
from guandan.readings import Reading


def _lead_key(r: Reading) -> tuple[int, int, int]:
    return (r.power, r.key, -len(r.cards))


def _follow_key(r: Reading) -> tuple[int, int]:
    return (r.power, r.key)


class GreedyPlayer:
    """Plays the smallest thing that works (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.reason = Reason("아직 고르지 않았습니다.", "Nothing chosen yet.")

    def act(self, obs: Observation) -> Action:
        actions = obs.legal_actions
        if not actions:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        cards = [a for a in actions if isinstance(a, Card)]
        if cards:
            card = min(cards, key=lambda c: (c.strength(obs.level), c.index))
            self.reason = Reason(f"돌려줄 수 있는 가장 약한 카드 {card.notation}를 돌려줍니다.",
                                 f"Return the weakest returnable card, {card.notation}.",
                                 code="return_weakest", params=reason_params(card=card))
            return card
        plays = [a for a in actions if isinstance(a, Reading)]
        if obs.table is None:
            play = min(plays, key=_lead_key)
            self.reason = Reason(f"가장 약한 조합으로 선출합니다: {play.kind} {play.rank}.",
                                 f"Lead the weakest combination: {play.kind} {play.rank}.",
                                 code="lead_weakest", params=reason_params(play=play))
            return play
        if not plays:
            self.reason = Reason("테이블을 이길 패가 없어 패스합니다.",
                                 "Nothing beats the table: pass.", code="pass_nothing_beats",
                                 params=reason_params(table=obs.table.play))
            return PASS
        play = min(plays, key=_follow_key)
        if play.is_special and not obs.table.play.is_special:
            self.reason = Reason(f"같은 모양으로 이길 수 없어 가장 작은 폭탄 {play.kind}를 냅니다.",
                                 f"No same-kind play beats it: the smallest bomb, {play.kind}.",
                                 code="bomb_smallest", params=reason_params(play=play))
        else:
            self.reason = Reason(f"테이블을 이기는 가장 작은 패: {play.kind} {play.rank}.",
                                 f"The smallest play that beats the table: "
                                 f"{play.kind} {play.rank}.", code="follow_smallest",
                                 params=reason_params(play=play))
        return play
