"""The AI's thinking for the web game: worker processes, replaced when one dies, and a
thinking budget that shrinks with the queue.

A decision is ``(player name, seat, observation)`` in, ``(action, reason)`` out: the players
keep nothing between decisions that changes what they choose (the search draws its deals from
its seed and the observation), so any worker can make any decision, and one made again is the
same one.

- **A dead worker** (killed, out of memory) breaks a ``ProcessPoolExecutor`` for good: the pool
  is then replaced by a new one, the log says so, and the decision is made again there. It is
  never quietly made by another player: should the player itself fail (a bug), ``greedy``
  decides that one action and the answer says so (``played_by``), as does the log.
- **Load**: a decision may think for at most ``budget_ms`` (the search's 260 ms), shrunk so
  that the answer comes within ``target_s`` with the queue ahead of it: the budget is
  ``target / (1 + decisions in flight per worker)``, and a decision that waited in the queue
  past its deadline thinks as little as the player can (the search: two sampled deals).
- **Workers watch their parent**: each one ends itself when the server's process is gone
  (a ``kill -9`` of the server leaves no worker behind).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing as mp
import os
import threading
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from guandan.match import Action, Observation
from guandan.players import Player, Reason, make_player
from guandan.readings import Reading

log = logging.getLogger("guandan.web")

#: The search's own budget per decision when the server is idle (ms).
DEFAULT_BUDGET_MS = 260.0
#: The time within which an AI decision should be answered, queue included (s).
#: 0.8 s leaves room under the page's 1.5 s for the request's own time around the decision.
DEFAULT_TARGET_S = 0.8


class AIUnavailable(Exception):
    """The AI could not decide (its workers keep dying): nothing was played."""


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: Reason
    played_by: str  # the player that decided (another only if the game's player failed)
    budget_ms: float  # the thinking time it was given


# -- in a worker ---------------------------------------------------------------------------------

#: The players of this thread (a worker has one; with no workers, the server's threads would
#: otherwise share a player's budget and reason between two games deciding at once).
_local = threading.local()


def _players() -> dict[tuple[str, int], Player]:
    players: dict[tuple[str, int], Player] | None = getattr(_local, "players", None)
    if players is None:
        players = _local.players = {}
    return players


def think(name: str, seat: int, obs: Observation, budget_ms: float,
          deadline: float) -> tuple[Action, Reason, str, float]:
    """One decision (in a worker, or in the server with no workers)."""
    left = (deadline - time.time()) * 1000.0
    budget = max(0.0, min(budget_ms, left))
    try:
        players = _players()
        player = players.get((name, seat))
        if player is None:
            player = players[(name, seat)] = make_player(name, seed=seat)
        if hasattr(player, "budget_ms"):
            player.budget_ms = budget
        action = player.act(obs)
        if action in obs.legal_actions or isinstance(action, Reading):
            return action, player.reason, name, budget
        log.error("player %s chose an illegal action at seat %d; greedy acts instead",
                  name, seat)
    except Exception:
        log.exception("player %s failed at seat %d; greedy acts instead", name, seat)
    fallback = make_player("greedy", seed=seat)
    return fallback.act(obs), fallback.reason, "greedy", budget


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
        self.in_flight = 0
        self.replaced = 0  # pools replaced after a worker died
        self._lock = threading.Lock()
        self._executor: Executor | None = self._new_executor() if workers > 0 else None
        self._budgets: deque[float] = deque(maxlen=200)

    def _new_executor(self) -> Executor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=mp.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))

    def budget(self) -> float:
        """The budget of a decision asked for now: shorter the more are in flight."""
        per_worker = self.in_flight / max(1, self.workers)
        return min(self.budget_ms, self.target_s * 1000.0 / (1.0 + per_worker))

    def stats(self) -> dict[str, Any]:
        recent = list(self._budgets)
        return {"workers": self.workers, "in_flight": self.in_flight,
                "budget_ms": round(self.budget(), 1),
                "recent_budget_ms": round(sum(recent) / len(recent), 1) if recent else None,
                "pools_replaced": self.replaced}

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
        budget = self.budget()
        deadline = time.time() + self.target_s
        self.in_flight += 1
        try:
            if self._executor is None:
                result = await asyncio.to_thread(think, name, seat, obs, budget, deadline)
            else:
                result = await self._in_worker(name, seat, obs, budget, deadline)
        finally:
            self.in_flight -= 1
        action, reason, played_by, used = result
        self._budgets.append(used)
        return Decision(action, reason, played_by, used)

    async def _in_worker(self, name: str, seat: int, obs: Observation, budget: float,
                         deadline: float) -> tuple[Action, Reason, str, float]:
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
