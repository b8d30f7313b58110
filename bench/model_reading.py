"""Do a bot's turns, read through its fitted model, say where its cards are? (issue 26)

Stop 37 (``bench/replay_reading.py``) found that the turns of our heuristic, read by the fast
policy, place the hidden cards hardly better than plain draws. The competition's bots are
predicted far better by their fitted models (``bench/opponent_model.py``: `ai3`'s leads 85%,
the fast policy's 48%), so their turns might say more. In an arena's hand records against a bot
(``bench/host_arena.sh``), at one position a hand (the first turn of one of our seats once some
seat holds ``CARDS`` cards or fewer; hands with a tribute left out), this draws ``DRAWS`` deals
of the cards that seat does not see among the other three seats (their counts kept) and weighs
each by the likelihood of the bot's turns so far, each judged on the bot's hand at that turn
(its cards then: the drawn ones and those it played since), split afresh as the fit was:

- by the model: the probability of the real play among the model's candidates (a play that is
  no candidate, as 15% of the real leads are not: ``FLOOR``);
- by the fast policy, for comparison: ``EPS`` for each turn it would have played otherwise.

It prints the share of the other seats' cards each places with their real holder (plain draws,
model-weighted, policy-weighted; over every hidden card and over the bot's seats' only), the
draws' effective number under each weighting, and where the real deal's own likelihood ranks
among the draws'.

    .venv/bin/python bench/model_reading.py RECORDS MODEL [POSITIONS] [CARDS] [DRAWS] [SEED]
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import opponent_model as om  # bench/opponent_model.py, beside this script
from sim_fidelity import record_turns  # bench/sim_fidelity.py, beside this script

from guandan.cards import Card
from guandan.deal import Deal
from guandan.players.playout import abstract_hand, abstract_reading
from guandan.readings import Reading
from guandan.seats import SEATS

FLOOR = 0.02  # the probability of a real play that is none of the model's candidates
EPS = 0.05  # the fast policy's weight per turn it would have played otherwise

#: A bot's turn before the position: the deal then, the seat, its play (None: a pass), and the
#: cards it played from that turn up to the position.
Turn = tuple[Deal, int, Reading | None, list[Card]]


def turn_weights(turn: Turn, hand_now: Sequence[Card], model: dict[str, list[float]]
                 ) -> tuple[float, float]:
    """(log-likelihood by the model, by the fast policy) of one bot turn, the bot holding
    ``hand_now`` at the position."""
    deal, seat, play, since = turn
    parts = abstract_hand([*hand_now, *since], deal.level)
    situation, feats, sigs, policy = om.turn_candidates(deal, seat, parts)
    real = None if play is None else om.sig(abstract_reading(play))
    w = model[situation]
    scores = om.scores(w, feats)
    top = max(scores)
    probs = [math.exp(s - top) for s in scores]
    hit = sum(p for p, s in zip(probs, sigs, strict=True) if s == real)
    by_model = math.log(hit / sum(probs)) if hit > 0 else math.log(FLOOR)
    by_policy = 0.0 if om.sig(policy) == real else math.log(EPS)
    return by_model, by_policy


def position(rec: dict[str, Any], cards: int
             ) -> tuple[int, dict[int, list[Card]], list[Turn]] | None:
    """Our seat to act at the first turn of ours once some seat holds ``cards`` or fewer, every
    seat's hand then, and the bot's turns before it (None: no such turn)."""
    bots = {int(s) for s in rec.get("outside") or ()}
    turns: list[tuple[Deal, int, Reading | None]] = []
    for deal, seat, play in record_turns(rec):
        counts = deal.counts()
        if seat not in bots and min(n for n in counts.values() if n > 0) <= cards and turns:
            hands = {s: list(deal.held(s)) for s in SEATS}
            since: dict[int, list[Card]] = {s: [] for s in bots}
            out: list[Turn] = []
            for d, s, p in reversed(turns):
                if p is not None:
                    since[s] = [*p.cards, *since[s]]
                out.append((d, s, p, list(since[s])))
            return seat, hands, out[::-1]
        if seat in bots:
            turns.append((deal.clone(), seat, play))
    return None


def placed(h: dict[int, list[Card]], real: dict[int, list[Card]], seats: Sequence[int]) -> int:
    return sum(sum((Counter(h[s]) & Counter(real[s])).values()) for s in seats)


def main() -> None:
    path, model_path = sys.argv[1], sys.argv[2]
    n_pos = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    cards = int(sys.argv[4]) if len(sys.argv) > 4 else 15
    draws = int(sys.argv[5]) if len(sys.argv) > 5 else 300
    rng = random.Random(f"model_reading:{sys.argv[6] if len(sys.argv) > 6 else 0}")
    model = om.load(model_path)
    sums: defaultdict[str, float] = defaultdict(float)
    n = 0
    t0 = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if n >= n_pos:
                break
            rec = json.loads(line)
            if rec["tribute"]["kind"] != "none":
                continue
            found = position(rec, cards)
            if found is None:
                continue
            me, real, turns = found
            n += 1
            others = [s for s in SEATS if s != me]
            bots = sorted({t[1] for t in turns})
            pool = [c for s in others for c in real[s]]

            def loglik(h: dict[int, list[Card]], turns: list[Turn] = turns
                       ) -> tuple[float, float]:
                lm = lp = 0.0
                for t in turns:
                    a, b = turn_weights(t, h[t[1]], model)
                    lm += a
                    lp += b
                return lm, lp

            real_lm, real_lp = loglik(real)
            rows = []
            for _ in range(draws):
                rng.shuffle(pool)
                h, i = {}, 0
                for s in others:
                    h[s] = pool[i:i + len(real[s])]
                    i += len(real[s])
                lm, lp = loglik(h)
                rows.append((lm, lp, placed(h, real, others), placed(h, real, bots)))
            sums["hidden"] += len(pool)
            sums["bot_cards"] += sum(len(real[s]) for s in bots)
            sums["draw_all"] += sum(r[2] for r in rows) / draws
            sums["draw_bots"] += sum(r[3] for r in rows) / draws
            for k, name in ((0, "model"), (1, "policy")):
                top = max(r[k] for r in rows)
                w = [math.exp(r[k] - top) for r in rows]
                total = sum(w)
                sums[f"{name}_all"] += sum(x * r[2] for x, r in zip(w, rows, strict=True)) / total
                sums[f"{name}_bots"] += sum(x * r[3] for x, r in zip(w, rows, strict=True)) / total
                sums[f"{name}_ess"] += total * total / sum(x * x for x in w)
                real_k = (real_lm, real_lp)[k]
                # ties (the fast policy's misses are whole numbers) count half
                sums[f"{name}_rank"] += sum((r[k] < real_k) + 0.5 * (r[k] == real_k)
                                            for r in rows) / draws
            sums["turns"] += len(turns)
    print(f"{n} positions of {path} (our seat to act, some seat at {cards} cards or fewer), "
          f"{draws} draws each, {sums['turns'] / n:.1f} bot turns a position, "
          f"{time.perf_counter() - t0:.0f} s")
    for key, name, tot in (("all", "every hidden card", sums["hidden"]),
                           ("bots", "the bot's cards", sums["bot_cards"])):
        print(f"{name} ({tot / n:.1f} a position) placed with their holder: draws "
              f"{100 * sums[f'draw_{key}'] / tot:.1f}%, weighted by the model "
              f"{100 * sums[f'model_{key}'] / tot:.1f}%, by the fast policy "
              f"{100 * sums[f'policy_{key}'] / tot:.1f}%")
    for name in ("model", "policy"):
        print(f"{name}: effective draws {sums[f'{name}_ess'] / n:.1f} of {draws}; the real deal "
              f"likelier than {100 * sums[f'{name}_rank'] / n:.1f}% of the draws")


if __name__ == "__main__":
    main()
