"""Which play of its split does the search lead? Data and a fit for a learned lead order.

    .venv/bin/python bench/lead_data.py RECORDS.jsonl [--seats ours|all] [--test 0.25]

Replays an arena's hand-mode records of ``search`` against another player (``--players
search,X --mode hand``: the search holds seats 1 and 3 in a deal set's first seating, 2 and 4
in its second) and, at every
lead of the search's seats where the play-outs' lead policy (``Rollout.lead``) ranks the safe
plays of the split by ``lead_order``, notes the plays it could lead and the one it led. Fits a
conditional logit over the plays' features (with lead_order's own choice among them, so that
the fit can only add to it) on the first deal sets and prints its accuracy on the last ones
(``--test``) beside the plain lead order's, and the weights. The plain order is the default
one (``LEAD_SIZE``); where the search's team answers a careless opponent with its long plays
first (``ANSWER_SIZE``), as against the competition's bots, the play-outs lead otherwise.

A learned lead order for the play-outs' own side would make them play more as the search
really does. Stop 35 (``bench/ai_figures.md``) found no room for it: on 393 hands of the search
at 64 sampled deals against the heuristic, lead_order already chose the search's lead in 90.4%
of 471 held-out leads, and the fit chose it in 90.4% too.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from collections.abc import Iterator

import numpy as np

from guandan.cards import parse_cards
from guandan.deal import PASS, Deal
from guandan.players.leads import lead_order
from guandan.players.playout import APlay, Rollout, abstract_hand, abstract_reading
from guandan.readings import read_as
from guandan.seats import SEATS, partner

KINDS = ("single", "pair", "triple", "full_house", "straight", "tube", "plate")
NAMES = ["lead_order's", "cost", "size-1", *KINDS[1:], "key", "control", "size*low", "cost*few",
         "single*mate1", "pair*mate2", "key*few", "size*many"]


def features(p: APlay, n_parts: int, low: int, mate: int) -> list[float]:
    few = 1.0 if n_parts <= 4 else 0.0
    low_opp = 1.0 if low <= 6 else 0.0
    return [
        p.cost, p.size - 1.0, *(1.0 if p.kind == k else 0.0 for k in KINDS[1:]),
        p.key / 17, 1.0 if p.control else 0.0,
        (p.size - 1.0) * low_opp, p.cost * few,
        1.0 if (p.kind == "single" and mate == 1) else 0.0,
        1.0 if (p.kind == "pair" and mate == 2) else 0.0,
        p.key / 17 * few, (p.size - 1.0) * (n_parts / 10),
    ]


def safe_leads(deal: Deal, seat: int, parts: list[APlay]) -> list[APlay] | None:
    """The plays ``Rollout.lead`` ranks by ``lead_order`` here (``Rollout.lead_choices``), or
    None where another of its rules decides or only one play is safe."""
    _, safe = Rollout(deal, {seat: list(parts)}).lead_choices(seat)
    return safe if len(safe) > 1 else None


def examples(path: str, seats: str, tally: Counter[str] | None = None
             ) -> Iterator[tuple[int, list[list[float]], int, int]]:
    """(deal set, features of each safe lead, index of the one led, index of lead_order's).
    ``tally`` counts every lead of the seats: ranked by lead_order or decided by another rule
    of ``Rollout.lead``, and whether the play led was a play of the split."""
    tally = Counter() if tally is None else tally
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            rec = json.loads(line)
            if rec["hand"] != 1:
                raise SystemExit(f"{path}: line {i + 1} is a match's hand {rec['hand']}: "
                                 "hand-mode records only (--mode hand)")
            if rec["tribute"]["kind"] != "none":
                continue
            ours = {1, 3} if i % 2 == 0 else {2, 4}
            level = rec["level"]
            hands = {int(s): parse_cards(" ".join(c)) for s, c in rec["deal"].items()}
            deal = Deal(hands, level, rec["leader"])
            for a in rec["actions"]:
                seat = a["seat"]
                play = (None if a.get("pass") else
                        read_as(parse_cards(" ".join(a["cards"])), level, a["kind"], a["rank"]))
                if (deal.table is None and play is not None
                        and (seats == "all" or seat in ours)):
                    parts = abstract_hand(deal.held(seat), level)
                    safe = safe_leads(deal, seat, parts)
                    real = abstract_reading(play)
                    hit = [j for j, p in enumerate(safe or ())
                           if (p.kind, p.size, p.key) == (real.kind, real.size, real.key)]
                    whole = any((p.kind, p.size, p.key) == (real.kind, real.size, real.key)
                                for p in parts)
                    tally["leads"] += 1
                    tally["ranked by lead_order" if safe else "another rule"] += 1
                    tally["a play of the split" if whole else "not a play of the split"] += 1
                    if safe and hit:
                        counts = deal.counts()
                        mate = partner(seat)
                        low = min((counts[s] for s in SEATS
                                   if s not in (seat, mate) and counts[s] > 0), default=99)
                        base = max(range(len(safe)),
                                   key=lambda j: lead_order(safe[j].cost, safe[j].size))
                        x = [[1.0 if j == base else 0.0, *features(p, len(parts), low,
                                                                   counts[mate])]
                             for j, p in enumerate(safe)]
                        yield i // 2, x, hit[0], base
                deal.apply(PASS if play is None else play)


def fit(data: list[tuple[np.ndarray, int]], dim: int, l2: float = 1e-3, steps: int = 3000,
        lr: float = 0.5) -> np.ndarray:
    """Conditional logit by full-batch gradient descent (the loss is convex)."""
    w = np.zeros(dim)
    w[0] = 3.0  # start at the plain order
    for _ in range(steps):
        g = l2 * w
        for x, y in data:
            s = x @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            g += (x.T @ p - x[y]) / len(data)
        w -= lr * g
    return w


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("records")
    ap.add_argument("--seats", choices=("ours", "all"), default="ours")
    ap.add_argument("--test", type=float, default=0.25)
    args = ap.parse_args()
    tally: Counter[str] = Counter()
    rows = list(examples(args.records, args.seats, tally))
    print(", ".join(f"{k}: {v}" for k, v in tally.items()))
    sets = sorted({r[0] for r in rows})
    cut = sets[int(len(sets) * (1 - args.test))] if sets else 0
    train = [(np.array(x), y) for d, x, y, _ in rows if d < cut]
    test = [(np.array(x), y, b) for d, x, y, b in rows if d >= cut]
    print(f"{len(rows)} leads ({len(train)} to fit, {len(test)} held out: deal sets from "
          f"{cut + 1})")
    w = fit(train, len(NAMES))
    right = sum(int(np.argmax(x @ w)) == y for x, y, _ in test)
    base = sum(b == y for _, y, b in test)
    loss = -sum(math.log(np.exp((x @ w)[y] - (x @ w).max()) / np.exp(x @ w - (x @ w).max()).sum())
                for x, y, _ in test) / max(1, len(test))
    print(f"held out: learned {100 * right / len(test):.1f}%, lead_order "
          f"{100 * base / len(test):.1f}%, log loss {loss:.3f}")
    for n, v in zip(NAMES, w, strict=True):
        print(f"  {n:14} {v:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
