"""Time per decision, wall clock and this process's CPU time, of search against heuristic.

    .venv/bin/python bench/decision_cpu.py [DEAL_SETS] [SEED]

Plays DEAL_SETS hand-mode deal sets (default 4, both seatings) of ``search`` (its default time
budget) against ``heuristic`` and prints, for each, the mean and 95th percentile of the wall
time and of the CPU time of ``act``. On a loaded machine the wall time counts the waits for a
core; the CPU time does not, so it tells the code's cost from the machine's load (the search
stops by the wall clock, so its CPU time is at most its wall time).
"""

from __future__ import annotations

import sys
import time

from guandan.arena import ArenaResult, Timing, play_both_seatings
from guandan.match import Action, Observation
from guandan.players.base import Player, Reason
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer


class Timed:
    """A player whose every ``act`` is timed (wall and CPU)."""

    def __init__(self, inner: Player, wall: list[float], cpu: list[float]) -> None:
        self.inner, self.wall, self.cpu = inner, wall, cpu
        self.name = inner.name

    @property
    def reason(self) -> Reason:
        return self.inner.reason

    def act(self, obs: Observation) -> Action:
        w, c = time.perf_counter(), time.process_time()
        a = self.inner.act(obs)
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)
        return a


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))] if s else 0.0


def main() -> int:
    sets = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    times: dict[str, tuple[list[float], list[float]]] = {"search": ([], []),
                                                          "heuristic": ([], [])}
    result = ArenaResult("search", "heuristic", "site", "hand", seed)
    result.timing = {"search": Timing(), "heuristic": Timing()}
    def build(side: str, s: int) -> Player:
        inner: Player = SearchPlayer(seed=s) if side == "search" else HeuristicPlayer(s)
        return Timed(inner, *times[side])  # type: ignore[return-value]

    for index in range(1, sets + 1):
        play_both_seatings("site", index, result, build)
    for name, (wall, cpu) in times.items():
        print(f"{name}: {len(wall)} decisions; wall mean {1000 * sum(wall) / len(wall):.2f} ms, "
              f"p95 {1000 * p95(wall):.2f} ms; CPU mean {1000 * sum(cpu) / len(cpu):.2f} ms, "
              f"p95 {1000 * p95(cpu):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
