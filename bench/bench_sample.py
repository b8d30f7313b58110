"""Benchmark the one dealer of hidden cards (``guandan.sampling.place_unseen``) through its two
callers: ``Tracker.sample`` (the search's sampled deals, with the pass caps and the tribute)
and ``Deal.sample`` (the API's).

Run: ``taskset -c 0 .venv/bin/python bench/bench_sample.py [--matches N]`` (one core).
Positions: every fifth turn of the first three hands of N heuristic self-play matches
(presets ``site`` and ``huaian`` alternately, seeds 1000 on), so most hands after the first
carry a tribute. Rates are samples per CPU second (``time.process_time``), twice each.
"""

from __future__ import annotations

import argparse
import random
import time

from guandan.deal import Deal
from guandan.match import Match, Observation
from guandan.players import make_player
from guandan.players.tracker import NO_CAP, Tracker


def positions(matches: int) -> list[Observation]:
    out: list[Observation] = []
    for i in range(matches):
        m = Match(("site", "huaian")[i % 2], seed=1000 + i)
        players = {s: make_player("heuristic", seed=s) for s in (1, 2, 3, 4)}
        step = 0
        while m.final_winner is None and m.hand_number <= 3:
            seat = m.to_act
            assert seat is not None
            obs = m.observation(seat)
            if step % 5 == 0 and m.phase == "play":
                out.append(obs)
            m.apply(players[seat].act(obs))
            step += 1
    return out


def rate(trackers: list[Tracker], reps: int, rng: random.Random) -> float:
    c0 = time.process_time()
    for _ in range(reps):
        for t in trackers:
            t.sample(rng)
    return reps * len(trackers) / (time.process_time() - c0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=30)
    args = ap.parse_args()
    obss = positions(args.matches)
    trackers = [Tracker.from_observation(o) for o in obss]
    capped = [t for t in trackers
              if any(t.caps.get(s, NO_CAP) < NO_CAP for s in t.others())]
    tribute = [t for t in trackers if t.tribute.tops or t.tribute.jokers]
    print(f"{len(trackers)} positions: {len(capped)} with a cap, {len(tribute)} with a tribute")
    rng = random.Random(0)
    for _ in range(2):
        print(f"Tracker.sample: {rate(trackers, 3, rng):,.0f}/s (with a cap "
              f"{rate(capped, 20, rng):,.0f}/s, with a tribute {rate(tribute, 3, rng):,.0f}/s)")
        c0 = time.process_time()
        for o in obss:
            Deal.sample(o, rng)
        print(f"Deal.sample: {len(obss) / (time.process_time() - c0):,.0f}/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
