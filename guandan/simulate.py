"""``guandan simulate``'s games: whole matches between four players, one after another.

A run seeded ``S`` plays match 1, 2, … of seed ``S`` (a match that reaches final victory is
followed by the next) until it has ``hands`` hand records. Each match is played on its own:
its deals depend on the seed and its number, and its players are made for it, seeded by the
seed, the match number and the seat (:func:`player_seed`). So the matches can be shared out
among processes (``--workers``) or a Ray cluster's workers (``--ray``, :mod:`guandan.raypool`)
and their records merged in match order: the same records as one process writes, for players
that do not play by the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from guandan.match import Match
from guandan.players import make_player


def player_seed(seed: int, seat: int, match_number: int = 1) -> int:
    """The seed of the player at ``seat`` in match ``match_number`` of a run seeded ``seed``."""
    return (seed * 1_000_000 + match_number) * 4 + seat


def play_match(rules: str, seed: int, match_number: int, bots: Sequence[str],
               limit: int) -> list[dict[str, Any]]:
    """The hand records of match ``match_number`` of seed ``seed`` played by ``bots`` (seat 1
    first), to final victory or ``limit`` hands, whichever comes first (the first hands of a
    match do not depend on ``limit``)."""
    players = {seat: make_player(name, seed=player_seed(seed, seat, match_number))
               for seat, name in zip((1, 2, 3, 4), bots, strict=True)}
    match = Match(rules, seed=seed, match_number=match_number)
    while match.to_act is not None and len(match.records) < limit:
        seat = match.to_act
        match.apply(players[seat].act(match.observation(seat)))
    return list(match.records[:limit])


def _check(bots: Sequence[str]) -> None:
    if len(bots) != 4:
        raise ValueError(f"name four players, one per seat, not {len(bots)}")


def simulate(rules: str, hands: int, seed: int, bots: Sequence[str]) -> Iterator[dict[str, Any]]:
    """Hand records of whole matches played by ``bots`` (seat 1 first), ``hands`` of them.

    A match that reaches final victory is followed by a new one (match number + 1).

    >>> recs = list(simulate("site", 2, seed=0, bots=["greedy"] * 4))
    >>> [(r["match"], r["hand"]) for r in recs]
    [(1, 1), (1, 2)]
    """
    _check(bots)
    written = 0
    number = 0
    while written < hands:
        number += 1
        for record in play_match(rules, seed, number, bots, hands - written):
            written += 1
            yield record


def simulate_on(pool: Executor, workers: int, rules: str, hands: int, seed: int,
                bots: Sequence[str], write: Callable[[dict[str, Any]], None],
                progress: Callable[[int], None] | None = None) -> None:
    """:func:`simulate`'s records, each match a task for ``pool`` (``workers`` of them at work),
    passed to ``write`` in match order; ``progress`` hears of the hands written. The pool is
    shut down at the end."""
    _check(bots)
    window = 4 * workers  # matches submitted and not merged yet
    pending: dict[int, Future[list[dict[str, Any]]]] = {}  # in match order
    written = 0
    number = 0
    try:
        while written < hands:
            while pending:  # merge the finished matches at the head, in order
                first = next(iter(pending))
                if not pending[first].done():
                    break
                records = pending.pop(first).result()[:hands - written]
                for record in records:
                    write(record)
                written += len(records)
                if progress is not None:
                    progress(len(records))
                if written >= hands:
                    return
            # Each match has at least one hand, so a match needs at most ``hands`` less the
            # hands of those before it that are known (merged) or sure (one a pending match).
            while len(pending) < window and written + len(pending) < hands:
                number += 1
                limit = hands - written - len(pending)
                pending[number] = pool.submit(play_match, rules, seed, number, list(bots), limit)
            wait([f for f in pending.values() if not f.done()], return_when=FIRST_COMPLETED)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
