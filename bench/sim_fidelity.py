"""How often the search's fast policy plays what the heuristic plays (a tuning aid).

    .venv/bin/python bench/sim_fidelity.py [HANDS] [SEED]

Plays HANDS hands (default 60) of four heuristic players and, at every decision, asks the
search's fast rollout policy (``guandan.players.search.Rollout``, on a clone of the match's
current ``Deal``) what it would do on the same real cards. The rollouts predict the heuristic's
answers best when the two agree; the report gives the agreement per table kind, and how often
one plays where the other passes.
"""

from __future__ import annotations

import sys
from collections import Counter

from guandan.match import Match
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import Rollout, abstract_hand, abstract_reading
from guandan.readings import Reading


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    total: Counter[str] = Counter()
    same: Counter[str] = Counter()
    wrong: Counter[tuple[str, str]] = Counter()
    for n in range(hands):
        m = Match(seed=seed + n)
        players = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
        while m.phase == "play" and m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            action = players[seat].act(obs)
            parts = {s: abstract_hand(m.hands[s], obs.level) for s in (1, 2, 3, 4)}
            table = m.table
            deal = m.current_deal
            assert deal is not None
            guess = Rollout(deal.clone(), parts).choose(seat)
            real = abstract_reading(action) if isinstance(action, Reading) else None
            kind = "lead" if table is None else f"follow {table.play.kind}"
            total[kind] += 1
            if guess is None or real is None:
                if guess is None and real is None:
                    same[kind] += 1
                else:
                    wrong[(kind, "sim passes" if guess is None else "sim plays")] += 1
            elif (guess.kind, guess.size, guess.key) == (real.kind, real.size, real.key):
                same[kind] += 1
            else:
                wrong[(kind, "another play")] += 1
            m.apply(action)
    print(f"{hands} hands from seed {seed}: the fast policy agrees with the heuristic on "
          f"{100 * sum(same.values()) / sum(total.values()):.1f}% of "
          f"{sum(total.values())} decisions")
    for kind, n in total.most_common():
        misses = ", ".join(f"{why} {k}" for (kd, why), k in sorted(wrong.items()) if kd == kind)
        print(f"  {kind:22} {100 * same[kind] / n:5.1f}% of {n:5}  {misses}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
