"""Players: ``make_player(name, seed)`` builds any player the project has, by name."""

from __future__ import annotations

import importlib

from guandan.players.base import Player, Reason

#: name -> "module:Class". A player class takes ``seed`` as keyword argument.
REGISTRY: dict[str, str] = {
    "random": "guandan.players.random:RandomPlayer",
    "greedy": "guandan.players.greedy:GreedyPlayer",
    "heuristic": "guandan.players.heuristic:HeuristicPlayer",
    "search": "guandan.players.search:SearchPlayer",
}

#: The page's levels (쉬움 easy, 보통 normal, 어려움 hard) and the player behind each.
DIFFICULTY: dict[str, str] = {"쉬움": "greedy", "보통": "heuristic", "어려움": "search"}
#: The strongest player within the time budget: the page's default level and its hints.
STRONGEST = "search"
DEFAULT_DIFFICULTY = "어려움"


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


__all__ = ["DEFAULT_DIFFICULTY", "DIFFICULTY", "REGISTRY", "STRONGEST", "Player", "Reason",
           "make_player"]
