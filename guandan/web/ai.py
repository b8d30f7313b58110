"""The AI's thinking for the web game: worker processes, replaced when one dies, and a
thinking budget that shrinks with the load.

A decision is ``(player name, seat, observation)`` in, ``(action, reason)`` out: the players
keep nothing between decisions that changes what they choose (the search draws its deals from
its seed and the observation), so any worker can make any decision, and one made again is the
same one.

- **A dead worker** (killed, out of memory) breaks a ``ProcessPoolExecutor`` for good: the pool
  is then replaced by a new one, the log says so, and the decision is made again there. It is
  never quietly made by another player: should the player itself fail (a bug), ``greedy``
  decides that one action and the answer says so (``played_by``), as does the log.
- **Load** (``AIPool.plan``): a player that searches (``search``) thinks for ``budget_ms``
  (260 ms) a decision, less with a queue (``target / (1 + decisions in flight per worker)``),
  as long as the workers have the time: each search is charged what searches have really
  taken lately at that budget (the clock, the time around the sampling, the CPU the workers
  get on a shared machine), against ``UTILISATION`` of the workers' time, and settled with
  what it took. A search that does not fit, or would get less than ``MIN_SEARCH_MS`` (a short
  search is no better than the heuristic), or meets a long queue, is the heuristic's (the
  search's own first choice, about 0.3 ms), made in the server's process at once: no queue,
  no copying to a worker. So under load some decisions are searched in full and the others
  are the heuristic's; ``stats`` says how many of each. A decision that waited in a worker's
  queue past its deadline is the heuristic's too.
- **Workers watch their parent**: each one ends itself when the server's process is gone
  (a ``kill -9`` of the server leaves no worker behind).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing as mp
import os
import threading
import time
from collections import Counter, deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal

from guandan.match import Action, Observation
from guandan.players import Player, Reason, make_player, player_settings
from guandan.readings import Reading

log = logging.getLogger("guandan.web")

#: The search's own budget per decision when the server is idle (ms).
DEFAULT_BUDGET_MS = 260.0
#: The time within which an AI decision should be answered, queue included (s).
#: 0.8 s leaves room under the page's 1.5 s for the request's own time around the decision.
DEFAULT_TARGET_S = 0.8
#: Below this budget the search is not worth its cost: with 8 sampled deals (about 45 ms) it
#: won 47.0% [42.2, 51.9] of 400 duplicate hands against the heuristic (``bench/web_load.md``).
MIN_SEARCH_MS = 100.0
#: The share of the workers' time that searches may fill: the rest absorbs the bursts, so
#: the queue stays short.
UTILISATION = 0.7
#: What a search costs around its sampling (its tracker and views), first guess (ms).
SEARCH_BASE_MS = 4.0
#: The window over which the searches asked for per second are counted (s).
RATE_WINDOW = 5.0
#: Players cheap enough to decide in the server's process when the queue is long (each well
#: under a millisecond a decision: ``docs/ai-notebook.md``).
CHEAP = frozenset({"random", "greedy", "heuristic"})
#: The player a search falls back to under load.
FALLBACK = "heuristic"
#: A queue this many decisions per worker deep is long: further decisions do not join it.
QUEUE_LONG = 2.0

Mode = Literal["search", "heuristic", "worker", "inline"]


class AIUnavailable(Exception):
    """The AI could not decide (its workers keep dying): nothing was played."""


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: Reason
    played_by: str  # the player that decided (the heuristic under load; greedy if one failed)
    budget_ms: float  # the thinking time it was given


@functools.cache
def takes_budget(name: str) -> bool:
    """Whether the player called ``name`` thinks for a time budget (the search)."""
    try:
        return "budget_ms" in player_settings(name)
    except ValueError:
        return False


# -- in a worker ---------------------------------------------------------------------------------

#: The players of this thread (a worker has one; with no workers, the server's threads would
#: otherwise share a player's budget and reason between two games deciding at once).
_local = threading.local()


def _players() -> dict[tuple[str, int], Player]:
    players: dict[tuple[str, int], Player] | None = getattr(_local, "players", None)
    if players is None:
        players = _local.players = {}
    return players


#: What ``think`` answers: the action, its reason, the player that decided, the budget it had,
#: and the time the decision took (ms): by the clock, and of the CPU.
Thought = tuple[Action, Reason, str, float, float, float]


def think(name: str, seat: int, obs: Observation, budget_ms: float,
          deadline: float) -> Thought:
    """One decision (in a worker, or in the server). A player with a budget that has less than
    ``MIN_SEARCH_MS`` left before ``deadline`` (it waited in the queue) leaves it to the
    heuristic."""
    wall, cpu = time.perf_counter(), time.thread_time()
    left = (deadline - time.time()) * 1000.0
    budget = max(0.0, min(budget_ms, left))
    if takes_budget(name) and budget < MIN_SEARCH_MS:
        name, budget = FALLBACK, 0.0
    try:
        players = _players()
        player = players.get((name, seat))
        if player is None:
            player = players[(name, seat)] = make_player(name, seed=seat)
        if hasattr(player, "budget_ms"):
            player.budget_ms = budget
        action = player.act(obs)
        if action in obs.legal_actions or isinstance(action, Reading):
            return (action, player.reason, name, budget,
                    (time.perf_counter() - wall) * 1000.0, (time.thread_time() - cpu) * 1000.0)
        log.error("player %s chose an illegal action at seat %d; greedy acts instead",
                  name, seat)
    except Exception:
        log.exception("player %s failed at seat %d; greedy acts instead", name, seat)
    fallback = make_player("greedy", seed=seat)
    return (fallback.act(obs), fallback.reason, "greedy", budget,
            (time.perf_counter() - wall) * 1000.0, (time.thread_time() - cpu) * 1000.0)


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:  # the parent is gone: so is this process
            os._exit(0)


def end_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the process that started it) dies, even by kill -9:
    ``PR_SET_PDEATHSIG`` where Linux has it, and a thread watching the parent's pid."""
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(0)


