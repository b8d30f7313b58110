"""Guandan (掼蛋, 관단): an exact rules engine, AI players and a web game.

>>> from guandan import parse_cards, classify
>>> [(r.kind, r.rank) for r in classify(parse_cards("H7 S9 D9"), "7")]
[('triple', '9')]

Importing the engine does not load the AI: ``make_player`` imports ``guandan.players`` when
it is first looked up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from guandan.cards import Card, format_cards, parse_cards
from guandan.deal import Deal
from guandan.match import PASS, Match, Observation
from guandan.plays import legal_plays
from guandan.readings import Reading, beats, classify

if TYPE_CHECKING:
    from guandan.players import make_player


def __getattr__(name: str) -> Any:
    if name == "make_player":
        from guandan.players import make_player

        return make_player
    raise AttributeError(f"module 'guandan' has no attribute {name!r}")


__all__ = [
    "PASS",
    "Card",
    "Deal",
    "Match",
    "Observation",
    "Reading",
    "beats",
    "classify",
    "format_cards",
    "legal_plays",
    "make_player",
    "parse_cards",
]
