"""Card tracking: what one seat can infer about the cards it cannot see.

Everything here is computed from an observation alone: the seat's own cards, the public
history (gifts, plays, passes) and the returns the seat took part in. It gives

- ``unseen``: the cards not in this seat's hand and not yet played (held by the other seats);
- ``pinned``: cards known to be in a given seat's hand (a tribute gift it received, a card this
  seat returned to it), unless it has played a copy since (``guandan.sampling.known_cards``, what
  ``Deal.sample`` keeps too);
- ``caps``: the strongest single a seat can hold, inferred from passes that a player who could
  beat would not have made (it passed on an opponent's single that left that opponent with at
  most two cards);
- ``tribute``: what the hand's tribute says (``guandan.sampling.gift_bounds``, the bounds
  ``Deal.sample`` keeps too): a gift is its giver's strongest card, never a wild heart, so the
  giver holds nothing stronger but wilds and the return it received; after an exemption the
  givers hold the big jokers;
- ``calm_leads``: the plays each seat led freely while nobody was close to going out: a
  careful player then leads the weakest play of its hand, so these say which weak plays it no
  longer holds (the search draws its sampled deals to fit them);
- ``pressed_passes``: the plays each seat passed on when an opponent was about to go out
  (urgency 2): a player then beats whatever it can, so it holds no play of that kind and size
  that beats them, for good (cards only leave a hand): ``cannot_beat``;
- ``calm_bombs``: the bombs each seat played on an opponent's play while calm (urgency 0) and
  still holding many cards (``CALM_BOMB_KEPT``): not a bomb that takes the hand out, but one
  spent early, which a careful player does not do; such a seat bombs back readily
  (``Tracker.bombs_readily``);
- ``sample``: random hands for the other seats consistent with all of the above.

>>> from guandan.match import Match
>>> m = Match(seed=3)
>>> t = Tracker.from_observation(m.observation(1))
>>> sum(t.unseen.values()), t.counts[2]
(81, 27)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from guandan.cards import Card, full_deck, rank_strength
from guandan.readings import Reading
from guandan.sampling import (
    ANY_CARD,
    GiftBounds,
    gift_bounds,
    known_cards,
    place_unseen,
    played_cards,
)
from guandan.seats import SEATS, partner

if TYPE_CHECKING:
    from guandan.match import Observation

#: No cap: any single may be held.
NO_CAP = ANY_CARD
#: A calm bomb counts (``calm_bombs``) when the bomber still holds at least this many cards.
CALM_BOMB_KEPT = 10


@dataclass
class Tracker:
    """What ``seat`` knows of the hidden cards (see the module docstring)."""

    seat: int
    level: str
    hand: list[Card]
    counts: dict[int, int]
    unseen: Counter[Card]
    pinned: dict[int, Counter[Card]] = field(default_factory=dict)
    caps: dict[int, int] = field(default_factory=dict)
    played: dict[int, list[Reading]] = field(default_factory=dict)
    calm_leads: dict[int, list[Reading]] = field(default_factory=dict)
    calm_passes: dict[int, list[Reading]] = field(default_factory=dict)
    pressed_passes: dict[int, list[Reading]] = field(default_factory=dict)
    calm_bombs: dict[int, int] = field(default_factory=dict)
    tribute: GiftBounds = field(default_factory=lambda: GiftBounds({}, {}, ()))

    @classmethod
    def from_observation(cls, obs: Observation) -> Tracker:
        seat, level = obs.seat, obs.level
        hand = list(obs.hand)
        unseen: Counter[Card] = Counter(full_deck())
        unseen.subtract(hand)
        shown = played_cards(obs)  # the cards each seat has played, read once
        pinned = known_cards(obs, shown)
        played: dict[int, list[Reading]] = {s: [] for s in SEATS}
        caps = dict.fromkeys(SEATS, NO_CAP)
        calm_leads: dict[int, list[Reading]] = {s: [] for s in SEATS}
        calm_passes: dict[int, list[Reading]] = {s: [] for s in SEATS}
        pressed: dict[int, list[Reading]] = {s: [] for s in SEATS}
        calm_bombs = dict.fromkeys(SEATS, 0)
        # Cards held at the start of play: the counts now plus what each seat has played since.
        left = dict(obs.counts)
        for e in obs.history:
            if e.kind == "play" and e.play is not None:
                left[e.seat] += len(e.play.cards)
        # The play each pass answered: the last play (a play that led says a trick ended).
        table: tuple[int, Reading] | None = None
        for e in obs.history:
            if e.kind == "play" and e.play is not None:
                cards = e.play.cards
                if e.lead:
                    table = None  # the trick before ended (the deal says so)
                if table is None and all(left[s] > 2 for s in SEATS
                                         if s != e.seat and left[s] > 0):
                    calm_leads[e.seat].append(e.play)
                elif (table is not None and e.play.power and table[0] != partner(e.seat)
                        and left[e.seat] - len(cards) >= CALM_BOMB_KEPT
                        and urgency(e.seat, table[0], left) == 0):
                    calm_bombs[e.seat] += 1
                unseen.subtract(cards)
                played[e.seat].append(e.play)
                calm_passes[e.seat] = []  # its hand has changed
                left[e.seat] -= len(cards)
                table = (e.seat, e.play)
            elif e.kind == "pass" and table is not None:
                owner, play = table
                if (play.kind == "single" and owner != partner(e.seat) and left[owner] <= 2
                        and left[owner] > 0):
                    caps[e.seat] = min(caps[e.seat], play.key)
                if owner != partner(e.seat) and not play.power:
                    u = urgency(e.seat, owner, left)
                    if u == 0:
                        calm_passes[e.seat].append(play)
                    elif u == 2:
                        pressed[e.seat].append(play)
        for s in SEATS:
            for c in list(pinned[s]):
                pinned[s][c] = min(pinned[s][c], max(0, unseen[c]))
            pinned[s] = +pinned[s]
        unseen = +unseen
        return cls(seat, level, hand, dict(obs.counts), unseen, pinned, caps, played,
                   calm_leads, calm_passes, pressed, calm_bombs, gift_bounds(obs, shown))

    # -- questions -----------------------------------------------------------------------------

    def bombs_readily(self, seat: int) -> bool:
        """Has an opponent of ``seat`` been seen bombing while calm (``calm_bombs``)? Then a
        bomb of ``seat``'s is likely to be bombed back."""
        mate = partner(seat)
        return any(self.calm_bombs.get(s, 0) > 0 for s in SEATS if s != seat and s != mate)

    def others(self) -> list[int]:
        """The other seats still holding cards."""
        return [s for s in SEATS if s != self.seat and self.counts.get(s, 0) > 0]

    def cannot_beat(self, seat: int, play: Reading) -> bool:
        """Has ``seat`` shown that it holds no play of ``play``'s kind and size beating it?

        It passed, pressed (``pressed_passes``), on such a play no stronger than ``play``: it
        held nothing above that one, so nothing above this one either.
        """
        if play.power:
            return False
        n = len(play.cards)
        return any(q.kind == play.kind and len(q.cards) == n and q.key <= play.key
                   for q in self.pressed_passes.get(seat, ()))

    def max_unseen_strength(self) -> int:
        """The strongest single among the unseen cards (0 if none)."""
        return max((c.strength(self.level) for c in self.unseen), default=0)

    def same_kind_beatable(self, play: Reading) -> bool:
        """Could the unseen cards make a play of the same kind that beats ``play``?

        Bombs are not considered. Singles, pairs and triples are checked exactly against the
        unseen cards (wilds included); other kinds count as beatable unless they are the top.
        """
        if play.power:
            return True
        level = self.level
        if play.kind in ("single", "pair", "triple"):
            need = {"single": 1, "pair": 2, "triple": 3}[play.kind]
            wilds = sum(n for c, n in self.unseen.items() if c.is_wild(level))
            by_strength: Counter[int] = Counter()
            jokers: Counter[str] = Counter()
            for c, n in self.unseen.items():
                if c.is_joker:
                    jokers[c.rank] += n
                elif not c.is_wild(level):
                    by_strength[c.strength(level)] += n
            for s, n in by_strength.items():
                if s > play.key and n + wilds >= need:
                    return True
            if wilds >= need and play.key < 15:
                return True
            if need <= 2:
                for rank, s in (("LJ", 16), ("BJ", 17)):
                    if s > play.key and jokers[rank] >= need:
                        return True
            return False
        if play.kind in ("straight", "tube", "plate"):
            return play.key < 14
        return play.key < 15  # full house: triple at the level rank or below

    def bombs_above(self, bomb: Reading) -> int:
        """How many bombs that beat ``bomb`` the unseen cards could still make: one per rank
        whose unseen copies (with the unseen wilds) reach a bigger bomb, and the joker bomb
        if every joker is unseen (straight flushes left out: they need given suits)."""
        level = self.level
        wilds = sum(n for c, n in self.unseen.items() if c.is_wild(level))
        ranks: Counter[str] = Counter()
        jokers = 0
        for c, n in self.unseen.items():
            if c.is_joker:
                jokers += n
            elif not c.is_wild(level):
                ranks[c.rank] += n
        if bomb.kind == "joker_bomb":
            return 0
        size = len(bomb.cards)
        count = 1 if jokers == 4 else 0
        for rank, n in ranks.items():
            most = n + wilds
            if most < 4:
                continue
            if bomb.kind == "straight_flush":
                count += most >= 6
            elif most > size or (most == size and rank_strength(rank, level) > bomb.key):
                count += 1
        return count

    def bombs_possible(self) -> bool:
        """Could the unseen cards hold any bomb, straight flush or joker bomb (roughly)?"""
        level = self.level
        wilds = sum(n for c, n in self.unseen.items() if c.is_wild(level))
        ranks: Counter[str] = Counter()
        for c, n in self.unseen.items():
            if not c.is_joker and not c.is_wild(level):
                ranks[c.rank] += n
        if any(n + wilds >= 4 for n in ranks.values()):
            return True
        return sum(n for c, n in self.unseen.items() if c.is_joker) == 4

    # -- sampling ------------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> dict[int, list[Card]]:
        """Hands for every seat: this seat's own, and random ones for the others that fit.

        The others receive exactly their counts, their pinned cards, what the tribute says
        (``tribute``) and no single stronger than their cap (``guandan.sampling.place_unseen``, the
        dealer ``Deal.sample`` uses too). The caps are inferences from play, not facts: if no
        deal fits them they are dropped, and then the tribute's bounds (only in made-up
        positions).
        """
        counts = {s: self.counts.get(s, 0) for s in SEATS if s != self.seat}
        hands = None
        for caps, bounds in ((self.caps, self.tribute), (None, self.tribute),
                             (None, GiftBounds({}, {}, ()))):
            hands = place_unseen(self.unseen, counts, self.pinned, bounds, self.level, rng, caps)
            if hands is not None:
                break
        assert hands is not None  # with no bounds every deal of the right sizes fits
        hands[self.seat] = list(self.hand)
        return hands


