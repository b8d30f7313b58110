"""Benchmark whole-hand self-play with ``random`` players through the ``Match`` API.

Run: ``taskset -c 0 .venv/bin/python bench/bench_selfplay.py [--hands N] [--seed S]`` (one core).
Each decision is what a caller of the API does: ``observation(seat)``, the player's ``act``,
``apply``. Prints decisions per second and hands per second.
"""

from __future__ import annotations

import argparse
import time

from guandan import Match, make_player


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", default="random")
    args = ap.parse_args()
    players = {s: make_player(args.bot, seed=args.seed + s) for s in (1, 2, 3, 4)}
    decisions = hands = 0
    match_number = 1
    match = Match("site", seed=args.seed, match_number=match_number)
    start = time.perf_counter()
    while hands < args.hands:
        seat = match.to_act
        if seat is None:
            match_number += 1
            match = Match("site", seed=args.seed, match_number=match_number)
            continue
        before = len(match.records)
        match.apply(players[seat].act(match.observation(seat)))
        decisions += 1
        hands += len(match.records) - before
    elapsed = time.perf_counter() - start
    print(f"{hands} hands, {decisions} decisions ({args.bot} players) in {elapsed:.2f} s: "
          f"{decisions / elapsed:,.0f} decisions/s, {hands / elapsed:,.1f} hands/s")


if __name__ == "__main__":
    main()
