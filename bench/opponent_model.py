"""A model of an outside program's play, fitted to its recorded turns, for the play-outs.

    .venv/bin/python bench/opponent_model.py fit --train A.jsonl,B.jsonl --test C.jsonl \\
        --out MODEL.json

The search weighs a candidate by playing sampled deals out, every seat played by our
heuristic's fast policy (``guandan.players.playout.Rollout``). That policy makes an outside
bot's own choice in 65-78% of its turns (``bench/sim_fidelity.py --records``). This script fits a
choice model of one program from arena records (``guandan host``'s ``--out``, as
``bench/host_arena.sh`` writes them): at each turn of an outside seat, the candidates are the
plays of the seat's split (``playout.abstract_hand``): on a lead every part; on a follow the
pass, every part that beats the table, and a single or pair out of a bigger group or a pair out
of a full house, as the fast policy weighs them. Each candidate has features (the fast policy's
own choice among them, the cost to the split, size, strength, bombs, urgency, whose trick it is);
a conditional logit per situation (lead, partner's trick, opponent's trick) is fitted by Newton's
method (a step halved until it raises the likelihood), deterministic, with a small ridge. Turns
whose real play is not among the candidates (a third of ``ai6``'s leads) are left out of the fit
and count as misses in the fidelity.

It prints, per situation, how often the model's likeliest candidate and the fast policy's choice
are the real play, on the training turns and the test turns, and both on every test turn.
``bench/arena_players.py``'s ``oracle-model`` and ``search-model`` play the other team in the
play-outs by such a model (``MODEL=path``), drawing each of their choices from the model's
probabilities (or its likeliest with ``MODEL_DRAW=0``).

Split training and test records by deal set (``--cut N``: deal sets up to N train, later ones
test, from the same files) so the test turns come from deals the fit never saw.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from sim_fidelity import replayed  # bench/sim_fidelity.py, beside this script

from guandan.deal import Deal
from guandan.players.decompose import same_rank_cost
from guandan.players.leads import LEAD_SIZE, lead_order
from guandan.players.playout import APlay, Rollout, abstract_hand, abstract_reading, same_rank_play
from guandan.players.tracker import urgency as seat_urgency
from guandan.readings import SEQUENCE_KINDS
from guandan.seats import SEATS, partner

KINDS = ("single", "pair", "triple", "full_house", "straight", "tube", "plate")
SITUATIONS = ("lead", "partner", "opp")
Signature = tuple[str, int, int] | None


def sig(p: APlay | None) -> Signature:
    return None if p is None else (p.kind, p.size, p.key)


#: A follow candidate: the play, its cost to the split (as the fast policy's ``d``), and the
#: part it comes out of with what that part leaves (None: a whole part).
Follow = tuple[APlay, float, tuple[APlay, APlay] | None]


def follow_candidates(parts: Sequence[APlay], table: APlay, level: str) -> list[Follow]:
    """Every play of the split that beats ``table``, whole or out of a bigger group."""
    out: list[Follow] = [(p, -p.cost, None) for p in parts if p.beats(table)]
    if table.kind in ("single", "pair"):
        need = table.size
        for p in parts:
            if p.kind in ("pair", "triple") and p.size > need and p.key > table.key:
                left_kind = "single" if p.size - need == 1 else "pair"
                d = same_rank_cost(left_kind, p.key) - p.cost
                out.append((same_rank_play(table.kind, p.cards[:need], level), d,
                            (p, same_rank_play(left_kind, p.cards[need:], level))))
            elif p.kind == "full_house" and need == 2 and p.pair_key > table.key:
                d = same_rank_cost("triple", p.key) - p.cost
                out.append((same_rank_play("pair", p.cards[3:], level), d,
                            (p, same_rank_play("triple", p.cards[:3], level))))
    return out


def lead_features(deal: Deal, seat: int, parts: Sequence[APlay], policy: APlay | None
                  ) -> list[list[float]]:
    """Each lead candidate's features (every part of ``parts``; ``policy``: the fast
    policy's choice)."""
    counts = deal.counts()
    mate = partner(seat)
    low = min((counts[s] for s in SEATS if s != seat and s != mate and counts[s] > 0),
              default=27)
    orders = [lead_order(q.cost, q.size, LEAD_SIZE)[0] for q in parts]
    top = max(orders)
    lowest: dict[str, int] = {}
    for q in parts:
        lowest[q.kind] = min(lowest.get(q.kind, q.key), q.key)
    few = len(parts)
    out = []
    for p, order in zip(parts, orders, strict=True):
        f = [
            float(sig(p) == sig(policy)),
            order, p.cost, p.size / 5, p.key / 15, float(p.control), float(p.power > 0),
            float(p.size >= 5 and low <= 5), float(p.size == 1 and low <= 2),
            float(p.size == 2 and low <= 3),
            float(order == top),
            float(p.key == lowest[p.kind]),
            float(p.key >= 15 and not p.power and few <= 3),
            float(p.power > 0 and few <= 2),
            p.key / 15 * (p.kind in SEQUENCE_KINDS),
        ]
        f += [float(p.kind == k) for k in KINDS]
        f += [float(p.kind == k) * p.key / 15 for k in KINDS]
        out.append(f)
    return out


