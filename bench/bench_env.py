"""Benchmark the learning interface: env steps/s, single and batched, and encoding calls/s.

Run: ``taskset -c 0 .venv/bin/python bench/bench_env.py [--steps N] [--tables N] [--seed S]``
(one core). Rates are per second of the process's CPU time (``time.process_time``), so a
machine shared with other work gives figures near a quiet one's. Actions are drawn uniformly
among the ids of each mask with numpy, so the figures are the environment's own cost (no
policy). Prints:

- the AEC environment (``guandan.env.env``): ``last()`` then ``step(id)``, steps/s;
- batched ``Tables``: table-steps/s (one step of one table = one decision);
- ``observation_array``, ``action_mask`` and ``Match.observation`` calls/s on positions of play;
- where a batched step's time goes (profile of the biggest parts).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
import warnings

import numpy as np

from guandan.encoding import action_mask, observation_array
from guandan.env import Tables, env


def bench_aec(steps: int, seed: int) -> float:
    e = env(rules="site", seed=seed)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    start = time.process_time()
    while done < steps:
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            e.step(int(ids[rng.integers(len(ids))]))
            done += 1
            _ = agent
        e.reset()
    return done / (time.process_time() - start)


def _random_ids(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # One uniform legal id per row, vectorised: the argmax of random keys over the mask.
    keys = rng.random(masks.shape) * masks
    return np.asarray(keys.argmax(axis=1))


def bench_tables(n: int, steps: int, seed: int) -> tuple[float, Tables]:
    tables = Tables(n, rules="site", seed=seed)
    _, masks, _ = tables.reset()
    rng = np.random.default_rng(seed)
    rounds = max(1, steps // n)
    for _ in range(max(1, rounds // 4)):  # warm the per-level tables (kept for the process)
        _, masks, _, _, _ = tables.step(_random_ids(masks, rng))
    start = time.process_time()
    for _ in range(rounds):
        _, masks, _, _, _ = tables.step(_random_ids(masks, rng))
    return rounds * n / (time.process_time() - start), tables


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
    prof = cProfile.Profile()
    prof.enable()
    bench_tables(args.tables, args.steps // 4, args.seed + 1)
    prof.disable()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(12)
    print("\nwhere the batched steps' time goes (cProfile, tottime):")
    print("\n".join(text.getvalue().splitlines()[6:22]))


if __name__ == "__main__":
    main()
