"""The search's time per decision on this machine today, and the sampled deals it draws in it.

    taskset -c 0 .venv/bin/python bench/decision_time.py [DEAL_SETS] [BUDGET_MS] [SEED]

Plays DEAL_SETS hand-mode boards (default 4, both seatings, as ``guandan arena --mode hand
--seed SEED`` deals them) of ``search`` at the time budget BUDGET_MS (default the player's own,
as on the page) against ``heuristic``, and prints for each side the mean and 95th percentile of
the wall time and of the CPU time of ``act``; for the decisions the search weighed, how many
sampled deals it drew, how many searches the clock stopped before their sample limit or their
own stopping rule, and at what hand sizes.

On a loaded machine the wall time counts the waits for a core and the CPU time does not, so the
two tell the code's cost from the machine's load (the search stops by the wall clock, so its
CPU time is at most its wall time). The search is stronger the more deals it weighs, so on a
slow day this says how much of its strength the budget costs. Run it under ``taskset -c 0`` to
measure one core.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from guandan.arena import ArenaResult, Timing, play_both_seatings
from guandan.match import Action, Observation
from guandan.players.base import Player, Reason
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import DEFAULT_BUDGET_MS, SearchPlayer


class Timed:
    """A player whose every ``act`` is timed (wall and CPU); for a search, each decision it
    weighed is noted as (sampled deals, wall ms, cards held)."""

    def __init__(self, inner: Player, wall: list[float], cpu: list[float],
                 searched: list[tuple[int, float, int]]) -> None:
        self.inner, self.wall, self.cpu, self.searched = inner, wall, cpu, searched
        self.name = inner.name

    @property
    def reason(self) -> Reason:
        return self.inner.reason

    def act(self, obs: Observation) -> Action:
        w, c = time.perf_counter(), time.process_time()
        action = self.inner.act(obs)
        cpu, wall = time.process_time() - c, time.perf_counter() - w
        self.cpu.append(cpu)
        self.wall.append(wall)
        if isinstance(self.inner, SearchPlayer) and self.inner.last_samples:
            self.searched.append((self.inner.last_samples, 1000.0 * wall, len(obs.hand)))
        return action


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))] if s else 0.0


def main() -> int:
    sets = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_BUDGET_MS
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    times: dict[str, tuple[list[float], list[float]]] = {"search": ([], []),
                                                          "heuristic": ([], [])}
    searched: list[tuple[int, float, int]] = []
    result = ArenaResult("search", "heuristic", "site", "hand", seed)
    result.timing = {"search": Timing(), "heuristic": Timing()}

    def build(side: str, s: int) -> Player:
        inner: Player = (SearchPlayer(seed=s, budget_ms=budget) if side == "search"
                         else HeuristicPlayer(s))
        return Timed(inner, *times[side], searched)  # type: ignore[return-value]

    for index in range(1, sets + 1):
        play_both_seatings("site", index, result, build)
    print(f"budget {budget:.0f} ms, {sets} boards (seed {seed}), both seatings")
    for name, (wall, cpu) in times.items():
        print(f"{name}: {len(wall)} decisions; wall mean {1000 * statistics.mean(wall):.2f} ms, "
              f"p95 {1000 * p95(wall):.2f} ms; CPU mean {1000 * statistics.mean(cpu):.2f} ms, "
              f"p95 {1000 * p95(cpu):.2f} ms")
    if not searched:
        print("no decision was searched")
        return 1
    cut = [entry for entry in searched if entry[1] >= budget]
    bins = Counter(min(n // 8 * 8, 64) for n, _, _ in searched)
    print(f"searched decisions: {len(searched)}; sampled deals: mean "
          f"{statistics.mean(n for n, _, _ in searched):.1f}, by eights {sorted(bins.items())}")
    print(f"  stopped by the clock: {len(cut)} ({100.0 * len(cut) / len(searched):.0f}%), "
          f"after {statistics.mean(n for n, _, _ in cut) if cut else 0:.1f} deals on average")
    sizes = Counter(cards // 5 * 5 for _, _, cards in cut)
    print(f"  stopped by the clock, by cards held (fives): {sorted(sizes.items())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
