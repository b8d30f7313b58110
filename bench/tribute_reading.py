"""What the tribute says of the hidden cards, and what reading it is worth to the search.

A tribute gift is its giver's strongest card (never a wild heart), so the giver holds nothing
stronger but wilds, and the return it got; after an exemption the givers hold both big jokers
(``deal.gift_bounds``, ``Tracker.tribute``). Hand-mode arenas play no tribute, so this script
measures it in the second hand of heuristic self-play matches (preset ``site``):

- how often the tracker's sampled deals give a giver more cards above its gift than it can
  hold when the tribute is not read, and where the aces, level cards and jokers of the other
  seats are placed with their real holder, with and without it (at every decision of the
  hand, every seat);
- where the search (``samples`` sampled deals, no clock) chooses otherwise with and without
  the tribute read (``read_tribute``), both choices played out on the real cards by heuristic
  players, scored for the deciding team (+3/+2/+1 for a win, -3/-2/-1 for a loss).

    .venv/bin/python bench/tribute_reading.py MATCHES [FIRST_SEED] [SAMPLES]
"""

from __future__ import annotations

import copy
import math
import random
import sys
import time
from collections import Counter

from guandan.cards import Card
from guandan.deal import GiftBounds
from guandan.match import Match
from guandan.players.base import Player
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer
from guandan.players.tracker import Tracker
from guandan.seats import SEATS, partner, team_of


def outcome(m: Match, team: str, players: dict[int, Player]) -> float:
    """Levels the hand in ``m`` moves for ``team`` when ``players`` play it out."""
    hand = m.hand_number
    while m.to_act is not None and m.hand_number == hand:
        seat = m.to_act
        m.apply(players[seat].act(m.observation(seat)))
    order = list(m.results[-1].finish_order)
    steps = {1: 3, 2: 2, 3: 1}[order.index(partner(order[0]))]
    return float(steps if team_of(order[0]) == team else -steps)


def high(c: Card, level: str) -> bool:
    """An ace, a level card or a joker."""
    return c.strength(level) >= 14


def main() -> None:
    n = int(sys.argv[1])
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    rng = random.Random(f"tribute_reading:{first}")
    bots: dict[int, Player] = {s: HeuristicPlayer(seed=s) for s in SEATS}
    figures: Counter[str] = Counter()
    gains: list[float] = []
    t0 = time.perf_counter()
    for seed in range(first, first + n):
        m = Match("site", seed=seed)
        while m.hand_number < 2 or m.phase != "play":
            seat = m.to_act
            assert seat is not None
            m.apply(bots[seat].act(m.observation(seat)))
        if m.observation(1).tribute.kind == "none":
            continue
        figures["hands"] += 1
        while m.to_act is not None and m.hand_number == 2:
            seat = m.to_act
            obs = m.observation(seat)
            tracker = Tracker.from_observation(obs)
            bounds = tracker.tribute
            if (bounds.tops or bounds.jokers) and obs.phase == "play":
                level = obs.level
                others = tracker.others()
                real = m.hands
                for read in (True, False):
                    tracker.tribute = bounds if read else GiftBounds({}, {}, ())
                    for _ in range(4):
                        hands = tracker.sample(rng)
                        for s in others:
                            got = Counter(c for c in hands[s] if high(c, level))
                            figures[f"hit{read}"] += sum(
                                (got & Counter(c for c in real[s] if high(c, level))).values())
                            figures[f"tot{read}"] += sum(1 for c in real[s] if high(c, level))
                            if s in bounds.tops:  # its known cards (a return) aside
                                above = Counter(c for c in hands[s] if not c.is_wild(level)
                                                and c.strength(level) > bounds.tops[s])
                                figures[f"bad{read}"] += sum(
                                    (above - tracker.pinned[s]).values()) > bounds.spare[s]
                                figures[f"seats{read}"] += 1
                figures["decisions"] += 1
                on = SearchPlayer(seed=seed, samples=samples, budget_ms=None)
                off = SearchPlayer(seed=seed, samples=samples, budget_ms=None,
                                   read_tribute=False)
                a, b = on.act(obs), off.act(obs)
                if on.last_samples:
                    figures["searched"] += 1
                if a != b:
                    team = team_of(seat)
                    ma, mb = copy.deepcopy(m), copy.deepcopy(m)
                    ma.apply(a)
                    mb.apply(b)
                    gains.append(outcome(ma, team, bots) - outcome(mb, team, bots))
            m.apply(bots[seat].act(obs))
    print(f"matches {first}-{first + n - 1}: {figures['hands']} second hands with a tribute, "
          f"{figures['decisions']} decisions with a seat bound by it, "
          f"{figures['searched']} searched ({samples} sampled deals), "
          f"{time.perf_counter() - t0:.0f} s")
    for read, name in ((False, "not read"), (True, "read")):
        print(f"tribute {name}: a giver dealt more cards above its gift than it can hold in "
              f"{100 * figures[f'bad{read}'] / max(1, figures[f'seats{read}']):.1f}% of sampled "
              f"hands; aces, level cards, jokers placed with their holder "
              f"{100 * figures[f'hit{read}'] / max(1, figures[f'tot{read}']):.1f}%")
    k = len(gains)
    if k:
        mean = sum(gains) / k
        sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, k - 1))
        better = sum(g > 0 for g in gains)
        worse = sum(g < 0 for g in gains)
        print(f"the search chose otherwise in {k} decisions: reading it won {better} hands more "
              f"than not reading / {worse} fewer (played out by heuristic players); mean gain "
              f"{mean:+.3f} levels [{mean - 1.96 * sd / math.sqrt(k):+.3f}, "
              f"{mean + 1.96 * sd / math.sqrt(k):+.3f}]")
    else:
        print("the search chose the same everywhere")


if __name__ == "__main__":
    main()
