"""Soak: the AI players over many seeded hands; every action must be one of the legal actions.

    .venv/bin/python bench/ai_legal.py [HANDS] [SEED]

Plays whole matches (tribute returns included) with heuristic and search seats mixed with the
baselines, and checks every action against ``obs.legal_actions`` (``Match.apply`` checks the
rules again). Prints hands, decisions and the time taken.
"""

from __future__ import annotations

import sys
import time

from guandan.match import Match
from guandan.players import make_player
from guandan.players.base import Player
from guandan.players.search import SearchPlayer

TABLES = (
    ("heuristic", "random", "heuristic", "random"),
    ("greedy", "heuristic", "random", "heuristic"),
    ("heuristic", "heuristic", "heuristic", "heuristic"),
    ("search", "heuristic", "search", "greedy"),
)


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    t0 = time.perf_counter()
    total = decisions = 0
    for i, names in enumerate(TABLES):
        players: dict[int, Player] = {}
        for s, n in zip((1, 2, 3, 4), names, strict=True):
            players[s] = (SearchPlayer(seed=s, samples=6, budget_ms=None) if n == "search"
                          else make_player(n, seed=seed + s))
        quota = hands // len(TABLES) // (10 if "search" in names else 1)
        number, played = 1, 0
        m = Match("site", seed=seed + i, match_number=number)
        while played < quota:
            seat = m.to_act
            if seat is None:
                number += 1
                m = Match("site", seed=seed + i, match_number=number)
                continue
            obs = m.observation(seat)
            action = players[seat].act(obs)
            if action not in obs.legal_actions:
                print(f"ILLEGAL: {names[seat - 1]} at seed {seed + i} match {number} "
                      f"hand {m.hand_number}: {action!r}")
                return 1
            before = len(m.records)
            m.apply(action)
            decisions += 1
            played += len(m.records) - before
        total += played
        print(f"{'/'.join(names)}: {played} hands legal")
    print(f"{total} hands, {decisions} decisions, all legal, {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
