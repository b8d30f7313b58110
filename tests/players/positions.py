"""Constructed positions: an observation built from a few cards, for testing decisions."""

from __future__ import annotations

from collections.abc import Sequence

from guandan.cards import Card, parse_cards
from guandan.deal import TableEntry
from guandan.match import PASS, Action, Event, Observation, TributeView
from guandan.plays import legal_plays
from guandan.readings import Reading, classify
from guandan.tribute import Gift


def reading(cards: str, level: str, kind: str | None = None) -> Reading:
    """The (strongest, or the named kind's) reading of ``cards`` at ``level``."""
    rs = classify(parse_cards(cards), level)
    if kind is not None:
        rs = [r for r in rs if r.kind == kind]
    assert rs, f"{cards} is no play at level {level}"
    return rs[0]


def position(
    hand: str,
    level: str = "2",
    counts: dict[int, int] | None = None,
    table: tuple[int, str] | None = None,
    seat: int = 1,
    history: Sequence[Event] = (),
    finish_order: Sequence[int] = (),
) -> Observation:
    """Seat ``seat`` to act holding ``hand``; ``table`` is ``(seat, cards)`` of the play to beat.

    ``counts`` gives the other seats' card counts (default 27 each); the history holds the
    table's play unless one is given.
    """
    cards: list[Card] = parse_cards(hand)
    cnt = {1: 27, 2: 27, 3: 27, 4: 27}
    if counts:
        cnt.update(counts)
    cnt[seat] = len(cards)
    entry = None
    events = list(history)
    if table is not None:
        entry = TableEntry(table[0], reading(table[1], level))
        if not history:
            events = [Event("play", table[0], play=entry.play)]
    actions: list[Action] = list(legal_plays(cards, level, None if entry is None else entry.play))
    if entry is not None:
        actions.append(PASS)
    trick = tuple(events[-1:]) if entry is not None else ()
    return Observation(
        seat=seat, rules="site", match_number=1, hand_number=1, phase="play",
        hand=tuple(cards), level=level, team_levels={"13": level, "24": level},
        a_tries={"13": 0, "24": 0}, counts=cnt, table=entry, leader=seat,
        history=tuple(events), trick=trick, finish_order=tuple(finish_order),
        legal_actions=tuple(actions), to_act=seat,
        tribute=TributeView("none", (), ()),
    )


def return_position(hand: str, level: str, returnable: str, seat: int = 1,
                    giver: int | None = None) -> Observation:
    """Seat ``seat`` must return one of ``returnable`` (the cards it may give back) to
    ``giver``, whose gift is the strongest card of ``hand`` (no gift recorded when None)."""
    cards = parse_cards(hand)
    gifts: tuple[Gift, ...] = ()
    if giver is not None:
        gift = max(cards, key=lambda c: c.strength(level))
        gifts = (Gift(giver, seat, gift),)
    obs = position(hand, level, seat=seat)
    return Observation(
        seat=seat, rules="site", match_number=1, hand_number=2, phase="return",
        hand=tuple(cards), level=level, team_levels=obs.team_levels, a_tries=obs.a_tries,
        counts=obs.counts, table=None, leader=4, history=(), trick=(), finish_order=(),
        legal_actions=tuple(parse_cards(returnable)), to_act=seat,
        tribute=TributeView("single" if gifts else "none", gifts, ()),
    )
