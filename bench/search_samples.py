"""How many sampled deals the search draws within its time budget on this machine today.

    .venv/bin/python bench/search_samples.py [DEAL_SETS] [BUDGET_MS] [SEED]

Plays DEAL_SETS hands (default 3) of the arena's hand-mode deals, ``search`` (seats 1 and 3,
the given budget, default the player's own) against ``heuristic``, on the core it is given
(run it under ``taskset -c 0`` to measure one core), and prints for the decisions the search
weighed: how many sampled deals it drew, how many searches the clock stopped before their
sample limit or their own stopping rule, and at what hand sizes. The search is stronger the
more deals it weighs, so on a slow day this says how much of its strength the budget costs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from guandan.arena import ArenaResult, Timing, play_board
from guandan.match import Action, Observation
from guandan.players.base import Player, Reason
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import DEFAULT_BUDGET_MS, SearchPlayer
from guandan.seats import team_of


class Watched:
    """A search player that notes, for each decision it searched, (samples, ms, cards held)."""

    def __init__(self, player: SearchPlayer, log: list[tuple[int, float, int]]) -> None:
        self.player = player
        self.log = log
        self.name = player.name

    @property
    def reason(self) -> Reason:
        return self.player.reason

    @reason.setter
    def reason(self, value: Reason) -> None:
        self.player.reason = value

    def act(self, obs: Observation) -> Action:
        t0 = time.perf_counter()
        action = self.player.act(obs)
        ms = (time.perf_counter() - t0) * 1000.0
        if self.player.last_samples:
            self.log.append((self.player.last_samples, ms, len(obs.hand)))
        return action


def main() -> int:
    deal_sets = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_BUDGET_MS
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    result = ArenaResult("search", "heuristic", "site", "hand", seed)
    result.timing = {"search": Timing(), "heuristic": Timing()}
    log: list[tuple[int, float, int]] = []
    seating = {"13": "search", "24": "heuristic"}
    for index in range(1, deal_sets + 1):
        players: dict[int, Player] = {}
        for seat in (1, 2, 3, 4):
            if seating[team_of(seat)] == "search":
                players[seat] = Watched(SearchPlayer(seed=seat, budget_ms=budget), log)
            else:
                players[seat] = HeuristicPlayer(seed=seat)
        play_board("site", seed, index, seating, players, result, "hand", 1, None)
    if not log:
        print("no decision was searched")
        return 1
    cut = [entry for entry in log if entry[1] >= budget]
    bins = Counter(min(n // 8 * 8, 64) for n, _, _ in log)
    print(f"budget {budget:.0f} ms, {deal_sets} hands, {len(log)} searched decisions")
    print(f"  sampled deals: mean {statistics.mean(n for n, _, _ in log):.1f}, "
          f"by eights {sorted(bins.items())}")
    print(f"  stopped by the clock: {len(cut)} ({100.0 * len(cut) / len(log):.0f}%), "
          f"after {statistics.mean(n for n, _, _ in cut) if cut else 0:.1f} deals on average")
    sizes = Counter(cards // 5 * 5 for _, _, cards in cut)
    print(f"  stopped by the clock, by cards held (fives): {sorted(sizes.items())}")
    times = sorted(ms for _, ms, _ in log)
    print(f"  time per searched decision: mean {statistics.mean(times):.1f} ms, "
          f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