def follow_features(deal: Deal, seat: int, parts: Sequence[APlay], table: APlay, owner: int,
                    cands: Sequence[Follow | None], policy: APlay | None) -> list[list[float]]:
    """Each follow candidate's features (a candidate None: the pass)."""
    counts = deal.counts()
    urg = seat_urgency(seat, owner, counts)
    mate = owner == partner(seat)
    mine = counts[seat]
    few = len(parts)
    out = []
    for cand in cands:
        if cand is None:
            f = [float(policy is None), 1.0, float(mate), float(urg == 1), float(urg == 2),
                 table.key / 15, float(table.power > 0), float(few <= 2), mine / 27,
                 float(counts[owner] <= 5)]
            out.append(f + [float(table.kind == k) for k in KINDS] + [0.0] * 16)
            continue
        p, d, split = cand
        bomb = p.power > 0
        big = p.key >= 15 and not bomb
        out.append([float(sig(p) == sig(policy))] + [0.0] * (9 + len(KINDS)) + [
            d, float(split is not None), float(bomb), float(bomb and urg >= 1),
            float(bomb and mate), float(bomb and few <= 3),
            0.0 if bomb else (p.key - table.key) / 15, float(p.control),
            float(big), float(big and urg == 0),
            float(mate and not bomb), float(few == 1),
            float(bomb and table.power > 0), float(bomb) * mine / 27,
            float(bomb and counts[owner] <= 10), d * (urg == 0),
        ])
    return out


#: One turn: its candidates' features, the real play's index, the fast policy's (or -1).
Example = tuple[np.ndarray, int, int]


def turn_candidates(deal: Deal, seat: int, parts: Sequence[APlay]
                    ) -> tuple[str, list[list[float]], list[Signature], APlay | None]:
    """One turn of ``seat`` holding the split ``parts`` in ``deal``: its situation (lead,
    partner's trick, opponent's trick), its candidates' features and signatures, and the fast
    policy's choice."""
    # The policy reads only the seat's own split (on a copy: a follow may split a part).
    policy = Rollout(deal.clone(), {seat: list(parts)}).choose(seat)
    if deal.table is None:
        return "lead", lead_features(deal, seat, parts, policy), [sig(p) for p in parts], policy
    table, owner = abstract_reading(deal.table.play), deal.table.seat
    cands: list[Follow | None] = [None, *follow_candidates(parts, table, deal.level)]
    feats = follow_features(deal, seat, parts, table, owner, cands, policy)
    return ("partner" if owner == partner(seat) else "opp", feats,
            [None if c is None else sig(c[0]) for c in cands], policy)


