"""Players: ``make_player(name, seed)`` builds any player the project has, by name."""

from __future__ import annotations

import importlib
import inspect
import warnings
from typing import Any

from guandan.players.base import Player, Reason
from guandan.players.compiled import ENGINE, stale_modules

for _name in [f"players/{n}" for n in stale_modules()] + stale_modules(ENGINE):
    warnings.warn(f"guandan/{_name}.py was changed after it was compiled, and the "
                  "compiled module is the one Python runs: install the package again "
                  "(pip install -e .)", stacklevel=2)

#: name -> "module:Class". A player class takes ``seed`` as keyword argument.
REGISTRY: dict[str, str] = {
    "random": "guandan.players.random:RandomPlayer",
    "greedy": "guandan.players.greedy:GreedyPlayer",
    "heuristic": "guandan.players.heuristic:HeuristicPlayer",
    "search": "guandan.players.search:SearchPlayer",
    # A trained policy (guandan.env.train); needs numpy: pip install 'guandan-lab[learn]'.
    "policy": "guandan.env.policy:PolicyPlayer",
}

#: The page's levels (쉬움 easy, 보통 normal, 어려움 hard) and the player behind each.
DIFFICULTY: dict[str, str] = {"쉬움": "greedy", "보통": "heuristic", "어려움": "search"}
#: The strongest player within the time budget: the page's default level and its hints.
STRONGEST = "search"
DEFAULT_DIFFICULTY = "어려움"


def player_settings(name: str) -> list[str]:
    """The settings the player called ``name`` takes besides ``seed`` (its constructor's
    keyword arguments).

    >>> "samples" in player_settings("search"), player_settings("greedy")
    (True, [])
    """
    return _settings_of(_player_class(name))


def make_player(name: str, seed: int = 0, **settings: Any) -> Player:
    """A new player called ``name`` (``random``, ``greedy``, …), seeded for repeatable play.

    ``settings`` go to the player's constructor, for example a search that draws a fixed
    number of deals and ignores the clock: ``make_player("search", samples=64,
    budget_ms=None)``. A setting the player does not take raises ``ValueError``.
    """
    cls = _player_class(name)
    known = _settings_of(cls)
    unknown = sorted(set(settings) - set(known))
    if unknown:
        takes = ", ".join(known) or "none"
        raise ValueError(f"player {name!r} has no setting {', '.join(unknown)} "
                         f"(its settings: {takes})")
    player: Player = cls(seed=seed, **settings)
    return player


def _settings_of(cls: Any) -> list[str]:
    return [p for p in inspect.signature(cls).parameters if p != "seed"]


def _player_class(name: str) -> Any:
    try:
        target = REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise ValueError(f"unknown player {name!r} (known: {known})") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


__all__ = ["DEFAULT_DIFFICULTY", "DIFFICULTY", "REGISTRY", "STRONGEST", "Player", "Reason",
           "make_player", "player_settings"]
