"""How near the real cards does reading every turn of the hand get? (issue 26's diagnostic)

The oracle (``bench/oracle_search.py``) showed the search would win 75% of hands against the
heuristic if it knew the hidden cards, and most of that once some seat holds 15 cards or fewer.
This script asks whether the turns the other seats played say where those cards are. In
positions of heuristic self-play (seat 1 to act once some seat holds ``CARDS`` cards or fewer)
it runs a Markov chain over the other seats' hands: swap one card between two of them (keeping
each seat's pinned cards), and keep the swap with probability ``EPS ** (change in misses)``,
the misses being the turns of the two seats that the fast policy, replaying the hand from its
first lead with those cards, would have played otherwise (``playout.replay_misses``). That is a
sample of the hands weighted ``EPS`` per miss: the posterior, if the seats play the policy
with a slip per turn of about ``EPS``. (The heuristic's seats play the policy's turn about 90%
of the time.)

It prints, for the tracker's own draws (``Tracker.sample``) and for the chain's states after
its first half (every 10th step), the share of the other seats' cards placed with the seat
that really holds them (a card counts once per copy), over all hidden cards and over the high
ones (aces, level cards, jokers), and the misses: the real hands', the draws', the chain's.

    .venv/bin/python bench/replay_reading.py POSITIONS CARDS [EPS] [STEPS] [SEED]

e.g. ``bench/replay_reading.py 40 12 0.05 1500``. The chain runs on the pure Python of the
play-outs if the package is not compiled; about a millisecond a step compiled.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter, defaultdict

from guandan.cards import Card
from guandan.match import Match
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.playout import hand_turns, replay_misses, start_hands
from guandan.players.tracker import NO_CAP, Tracker
from guandan.readings import Reading


def placed(hands: dict[int, list[Card]], real: dict[int, list[Card]], seats: list[int],
           level: str, high: bool) -> tuple[int, int]:
    """(cards of ``seats`` placed with their real holder, cards of ``seats``)."""
    def keep(c: Card) -> bool:
        return not high or c.strength(level) >= 14
    hit = total = 0
    for s in seats:
        hit += sum((Counter(c for c in hands[s] if keep(c))
                    & Counter(c for c in real[s] if keep(c))).values())
        total += sum(1 for c in real[s] if keep(c))
    return hit, total


def chain_step(h: dict[int, list[Card]], cur: dict[int, int], tracker: Tracker,
               turns: list[tuple[int, Reading | None]], rng: random.Random, eps: float,
               caps: bool = False) -> tuple[dict[int, list[Card]], bool]:
    """One step of the chain over the hands ``h`` of the seats other than ``tracker``'s: swap
    a card between two of them (their pinned cards kept, with ``caps`` their pass caps too),
    kept with probability ``eps ** (change in misses)``. ``cur`` holds each seat's misses
    (``replay_misses``) and follows the swap; returns the hands and whether it was kept."""
    seats, level, pins = tracker.others(), tracker.level, tracker.pinned
    if len(seats) < 2:
        return h, False
    a, b = rng.sample(seats, 2)
    i, j = rng.randrange(len(h[a])), rng.randrange(len(h[b]))
    x, y = h[a][i], h[b][j]
    if x == y or any(s in pins and pins[s][c] >= h[s].count(c) for s, c in ((a, x), (b, y))):
        return h, False
    if caps and (y.strength(level) > tracker.caps.get(a, NO_CAP)
                 or x.strength(level) > tracker.caps.get(b, NO_CAP)):
        return h, False
    new = dict(h)
    new[a], new[b] = list(h[a]), list(h[b])
    new[a][i], new[b][j] = y, x
    got = replay_misses(start_hands(new, turns), level, turns, [a, b])
    d = got[a] + got[b] - cur[a] - cur[b]
    if d <= 0 or rng.random() < eps ** d:
        cur[a], cur[b] = got[a], got[b]
        return new, True
    return h, False


def position(seed: int, cards: int) -> Match | None:
    """Heuristic self-play of match ``seed``'s first hand, up to seat 1's first turn once some
    seat holds ``cards`` or fewer (None if the hand ends first)."""
    m = Match(seed=seed)
    bots = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
    while True:
        if m.phase == "play" and m.to_act == 1:
            obs = m.observation(1)
            if min(n for n in obs.counts.values() if n > 0) <= cards:
                return m
        if m.hand_number > 1 or m.to_act is None:
            return None
        seat = m.to_act
        m.apply(bots[seat].act(m.observation(seat)))


def read_position(m: Match, rng: random.Random, eps: float, steps: int
                  ) -> defaultdict[str, float]:
    """The figures of one position (see the module docstring), summed."""
    sums: defaultdict[str, float] = defaultdict(float)
    obs = m.observation(1)
    level = obs.level
    turns = hand_turns(obs.history)
    tracker = Tracker.from_observation(obs)
    seats = tracker.others()
    real = {s: list(m.hands[s]) for s in (1, 2, 3, 4)}

    def misses(hands: dict[int, list[Card]], who: list[int]) -> dict[int, int]:
        return replay_misses(start_hands(hands, turns), level, turns, who)

    sums["real_misses"] += sum(misses(real, seats).values())
    # The tracker's draws: the prior the chain starts from.
    for _ in range(10):
        h = tracker.sample(rng)
        for high in (False, True):
            hit, tot = placed(h, real, seats, level, high)
            sums[f"draw_hit{high}"] += hit / 10
            sums[f"tot{high}"] += tot / 10
        sums["draw_misses"] += sum(misses(h, seats).values()) / 10
    h = tracker.sample(rng)
    cur = misses(h, seats)
    kept = states = 0
    chain: defaultdict[str, float] = defaultdict(float)
    for step in range(steps):
        h, swapped = chain_step(h, cur, tracker, turns, rng, eps)
        kept += swapped
        if step >= steps // 2 and step % 10 == 0:
            states += 1
            for high in (False, True):
                chain[f"hit{high}"] += placed(h, real, seats, level, high)[0]
            chain["misses"] += sum(cur.values())
    sums["chain_kept"] += kept / steps
    for k, v in chain.items():  # the chain's means, so that every position weighs the same
        sums[f"chain_{k}"] += v / states
    return sums


def main() -> None:
    n_pos = int(sys.argv[1])
    cards = int(sys.argv[2])
    eps = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 1500
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    rng = random.Random(f"replay_reading:{seed}")
    sums: defaultdict[str, float] = defaultdict(float)
    n = 0
    t0 = time.perf_counter()
    while n < n_pos:
        m = position(seed, cards)
        seed += 1
        if m is not None:
            for k, v in read_position(m, rng, eps, steps).items():
                sums[k] += v
            n += 1
    print(f"{n} positions (seat 1 to act, some seat at {cards} cards or fewer), eps {eps}, "
          f"{steps} steps, {time.perf_counter() - t0:.0f} s")
    print(f"misses a position: real hands {sums['real_misses'] / n:.2f}, the tracker's draws "
          f"{sums['draw_misses'] / n:.2f}, the chain {sums['chain_misses'] / n:.2f} "
          f"(swaps kept {100 * sums['chain_kept'] / n:.0f}%)")
    for high, name in ((False, "every hidden card"), (True, "aces, level cards, jokers")):
        tot = sums[f"tot{high}"]
        print(f"{name}: placed with their holder: draws {100 * sums[f'draw_hit{high}'] / tot:.1f}%"
              f", chain {100 * sums[f'chain_hit{high}'] / tot:.1f}% "
              f"({tot / n:.1f} cards a position)")


if __name__ == "__main__":
    main()