def examples(path: str) -> Iterator[tuple[str, list[list[float]], int, int]]:
    """Each outside turn of the records: (situation, candidates' features, index of the real
    play among them or -1, index of the fast policy's choice or -1)."""
    for deal, seat, outside, play in replayed(path):
        if not outside:
            continue
        parts = abstract_hand(deal.held(seat), deal.level)
        situation, feats, sigs, policy = turn_candidates(deal, seat, parts)
        real = None if play is None else sig(abstract_reading(play))
        yield (situation, feats, sigs.index(real) if real in sigs else -1,
               sigs.index(sig(policy)) if sig(policy) in sigs else -1)


def collect(paths: Sequence[str], cut: int | None, test: bool
            ) -> tuple[dict[str, list[Example]], dict[str, int]]:
    """The examples of ``paths`` (with ``cut``, only the deal sets after it if ``test``, else
    up to it), and per situation the turns whose real play is no candidate."""
    data: dict[str, list[Example]] = {s: [] for s in SITUATIONS}
    miss = dict.fromkeys(SITUATIONS, 0)
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(paths):
            try:
                part = path if cut is None else _part(path, os.path.join(tmp, str(i)), cut, test)
                for situation, feats, real, policy in examples(part):
                    if real < 0:
                        miss[situation] += 1
                    else:
                        data[situation].append((np.array(feats), real, policy))
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}: not arena records with outside seats ({e!r})") from e
    empty = [s for s in SITUATIONS if not data[s]]
    if empty:
        raise ValueError(f"{', '.join(paths)}: no outside turns to {'test' if test else 'fit'} "
                         f"on ({', '.join(empty)}): records of `guandan arena --players X,outside`")
    return data, miss


