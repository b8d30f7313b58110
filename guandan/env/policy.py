"""A learned policy: a small numpy network from observation arrays to action-id scores.

``logits = W2 · relu(W1 · x + b1) + b2`` over the fixed action ids, the illegal ones masked
out. :mod:`guandan.env.train` trains one; a trained policy plays as any other player:

>>> from guandan.players import make_player
>>> player = make_player("policy", weights="policy.npz")  # doctest: +SKIP

``make_player("policy")`` without ``weights`` reads the file named by the environment variable
``GUANDAN_POLICY``, so the arena and ``simulate`` can use it by name:
``GUANDAN_POLICY=policy.npz guandan arena --players policy,random``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from guandan.encoding import (
    ACTION_SIZE,
    OBSERVATION_SHAPE,
    action_mask,
    action_of,
    describe_action,
    observation_array,
)
from guandan.match import Action, Observation
from guandan.players.base import Reason

Array = npt.NDArray[np.float32]
FORMAT = "guandan-policy/1"


class Policy:
    """The network's parameters and its forward pass (batched: one row per decision)."""

    def __init__(self, hidden: int = 128, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        n_in = OBSERVATION_SHAPE[0]
        self.params: dict[str, Array] = {
            "w1": (rng.standard_normal((n_in, hidden)) * np.sqrt(2.0 / n_in)).astype(np.float32),
            "b1": np.zeros(hidden, dtype=np.float32),
            "w2": (rng.standard_normal((hidden, ACTION_SIZE)) * 0.01).astype(np.float32),
            "b2": np.zeros(ACTION_SIZE, dtype=np.float32),
        }

    def hidden(self, x: Array) -> Array:
        h: Array = np.maximum(x @ self.params["w1"] + self.params["b1"], 0.0)
        return h

    def logits(self, x: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array]:
        """The hidden layer and the masked logits (``-inf`` where the mask is False)."""
        h = self.hidden(x)
        z = h @ self.params["w2"] + self.params["b2"]
        return h, np.where(mask, z, -np.inf).astype(np.float32)

    def probabilities(self, x: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array]:
        h, z = self.logits(x, mask)
        z = z - z.max(axis=-1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=-1, keepdims=True)
        return h, p

    def save(self, path: str | Path, **meta: Any) -> None:
        arrays: dict[str, Any] = {"format": np.array(FORMAT), **self.params}
        arrays |= {f"meta_{k}": np.array(v) for k, v in meta.items()}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        try:
            data = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read a policy from {str(path)!r}: {e}") from None
        with data:
            if "format" not in data or str(data["format"]) != FORMAT:
                raise ValueError(f"{str(path)!r} is not a policy file ({FORMAT})")
            params = {k: data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2")}
        if params["w1"].shape[0] != OBSERVATION_SHAPE[0] or params["b2"].shape != (ACTION_SIZE,):
            raise ValueError(f"{str(path)!r} was trained on another observation or action "
                             "layout")
        policy = cls(hidden=params["b1"].shape[0])
        policy.params = params
        return policy


class PolicyPlayer:
    """Plays the legal action the policy scores highest (``make_player("policy", ...)``)."""

    name = "policy"

    def __init__(self, seed: int = 0, weights: str | None = None) -> None:
        path = weights or os.environ.get("GUANDAN_POLICY")
        if not path:
            raise ValueError("the policy player needs its weights: make_player('policy', "
                             "weights='policy.npz'), or set GUANDAN_POLICY to the file")
        self.seed = seed
        self.policy = Policy.load(path)
        self.reason = Reason("아직 고르지 않았습니다.", "Nothing chosen yet.")

    def act(self, obs: Observation) -> Action:
        if not obs.legal_actions:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        x = observation_array(obs)[None, :]
        mask = action_mask(obs)[None, :]
        _, z = self.policy.logits(x, mask)
        i = int(np.argmax(z[0]))
        self.reason = Reason(f"학습된 정책이 가장 높게 평가한 행동: {describe_action(i)}.",
                             f"The learned policy's highest-scored action: "
                             f"{describe_action(i)}.")
        return action_of(i, obs)


__all__ = ["Policy", "PolicyPlayer"]
