"""Train a policy on batched tables: ``guandan train [--minutes M] [--seed S] [--out FILE]``.

A policy-gradient (REINFORCE) learner in numpy alone. It plays one team at every table
(seats 1 and 3 at even tables, 2 and 4 at odd ones), sampling its actions from
:class:`~guandan.env.policy.Policy`; the other team is played by ``random`` at some tables
and ``greedy`` at the others (``--greedy-share``, rising over the run as ``--ramp`` says).
Every decision of a hand is credited with that hand's reward for the learner's team (its
promotion, or the negative), less the batch's mean, and the network takes an Adam step every
``--batch`` decisions. It prints its progress (the learner's mean reward per hand against each
opponent) and saves the policy, which then plays as ``make_player("policy", weights=FILE)``:

    guandan train --minutes 10 --seed 0 --out policy.npz
    GUANDAN_POLICY=policy.npz guandan arena --players policy,random --mode hand --hands 200
    GUANDAN_POLICY=policy.npz guandan arena --players policy,greedy --mode hand --hands 200

The same seed and the same number of updates (``--updates``) give the same policy; with
``--minutes`` the number of updates follows the machine's speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from guandan.encoding import action_id
from guandan.env.policy import Array, Policy
from guandan.env.tables import Tables
from guandan.players import make_player
from guandan.presets import PRESETS
from guandan.seats import team_of


@dataclass
class Adam:
    """Adam's moments for each parameter."""

    lr: float
    m: dict[str, Array] = field(default_factory=dict)
    v: dict[str, Array] = field(default_factory=dict)
    t: int = 0

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            m = self.m.setdefault(k, np.zeros_like(g))
            v = self.v.setdefault(k, np.zeros_like(g))
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1 ** self.t)
            vhat = v / (1 - b2 ** self.t)
            params[k] -= (self.lr * mhat / (np.sqrt(vhat) + eps)).astype(np.float32)


def gradients(policy: Policy, x: Array, mask: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64],
              advantages: Array, entropy: float) -> tuple[dict[str, Array], float]:
    """The gradients of ``-advantage · log p(action) - entropy · H(p)``, averaged over the rows,
    and the mean entropy."""
    h, p = policy.probabilities(x, mask)
    n = len(actions)
    logp = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), 0.0)
    ent = -(p * logp).sum(axis=1)
    g = p * advantages[:, None]
    g[np.arange(n), actions] -= advantages
    g += entropy * p * (logp + ent[:, None])  # the gradient of -entropy · H
    g /= n
    w2 = policy.params["w2"]
    dh = (g @ w2.T) * (h > 0)
    grads = {"w2": (h.T @ g).astype(np.float32), "b2": g.sum(axis=0).astype(np.float32),
             "w1": (x.T @ dh).astype(np.float32), "b1": dh.sum(axis=0).astype(np.float32)}
    return grads, float(ent.mean())


