"""Benchmark the learning interface: env steps/s, single and batched, and encoding calls/s.

Run: ``taskset -c 0 .venv/bin/python bench/bench_env.py [--steps N] [--tables N] [--seed S]``
(one core). Rates are per second of the process's CPU time (``time.process_time``), so a
machine shared with other work gives figures near a quiet one's. Actions are drawn uniformly
among the ids of each mask with numpy, so the figures are the environment's own cost (no
policy). Prints:

- the AEC environment (``guandan.env.env``): ``last()`` then ``step(id)``, steps/s;
- batched ``Tables``: table-steps/s (one step of one table = one decision), CPU time inside
  ``Tables.step`` only;
- ``observation_array``, ``action_mask`` and ``Match.observation`` calls/s on positions of play;
- one table-step split between the engine (``Deal.legal_actions(every=True)``,
  ``Deal.apply``) and the rest;
- where a batched step's time goes (profile of the biggest parts).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import pstats
import random
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import guandan.env.tables as installed_tables
from guandan.cards import shuffled_hands
from guandan.deal import Deal, Move
from guandan.encoding import action_mask, observation_array
from guandan.env import Tables, env


def bench_aec(steps: int, seed: int, make: Callable[..., Any] = env) -> float:
    """Steps per second of CPU time of the loop a PettingZoo user writes: ``last()``, a random
    legal id (``flatnonzero`` of the mask, Python's ``random``: a numpy ``Generator`` call costs
    about 3 microseconds, as much as a fifth of a step), ``step(id)``; all of it counted."""
    e = make(rules="site", seed=seed)
    e.reset(seed=seed)
    rng = random.Random(seed)
    done = 0
    start = time.process_time()
    while done < steps:
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            e.step(int(ids[rng.randrange(len(ids))]))
            done += 1
        e.reset()
    return done / (time.process_time() - start)


def _random_ids(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # One uniform legal id per row, vectorised: the argmax of random keys over the mask.
    keys = rng.random(masks.shape) * masks
    return np.asarray(keys.argmax(axis=1))


def bench_tables(n: int, steps: int, seed: int,
                 kind: Callable[..., Tables] = Tables) -> tuple[float, Tables]:
    """Table-steps per second of CPU time inside ``Tables.step`` (drawing the random ids, the
    policy's part, is not counted)."""
    tables = kind(n, rules="site", seed=seed)
    _, masks, _ = tables.reset()
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // n)
    for _ in range(max(1, rounds // 4)):  # warm the caches a long run keeps warm
        _, masks, _, _, _ = tables.step(_random_ids(masks, rng))
    spent = 0.0
    for _ in range(rounds):
        ids = _random_ids(masks, rng)
        start = time.process_time()
        _, masks, _, _, _ = tables.step(ids)
        spent += time.process_time() - start
    return rounds * n / spent, tables


def _plain_tables() -> Any:
    """``guandan.env.tables`` run from its source, when the installed one is compiled (a
    profile or a patched engine call can then see into the step)."""
    path = Path(installed_tables.__file__).resolve()
    spec = importlib.util.spec_from_file_location(
        "tables_source", path.with_name(path.name.split(".", 1)[0] + ".py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def engine_share(n: int, steps: int, seed: int) -> dict[str, float]:
    """Where a batched step's time goes between the engine and the tables, in microseconds of
    CPU time per table-step: the step as installed; the engine's part measured on random hands
    played through ``Deal`` alone, as a table plays them (``legal_actions(every=True)`` at
    every decision, a passing seat's plays kept by the deal, then ``apply``); the rest is the
    tables' own. The engine's part alone is a floor: in the step it shares the CPU's caches
    with 64 or more tables."""
    rate, _ = bench_tables(n, steps, seed)  # the step as installed
    rng = random.Random(seed)
    hands: list[tuple[Deal, list[Move]]] = []
    for _ in range(200):
        deal = Deal(shuffled_hands(rng), "2", 1)
        start_deal = deal.clone()
        moves: list[Move] = []
        while not deal.over:
            options = deal.legal_actions(every=True)
            moves.append(options[rng.randrange(len(options))])
            deal.apply(moves[-1])
        hands.append((start_deal, moves))
    decisions = 0
    listing = applying = 0.0
    clock = time.process_time
    for start_deal, moves in hands:
        d = start_deal.clone()
        for m in moves:
            start = clock()
            d.legal_actions(every=True)
            middle = clock()
            d.apply(m)
            end = clock()
            listing += middle - start
            applying += end - middle
        decisions += len(moves)
    start = clock()
    for _ in range(decisions):
        clock()
        clock()
    tick = (clock() - start) / decisions  # the clock's own cost, paid once per part
    legal = max(0.0, listing / decisions - tick)
    apply = max(0.0, applying / decisions - tick)
    step = 1.0 / rate
    return {"step": step * 1e6, "Deal.legal_actions(every=True)": legal * 1e6,
            "Deal.apply": apply * 1e6,
            "the tables' own (step - the engine's two)": (step - legal - apply) * 1e6}


def bench_encoding(tables: Tables, calls: int) -> dict[str, float]:
    positions = [tables.observation(i) for i in range(tables.n)]
    out = {}
    for name, fn in (("observation_array", observation_array), ("action_mask", action_mask)):
        start = time.process_time()
        for k in range(calls):
            fn(positions[k % len(positions)])
        out[name] = calls / (time.process_time() - start)
    start = time.process_time()
    for k in range(calls):
        m = tables.matches[k % tables.n]
        m.observation(m.to_act)  # type: ignore[arg-type]
    out["Match.observation"] = calls / (time.process_time() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--tables", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"AEC env: {bench_aec(args.steps // 2, args.seed):,.0f} steps/s")
    rate, tables = bench_tables(args.tables, args.steps, args.seed)
    print(f"Tables({args.tables}): {rate:,.0f} table-steps/s")
    for name, per_s in bench_encoding(tables, 5000).items():
        print(f"{name}: {per_s:,.0f} calls/s")
    print(f"one Tables({args.tables}) table-step, microseconds of CPU time:")
    for name, us in engine_share(args.tables, args.steps, args.seed).items():
        print(f"  {name}: {us:.1f}")
    prof = cProfile.Profile()
    plain = _plain_tables().Tables
    prof.enable()
    bench_tables(args.tables, args.steps // 4, args.seed + 1, plain)
    prof.disable()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(12)
    print("\nwhere the batched steps' time goes (cProfile of the step's plain source, tottime):")
    print("\n".join(text.getvalue().splitlines()[6:22]))


if __name__ == "__main__":
    main()
