"""Benchmark ``legal_plays`` on full 27-card hands from seeded deals at random levels.

Run: ``.venv/bin/python bench/bench_plays.py [--deals N] [--seed S]``. Prints the median and
p99 time of one call on an empty table and when following typical tables (single, pair,
full house, straight), in milliseconds, measured on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from guandan.cards import RANKS, deal
from guandan.plays import legal_plays
from guandan.readings import Reading


def _time(fn: object, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()  # type: ignore[operator]
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    empty: list[float] = []
    follow: dict[str, list[float]] = {"single": [], "pair": [], "full_house": [], "straight": []}
    counts: list[int] = []
    for _ in range(args.deals):
        hands = deal(rng)
        level = rng.choice(RANKS)
        hand = hands[1]
        plays = legal_plays(hand, level)
        counts.append(len(plays))
        empty.append(_time(lambda h=hand, lv=level: legal_plays(h, lv), 20))
        # Typical tables: a middling play of each kind taken from another seat's hand.
        others = legal_plays(hands[2], level)
        for kind, times in follow.items():
            of_kind: list[Reading] = [p for p in others if p.kind == kind]
            if of_kind:
                table = of_kind[len(of_kind) // 2]
                times.append(_time(lambda h=hand, lv=level, t=table: legal_plays(h, lv, t), 50))

    def row(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        return f"{name:<22} n={len(xs):<5} median {statistics.median(xs):.4f} ms   p99 {p99:.4f} ms"

    print(f"{args.deals} seeded deals, 27-card hands, random levels; "
          f"plays per hand: median {statistics.median(counts)}, max {max(counts)}")
    print(row("empty table", empty))
    for kind, xs in follow.items():
        print(row(f"following {kind}", xs))
    print(row("following (all)", [x for xs in follow.values() for x in xs]))


if __name__ == "__main__":
    main()
