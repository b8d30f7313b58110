"""Which trick each play and pass of a hand belongs to, and the play that took each trick.

Where a trick begins is the engine's: the match marks the play that led it (``Event.lead``; a
finished hand's record: ``records.trick_leads``). Tricks are numbered 1, 2 … by their leads; the
last play before a lead took the trick before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from guandan.web.models import Event


def number_tricks(turns: Sequence[Event], leads: Sequence[bool], last_over: bool) -> None:
    """Set ``trick`` and ``wins`` on ``turns`` (a hand's plays and passes in order, with
    ``leads`` saying which led a trick). ``last_over``: the last trick is over too (the hand
    ended, or everyone passed on its last play), so its last play took it."""
    trick = 0
    last_play: Event | None = None
    for turn, lead in zip(turns, leads, strict=True):
        if lead:
            if last_play is not None:
                last_play.wins = True
            trick += 1
        turn.trick, turn.wins = trick, False
        if turn.kind == "play":
            last_play = turn
    if last_over and last_play is not None:
        last_play.wins = True


def mark_finishes(events: Sequence[Event], finish_order: Sequence[int]) -> None:
    """Mark the play with which each seat went out (its last play of the hand)."""
    last_play: dict[int, int] = {}
    for i, e in enumerate(events):
        if e.kind == "play":
            last_play[e.seat] = i
    for rank, seat in enumerate(finish_order, start=1):
        at = last_play.get(seat)
        if at is not None:
            events[at].finished = rank
