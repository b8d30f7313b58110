"""Benchmark random self-play through the engine's one-deal state, without ``Match`` around it.

Run: ``taskset -c 0 .venv/bin/python bench/bench_engine.py [--hands N] [--seed S] [--profile]``
(one core). Each hand is a seeded deal at a random level, played from the first lead to its end
by uniform random choices among the legal actions (the plays, and the pass when following); a
decision is one such choice: the legal actions, the choice and the action applied. Prints
decisions per second of the process's own CPU time (other work sharing the core then counts
less; the wall-clock rate is printed too). ``--split`` also says how much of it the engine's
move generation and reading take: it records every hand the state analyses for its plays (and
each list of plays asked of it), every call to ``read_as`` and ``beats``, and times them again,
alone, in the same order (on the plain-Python engine only: the compiled one calls them directly;
``PYTHONPATH`` at a copy of ``guandan/`` without its ``.so`` files will do).
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

from guandan.cards import RANKS, Card, shuffled_hands
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
    deals = [(shuffled_hands(rng), rng.choice(RANKS)) for _ in range(hands)]
    decisions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for cards, level in deals:
        decisions += _play_with_deal(cards, level, rng)
    return decisions, time.process_time() - cpu, time.perf_counter() - wall


def split(hands: int, seed: int) -> None:
    """Print the CPU time per decision of the engine calls the state makes, and of the rest."""
    module = importlib.import_module("guandan.deal")
    if not str(module.__file__).endswith(".py"):
        # Compiled, the state calls these directly, past the module's attributes: nothing
        # could be recorded, and every figure would read 0.
        raise SystemExit("--split needs the plain-Python engine: the compiled guandan.deal "
                         "calls the move generation, read_as and beats directly, so their "
                         "calls cannot be recorded. Run it on a copy of the sources without "
                         "the compiled .so files, or an install made with GUANDAN_PURE=1.")
    groups = module.PlayGroups
    # The move generation: a seat's hand analysed once (a view the state keeps until the hand
    # changes), then asked for its plays on each table.
    events: list[tuple[str, int, Any]] = []

    class Recorded(groups):  # type: ignore[misc, valid-type]
        def __init__(self, hand: list[Card], level: str, every: bool) -> None:
            self.index = len(events)
            events.append(("new", self.index, (list(hand), level, every)))
            super().__init__(hand, level, every)

        def plays(self, table: Any) -> Any:
            events.append(("plays", self.index, table))
            return super().plays(table)

    names = ("read_as", "beats")
    calls: dict[str, list[tuple[Any, ...]]] = {n: [] for n in names}
    real = {n: getattr(module, n) for n in names}

    def recorder(name: str) -> Callable[..., Any]:
        def record(*args: Any) -> Any:
            calls[name].append(tuple(list(a) if isinstance(a, list) else a for a in args))
            return real[name](*args)
        return record

    module.PlayGroups = Recorded  # type: ignore[attr-defined]
    for n in names:
        setattr(module, n, recorder(n))
    try:
        decisions, _, _ = run(hands, seed)
    finally:
        module.PlayGroups = groups  # type: ignore[attr-defined]
        for n in names:
            setattr(module, n, real[n])
    _, cpu, _ = run(hands, seed)
    last = {index: i for i, (_, index, _) in enumerate(events)}
    views: dict[int, Any] = {}
    start = time.process_time()
    for i, (what, index, args) in enumerate(events):
        if what == "new":
            views[index] = groups(*args)
        else:
            views[index].plays(args)
        if last[index] == i:
            del views[index]  # as the state lets it go: no more live objects than it had
    engine = moves = time.process_time() - start
    parts = [f"move generation {moves / decisions * 1e6:.2f} µs "
             f"({sum(e[0] == 'new' for e in events)} hands analysed, "
             f"{sum(e[0] == 'plays' for e in events)} lists of plays)"]
    for n in names:
        fn, args_list = real[n], calls[n]
        start = time.process_time()
        for a in args_list:
            fn(*a)
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