def _worker_start(parent: int) -> None:
    """A worker's start: a lower CPU priority (people's requests first), and its end with
    the server's."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    end_with_parent(parent)


# -- in the server -------------------------------------------------------------------------------


class AIPool:
    """Decisions made in ``workers`` processes (0: in a thread of the server's process)."""

    def __init__(self, workers: int, budget_ms: float = DEFAULT_BUDGET_MS,
                 target_s: float = DEFAULT_TARGET_S) -> None:
        self.workers = workers
        self.budget_ms = budget_ms
        self.target_s = target_s
        self.in_flight = 0  # decisions sent to the workers (or threads), not yet answered
        self.replaced = 0  # pools replaced after a worker died
        self._lock = threading.Lock()
        self._executor: Executor | None = self._new_executor() if workers > 0 else None
        self._asked: deque[float] = deque()  # when each recent search was asked for
        # Recent searches (moving sums): the time planned (budget + base), the time they took
        # by the clock and of the CPU; forgotten when none was made for a while (the load may
        # have changed: the next searches measure it again).
        self._planned = self._wall = self._cpu = 1.0
        self._measured = 0.0
        self._time = max(1, workers) * 1000.0  # the workers' time left for searches (ms)
        self._refilled = time.monotonic()
        self.counts: Counter[str] = Counter()  # decisions by how they were made (all time)
        self._recent: deque[tuple[str, float]] = deque(maxlen=500)  # (mode, budget)

    def _new_executor(self) -> Executor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=mp.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))

    @property
    def stretch(self) -> float:
        """What a search really takes over what it was planned to take (budget + base), lately:
        less when it stops early (few plays to weigh), more when the workers lack CPU."""
        return min(10.0, max(0.1, self._wall / self._planned))

    @property
    def cpu_share(self) -> float:
        """The CPU a thinking worker got, per second of its clock, lately."""
        return min(1.0, self._cpu / self._wall)

    def _rate(self, now: float) -> float:
        """Searches asked for per second, lately."""
        while self._asked and self._asked[0] < now - RATE_WINDOW:
            self._asked.popleft()
        if not self._asked:
            return 0.0
        return len(self._asked) / max(1.0, min(RATE_WINDOW, now - self._asked[0]))

    def budget(self) -> float:
        """The budget of a search asked for now (ms): shorter the longer the queue."""
        workers = max(1, self.workers)
        return min(self.budget_ms, self.target_s * 1000.0 / (1.0 + self.in_flight / workers))

    def _refill(self, now: float) -> None:
        """The workers' time for searches (ms), accrued since the last look: ``UTILISATION``
        of each worker's second, kept for at most a second."""
        workers = max(1, self.workers)
        self._time = min(workers * 1000.0,
                         self._time + (now - self._refilled) * UTILISATION * workers * 1000.0)
        self._refilled = now

    def plan(self, name: str, now: float | None = None) -> tuple[Mode, float, float]:
        """How a decision of ``name`` asked for now is made, with its budget and the workers'
        time it was charged (ms): ``search`` (in a worker), ``heuristic`` (a search left to
        the heuristic, here and now), ``worker`` (a player without a budget, in a worker) or
        ``inline`` (a cheap one, here, the queue being long).

        A search is charged what one has really taken lately at its budget (``stretch``) and
        made only while the workers' time covers it: the searches made are full ones, as
        many as the workers can take, and the others the heuristic's."""
        now = time.monotonic() if now is None else now
        queue_long = self.in_flight >= QUEUE_LONG * max(1, self.workers)
        if not takes_budget(name):
            return ("inline", 0.0, 0.0) if queue_long and name in CHEAP else ("worker", 0.0, 0.0)
        self._asked.append(now)
        self._rate(now)  # forget the searches asked for before the window
        self._refill(now)
        if now - self._measured > RATE_WINDOW:  # an old measure: measure again
            self._planned = self._wall = self._cpu = 1.0
        budget = self.budget()
        cost = (budget + SEARCH_BASE_MS) * self.stretch
        if queue_long or budget < MIN_SEARCH_MS or self._time < cost:
            return "heuristic", 0.0, 0.0
        self._time -= cost
        return "search", budget, cost

    def stats(self) -> dict[str, Any]:
        """How loaded the AI is, and how strongly it played lately: the share of the recent
        searching players' decisions that were searched, and their budgets."""
        recent = [(m, b) for m, b in self._recent if m in ("search", "heuristic")]
        searched = [b for m, b in recent if m == "search"]
        return {"workers": self.workers, "in_flight": self.in_flight,
                "budget_ms": round(self.budget(), 1),
                "searches_per_s": round(self._rate(time.monotonic()), 1),
                "search_time_left_ms": round(self._time, 1),
                "recent_budget_ms": round(sum(b for _, b in recent) / len(recent), 1)
                if recent else None,
                "recent_searched_share": round(len(searched) / len(recent), 3)
                if recent else None,
                "recent_search_budget_ms": round(sum(searched) / len(searched), 1)
                if searched else None,
                "decisions": dict(self.counts), "stretch": round(self.stretch, 2),
                "worker_cpu_share": round(self.cpu_share, 2), "pools_replaced": self.replaced}

    def _replace(self, broken: Executor) -> Executor:
        with self._lock:
            if self._executor is broken:
                log.warning("an AI worker process died: the pool of %d workers is replaced",
                            self.workers)
                broken.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new_executor()
                self.replaced += 1
            assert self._executor is not None
            return self._executor

    async def decide(self, name: str, seat: int, obs: Observation) -> Decision:
        mode, budget, charged = self.plan(name)
        deadline = time.time() + self.target_s
        if mode in ("heuristic", "inline"):
            # The cheap players decide at once, on the event loop: a fraction of a
            # millisecond, less than sending the decision to a worker would cost.
            result = think(FALLBACK if mode == "heuristic" else name, seat, obs, 0.0, deadline)
        else:
            self.in_flight += 1
            try:
                if self._executor is None:
                    result = await asyncio.to_thread(think, name, seat, obs, budget, deadline)
                else:
                    result = await self._in_worker(name, seat, obs, budget, deadline)
            finally:
                self.in_flight -= 1
        action, reason, played_by, used, wall, cpu = result
        if mode == "search" and played_by != name:
            mode = "heuristic"  # it waited past its deadline (or failed: greedy decided)
        if charged:  # the time charged for the search, settled with what it took
            self._time += charged - (wall if mode == "search" else 0.0)
        if mode == "search":
            k = 0.95
            self._planned = k * self._planned + (1 - k) * (used + SEARCH_BASE_MS)
            self._wall = k * self._wall + (1 - k) * wall
            self._cpu = k * self._cpu + (1 - k) * cpu
            self._measured = time.monotonic()
        self.counts[mode] += 1
        self._recent.append((mode, used))
        return Decision(action, reason, played_by, used)

    async def _in_worker(self, name: str, seat: int, obs: Observation, budget: float,
                         deadline: float) -> Thought:
        for _ in range(3):
            executor = self._executor
            if executor is None:  # shut down: the server is stopping
                break
            try:
                fut = executor.submit(think, name, seat, obs, budget, deadline)
                return await asyncio.wait_for(asyncio.wrap_future(fut), timeout=120)
            except (BrokenProcessPool, TimeoutError):  # a worker died, or is stuck
                self._replace(executor)
                deadline = time.time() + self.target_s  # the lost time is not its fault
        raise AIUnavailable("the AI's workers keep failing: nothing was played")

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None
