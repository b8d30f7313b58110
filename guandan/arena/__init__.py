"""The arena: two players against each other in duplicate, with statistics.

``run_arena("search", "heuristic", hands=200, mode="hand", samples=16)`` plays boards (each
deal played twice, the teams swapped: :mod:`guandan.arena.duplicate`) until each seating has
played ``hands`` hands, in one process or shared among workers (:mod:`guandan.arena.pool`), and
returns an ``ArenaResult`` (:mod:`guandan.arena.stats`): for player A (B is the complement) the
share of hands won, the share of finished matches won (final victories), the levels gained per
hand by each team and their difference, each with a 95% interval (Wilson for shares, normal
for means), and the time per decision of each player. ``guandan arena`` (:mod:`guandan.cli`)
is its command line; :mod:`guandan.host.arena` seats outside programs on one side.

A *duplicate hand* is one hand number of one board played in both seatings, so ``hands=N``
plays at least ``N`` hands in each seating, ``2N`` in all, and stops at the end of a board.
``first`` starts at board N, so a long run can be played in parts that together play exactly
the boards of the whole. ``samples`` makes every player that searches draw exactly that many
sampled deals per decision and ignore its clock: the figures (not the times) are then the same
on any machine and with any number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from typing import IO

from guandan.arena.duplicate import (
    board_players,
    new_result,
    play_board,
    play_boards,
    play_both_seatings,
    samples_problem,
    search_settings,
    searches,
    seat_seed,
    seating_of,
)
from guandan.arena.pool import play_boards_in_pool
from guandan.arena.stats import ArenaResult, Timing, mean_interval, wilson
from guandan.players import REGISTRY


def run_arena(
    a: str,
    b: str,
    rules: str = "site",
    hands: int = 100,
    seed: int = 0,
    out: IO[str] | None = None,
    mode: str = "match",
    max_hands: int = 60,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    samples: int | None = None,
    first: int = 1,
    pool: Executor | None = None,
) -> ArenaResult:
    """Play ``a`` against ``b`` in duplicate until each seating has played ``hands`` hands.

    ``progress`` is called with the number of hands just played. ``workers`` > 1 plays the deal
    sets in that many processes (players are looked up in ``REGISTRY`` as imported there), with
    the same figures and records as one worker; only the decision times differ. ``samples``
    makes the players that search draw that many deals per decision, with no clock. ``first``
    is the index of the first board: a long run may be played in parts (boards 1-1000,
    then ``first=1001``), each part playing what the whole run plays there. ``pool`` (with a
    ``workers`` count: :class:`guandan.raypool.RayPool`) plays the boards instead of
    ``workers`` local processes, with the same figures and records.
    """
    if mode not in ("match", "hand"):
        raise ValueError(f"mode is 'match' or 'hand', not {mode!r}")
    for name in (a, b):
        if name not in REGISTRY:
            raise ValueError(f"unknown player {name!r} (known: {', '.join(sorted(REGISTRY))})")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if first < 1:
        raise ValueError(f"boards are numbered from 1, so first cannot be {first}")
    problem = samples_problem(samples, a, b)
    if problem is not None:
        raise ValueError(problem)
    result = new_result(a, b, rules, mode, seed, samples, first)
    if pool is not None:
        play_boards_in_pool(result, hands, out, max_hands, progress,
                            getattr(pool, "workers", 1), pool)
        return result
    if workers > 1 and hands > 0:
        play_boards_in_pool(result, hands, out, max_hands, progress, workers)
        return result
    play_boards(result, hands, out, max_hands, progress)
    return result


__all__ = [
    "ArenaResult",
    "Timing",
    "board_players",
    "mean_interval",
    "new_result",
    "play_board",
    "play_boards",
    "play_boards_in_pool",
    "play_both_seatings",
    "run_arena",
    "samples_problem",
    "search_settings",
    "searches",
    "seat_seed",
    "seating_of",
    "wilson",
]
