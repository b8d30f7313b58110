"""Soak test: many hands per preset with random and greedy seats, exported and validated.

    .venv/bin/python bench/soak.py [--hands 10000] [--seed 1] [--dir /tmp/guandan-soak]

For each preset it runs ``guandan simulate`` (seats: random, greedy, greedy, random), then
``guandan validate`` on the file, and prints the counts: hands, matches, tribute kinds, final
victories, tries at A used, resets to 2, and the validation errors. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

PRESETS = ("site", "national", "huaian", "nanjing")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default="/tmp/guandan-soak")
    args = parser.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    failed = False
    for rules in PRESETS:
        out = folder / f"{rules}.jsonl"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "guandan", "simulate", "--rules", rules,
                        "--hands", str(args.hands), "--seed", str(args.seed),
                        "--bots", "random,greedy,greedy,random", "--out", str(out)],
                       check=True, capture_output=True)
        t1 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "guandan", "validate", str(out)],
                              capture_output=True, text=True, check=False)
        t2 = time.perf_counter()
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        kinds = Counter(r["tribute"]["kind"] for r in records)
        finals = Counter(r["final_winner"] for r in records if r["final_winner"])
        tries = sum(1 for r in records for t in ("13", "24")
                    if r["a_tries_after"][t] > r["a_tries"][t])
        resets = sum(1 for r in records for t in ("13", "24")
                     if r["team_levels"][t] == "A" and r["team_levels_after"][t] == "2")
        matches = len({r["match"] for r in records})
        print(f"{rules:9} {len(records)} hands, {matches} matches, tribute {dict(kinds)}, "
              f"final victories {dict(finals)}, tries at A used {tries}, resets to 2 {resets}; "
              f"simulate {t1 - t0:.1f}s, validate {t2 - t1:.1f}s")
        print("          validate:", done.stdout.strip().replace("\n", "\n          "))
        failed = failed or done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
