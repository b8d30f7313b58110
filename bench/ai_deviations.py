"""Where the search player departs from the heuristic, is it right? (a tuning aid)

    .venv/bin/python bench/ai_deviations.py [HANDS] [SEED] [SEARCH SETTINGS (JSON)]

Plays hands of heuristic self-play. At every decision, asks the search player too (by default
with 32 samples and no time budget; the JSON object gives other ``SearchPlayer`` keyword
arguments); where the two differ, plays the true position (real hidden cards) out twice with
heuristic players, once after each choice, and scores each finish for the deciding team
(+3/+2/+1 win, -3/-2/-1 loss). Prints how often the search departs, the hands its departures
win or lose, and the average gain of its departures with a 95% interval, by kind of decision.
Two settings run on the same HANDS and SEED meet the same positions: the one whose departures
win more hands chooses better, as far as heuristic players continue the hand.
"""

from __future__ import annotations

import copy
import json
import math
import sys
import time
from collections import defaultdict

from guandan.match import Match
from guandan.players.base import Player
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer
from guandan.readings import Reading
from guandan.seats import partner, team_of


def outcome(m: Match, team: str, players: dict[int, Player]) -> float:
    hand = m.hand_number
    while m.to_act is not None and m.hand_number == hand:
        seat = m.to_act
        m.apply(players[seat].act(m.observation(seat)))
    res = m.results[-1]
    order = list(res.finish_order)
    first = order[0]
    pos = order.index(partner(first))
    steps = 3 if pos == 1 else (2 if pos == 2 else 1)
    return float(steps if team_of(first) == team else -steps)


def kind_of(a: object, following: bool) -> str:
    if not isinstance(a, Reading):
        return "pass"
    if a.power:
        return "bomb"
    return "follow" if following else "lead"


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    settings = {"budget_ms": None, "samples": 32}
    if len(sys.argv) > 3:
        settings.update(json.loads(sys.argv[3]))
    players: dict[int, Player] = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
    search = SearchPlayer(seed=1, **settings)  # type: ignore[arg-type]
    gains: dict[str, list[float]] = defaultdict(list)
    wins: dict[str, list[float]] = defaultdict(list)
    decisions = 0
    t0 = time.perf_counter()
    for i in range(hands):
        m = Match("site", seed=seed, match_number=i + 1)
        while m.to_act is not None and m.hand_number == 1:
            seat = m.to_act
            obs = m.observation(seat)
            h = players[seat].act(obs)
            s = search.act(obs)
            decisions += 1
            if s != h:
                team = team_of(seat)
                vals = []
                for a in (s, h):
                    world = copy.deepcopy(m)
                    world.apply(a)
                    vals.append(outcome(world, team, {k: HeuristicPlayer(seed=k) for k in
                                                      (1, 2, 3, 4)}))
                label = f"{kind_of(h, obs.table is not None)}->{kind_of(s, obs.table is not None)}"
                low = min(n for n in obs.counts.values() if n > 0)
                phase = "phase<=6" if low <= 6 else "phase<=12" if low <= 12 else (
                    "phase<=20" if low <= 20 else "phase>20")
                for key in (label, "all", phase):
                    gains[key].append(vals[0] - vals[1])
                wins["all"].append((vals[0] > 0) - (vals[1] > 0))
            m.apply(h)
    print(f"{hands} hands from seed {seed}, settings {json.dumps(settings)}: {decisions} "
          f"decisions, {time.perf_counter() - t0:.0f} s")
    w = wins["all"]
    if w:
        print(f"  hands won by departing minus by not: {sum(w):+.0f} of {len(w)} departures "
              f"({sum(1 for x in w if x > 0)} won, {sum(1 for x in w if x < 0)} lost)")
    for label, g in sorted(gains.items(), key=lambda x: -len(x[1])):
        n = len(g)
        mean = sum(g) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in g) / (n - 1)) if n > 1 else 0.0
        print(f"  {label:16s} {n:5d} departures, gain {mean:+.3f} ± {1.96 * sd / math.sqrt(n):.3f}"
              f" levels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
