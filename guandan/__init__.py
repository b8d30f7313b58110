"""Guandan (掼蛋, 관단): an exact rules engine, AI players and a web game.

>>> from guandan import parse_cards, classify
>>> [(r.kind, r.rank) for r in classify(parse_cards("H7 S9 D9"), "7")]
[('triple', '9')]
"""

from guandan.cards import Card, format_cards, parse_cards
from guandan.match import PASS, Match, Observation
from guandan.players import make_player
from guandan.plays import legal_plays
from guandan.readings import Reading, beats, classify

__all__ = [
    "PASS",
    "Card",
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
