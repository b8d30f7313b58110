"""How often legal_plays' physical cards cost a hand more than another choice (a check).

    .venv/bin/python bench/representatives.py [HANDS] [SEED]

``legal_plays`` gives one play per kind, rank and size, so a single, pair or triple comes with
one choice of copies. Plays HANDS hands (default 20) of four heuristic players and, at every
decision, compares each offered single, pair and triple with every other choice of the same
number of natural copies and wilds of its rank: it counts the plays whose cards leave the hand
a costlier split (``guandan.players.decompose.hand_cost``) than the best choice would, and how
often the heuristic played one of them.
"""

from __future__ import annotations

import sys
from collections import Counter
from itertools import combinations

from guandan.cards import Card
from guandan.match import Match
from guandan.players.decompose import hand_cost
from guandan.players.heuristic import HeuristicPlayer
from guandan.readings import Reading


def _without(hand: list[Card], cards: tuple[Card, ...]) -> list[Card]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def excess(hand: list[Card], play: Reading, level: str) -> float:
    """How much more the rest of the hand costs with the play's cards than with the best
    choice of the same rank and number of wilds (0 when the play's cards are the best)."""
    wild = [c for c in play.cards if c.is_wild(level)]
    natural = [c for c in play.cards if not c.is_wild(level)]
    copies = sorted({c for c in hand if not c.is_wild(level) and c.rank == play.rank},
                    key=lambda c: c.index)
    if len(copies) <= 1 or not natural:
        return 0.0
    pool = [c for c in hand if not c.is_wild(level) and c.rank == play.rank]
    given = hand_cost(_without(hand, play.cards), level)
    best = given
    for choice in set(combinations(sorted(pool, key=lambda c: c.index), len(natural))):
        best = min(best, hand_cost(_without(hand, (*choice, *wild)), level))
    return given - best


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    tally: Counter[str] = Counter()
    for n in range(hands):
        m = Match(seed=seed + n)
        players = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
        while m.phase == "play" and m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            hand = list(m.hands[seat])
            costly = set()
            for i, p in enumerate(obs.legal_actions):
                if isinstance(p, Reading) and p.kind in ("single", "pair", "triple"):
                    copies = sum(1 for c in hand if c.rank == p.rank and not c.is_wild(obs.level))
                    if copies > len(p.cards):
                        tally["offered with a choice of cards"] += 1
                        if excess(hand, p, obs.level) > 1e-9:
                            tally["costlier than the best choice"] += 1
                            costly.add(i)
            action = players[seat].act(obs)
            tally["decisions"] += 1
            if any(action is obs.legal_actions[i] for i in costly):
                tally["costlier play chosen"] += 1
            m.apply(action)
    print(f"{hands} hands of heuristic self-play from seed {seed}:")
    for key in ("decisions", "offered with a choice of cards", "costlier than the best choice",
                "costlier play chosen"):
        print(f"  {key}: {tally[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