def train(minutes: float, seed: int, tables_n: int = 32, batch: int = 4096, lr: float = 1e-3,
          hidden: int = 128, entropy: float = 0.01, greedy_share: float = 0.5,
          ramp: float = 0.5, rules: str = "site", updates: int | None = None,
          log: bool = True, imitate: float = 0.0, rl_lr: float | None = None) -> Policy:
    """Train for ``minutes`` (or exactly ``updates`` updates) and return the policy.

    For the first ``imitate`` share of the run the learner still plays its own sampled
    actions but learns to choose what ``greedy`` would in the positions it meets (DAgger);
    after that, policy gradient from the hands' rewards, at ``rl_lr`` (``lr`` if None).
    """
    rng = np.random.default_rng(seed)
    policy = Policy(hidden=hidden, seed=seed)
    adam = Adam(lr)
    tables = Tables(tables_n, rules=rules, seed=seed)
    learner = ["13" if i % 2 == 0 else "24" for i in range(tables_n)]
    greedy = make_player("greedy", seed=seed)
    obs, mask, seat = tables.reset()
    pending: list[list[tuple[Array, npt.NDArray[np.bool_], int, int]]] = [
        [] for _ in range(tables_n)]
    labels: list[int] = []
    xs: list[Array] = []
    ms: list[npt.NDArray[np.bool_]] = []
    acts: list[int] = []
    rets: list[float] = []
    results: dict[str, list[float]] = {"random": [], "greedy": []}
    start = time.perf_counter()
    done_updates = 0

    def opponent_of(i: int) -> str:
        share = greedy_share if elapsed_share() >= ramp else greedy_share * elapsed_share() / ramp
        return "greedy" if (i * 0.618034) % 1.0 < share else "random"

    def elapsed_share() -> float:
        if updates is not None:
            return done_updates / max(updates, 1)
        return (time.perf_counter() - start) / (minutes * 60.0)

    opponents = [opponent_of(i) for i in range(tables_n)]
    while (done_updates < updates) if updates is not None else elapsed_share() < 1.0:
        ids = np.zeros(tables_n, dtype=np.int64)
        mine = np.array([team_of(int(s)) == learner[i] for i, s in enumerate(seat)])
        rows = np.flatnonzero(mine)
        imitating = elapsed_share() < imitate
        if len(rows):
            _, p = policy.probabilities(obs[rows], mask[rows])
            draws = (p.cumsum(axis=1) > rng.random((len(rows), 1))).argmax(axis=1)
            for r, a in zip(rows, draws, strict=True):
                ids[r] = a
                label = -1
                if imitating:
                    o = tables.observation(int(r))
                    label = action_id(greedy.act(o), o)
                pending[r].append((obs[r].copy(), mask[r].copy(), int(a), label))
        for r in np.flatnonzero(~mine):
            if opponents[r] == "greedy":
                o = tables.observation(int(r))
                ids[r] = action_id(greedy.act(o), o)
            else:
                legal = np.flatnonzero(mask[r])
                ids[r] = legal[rng.integers(len(legal))]
        obs, mask, seat, rewards, dones = tables.step(ids)
        for r in np.flatnonzero(dones):
            reward = float(rewards[r, 0] if learner[r] == "13" else rewards[r, 1])
            results[opponents[r]].append(reward)
            for x, m, a, label in pending[r]:
                xs.append(x)
                ms.append(m)
                acts.append(a)
                labels.append(label)
                rets.append(reward)
            pending[r] = []
            opponents[r] = opponent_of(int(r))  # the next hand's opponent
        if len(acts) >= batch:
            phase = "imitate" if min(labels) >= 0 else "reinforce"
            if phase == "imitate":  # the cross-entropy towards greedy's choices
                chosen = np.asarray(labels, dtype=np.int64)
                adv = np.ones(len(chosen), dtype=np.float32)
            else:
                chosen = np.asarray(acts, dtype=np.int64)
                adv = np.asarray(rets, dtype=np.float32)
                adv = (adv - adv.mean()) / (adv.std() + 1e-6)
                if rl_lr is not None:
                    adam.lr = rl_lr
            grads, ent = gradients(policy, np.stack(xs), np.stack(ms), chosen, adv, entropy)
            adam.step(policy.params, grads)
            done_updates += 1
            if log:
                recent = {k: v[-200:] for k, v in results.items()}
                shown = ", ".join(f"vs {k} {np.mean(v):+.2f} ({len(results[k])} hands)"
                                  for k, v in recent.items() if v)
                print(f"{time.perf_counter() - start:6.0f} s  update {done_updates:4d} {phase:9} "
                      f"entropy {ent:.2f}  mean reward per hand: {shown}", flush=True)
            xs, ms, acts, rets, labels = [], [], [], [], []
    return policy


def train_main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="guandan train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--updates", type=int, default=None,
                    help="stop after this many updates instead of the clock (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="policy.npz")
    ap.add_argument("--rules", default="site", choices=sorted(PRESETS))
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--greedy-share", type=float, default=0.5)
    ap.add_argument("--ramp", type=float, default=0.5,
                    help="share of the run over which the greedy opponents come in")
    ap.add_argument("--imitate", type=float, default=0.0,
                    help="share of the run spent learning greedy's choices first (DAgger)")
    ap.add_argument("--rl-lr", type=float, default=None,
                    help="the learning rate after imitation (default: --lr)")
    args = ap.parse_args(argv)
    if args.minutes <= 0 or args.tables < 1 or args.batch < 1:
        print("minutes, tables and batch must be positive", file=sys.stderr)
        return 2
    policy = train(args.minutes, args.seed, args.tables, args.batch, args.lr, args.hidden,
                   args.entropy, args.greedy_share, args.ramp, args.rules, args.updates,
                   imitate=args.imitate, rl_lr=args.rl_lr)
    policy.save(args.out, seed=args.seed, rules=args.rules)
    print(f"saved {args.out}: play it with GUANDAN_POLICY={args.out} guandan arena "
          f"--players policy,random (or make_player('policy', weights={args.out!r}))")
    return 0


__all__ = ["Adam", "gradients", "train", "train_main"]
