"""Two settings of our players against each other in duplicate (a tuning aid).

    .venv/bin/python bench/variant_arena.py HANDS SEED FIRST A B [--workers N] [--mode match]

A and B are JSON objects: ``{"name": "heuristic", ...settings}`` (``make_player`` builds each
with its settings; the command line's arena takes no settings but ``--samples``), e.g. a
heuristic with one behaviour off against the default one, or a search setting against the
heuristic:

    .venv/bin/python bench/variant_arena.py 600 7 1 '{"name": "heuristic"}' \\
        '{"name": "heuristic", "bomb_timing": false}'
    .venv/bin/python bench/variant_arena.py 400 13 1 \\
        '{"name": "search", "samples": 16, "budget_ms": null, "keep_z": 1.3}' \\
        '{"name": "heuristic"}' --workers 2

Plays boards FIRST .. FIRST+HANDS-1 as ``guandan arena --mode hand --seed SEED`` seeds them
(``--mode match``: each board a whole match, as ``guandan arena --mode match``), both seatings,
shared out among ``--workers`` processes, and prints the hands won by A with a 95% interval
(in match mode also the matches A won), net levels per hand and each side's time per decision
(the arena's own figures); ``--json FILE`` also writes the arena's JSON.
Give a searching player a fixed ``samples`` and ``"budget_ms": null`` for figures that repeat.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from guandan.arena import ArenaResult, Timing, play_both_seatings
from guandan.players import make_player
from guandan.players.base import Player


def build(spec: dict[str, Any], seed: int) -> Player:
    settings = {k: v for k, v in spec.items() if k != "name"}
    return make_player(spec["name"], seed=seed, **settings)


def new_result(seed: int, mode: str) -> ArenaResult:
    result = ArenaResult("A", "B", "site", mode, seed)
    result.timing = {"A": Timing(), "B": Timing()}
    return result


def run(job: tuple[dict[str, Any], dict[str, Any], int, list[int], str]) -> ArenaResult:
    """The boards ``indexes``, both seatings, as the arena seeds them."""
    a, b, seed, indexes, mode = job
    result = new_result(seed, mode)
    for index in indexes:
        play_both_seatings("site", index, result,
                           lambda side, s: build(a if side == "A" else b, s), mode)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", type=int, help="boards (two hands each)")
    ap.add_argument("seed", type=int)
    ap.add_argument("first", type=int, help="the first board")
    ap.add_argument("a", help="side A: a JSON object with the player's name and settings")
    ap.add_argument("b", help="side B, the same")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--mode", choices=("hand", "match"), default="hand")
    ap.add_argument("--json", metavar="FILE", help="also write the arena's JSON to FILE")
    args = ap.parse_args()
    a, b = json.loads(args.a), json.loads(args.b)
    t0 = time.perf_counter()
    indexes = list(range(args.first, args.first + args.hands))
    chunks = [indexes[w::args.workers] for w in range(args.workers)]
    result = new_result(args.seed, args.mode)
    if args.workers == 1:
        result = run((a, b, args.seed, indexes, args.mode))
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            for part in pool.map(run, [(a, b, args.seed, c, args.mode) for c in chunks]):
                result.absorb(part)
    j = result.to_json()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(j, f, indent=2)
    lo, hi = j["a_hand_win_ci95"]
    nlo, nhi = j["net_levels_per_hand_ci95"]
    ta, tb = j["timing"]["A"], j["timing"]["B"]
    print(f"A {args.a} vs B {args.b}, seed {args.seed}, boards {args.first}-"
          f"{args.first + args.hands - 1}: A won {100 * j['a_hand_win_rate']:.2f}% "
          f"[{100 * lo:.2f}, {100 * hi:.2f}] ({result.a_hand_wins}/{result.hands}); net "
          f"levels/hand {j['net_levels_per_hand']:+.3f} [{nlo:+.3f}, {nhi:+.3f}]; A "
          f"{ta['mean_ms']:.1f} ms mean, p95 {ta['p95_ms']:.1f} ms; B {tb['mean_ms']:.1f} ms "
          f"mean, p95 {tb['p95_ms']:.1f} ms; {time.perf_counter() - t0:.0f} s", flush=True)
    if args.mode == "match":
        vlo, vhi = j["a_final_victory_ci95"]
        print(f"A won {j['a_final_victories']} of {j['matches']} matches: "
              f"{100 * j['a_final_victory_rate']:.2f}% [{100 * vlo:.2f}, {100 * vhi:.2f}]",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
