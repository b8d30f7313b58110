"""Benchmark random self-play through the engine's one-deal state, without ``Match`` around it.

Run: ``taskset -c 0 .venv/bin/python bench/bench_engine.py [--hands N] [--seed S] [--profile]``
(one core). Each hand is a seeded deal at a random level, played from the first lead to its end
by uniform random choices among the legal actions (the plays, and the pass when following); a
decision is one such choice: the legal actions, the choice and the action applied. Prints
decisions per second of the process's own CPU time (other work sharing the core then counts
less; the wall-clock rate is printed too). ``--split`` also says how much of it the engine's
move generation and reading take: it records every call the state makes to ``legal_plays``,
``classify``, ``read_as`` and ``beats``, and times them again, alone, in the same order.
``--profile`` prints where the time goes instead (cProfile: the compiled modules show as one
line per call into them).

"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
import random
import time
from collections.abc import Callable
from typing import Any

import guandan.plays
from guandan.cards import RANKS, Card, deal
from guandan.deal import Deal


def _play_with_deal(hands: dict[int, list[Card]], level: str, rng: random.Random) -> int:
    state = Deal(hands, level=level, leader=1)
    decisions = 0
    while state.to_act is not None:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        decisions += 1
    return decisions


def run(hands: int, seed: int) -> tuple[int, float, float]:
    rng = random.Random(seed)
    deals = [(deal(rng), rng.choice(RANKS)) for _ in range(hands)]
    decisions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for cards, level in deals:
        decisions += _play_with_deal(cards, level, rng)
    return decisions, time.process_time() - cpu, time.perf_counter() - wall


def split(hands: int, seed: int) -> None:
    """Print the CPU time per decision of the engine calls the state makes, and of the rest."""
    module = importlib.import_module("guandan.deal")
    names = [n for n in ("legal_plays", "classify", "read_as", "beats") if hasattr(module, n)]
    calls: dict[str, list[tuple[Any, ...]]] = {n: [] for n in names}
    real = {n: getattr(module, n) for n in names}

    def recorder(name: str) -> Callable[..., Any]:
        def record(*args: Any) -> Any:
            # A copy of a hand: the state's own list changes as the hand is played.
            calls[name].append(tuple(list(a) if isinstance(a, list) else a for a in args))
            return real[name](*args)
        return record

    for n in names:
        setattr(module, n, recorder(n))
    try:
        decisions, _, _ = run(hands, seed)
    finally:
        for n in names:
            setattr(module, n, real[n])
    _, cpu, _ = run(hands, seed)
    parts = []
    engine = 0.0
    for n in names:
        fn, args_list = real[n], calls[n]
        guandan.plays._VIEWS.clear()  # as at the start of the run
        start = time.process_time()
        for args in args_list:
            fn(*args)
        spent = time.process_time() - start
        engine += spent
        parts.append(f"{n} {spent / decisions * 1e6:.2f} µs ({len(args_list)} calls)")
    print(f"{decisions} decisions, {cpu / decisions * 1e6:.2f} µs of CPU each: "
          + ", ".join(parts) + f"; the rest {(cpu - engine) / decisions * 1e6:.2f} µs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--split", action="store_true")
    args = ap.parse_args()
    state = "Deal"
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(run, args.hands, args.seed)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    if args.split:
        split(args.hands, args.seed)
        return
    decisions, cpu, wall = run(args.hands, args.seed)
    print(f"{args.hands} hands through {state}, {decisions} decisions (random choices) in "
          f"{cpu:.2f} s of CPU: {decisions / cpu:,.0f} decisions/s "
          f"(wall clock {wall:.2f} s: {decisions / wall:,.0f}/s)")


if __name__ == "__main__":
    main()
