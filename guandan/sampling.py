"""One seat's knowledge of the cards it cannot see, and a draw of them.

What a seat has seen (its hand, the counts, the plays, the tribute) pins some of the hidden
cards and bounds others; ``sample_hands`` deals the rest at random among the other seats within
those bounds, and ``place_unseen`` is the one routine that places cards under bounds (the
search's tracker calls it too, with bounds of its own). ``Deal.sample`` builds a position on
``sample_hands``.

The observation is read through :class:`Observed`, the part of ``guandan.match.Observation``
this module needs, so that sampling imports nothing of the match or the deal: imports run
match -> deal -> sampling.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple, Protocol

from guandan.cards import Card, full_deck
from guandan.readings import Reading
from guandan.seats import SEATS
from guandan.tribute import Gift, givers


class SeenTribute(Protocol):
    """The hand's tribute as one seat saw it (``guandan.match.TributeView``)."""

    @property
    def kind(self) -> str: ...
    @property
    def gifts(self) -> Sequence[Gift]: ...
    @property
    def returns(self) -> Sequence[Gift]: ...


class SeenTurn(Protocol):
    """One event of the hand (``guandan.match.Event``): a play shows its cards."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def play(self) -> Reading | None: ...


class SeenResult(Protocol):
    """A finished hand of the match (``guandan.match.HandResult``)."""

    @property
    def finish_order(self) -> Sequence[int]: ...


class Observed(Protocol):
    """What one seat has seen of the hand (``guandan.match.Observation``), as sampling reads it."""

    @property
    def seat(self) -> int: ...
    @property
    def level(self) -> str: ...
    @property
    def hand(self) -> Sequence[Card]: ...
    @property
    def counts(self) -> Mapping[int, int]: ...
    @property
    def history(self) -> Sequence[SeenTurn]: ...
    @property
    def tribute(self) -> SeenTribute: ...
    @property
    def results(self) -> Sequence[SeenResult]: ...


def known_cards(obs: Observed, played: Mapping[int, Sequence[Card]] | None = None
                ) -> dict[int, Counter[Card]]:
    """The cards ``obs``'s seat knows each other seat holds: a tribute gift stays with its
    receiver until it plays a copy of it (gifts are shown to all; a return may not be the very
    card just received, so returning another copy leaves the gift), and so does a card this
    seat returned. ``played``: the cards each seat has played this hand (read from the history
    if not given).
    """
    if played is None:
        played = played_cards(obs)
    pinned: dict[int, Counter[Card]] = {s: Counter() for s in SEATS}
    for g in obs.tribute.gifts:
        pinned[g.receiver][g.card] += 1
    for r in obs.tribute.returns:
        if r.giver == obs.seat:
            pinned[r.receiver][r.card] += 1
    return {s: Counter() if s == obs.seat else pinned[s] - Counter(played[s]) for s in SEATS}


def played_cards(obs: Observed) -> dict[int, list[Card]]:
    """The cards each seat has played this hand."""
    played: dict[int, list[Card]] = {s: [] for s in SEATS}
    for e in obs.history:
        if e.kind == "play" and e.play is not None:
            played[e.seat].extend(e.play.cards)
    return played


class GiftBounds(NamedTuple):
    """What the hand's tribute says of the cards of the seats other than the observer's
    (``gift_bounds``)."""

    #: Per giver: the strongest card other than a wild it may hold (its gift's strength).
    tops: dict[int, int]
    #: Per giver: how many cards above that it may hold all the same (the return it received,
    #: if the observer did not see it, unless it has played a card above its gift since).
    spare: dict[int, int]
    #: After an exemption, the givers: the big jokers nobody has played are theirs (else ()).
    jokers: tuple[int, ...]


def gift_bounds(obs: Observed, played: Mapping[int, Sequence[Card]] | None = None
                ) -> GiftBounds:
    """What the tribute says of the other seats' cards: a gift is its giver's strongest card,
    never a wild heart, so the giver held nothing stronger but wilds, and now holds nothing
    stronger but wilds and the return it received; after an exemption the givers held both big
    jokers. ``played``: the cards each seat has played this hand (read from the history if
    not given).
    """
    me, level = obs.seat, obs.level
    if played is None:
        played = played_cards(obs)
    tops: dict[int, int] = {}
    spare: dict[int, int] = {}
    for g in obs.tribute.gifts:
        if g.giver != me:
            top = tops[g.giver] = g.card.strength(level)
            seen = me in (g.giver, g.receiver)  # this seat saw the return to the giver
            above = sum(1 for c in played[g.giver]
                        if not c.is_wild(level) and c.strength(level) > top)
            spare[g.giver] = max(0, (0 if seen else 1) - above)
    jokers: tuple[int, ...] = ()
    if obs.tribute.kind == "exempt" and obs.results:
        jokers = givers(obs.results[-1].finish_order)
    return GiftBounds(tops, spare, jokers)


def sample_hands(obs: Observed, rng: random.Random) -> dict[int, list[Card]]:
    """Every seat's cards, consistent with what ``obs``'s seat has seen: its own hand; the
    others' counts; the cards nobody has shown dealt at random among the other seats, where
    what the seat knows for certain holds:

    - a tribute gift stays with its receiver until it plays a copy of it (gifts are shown to
      all), and so does a card this seat returned;
    - a giver held nothing stronger than its gift at the deal, the level's hearts aside: it
      holds no such card now but for the return it received (one, if this seat did not see it);
    - after an exemption the givers hold the big jokers nobody has played.

    The same ``rng`` state gives the same cards (``place_unseen`` deals them).
    """
    me = obs.seat
    pool: Counter[Card] = Counter(full_deck())
    pool.subtract(obs.hand)
    played = played_cards(obs)
    for cards in played.values():
        pool.subtract(cards)
    if any(n < 0 for n in pool.values()):
        raise ValueError("the observation shows more copies of a card than two decks hold")
    counts = {s: obs.counts[s] for s in SEATS if s != me}
    if sum(counts.values()) != sum(pool.values()):
        raise ValueError("the cards left do not fit the observed counts")
    hands = place_unseen(pool, counts, known_cards(obs, played), gift_bounds(obs, played),
                        obs.level, rng)
    if hands is None:
        raise ValueError("no deal fits what the seat has seen")
    hands[me] = list(obs.hand)
    return hands


#: No bound on a seat's strongest card (a strength above every card's).
ANY_CARD: Final = 99


def place_unseen(pool: Mapping[Card, int], counts: Mapping[int, int],
                known: Mapping[int, Mapping[Card, int]], bounds: GiftBounds, level: str,
                rng: random.Random, caps: Mapping[int, int] | None = None
                ) -> dict[int, list[Card]] | None:
    """Give the cards of ``pool`` to the seats of ``counts`` (how many cards each holds): each
    first takes what it is known to hold (``known``, as far as the pool has it), then the rest
    go at random (each card in proportion to the room left where it may go), so that

    - a giver of the tribute (``bounds``, see ``gift_bounds``) takes no card stronger than its
      gift but wilds, apart from its spare; after an exemption the givers take the big jokers;
    - a seat with a cap (``caps``: the strength of the strongest card it may hold, wilds
      included) takes nothing stronger.

    Exact: a card goes only where the cards still to come fit (Hall's condition), so the cards
    are placed whenever they can be; None when none does. In a made-up position cards beyond the
    seats' room are left out, and with too few cards some seats get fewer than their count. The
    pool's cards are shuffled in sorted order: the same ``rng`` state gives the same hands. Every
    seat of ``SEATS`` has a list in the result (empty for the seats not in ``counts``).

    >>> from guandan.cards import parse_cards
    >>> pool = Counter(parse_cards("SA HA S3 S4"))
    >>> hands = place_unseen(pool, {2: 2, 4: 2}, {}, GiftBounds({}, {}, ()), "2",
    ...                     random.Random(1), caps={2: 4})
    >>> sorted(hands[2]), sorted(hands[4])  # seat 2 may hold nothing above a four
    ([Card('S3'), Card('S4')], [Card('SA'), Card('HA')])
    """
    pool = Counter(pool)
    hands: dict[int, list[Card]] = {s: [] for s in (0, *SEATS)}  # 0: no seat (below)
    room: dict[int, int] = {}
    seats = [s for s in SEATS if counts.get(s, 0) > 0]
    for s in seats:
        for c, n in sorted(known.get(s, {}).items()):
            k = min(n, pool[c], counts[s] - len(hands[s]))
            if k > 0:
                hands[s].extend([c] * k)
                pool[c] -= k
        room[s] = counts[s] - len(hands[s])
    # Nodes that take cards: (seat, room, strongest card, strongest card but a wild). A
    # giver's room splits in two: up to its gift, and its spare (the return it received).
    nodes: list[tuple[int, int, int, int]] = []
    for s in seats:
        cap = caps.get(s, ANY_CARD) if caps is not None else ANY_CARD
        top = bounds.tops.get(s)
        if top is None:
            nodes.append((s, room[s], cap, ANY_CARD))
        else:
            free = min(bounds.spare.get(s, 0), room[s])
            nodes.append((s, room[s] - free, cap, top))
            if free:
                nodes.append((s, free, cap, ANY_CARD))
    cards = sorted(pool.elements())
    surplus = len(cards) - sum(room.values())
    if surplus > 0:  # a made-up position: the cards no seat has room for go to no one
        nodes.append((0, surplus, ANY_CARD, ANY_CARD))
    jokers_to = sum(1 << i for i, n in enumerate(nodes) if n[0] in bounds.jokers)
    full = (1 << len(nodes)) - 1
    rng.shuffle(cards)
    bound: list[tuple[int, Card]] = []
    free_cards: list[Card] = []
    # Every node takes a wild up to ``low_wild``, and any other card up to ``low``.
    low_wild = min((n[2] for n in nodes), default=ANY_CARD)
    low = min(low_wild, min((n[3] for n in nodes), default=ANY_CARD))
    if low >= ANY_CARD and not jokers_to:  # nothing bound: the shuffled cards as they are
        free_cards = cards
    else:
        for c in cards:
            st = c.strength(level)
            wild = c.is_wild(level)
            joker = c.rank == "BJ" and jokers_to != 0
            if st <= (low_wild if wild else low) and not joker:
                free_cards.append(c)
                continue
            mask = jokers_to if joker else full
            for i, (_, _, cap, top) in enumerate(nodes):
                if st > cap or (st > top and not wild):
                    mask &= ~(1 << i)
            if mask == full:
                free_cards.append(c)
            else:
                bound.append((mask, c))
    bound.sort(key=lambda x: x[0].bit_count())  # stable: the shuffled order within a mask
    left = [n[1] for n in nodes]
    waiting: Counter[int] = Counter(m for m, _ in bound)
    waiting[full] += len(free_cards)
    if not _fits(waiting, left):
        return None
    for m, c in bound:
        waiting[m] -= 1
        choices = [i for i in range(len(nodes)) if m >> i & 1 and left[i] > 0]
        while True:
            total = sum(left[i] for i in choices)
            x = rng.random() * total
            pick = choices[-1]
            for i in choices:
                x -= left[i]
                if x < 0:
                    pick = i
                    break
            left[pick] -= 1
            if _fits(waiting, left):
                break
            left[pick] += 1
            choices.remove(pick)  # some choice fits: the rest fitted before this card
        hands[nodes[pick][0]].append(c)
    i = 0
    for n, (s, _, _, _) in enumerate(nodes):
        hands[s].extend(free_cards[i:i + left[n]])
        i += left[n]
    del hands[0]
    return hands


def _fits(waiting: Mapping[int, int], left: Sequence[int]) -> bool:
    """Can the cards still to place (a count per mask of nodes allowed) go to nodes with
    ``left`` room? Hall's condition: no set of nodes is offered more cards that can only go
    there than it has room for (the empty set included: a card no node may take)."""
    n = len(left)
    for subset in range(1 << n):
        need = sum(k for m, k in waiting.items() if k and m & ~subset == 0)
        if need > sum(left[i] for i in range(n) if subset >> i & 1):
            return False
    return True


__all__ = ["ANY_CARD", "GiftBounds", "Observed", "SeenResult", "SeenTribute", "SeenTurn",
           "gift_bounds", "known_cards", "place_unseen", "played_cards", "sample_hands"]
