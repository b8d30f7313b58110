"""The arena's boards shared out among worker processes.

A board's cards and players' seeds depend only on its index, so each seating of each board is
played on its own in a worker (``duplicate.play_seating``) and the parent merges the results in
index order, stopping where the one-process loop stops: the figures and the hand records are the
same as with one worker (for players whose choices do not depend on the clock, unlike
``search`` with its time budget), only the decision times differ.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import IO

from guandan.arena.duplicate import play_seating
from guandan.arena.stats import ArenaResult


def play_boards_in_pool(
    result: ArenaResult,
    hands: int,
    out: IO[str] | None,
    max_hands: int,
    progress: Callable[[int], None] | None,
    workers: int,
    pool: Executor | None = None,
) -> None:
    """``play_boards`` in ``workers`` processes: each seating of each board a task for ``workers``
    processes (or for ``pool``'s ``workers``: a Ray cluster's, :mod:`guandan.raypool`); results
    are merged in index order and the run stops where the serial loop does."""
    a, b, rules, mode, seed = result.a, result.b, result.rules, result.mode, result.seed
    samples = result.samples
    window = 4 * workers  # tasks submitted and not merged yet
    pending: dict[tuple[int, int], Future[tuple[ArenaResult, str]]] = {}  # in index order
    merged = [0, 0]  # hands merged per seating
    next_index = result.first
    if pool is None:
        pool = ProcessPoolExecutor(max_workers=workers,
                                   mp_context=multiprocessing.get_context("spawn"))
    try:
        while True:
            # Merge the finished tasks at the head, in index order, and stop after a board
            # exactly where the serial loop stops.
            while pending:
                (index, flip), fut = next(iter(pending.items()))
                if not fut.done():
                    break
                part, text = fut.result()
                del pending[(index, flip)]
                result.absorb(part)
                if out is not None:
                    out.write(text)
                merged[flip] += part.hands
                if progress is not None:
                    progress(part.hands)
                if flip == 1:
                    result.boards = index - result.first + 1
                    if min(merged) >= hands:
                        return
            # Submit the next boards while the serial loop may still reach them: each seating
            # of a board plays at least one hand, so `bound` never exceeds the hands played
            # before board `next_index`; once it reaches `hands`, no later board counts.
            while len(pending) < window:
                bound = list(merged)
                for (_, flip), fut in pending.items():
                    done = fut.done() and fut.exception() is None
                    bound[flip] += fut.result()[0].hands if done else 1
                if min(bound) >= hands:
                    break
                for flip in (0, 1):
                    pending[(next_index, flip)] = pool.submit(
                        play_seating, a, b, rules, seed, next_index, flip, mode, max_hands,
                        out is not None, samples)
                next_index += 1
            wait([f for f in pending.values() if not f.done()], return_when=FIRST_COMPLETED)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
