"""The search's seams: a variant is built with constructor arguments (a draw of the hidden
cards, a play-out policy), never patched, and runs on the compiled modules as on the sources."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from guandan.cards import Card
from guandan.deal import Deal
from guandan.match import Match, Observation
from guandan.players.playout import APlay, Rollout
from guandan.players.search import PlayOut, RealHands, SearchPlayer
from guandan.players.tracker import Tracker
from guandan.seats import partner


def _searched(seed: int = 1) -> tuple[Match, Observation]:
    """A match and the first observation on which the search weighs several candidates."""
    match = Match(seed=seed)
    probe = SearchPlayer(samples=4, budget_ms=None)
    while match.to_act is not None:
        obs = match.observation(match.to_act)
        action = probe.act(obs)
        if probe.last_samples > 0:
            return match, obs
        match.apply(action)
    raise AssertionError("the search never weighed two candidates")


def test_an_oracle_draw_plays_every_candidate_out_on_the_real_deal() -> None:
    match, obs = _searched()
    deal = match.current_deal
    assert deal is not None
    real = deal.hands
    drawn: list[Mapping[int, Sequence[Card]]] = []
    seen: list[dict[int, list[Card]]] = []

    def oracle(o: Observation, tracker: Tracker, rng: random.Random
               ) -> Mapping[int, Sequence[Card]] | None:
        hands = RealHands(lambda: deal.hands)(o, tracker, rng)
        assert hands is not None
        drawn.append(hands)
        return hands

    def watched(o: Observation, d: Deal, parts: dict[int, list[APlay]], lead_size: float,
                styles: dict[int, float] | None, finish: dict[int, int],
                race: dict[int, int]) -> PlayOut:
        seen.append(d.hands)
        return Rollout(d, parts, lead_size, styles, finish, race)

    player = SearchPlayer(samples=6, budget_ms=None, draw=oracle, playout=watched)
    assert player.act(obs) in obs.legal_actions
    assert len(drawn) == player.last_samples > 0
    assert all(hands == real for hands in drawn)
    # Each play-out starts from the real cards: the other seats hold exactly theirs (the
    # searching seat's candidate has been played already).
    others = [s for s in real if s != obs.seat]
    assert seen and all(h[s] == real[s] for h in seen for s in others)


def test_a_play_out_policy_is_called_for_every_candidate_and_sample() -> None:
    _, obs = _searched()
    calls: list[int] = []

    def counted(o: Observation, d: Deal, parts: dict[int, list[APlay]], lead_size: float,
                styles: dict[int, float] | None, finish: dict[int, int],
                race: dict[int, int]) -> PlayOut:
        calls.append(o.seat)
        return Rollout(d, parts, lead_size, styles, finish, race)

    plain = SearchPlayer(seed=3, samples=8, budget_ms=None)
    built = SearchPlayer(seed=3, samples=8, budget_ms=None, playout=counted)
    # The same policy through the seam: the same choice, the same samples, the same reason.
    assert built.act(obs) == plain.act(obs)
    assert built.last_samples == plain.last_samples and built.reason == plain.reason
    assert len(calls) >= built.last_samples and set(calls) == {obs.seat}


def test_another_play_out_policy_changes_the_play_outs() -> None:
    """Random play-outs (``Deal.play_out``) through the seam: the search's figures change."""
    _, obs = _searched()

    class RandomPlayOut:
        def __init__(self, deal: Deal) -> None:
            self.deal = deal

        def run(self) -> None:
            self.deal.play_out(random.Random(len(self.deal.turns)))

        def value(self, seat: int) -> float:
            order = self.deal.finish_order
            won = order[0] in (seat, partner(seat))
            return 1.0 if won else -1.0

    def random_policy(o: Observation, d: Deal, parts: dict[int, list[APlay]],
                      lead_size: float, styles: dict[int, float] | None,
                      finish: dict[int, int], race: dict[int, int]) -> PlayOut:
        return RandomPlayOut(d)

    plain = SearchPlayer(seed=3, samples=8, budget_ms=None)
    built = SearchPlayer(seed=3, samples=8, budget_ms=None, playout=random_policy)
    plain.act(obs)
    built.act(obs)
    assert built.reason.params != plain.reason.params


def test_a_draw_that_declines_leaves_the_search_as_it_was() -> None:
    _, obs = _searched()
    asked: list[int] = []

    def declines(o: Observation, tracker: Tracker, rng: random.Random
                 ) -> Mapping[int, Sequence[Card]] | None:
        asked.append(o.seat)
        return None

    plain = SearchPlayer(seed=5, samples=8, budget_ms=None)
    built = SearchPlayer(seed=5, samples=8, budget_ms=None, draw=declines)
    assert built.act(obs) == plain.act(obs)
    assert built.reason == plain.reason and len(asked) == built.last_samples
