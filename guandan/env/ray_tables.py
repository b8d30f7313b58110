"""Batched tables on a Ray cluster: ``actors × tables`` tables, stepped from one driver.

>>> tables = RayTables(actors=2, tables=64, rules="site", seed=0)   # doctest: +SKIP
>>> obs, mask, seat = tables.reset()                                 # (128, ...) arrays
>>> obs, mask, seat, rewards, dones = tables.step(actions)           # one id per table

Each Ray actor keeps a :class:`~guandan.env.tables.Tables` of ``tables`` tables (the compiled
step, where the CPU time goes); :meth:`RayTables.step` sends each actor its slice of the ids,
all at once, and joins their arrays in actor order, so the arrays are those of one
``Tables`` per actor laid end to end. Actor ``k`` (from 0) numbers its matches ``k + 1``,
``k + 1 + actors``, … (``first_match``, ``match_step``): no match is played twice, and the run
is repeatable from the seed. For self-play that outgrows one machine: ``address`` is what
``ray.init`` takes (:mod:`guandan.raypool`); each actor holds one CPU.

Needs the ``[learn]`` and ``[ray]`` extras.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from guandan.env.tables import Tables
from guandan.raypool import connect


class _Actor:
    """One actor's tables (made on the worker)."""

    def __init__(self, n: int, rules: str, seed: int, episode: str, first: int,
                 step: int) -> None:
        self.tables = Tables(n, rules=rules, seed=seed, episode=episode, first_match=first,
                             match_step=step)

    def reset(self) -> tuple[Any, ...]:
        return self.tables.reset()

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[Any, ...]:
        return self.tables.step(actions)


class RayTables:
    """``actors`` Ray actors of ``tables`` tables each (see the module docstring)."""

    def __init__(self, actors: int, tables: int, rules: str = "site", seed: int = 0,
                 episode: str = "hand", address: str | None = None) -> None:
        if isinstance(actors, bool) or not isinstance(actors, int) or actors < 1:
            raise ValueError(f"the number of actors is an integer ≥ 1, not {actors!r}")
        Tables(tables, rules=rules, seed=seed, episode=episode)  # the same checks, here
        ray, self._connected = connect(address)
        self._ray = ray
        remote = ray.remote(num_cpus=1)(_Actor)
        self.n = actors * tables
        self.per_actor = tables
        self._actors = [remote.remote(tables, rules, seed, episode, k + 1, actors)
                        for k in range(actors)]

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_],
                             npt.NDArray[np.int64]]:
        """Every actor's tables afresh: the observations, masks and seats to act."""
        parts = self._ray.get([a.reset.remote() for a in self._actors])
        obs, mask, seat = (np.concatenate([p[k] for p in parts]) for k in range(3))
        return obs, mask, seat

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64],
            npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """One id per table (``actors × tables`` of them, actor by actor); the five arrays of
        :meth:`Tables.step <guandan.env.tables.Tables.step>` for all the tables. A
        ``ValueError`` of an actor's tables is raised here (with the table numbered within
        its actor); the other actors have stepped."""
        ids = np.asarray(actions)
        if ids.shape != (self.n,) or ids.dtype.kind not in "iu":
            raise ValueError(f"give one integer action id per table: shape ({self.n},), "
                             f"not {ids.shape} of {ids.dtype}")
        m = self.per_actor
        refs = [a.step.remote(ids[k * m:(k + 1) * m]) for k, a in enumerate(self._actors)]
        try:
            parts = self._ray.get(refs)
        except self._ray.exceptions.RayTaskError as e:
            raise e.as_instanceof_cause() from None
        obs, mask, seat, rewards, dones = (np.concatenate([p[k] for p in parts])
                                           for k in range(5))
        return obs, mask, seat, rewards, dones

    def close(self) -> None:
        """End the actors (and the connection, if this made it)."""
        for a in self._actors:
            self._ray.kill(a)
        self._actors = []
        if self._connected:
            self._ray.shutdown()
            self._connected = False


__all__ = ["RayTables"]
