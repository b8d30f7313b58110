"""Two variants of our players against each other, in hand-mode duplicate (a tuning aid).

    .venv/bin/python bench/variant_arena.py HANDS SEED FIRST A B

A and B are JSON objects: ``{"name": "heuristic", ...settings}`` (``make_player`` builds each
with its settings), e.g. a heuristic with one behaviour off against the default one. Plays deal
sets FIRST .. FIRST+HANDS-1 as ``guandan arena --mode hand --seed SEED`` seeds them, both
seatings, and prints the hands won by A with a 95% interval, net levels per hand and each side's
time per decision (the arena's own figures).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from guandan.arena import ArenaResult, Timing, play_both_seatings
from guandan.players import make_player
from guandan.players.base import Player


def build(spec: dict[str, Any], seed: int) -> Player:
    settings = {k: v for k, v in spec.items() if k != "name"}
    return make_player(spec["name"], seed=seed, **settings)


def main() -> int:
    hands, seed, first = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    a, b = json.loads(sys.argv[4]), json.loads(sys.argv[5])
    t0 = time.perf_counter()
    result = ArenaResult("A", "B", "site", "hand", seed)
    result.timing = {"A": Timing(), "B": Timing()}
    for index in range(first, first + hands):
        play_both_seatings("site", index, result,
                           lambda side, s: build(a if side == "A" else b, s))
    j = result.to_json()
    lo, hi = j["a_hand_win_ci95"]
    nlo, nhi = j["net_levels_per_hand_ci95"]
    ta, tb = j["timing"]["A"], j["timing"]["B"]
    print(f"A {sys.argv[4]} vs B {sys.argv[5]}, seed {seed}, deal sets {first}-"
          f"{first + hands - 1}: A won {100 * j['a_hand_win_rate']:.2f}% [{100 * lo:.2f}, "
          f"{100 * hi:.2f}] ({result.a_hand_wins}/{result.hands}); net levels/hand "
          f"{j['net_levels_per_hand']:+.3f} [{nlo:+.3f}, {nhi:+.3f}]; A {ta['mean_ms']:.1f} ms "
          f"mean, p95 {ta['p95_ms']:.1f} ms; B {tb['mean_ms']:.1f} ms mean, p95 "
          f"{tb['p95_ms']:.1f} ms; {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
