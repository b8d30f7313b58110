"""How much the other seats' calm leads say about their hands (a tuning aid).

    .venv/bin/python bench/lead_evidence.py [HANDS] [SEED]

Plays HANDS hands (default 30) of four heuristic players. Every third decision, for each other
seat with a lead bar (``guandan.players.search.lead_bar``: the weakest play it led calmly), it
checks whether that seat's real hand holds a play weaker than the bar, and whether deals drawn
by the tracker (uniform among those consistent with what was seen) do. The search keeps a deal
that fails a bar only with probability ``LEAD_EPS`` per failing seat and draws again otherwise;
the weight printed is the likelihood ratio these figures imply for heuristic seats.
"""

from __future__ import annotations

import random
import sys

from guandan.match import Match
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import abstract_hand, fails_bar, lead_bar
from guandan.players.tracker import Tracker


def tally(hands: int, seed: int, every: int = 3) -> tuple[tuple[int, int], tuple[int, int]]:
    """(failing, checked) for the real hands and for one drawn deal per check."""
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
                    bar = lead_bar(t.calm_leads[s])
                    if bar is None:
                        continue
                    for hand, count in ((m.hands[s], real), (t.sample(rng)[s], drawn)):
                        count[0] += fails_bar(abstract_hand(hand, obs.level), bar)
                        count[1] += 1
            m.apply(players[seat].act(obs))
    return (real[0], real[1]), (drawn[0], drawn[1])


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    real, drawn = tally(hands, seed)
    p_real = real[0] / real[1]
    p_drawn = drawn[0] / drawn[1]
    # Posterior odds of failing a bar = prior odds x likelihood ratio.
    ratio = (p_real / (1 - p_real)) / (p_drawn / (1 - p_drawn))
    print(f"{hands} hands from seed {seed}, {real[1]} seat positions with a lead bar:")
    print(f"  real hands that fail their bar:  {100 * p_real:5.1f}%")
    print(f"  drawn deals that fail the bar:   {100 * p_drawn:5.1f}%")
    print(f"  implied weight of a failing deal (heuristic seats): {ratio:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
