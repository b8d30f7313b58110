"""Screen settings of the search player against the heuristic (a tuning aid).

    .venv/bin/python bench/search_tune.py HANDS SEED WORKERS '{"win_weight": 1.0}' [...]

Plays hand-mode duplicate deal sets, like ``guandan arena --mode hand``, with a SearchPlayer
built from each JSON object of keyword arguments (A) against the heuristic (B). The deal sets
are shared out among WORKERS processes. Prints hands won by A with a 95% interval, net levels
per hand, and the search's time per decision (the arena's own figures).
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from guandan.arena import ArenaResult, Timing, play_both_seatings
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer


def _result(seed: int) -> ArenaResult:
    result = ArenaResult("search", "heuristic", "site", "hand", seed)
    result.timing = {"search": Timing(), "heuristic": Timing()}
    return result


def run(args: tuple[dict[str, Any], int, list[int]]) -> ArenaResult:
    """The deal sets ``indexes``, both seatings, as the arena seeds them."""
    kwargs, seed, indexes = args
    result = _result(seed)
    for index in indexes:
        play_both_seatings("site", index, result, lambda side, s: (
            SearchPlayer(seed=s, **kwargs) if side == "search" else HeuristicPlayer(seed=s)))
    return result


def main() -> int:
    hands, seed, workers = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    for spec in sys.argv[4:]:
        kwargs = json.loads(spec)
        t0 = time.perf_counter()
        chunks = [list(range(w + 1, hands + 1, workers)) for w in range(workers)]
        result = _result(seed)
        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(run, [(kwargs, seed, c) for c in chunks]):
                result.absorb(part)
        j = result.to_json()
        lo, hi = j["a_hand_win_ci95"]
        nlo, nhi = j["net_levels_per_hand_ci95"]
        t = j["timing"]["search"]
        print(f"{spec}: hands won {100 * j['a_hand_win_rate']:.2f}% [{100 * lo:.2f}, "
              f"{100 * hi:.2f}] ({result.a_hand_wins}/{result.hands}); net levels/hand "
              f"{j['net_levels_per_hand']:+.3f} [{nlo:+.3f}, {nhi:+.3f}]; search "
              f"{t['mean_ms']:.1f} ms mean, p95 {t['p95_ms']:.1f} ms; "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
