"""Benchmark ``legal_plays`` on full 27-card hands from seeded deals at random levels.

Run: ``taskset -c 0 .venv/bin/python bench/bench_plays.py [--deals N] [--seed S]`` (one core).
Prints the median and p99 time of one call, in microseconds, on an empty table and when
following typical tables (single, pair, full house, straight), by default and with
``every=True``. *New* is a hand not analysed before (all the work: what a player pays after
each play of its own); *again* is the same hand asked once more (a pass, a later trick:
``legal_plays`` keeps the hands it analysed lately and only filters their plays). Each figure
is the fastest of ``--repeat`` tries, so that other work on the machine disturbs it less.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable

import guandan.plays
from guandan.cards import RANKS, shuffled_hands
from guandan.plays import legal_plays
from guandan.readings import Reading

KINDS = ("single", "pair", "full_house", "straight")


def _time(call: Callable[[], object], repeat: int, new: bool) -> float:
    """Microseconds of one call, the fastest of ``repeat``; ``new`` forgets the hands kept."""
    best = float("inf")
    for _ in range(repeat):
        if new:
            guandan.plays.forget_analysed()
        else:
            call()
        start = time.perf_counter_ns()
        call()
        best = min(best, time.perf_counter_ns() - start)
    return best / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows: dict[str, list[float]] = {}
    counts: dict[bool, list[int]] = {False: [], True: []}
    for _ in range(args.deals):
        hands = shuffled_hands(rng)
        level = rng.choice(RANKS)
        hand = hands[1]
        # Typical tables: a middling play of each kind taken from another seat's hand.
        others = legal_plays(hands[2], level)
        tables: dict[str, Reading] = {}
        for kind in KINDS:
            of_kind = [p for p in others if p.kind == kind]
            if of_kind:
                tables[kind] = of_kind[len(of_kind) // 2]
        for every in (False, True):
            mode = "every=True" if every else "default"
            counts[every].append(len(legal_plays(hand, level, every=every)))
            for new in (True, False):
                when = "new" if new else "again"
                rows.setdefault(f"{mode} empty table, {when}", []).append(_time(
                    functools.partial(legal_plays, hand, level, every=every),
                    args.repeat, new))
                for kind, table in tables.items():
                    rows.setdefault(f"{mode} following {kind}, {when}", []).append(_time(
                        functools.partial(legal_plays, hand, level, table, every=every),
                        args.repeat, new))

    def row(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        median = statistics.median(xs)
        return f"{name:<40} n={len(xs):<5} median {median:7.1f} µs   p99 {p99:7.1f} µs"

    print(f"{args.deals} seeded deals, 27-card hands, random levels; plays per hand: "
          f"default median {statistics.median(counts[False])}, max {max(counts[False])}; "
          f"every=True median {statistics.median(counts[True])}, max {max(counts[True])}")
    for name, xs in rows.items():
        print(row(name, xs))
    for label in ("default", "every=True"):
        for when in ("new", "again"):
            xs = [x for name, v in rows.items() if name.startswith(f"{label} following")
                  and name.endswith(when) for x in v]
            print(row(f"{label} following (all), {when}", xs))


if __name__ == "__main__":
    main()
