"""Players: ``make_player(name, seed)`` builds any player the project has, by name."""

from __future__ import annotations

import importlib

from guandan.players.base import Player, Reason

#: name -> "module:Class". A player class takes ``seed`` as keyword argument.
REGISTRY: dict[str, str] = {
    "random": "guandan.players.random:RandomPlayer",
    "greedy": "guandan.players.greedy:GreedyPlayer",
    "heuristic": "guandan.players.heuristic:HeuristicPlayer",
}


def make_player(name: str, seed: int = 0) -> Player:
    """A new player called ``name`` (``random``, ``greedy``, …), seeded for repeatable play."""
    try:
        target = REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise ValueError(f"unknown player {name!r} (known: {known})") from None
    module, cls = target.split(":")
    player: Player = getattr(importlib.import_module(module), cls)(seed=seed)
    return player


__all__ = ["REGISTRY", "Player", "Reason", "make_player"]
