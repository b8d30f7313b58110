"""Screen settings of the search player against the heuristic (a tuning aid).

    .venv/bin/python bench/search_tune.py HANDS SEED WORKERS '{"win_weight": 1.0}' [...]

Plays hand-mode duplicate deal sets, like ``guandan arena --mode hand``, with a SearchPlayer
built from each JSON object of keyword arguments (A) against the heuristic (B). The deal sets
are shared out among WORKERS processes. Prints hands won by A with a 95% interval, levels per
hand, and the search's time per decision.
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from guandan.arena import ArenaResult, Timing, mean_interval, play_deal_set, wilson
from guandan.players.base import Player
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer
from guandan.seats import team_of


def run(args: tuple[dict[str, Any], int, list[int]]) -> tuple[int, int, list[float],
                                                                list[float], list[float]]:
    kwargs, seed, indexes = args
    result = ArenaResult("search", "heuristic", "site", "hand", seed)
    result.timing = {"search": Timing(), "heuristic": Timing()}
    for index in indexes:
        for flip in (0, 1):
            seating = ({"13": "search", "24": "heuristic"} if flip == 0
                       else {"13": "heuristic", "24": "search"})
            players: dict[int, Player] = {}
            for seat in (1, 2, 3, 4):
                s = seed * 1000 + index * 4 + seat
                if seating[team_of(seat)] == "search":
                    players[seat] = SearchPlayer(seed=s, **kwargs)
                else:
                    players[seat] = HeuristicPlayer(seed=s)
            play_deal_set("site", seed, index, seating, players, result, "hand", 1, None)
    return (result.a_hand_wins, result.hands, result.a_gain, result.b_gain,
            result.timing["search"].times)


def main() -> int:
    hands, seed, workers = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    for spec in sys.argv[4:]:
        kwargs = json.loads(spec)
        t0 = time.perf_counter()
        chunks = [list(range(w + 1, hands + 1, workers)) for w in range(workers)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(run, [(kwargs, seed, c) for c in chunks]))
        wins = sum(p[0] for p in parts)
        n = sum(p[1] for p in parts)
        a_gain = [x for p in parts for x in p[2]]
        b_gain = [x for p in parts for x in p[3]]
        times = sorted(x for p in parts for x in p[4])
        lo, hi = wilson(wins, n)
        net = [a - b for a, b in zip(a_gain, b_gain, strict=True)]
        m, nlo, nhi = mean_interval(net)
        p95 = times[int(0.95 * (len(times) - 1))] * 1000 if times else 0.0
        mean_t = sum(times) / len(times) * 1000 if times else 0.0
        print(f"{spec}: hands won {100 * wins / n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}] "
              f"({wins}/{n}); net levels/hand {m:+.3f} [{nlo:+.3f}, {nhi:+.3f}]; "
              f"search {mean_t:.1f} ms mean, p95 {p95:.1f} ms; "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
