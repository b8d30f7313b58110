"""Would more sampled deals change the search's choices? (issue 26's diagnostic)

In positions of heuristic self-play (every third decision of seats 1 and 3 that the search
weighs, i.e. with more than one candidate), the search decides at several sample limits with
one seed, and at a large limit with another seed (the reference: about what it would choose
with every deal weighed). It prints how often each limit chose as the reference did, how
often two independent runs at the same limit agree with each other, and how often the choice
departs from the heuristic's. Fixed sample counts (``budget_ms=None``): the early stop once no
candidate can overtake the heuristic's choice still applies, as in play.

    .venv/bin/python bench/sample_agreement.py POSITIONS [LIMITS] [REFERENCE] [SEED]

e.g. ``bench/sample_agreement.py 150 16,64,256 1024``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

from guandan.match import Match, Observation
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer


def positions(n: int, seed: int) -> Iterator[Observation]:
    """Matches stopped at every third searched decision of seats 1 and 3 (their first hand)."""
    probe = SearchPlayer(seed=0, samples=2, budget_ms=None)
    found = 0
    match_seed = seed
    while True:
        m = Match(seed=match_seed)
        match_seed += 1
        bots = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
        count = 0
        while m.hand_number == 1 and m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            if seat in (1, 3) and m.phase == "play":
                probe.act(obs)
                if probe.last_samples > 0:
                    count += 1
                    if count % 3 == 0:
                        yield obs
                        found += 1
                        if found >= n:
                            return
            m.apply(bots[seat].act(obs))


def main() -> None:
    n = int(sys.argv[1])
    limits = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "16,64,256").split(",")]
    ref_limit = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    same = dict.fromkeys(limits, 0)  # chose as the reference did
    twins = dict.fromkeys(limits, 0)  # two seeds at this limit chose alike
    departs = dict.fromkeys([*limits, ref_limit], 0)
    used = dict.fromkeys([*limits, ref_limit], 0)
    h = HeuristicPlayer(seed=0)
    t0 = time.perf_counter()
    done = 0
    for obs in positions(n, seed):
        base = h.act(obs)
        ref_player = SearchPlayer(seed=1, samples=ref_limit, budget_ms=None)
        ref = ref_player.act(obs)
        used[ref_limit] += ref_player.last_samples
        departs[ref_limit] += ref != base
        for k in limits:
            a = SearchPlayer(seed=0, samples=k, budget_ms=None)
            b = SearchPlayer(seed=2, samples=k, budget_ms=None)
            choice = a.act(obs)
            used[k] += a.last_samples
            same[k] += choice == ref
            twins[k] += choice == b.act(obs)
            departs[k] += choice != base
        done += 1
    print(f"{done} searched positions of heuristic self-play (seed {seed}), "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"reference: {ref_limit} sampled deals at most (seed 1), {used[ref_limit] / done:.0f} "
          f"used on average, departs from the heuristic in {100 * departs[ref_limit] / done:.1f}%")
    for k in limits:
        print(f"{k:5d} at most ({used[k] / done:.0f} used): as the reference "
              f"{100 * same[k] / done:.1f}%, two seeds alike {100 * twins[k] / done:.1f}%, "
              f"departs from the heuristic {100 * departs[k] / done:.1f}%")


if __name__ == "__main__":
    main()