def _part(path: str, out: str, cut: int, test: bool) -> str:
    """The records of ``path`` from deal sets after ``cut`` (``test``) or up to it, in ``out``."""
    with open(path, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
        for line in f:
            if (json.loads(line)["match"] > cut) == test:
                g.write(line)
    return out


def fit(rows: Sequence[Example], ridge: float = 1e-3, steps: int = 50) -> list[float]:
    """The conditional logit's weights, by Newton's method (halving a step that does not raise
    the penalized likelihood) from the fast policy alone."""
    dim = rows[0][0].shape[1]
    n = len(rows)

    def objective(w: np.ndarray) -> float:
        total = -0.5 * ridge * n * float(w @ w)
        for x, real, _ in rows:
            s = x @ w
            top = s.max()
            total += float(s[real] - top - np.log(np.exp(s - top).sum()))
        return total

    w = np.zeros(dim)
    w[0] = 2.0
    value = objective(w)
    for _ in range(steps):
        grad = -ridge * n * w
        hess = -ridge * n * np.eye(dim)
        for x, real, _ in rows:
            s = x @ w
            e = np.exp(s - s.max())
            pr = e / e.sum()
            mu = pr @ x
            grad += x[real] - mu
            hess -= (x * pr[:, None]).T @ x - np.outer(mu, mu)
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-4:
            trial = w - scale * step
            trial_value = objective(trial)
            if trial_value >= value:
                break
            scale /= 2
        else:
            break
        moved = float(np.abs(trial - w).max())
        w, value = trial, trial_value
        if moved < 1e-7:
            break
    return [float(v) for v in w]


def hits(rows: Sequence[Example], w: Sequence[float]) -> tuple[int, int]:
    """Turns where the model's likeliest candidate, and the fast policy's, is the real play."""
    wv = np.array(w)
    return (sum(int(np.argmax(x @ wv)) == real for x, real, _ in rows),
            sum(policy == real for _, real, policy in rows))


#: How many features a lead candidate and a follow candidate have.
LEAD_FEATURES = 15 + 2 * len(KINDS)
FOLLOW_FEATURES = 10 + len(KINDS) + 16


def load(path: str) -> dict[str, list[float]]:
    """A model's weights as ``fit --out`` wrote them; ValueError says what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            model = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a model's weights ({e})") from e
    sizes = {"lead": LEAD_FEATURES, "partner": FOLLOW_FEATURES, "opp": FOLLOW_FEATURES}
    if not isinstance(model, dict) or any(
            not isinstance(model.get(k), list) or len(model[k]) != n
            or not all(isinstance(v, (int, float)) for v in model[k]) for k, n in sizes.items()):
        raise ValueError(f"{path}: a model has the weights 'lead' ({LEAD_FEATURES} numbers), "
                         f"'partner' and 'opp' ({FOLLOW_FEATURES} each)")
    return {k: [float(v) for v in model[k]] for k in sizes}


def scores(w: Sequence[float], feats: Sequence[Sequence[float]]) -> list[float]:
    """Each candidate's score under the weights ``w``."""
    return [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]


def choose(items: Sequence[Any], scores: Sequence[float], rng: random.Random | None) -> Any:
    """The likeliest item (``rng`` None), or one drawn by the model's probabilities."""
    if rng is None:
        return items[max(range(len(items)), key=scores.__getitem__)]
    top = max(scores)
    return rng.choices(items, [math.exp(s - top) for s in scores])[0]


def report(train: dict[str, list[Example]] | None, test: dict[str, list[Example]],
           miss: dict[str, int], model: dict[str, list[float]]) -> None:
    """How often the model's likeliest candidate and the fast policy's choice are the real
    play, per situation and on every test turn (a turn with no candidate a miss for both)."""
    total = [0, 0, 0]
    for situation in SITUATIONS:
        w = model[situation]
        line = f"{situation:8}"
        if train is not None:
            tr, n_tr = hits(train[situation], w), len(train[situation])
            line += (f" train {n_tr:6}: model {100 * tr[0] / n_tr:5.1f}%, fast policy "
                     f"{100 * tr[1] / n_tr:5.1f}% |")
        te, n_te = hits(test[situation], w), len(test[situation])
        total = [total[0] + te[0], total[1] + te[1], total[2] + n_te + miss[situation]]
        print(f"{line} test {n_te:6} (+{miss[situation]} not among the candidates): model "
              f"{100 * te[0] / n_te:5.1f}%, fast policy {100 * te[1] / n_te:5.1f}%")
    print(f"every test turn ({total[2]}): model {100 * total[0] / total[2]:.1f}%, fast policy "
          f"{100 * total[1] / total[2]:.1f}%")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="fit a model to records and report its fidelity")
    f.add_argument("--train", required=True, help="comma-separated arena records")
    f.add_argument("--test", help="comma-separated records to test on (default: --cut)")
    f.add_argument("--cut", type=int, help="deal sets up to N train, later ones test")
    f.add_argument("--out", help="where to write the weights (JSON)")
    t = sub.add_parser("test", help="a fitted model's fidelity on records")
    t.add_argument("--model", required=True, help="the weights (fit --out)")
    t.add_argument("--test", required=True, help="comma-separated arena records")
    args = ap.parse_args()
    if args.command == "test":
        try:
            fitted = load(args.model)
        except ValueError as e:
            ap.error(str(e))
        try:
            test, miss = collect(args.test.split(","), None, True)
        except ValueError as e:
            ap.error(str(e))
        report(None, test, miss, fitted)
        return 0
    train_paths = args.train.split(",")
    test_paths = args.test.split(",") if args.test else train_paths
    if args.test is None and args.cut is None:
        ap.error("give --test or --cut")
    try:
        train, _ = collect(train_paths, args.cut, False)
        test, miss = collect(test_paths, args.cut if args.test is None else None, True)
    except ValueError as e:
        ap.error(str(e))
    model = {situation: fit(train[situation]) for situation in SITUATIONS}
    report(train, test, miss, model)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as g:
            json.dump(model, g)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
