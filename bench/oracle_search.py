"""How much the hidden cards cost the search: the search that sees every hand (a diagnostic).

    .venv/bin/python bench/oracle_search.py HANDS SEED FIRST [SAMPLES] [WHICH,...]

Plays ``search`` against ``heuristic`` in hand-mode duplicate (deal sets FIRST .. FIRST+HANDS-1,
seeded as ``guandan arena --mode hand --seed SEED``), with SAMPLES sampled deals (default 16), as
each of WHICH (default ``oracle,partner,search``) and prints each run's figures:

- ``oracle``: every sampled deal is the real one (the same candidates, play-outs, scoring and
  keep test; the play-outs are deterministic, so two copies of the real deal stand for any
  number of samples);
- ``wide``: the oracle weighing every legal action, not only the search's candidates;
- ``partner``: the partner's real hand, the opponents' real cards dealt between them at random;
- ``lateN``: the oracle once some seat holds N cards or fewer, sampled deals before;
- ``chainN``: once some seat holds N cards or fewer, the sampled deals drawn from a Markov
  chain over the other seats' hands that reads every turn they played: a swap of two cards
  between two of them is kept with probability ``CHAIN_EPS ** (change in misses)``, the misses
  being their turns the fast policy, replaying the hand from its first lead with those cards,
  would have played otherwise (``playout.replay_misses``); started from a sampled deal,
  ``CHAIN_BURN`` steps before the first sample and ``CHAIN_THIN`` between samples (a reader of
  the turns with no clock: far slower than the page allows);
- ``search``: the search as it is.

The oracle is not a player (no seat may see another's cards): it bounds what better reading of
the hidden cards could give the search, with everything else as it is. What is left between the
oracle and a perfect player is the one-ply choice and the play-outs' policy.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from pathlib import Path
from typing import Any

from replay_reading import chain_step  # bench/replay_reading.py, beside this script

from guandan.arena import ArenaResult, Timing, play_both_seatings
from guandan.match import Match, Observation
from guandan.players import make_player, search
from guandan.players.base import Player
from guandan.players.playout import APlay, abstract_hand, hand_turns, replay_misses, start_hands
from guandan.players.search import SearchPlayer
from guandan.players.tracker import Tracker, remove_cards
from guandan.seats import SEATS, partner

#: The match being played (set whenever a seat is shown its observation): the oracle's window.
_CURRENT: list[Match] = []
_observation = Match.observation


def _spy(self: Match, seat: int) -> Observation:
    _CURRENT[:] = [self]
    return _observation(self, seat)


Match.observation = _spy  # type: ignore[method-assign]


def pure_module(compiled: Any, name: str) -> Any:
    """The module ``compiled`` run from its source as ``name`` (a compiled class cannot be
    subclassed)."""
    spec = importlib.util.spec_from_file_location(
        name, Path(compiled.__file__).with_name(compiled.__name__.rsplit(".", 1)[1] + ".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


_SEARCH = pure_module(search, "oracle_pure_search")
_PureSearch: Any = _SEARCH.SearchPlayer


class OracleSearch(_PureSearch):  # type: ignore[misc]
    """The search with the real deal in place of every sampled one; with ``partner_only``, the
    partner's real hand and the opponents' real cards dealt between them at random."""

    partner_only = False
    #: Weigh every legal action (each play ``legal_actions`` lists, and the pass), not only the
    #: search's candidates: with the real cards, what a wider choice at this depth is worth.
    wide = False
    #: Sees the real deal only once some seat holds at most this many cards (27: always).
    late = 27

    def candidates(self, v: Any, h_play: Any) -> list[Any]:
        cands: list[Any] = super().candidates(v, h_play)
        if not self.wide or len(cands) == 1:
            return cands  # one candidate: the heuristic goes out
        seen = {None if c.action is None else c.action.signature() for c in cands}
        for choice in [*v.plays, *([None] if v.can_pass else [])]:
            key = None if choice is None else choice.signature()
            if key not in seen:
                seen.add(key)
                rest = v.hand if choice is None else remove_cards(v.hand, choice.cards)
                cands.append(_SEARCH.Candidate(choice, abstract_hand(rest, v.level)))
        return cands

    def _draw(self, tracker: Tracker, rng: random.Random, evidence: dict[int, Any]
              ) -> tuple[dict[int, list[Any]], dict[int, list[APlay]], float]:
        if min(n for n in tracker.counts.values() if n > 0) > self.late:
            return super()._draw(tracker, rng, evidence)  # type: ignore[no-any-return]
        hands = {s: list(h) for s, h in _CURRENT[0].hands.items()}
        if self.partner_only:
            opps = [s for s in SEATS if s not in (tracker.seat, partner(tracker.seat))]
            pool = [c for s in opps for c in hands[s]]
            rng.shuffle(pool)
            for s in opps:
                hands[s], pool = pool[:len(hands[s])], pool[len(hands[s]):]
        others = {s: abstract_hand(hands[s], tracker.level) for s in SEATS if s != tracker.seat}
        return hands, others, 1.0


#: The chain's weight per miss, and its steps before the first sample and between samples.
CHAIN_EPS = 0.1
CHAIN_BURN = 200
CHAIN_THIN = 10


class ChainSearch(_PureSearch):  # type: ignore[misc]
    """The search with its sampled deals drawn from a chain that reads the turns played
    (``chainN``), once some seat holds ``late`` cards or fewer."""

    late = 15

    def act(self, obs: Observation) -> Any:
        self._turns = hand_turns(obs.history)
        self._chain: dict[int, list[Any]] | None = None
        return super().act(obs)

    def _draw(self, tracker: Tracker, rng: random.Random, evidence: dict[int, Any]
              ) -> tuple[dict[int, list[Any]], dict[int, list[APlay]], float]:
        if min(n for n in tracker.counts.values() if n > 0) > self.late or not self._turns:
            return super()._draw(tracker, rng, evidence)  # type: ignore[no-any-return]
        level, turns = tracker.level, self._turns
        steps = CHAIN_THIN
        if self._chain is None:
            self._chain = super()._draw(tracker, rng, evidence)[0]
            self._misses = replay_misses(start_hands(self._chain, turns), level, turns,
                                         tracker.others())
            steps = CHAIN_BURN
        h = self._chain
        for _ in range(steps):
            h = chain_step(h, self._misses, tracker, turns, rng, CHAIN_EPS, caps=True)[0]
        self._chain = h
        hands = {s: list(c) for s, c in h.items()}
        others = {s: abstract_hand(hands[s], level) for s in SEATS if s != tracker.seat}
        return hands, others, 1.0


def run(hands: int, seed: int, first: int, samples: int, oracle: str) -> str:
    t0 = time.perf_counter()
    result = ArenaResult("search", "heuristic", "site", "hand", seed)
    result.timing = {"search": Timing(), "heuristic": Timing()}

    def build(side: str, s: int) -> Player:
        if side != "search":
            return make_player("heuristic", seed=s)
        if oracle in ("oracle", "wide"):  # wide: the oracle weighing every legal action
            o = OracleSearch(seed=s, budget_ms=None, samples=2)
            o.wide = oracle == "wide"
            return o
        if oracle.startswith("late"):  # e.g. late10: the oracle once a seat holds 10 or fewer
            p = OracleSearch(seed=s, budget_ms=None, samples=samples)
            p.late = int(oracle[4:])
            return p
        if oracle.startswith("chain"):  # e.g. chain15: the chain once a seat holds 15 or fewer
            c = ChainSearch(seed=s, budget_ms=None, samples=samples)
            c.late = int(oracle[5:])
            return c
        if oracle == "partner":
            p = OracleSearch(seed=s, budget_ms=None, samples=samples)
            p.partner_only = True
            return p
        return SearchPlayer(seed=s, budget_ms=None, samples=samples)

    for index in range(first, first + hands):
        play_both_seatings("site", index, result, build)
    j = result.to_json()
    lo, hi = j["a_hand_win_ci95"]
    return (f"{oracle}@{samples}, seed {seed}, deal sets {first}-"
            f"{first + hands - 1}: won {100 * j['a_hand_win_rate']:.2f}% [{100 * lo:.2f}, "
            f"{100 * hi:.2f}] ({result.a_hand_wins}/{result.hands}), net levels/hand "
            f"{j['net_levels_per_hand']:+.3f}; {time.perf_counter() - t0:.0f} s")


def main() -> int:
    hands, seed, first = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    samples = int(sys.argv[4]) if len(sys.argv) > 4 else 16
    for which in (sys.argv[5] if len(sys.argv) > 5 else "oracle,partner,search").split(","):
        print(run(hands, seed, first, samples, which), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