#: Cards held by an opponent about to go out (or by the opponent whose play is on the table),
#: and by one getting low: the thresholds of ``urgency``.
NEAR_OUT, NEAR_OUT_OWNER = 2, 3
LOW, LOW_OWNER = 6, 8


def urgency(seat: int, owner: int | None, counts: Mapping[int, int]) -> int:
    """How pressed ``seat`` is, facing ``owner``'s play (None: leading): 2 when an opponent is
    about to go out, 1 when one is getting low, else 0 (calm).

    The heuristic decides by it, the search's fast policy too, and the tracker reads the calm
    passes with it.

    >>> urgency(1, 2, {1: 10, 2: 3, 3: 10, 4: 12}), urgency(1, None, {1: 9, 2: 7, 3: 1, 4: 9})
    (2, 0)
    """
    mate = partner(seat)
    low = min((n for s, n in counts.items() if s != seat and s != mate and n > 0), default=0)
    if low == 0:
        return 0
    # Cards held by the opponent whose play is on the table (0: none, or not an opponent's).
    held = counts.get(owner, 0) if owner is not None and owner not in (seat, mate) else 0
    if 0 < held <= NEAR_OUT_OWNER or low <= NEAR_OUT:
        return 2
    if low <= LOW or 0 < held <= LOW_OWNER:
        return 1
    return 0


#: In the race (``race_on``) once the partner, still in, holds this many cards or fewer.
RACE_PARTNER = 6


def race_on(seat: int, counts: Mapping[int, int], race: int) -> bool:
    """Is the race on for ``seat``: an opponent down to ``race`` cards or fewer, or its
    partner, still in, to ``RACE_PARTNER``? Then a bomb is worth the lead it takes. With
    ``race`` 0 there is no race at all.

    >>> race_on(1, {1: 12, 2: 11, 3: 9, 4: 10}, 10), race_on(1, {1: 12, 2: 11, 3: 9, 4: 12}, 10)
    (True, False)
    """
    if race <= 0:
        return False
    mate = partner(seat)
    if 0 < counts.get(mate, 0) <= RACE_PARTNER:
        return True
    return any(0 < n <= race for s, n in counts.items() if s != seat and s != mate)


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    """``hand`` without ``cards`` (one copy each)."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return out


def count_map(hands: Mapping[int, Sequence[Card]]) -> dict[int, int]:
    return {s: len(h) for s, h in hands.items()}
