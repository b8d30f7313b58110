"""Seats and teams: seats ``1 2 3 4`` play in that order; teams ``13`` and ``24`` sit opposite.

>>> next_seat(4), partner(2), team_of(3)
(1, 4, '13')
"""

from __future__ import annotations

from typing import Final

SEATS: Final = (1, 2, 3, 4)
TEAMS: Final = ("13", "24")


def next_seat(seat: int) -> int:
    """The seat whose turn comes after ``seat`` (1→2→3→4→1)."""
    return seat % 4 + 1


def previous_seat(seat: int) -> int:
    """The seat whose turn comes right before ``seat``."""
    return (seat + 2) % 4 + 1


def partner(seat: int) -> int:
    """The seat opposite ``seat``: its partner."""
    return (seat + 1) % 4 + 1


def team_of(seat: int) -> str:
    """The team of ``seat``: ``"13"`` or ``"24"``."""
    return "13" if seat in (1, 3) else "24"


def other_team(team: str) -> str:
    """The opposing team."""
    return "24" if team == "13" else "13"


def check_seat(seat: object) -> int:
    """Return ``seat`` if it is 1-4, else raise ``ValueError``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise ValueError(f"not a seat: {seat!r} (seats are 1, 2, 3, 4)")
    return seat
