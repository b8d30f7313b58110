"""Benchmark the game state: random self-play through ``Deal`` and through ``Match``, the cost of
``Deal.clone()``, and random play-outs of a sampled deal from mid-hand.

Run: ``taskset -c 0 .venv/bin/python bench/bench_deal.py [--hands N] [--seed S]`` (one core).
Times are CPU time of this process (``time.process_time``), so other work sharing the machine
slows the figures less than wall time would; the wall time is printed beside them.

- Deal: ``legal_actions()`` then ``apply`` of a random one, passes counted, from the first lead
  to the end of the hand, on deals of ``guandan.match.dealt_hands`` at random levels.
- Match: the same through ``Match`` (``legal_actions``, ``apply``; tribute returns counted too);
  and, for comparison, what a caller of the API does: ``observation(seat)`` and a ``random``
  player's ``act``.
- clone: ``Deal.clone()`` of a deal in the middle of a hand.
- play-outs: from an observation in the middle of a hand, ``Deal.sample`` once, then
  ``clone()`` and random play to the end, many times (the loop here, in Python, and
  ``Deal.play_out``, the same loop compiled); and with a new ``Deal.sample`` each time.

The first Deal figure counts dealing each hand's cards (a Python shuffle) in its time; the
second deals them beforehand, as ``bench_engine.py`` does. In both, this script's own loop
(``rng.randrange``, calls from the interpreter) is a large share of a decision's time.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from guandan import Match, make_player
from guandan.cards import Card
from guandan.deal import Deal
from guandan.match import dealt_hands


def timed(label: str, work: Callable[[], int], unit: str) -> float:
    """Run ``work`` (it returns how many units it did); print and return units per CPU second."""
    w0, c0 = time.perf_counter(), time.process_time()
    n = work()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    rate = n / cpu
    print(f"{label}: {n:,} {unit} in {cpu:.2f} s CPU ({wall:.2f} s wall): {rate:,.0f} {unit}/s "
          f"({1e6 / rate:.2f} µs each)")
    return rate


def random_deal(seed: int, hand: int, rng: random.Random) -> Deal:
    return Deal(dealt_hands(seed, 1, hand), rng.choice("23456789TJQKA"), rng.choice((1, 2, 3, 4)))


def deal_selfplay(hands: int, seed: int) -> int:
    rng = random.Random(seed)
    decisions = 0
    for h in range(hands):
        d = random_deal(seed, h + 1, rng)
        while d.to_act is not None:
            actions = d.legal_actions()
            d.apply(actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions


def dealt(hands: int, seed: int) -> list[tuple[dict[int, list[Card]], str, int]]:
    """The cards, levels and leaders ``deal_selfplay`` plays, made in advance (shuffling is
    not the engine's)."""
    rng = random.Random(seed)
    return [(dealt_hands(seed, 1, h + 1), rng.choice("23456789TJQKA"), rng.choice((1, 2, 3, 4)))
            for h in range(hands)]


def deal_selfplay_of(deals: list[tuple[dict[int, list[Card]], str, int]], seed: int) -> int:
    """``deal_selfplay`` on cards dealt beforehand: a ``Deal`` of each, then only legal
    actions, the choice and apply."""
    rng = random.Random(seed)
    decisions = 0
    for hands, level, leader in deals:
        d = Deal(hands, level, leader)
        while d.to_act is not None:
            actions = d.legal_actions()
            d.apply(actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions


def match_selfplay(hands: int, seed: int) -> int:
    rng = random.Random(seed)
    decisions = played = 0
    number = 1
    m = Match("site", seed=seed, match_number=number)
    while played < hands:
        if m.to_act is None:
            number += 1
            m = Match("site", seed=seed, match_number=number)
            continue
        actions = m.legal_actions
        before = len(m.records)
        m.apply(actions[rng.randrange(len(actions))])
        decisions += 1
        played += len(m.records) - before
    return decisions


def match_api(hands: int, seed: int) -> int:
    players = {s: make_player("random", seed=seed + s) for s in (1, 2, 3, 4)}
    decisions = played = 0
    number = 1
    m = Match("site", seed=seed, match_number=number)
    while played < hands:
        seat = m.to_act
        if seat is None:
            number += 1
            m = Match("site", seed=seed, match_number=number)
            continue
        before = len(m.records)
        m.apply(players[seat].act(m.observation(seat)))
        decisions += 1
        played += len(m.records) - before
    return decisions


def mid_hand(seed: int) -> Match:
    """A match in the middle of its first hand (after 40 random decisions)."""
    rng = random.Random(seed)
    m = Match("site", seed=seed)
    for _ in range(40):
        actions = m.legal_actions
        m.apply(actions[rng.randrange(len(actions))])
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clones", type=int, default=200_000)
    ap.add_argument("--playouts", type=int, default=300)
    args = ap.parse_args()
    n_clones: int = args.clones
    n_playouts: int = args.playouts
    timed("Deal, random self-play", lambda: deal_selfplay(args.hands, args.seed), "decisions")
    deals = dealt(args.hands, args.seed)
    timed("Deal, random self-play, the cards dealt beforehand",
          lambda: deal_selfplay_of(deals, args.seed), "decisions")
    timed("Match, random self-play (legal_actions + apply)",
          lambda: match_selfplay(args.hands, args.seed), "decisions")
    timed("Match, observation + random player's act + apply",
          lambda: match_api(args.hands, args.seed), "decisions")

    m = mid_hand(args.seed)
    deal = m.current_deal
    assert deal is not None

    def clones() -> int:
        for _ in range(n_clones):
            deal.clone()
        return n_clones

    timed("Deal.clone() mid-hand", clones, "clones")
    seat = m.to_act
    assert seat is not None
    obs = m.observation(seat)
    rng = random.Random(args.seed)
    base = Deal.sample(obs, rng)
    print(f"  (mid-hand: {sum(base.counts().values())} cards left, seat {seat} to act)")

    def playouts() -> int:
        for _ in range(n_playouts):
            d = base.clone()
            while d.to_act is not None:
                actions = d.legal_actions()
                d.apply(actions[rng.randrange(len(actions))])
        return n_playouts

    def sampled_playouts() -> int:
        for _ in range(n_playouts):
            d = Deal.sample(obs, rng)
            while d.to_act is not None:
                actions = d.legal_actions()
                d.apply(actions[rng.randrange(len(actions))])
        return n_playouts

    def samples() -> int:
        for _ in range(n_playouts):
            Deal.sample(obs, rng)
        return n_playouts

    def compiled_playouts() -> int:
        for _ in range(n_playouts):
            base.clone().play_out(rng)
        return n_playouts

    timed("random play-out of a sampled deal (clone + play to the end)", playouts, "play-outs")
    if hasattr(Deal, "play_out"):  # an engine from before it has no play_out
        timed("the same with Deal.play_out (clone + the loop in compiled code)",
              compiled_playouts, "play-outs")
    timed("Deal.sample alone", samples, "samples")
    timed("Deal.sample + random play-out", sampled_playouts, "play-outs")


if __name__ == "__main__":
    main()
