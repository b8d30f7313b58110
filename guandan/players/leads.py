"""Leads: the order a careful player leads the plays of its split in, and what a seat's calm
leads say about it.

A careful player leads the weakest play of its split first (the costliest: see
:mod:`guandan.players.decompose`), keeping its strong plays for later. ``lead_order`` ranks
the plays so; ``per_card`` raises a long play's rank, so that a player sheds its straights,
tubes, plates and full houses before singles and pairs of about the same weakness.

The other seats' calm leads (``Tracker.calm_leads``) then say two things:

- ``lead_bar``: a seat that leads its weakest first holds nothing weaker than the weakest play
  it led calmly (the search draws its sampled deals to fit this);
- ``careless``: a seat that led a weak play after a stronger one does not lead by this order.
  Outside programs often lead their long plays first; against them, so does our heuristic
  (``HeuristicCore.answer_size``), since that measured better against them
  (``docs/ai-notebook.md``, stop 32).

>>> from guandan.readings import Reading
>>> from guandan.cards import parse_cards
>>> pair8 = Reading("pair", "8", tuple(parse_cards("S8 D8")), "2")
>>> single5 = Reading("single", "5", tuple(parse_cards("S5")), "2")
>>> careless([single5, pair8]), careless([pair8, single5])
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from guandan.players.decompose import same_rank_cost, sequence_cost
from guandan.readings import SEQUENCE_KINDS, Reading

#: The heuristic's lead order: a play's weakness rises by this much per card past the first.
#: 0: the weakest play first, whatever its length. Leading long plays first (0.1) won more
#: hands against the competition's bots and fewer against our own heuristic, so the heuristic
#: leads so only against seats that do (``ANSWER_SIZE``).
LEAD_SIZE: Final = 0.0
#: The lead order the heuristic answers a careless opponent with (None: never changes).
ANSWER_SIZE: Final = 0.1
#: A calm lead says the seat held nothing weaker only if it was weak itself (its cost).
WEAK_LEAD: Final = 0.95
#: A seat whose calm lead is weaker than an earlier one by more than this (in cost) is not
#: leading its weakest first, and its leads are not read (``lead_bar``).
CARELESS_MARGIN: Final = 0.05


def lead_order(cost: float, size: int, per_card: float = LEAD_SIZE) -> tuple[float, int]:
    """How readily a careful player leads a play of its split (the highest first): the play's
    cost, raised by ``per_card`` for each card past the first, then its size.

    >>> lead_order(1.0, 5) < lead_order(1.15, 1)  # the three before a low straight
    True
    >>> lead_order(1.0, 5, 0.1) > lead_order(1.15, 1, 0.1)  # or the straight first
    True
    """
    return round(cost + per_card * (size - 1), 2), size


def lead_bar(leads: Sequence[Reading], per_card: float = LEAD_SIZE
             ) -> tuple[float, int] | None:
    """The weakest lead rank a seat may still hold, after these calm leads (None: no bar).

    Only weak leads count (costing at least ``WEAK_LEAD``: a jack single or weaker, any low
    pair, run or triple): a strong play, a bomb above all, is led to cash a winner or to go
    out, not because it is the weakest. A careless seat (``careless``) has no bar.
    """
    return _read(leads, per_card)[0]


def careless(leads: Sequence[Reading], per_card: float = LEAD_SIZE) -> bool:
    """Did the seat lead a weak play after a stronger one, by more than ``CARELESS_MARGIN``?
    Such a seat leads in another order than ``lead_order`` with ``per_card``."""
    return _read(leads, per_card)[1]


def _read(leads: Sequence[Reading], per_card: float
          ) -> tuple[tuple[float, int] | None, bool]:
    bar: tuple[float, int] | None = None
    for r in leads:
        if r.power or r.key >= (14 if r.kind in SEQUENCE_KINDS else 15):
            continue  # a winner (see ``APlay.control``)
        cost = (sequence_cost(r.kind, r.key) if r.kind in SEQUENCE_KINDS
                else same_rank_cost(r.kind, r.key))
        if cost < WEAK_LEAD:
            continue
        rank = lead_order(cost, len(r.cards), per_card)
        if bar is not None and rank[0] > bar[0] + CARELESS_MARGIN:
            # It led this weaker play after a stronger one: it does not lead its weakest
            # first (an outside program, another style), so its leads say nothing here.
            return None, True
        if bar is None or rank < bar:
            bar = rank
    return bar, False
