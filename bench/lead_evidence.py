"""How much the other seats' calm leads and passes say about their hands (a tuning aid).

    .venv/bin/python bench/lead_evidence.py [HANDS] [SEED]

Plays HANDS hands (default 30) of four heuristic players. Every third decision, for each other
seat with evidence, it checks whether that seat's real hand fails it, and whether deals drawn
by the tracker (uniform among those consistent with what was seen) do:

- leads: the seat's lead bar (``guandan.players.search.lead_bar``: the weakest play it led
  calmly); a hand fails it by holding a weaker play;
- passes: the opponents' plays it passed on calmly since its last play; a hand fails them by
  holding a plain play of its split that beats one (``beats_a_pass``).

The search keeps a deal that fails a seat's evidence only with probability ``LEAD_EPS`` per
failing seat and draws again otherwise; the weight printed is the likelihood ratio these
figures imply for heuristic seats.
"""

from __future__ import annotations

import random
import sys

from guandan.match import Match
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.playout import abstract_hand, abstract_reading
from guandan.players.search import Evidence
from guandan.players.tracker import Tracker


def tally(hands: int, seed: int, every: int = 3,
          what: str = "leads") -> tuple[tuple[int, int], tuple[int, int]]:
    """(failing, checked) for the real hands and for one drawn deal per check, of the
    evidence ``what`` ("leads" or "passes")."""
    if what not in ("leads", "passes"):
        raise ValueError(f"what must be 'leads' or 'passes', not {what!r}")
    rng = random.Random(0)
    real = [0, 0]
    drawn = [0, 0]
    for n in range(hands):
        m = Match(seed=seed + n)
        players = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
        turn = 0
        while m.phase == "play" and m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            turn += 1
            if turn % every == 0:
                t = Tracker.from_observation(obs)
                for s in t.others():
                    if what == "leads":
                        ev = Evidence.of(t, s, passes=False)
                    else:  # the passes alone, without the lead bar
                        passed = tuple(abstract_reading(r) for r in t.calm_passes[s])
                        ev = Evidence(passed=passed) if passed else None
                    if ev is None:
                        continue
                    for hand, count in ((m.hands[s], real), (t.sample(rng)[s], drawn)):
                        count[0] += ev.fails(abstract_hand(hand, obs.level))
                        count[1] += 1
            m.apply(players[seat].act(obs))
    return (real[0], real[1]), (drawn[0], drawn[1])


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    for what in ("leads", "passes"):
        real, drawn = tally(hands, seed, what=what)
        p_real = real[0] / real[1]
        p_drawn = drawn[0] / drawn[1]
        # Posterior odds of failing = prior odds x likelihood ratio.
        ratio = (p_real / (1 - p_real)) / (p_drawn / (1 - p_drawn))
        print(f"{hands} hands from seed {seed}, {real[1]} seat positions with calm {what}:")
        print(f"  real hands that fail them:  {100 * p_real:5.1f}%")
        print(f"  drawn deals that fail them: {100 * p_drawn:5.1f}%")
        print(f"  implied weight of a failing deal (heuristic seats): {ratio:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
