"""The search player: determinized Monte Carlo over the hidden cards.

For each decision with more than one sensible choice (from the first trick by default;
``endgame_cards`` can leave the early tricks to the heuristic alone) it

1. lists a few candidates: the heuristic's choice, the other plays of its hand split (bombs
   aside) and the lowest and highest single when leading; when following, the other side of
   the heuristic's choice: the pass, the cheapest play where it passes, the smallest bomb,
   the highest plain play that beats the table (see ``candidates``);
2. samples the hidden cards many times, each sample consistent with everything the seat has
   seen (cards left per seat, the plays made, the tribute cards it knows of, a giver holding
   nothing stronger than its gift but wilds and its return, the big jokers with the givers
   after an exemption, and the passes that show a seat holds no single above a card it let an
   opponent go out with: see
   :mod:`guandan.players.tracker`); and likely given the other seats' calm leads: a careful
   player leads its weakest play, so a deal that gives a seat a weaker play than one it led
   calmly is kept only with probability ``LEAD_EPS`` per such seat, else drawn again (see
   ``Evidence`` and ``_draw``). With ``read_passes`` it reads the calm passes too: a careful
   player beats an opponent's play whenever a play of its hand split does. With
   ``replay_draws`` (off by default) each sampled deal is picked among several drawn, weighted
   by how many of the other seats' turns the fast policy would have played otherwise with its
   cards (:func:`~guandan.players.playout.replay_misses`);
3. plays each candidate out to the end of the hand in every sample with the fast policy of
   :mod:`guandan.players.playout` (every seat plays the plays of its own hand split by the
   heuristic's rules, on a clone of the sampled :class:`~guandan.deal.Deal`);
4. scores each finish as the hand won or lost (±1) plus a tenth of the levels it moves
   (+3/+2/+1 for a 1-2/1-3/1-4 win, negative for a loss), drops a candidate once it clearly
   trails, and picks the candidate with the best average, keeping the heuristic's choice
   unless another is better by a margin.

It stops sampling when its time budget (``budget_ms``, default 260 ms) or its sample limit
(``samples``) is reached, whichever comes first; with ``budget_ms=None`` it always takes
``samples`` samples and is fully repeatable. Its random numbers come from its seed and the
observation only, so one observation always gives one decision at a fixed sample count.

Variants are built with constructor arguments, never by patching the module (which, compiled,
would change nothing it calls): ``draw`` draws the hidden cards of each sampled deal in place of
step 2 (``RealHands``: an oracle that sees the real deal), and ``playout`` plays each candidate
out in place of step 3's fast policy (see ``HandsDraw`` and ``PlayOutPolicy``).

>>> from guandan.match import Match
>>> m = Match(seed=1)
>>> p = SearchPlayer(samples=4, budget_ms=None)
>>> p.act(m.observation(1)) in m.legal_actions
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Protocol

from guandan.cards import Card
from guandan.deal import PASS, Deal
from guandan.players.base import Reason
from guandan.players.decompose import decompose
from guandan.players.describe import play_names, reason_params
from guandan.players.heuristic import (
    BOMB_FINISH,
    RACE,
    HeuristicCore,
    View,
    pass_action,
    returns_to_partner,
    view_of,
)
from guandan.players.leads import ANSWER_SIZE, LEAD_SIZE, lead_bar
from guandan.players.playout import (
    APlay,
    Rollout,
    abstract_hand,
    abstract_reading,
    hand_turns,
    lead_rank,
    replay_misses,
    start_hands,
)
from guandan.players.tracker import Tracker, remove_cards
from guandan.plays import legal_plays
from guandan.readings import Reading
from guandan.sampling import GiftBounds
from guandan.seats import SEATS, partner

if TYPE_CHECKING:
    from guandan.match import Action, Observation

# Why each value below is what it is was measured in arenas; the runs and their figures are in
# docs/ai-notebook.md, under the constant's name.

#: Time budget per decision, in milliseconds: as long as a decision may take on a slow machine
#: with the 95th percentile still under 300 ms (the last sample runs past it).
DEFAULT_BUDGET_MS: Final = 260.0
#: Greatest number of sampled deals per decision: beyond it the choice barely changes.
DEFAULT_SAMPLES: Final = 64
#: The search runs once some seat holds at most this many cards, before that the heuristic
#: decides alone; 27 searches every decision, which won more hands than searching late only.
ENDGAME_CARDS: Final = 27
#: A finish scores ``WIN_WEIGHT`` for the hand won (or minus it for the hand lost) plus
#: ``LEVEL_WEIGHT`` times the levels it moves: winning the hand comes first, the margin second,
#: which won more hands than scoring the levels alone.
WIN_WEIGHT: Final = 1.0
LEVEL_WEIGHT: Final = 0.1
#: The heuristic's choice is kept unless another candidate scores better by ``KEEP_MARGIN``
#: and by ``KEEP_Z`` standard errors of the paired difference over the same sampled deals:
#: a looser test lets through departures that are the noise of a few samples, which the
#: heuristic's own play-outs favour against players unlike it.
KEEP_MARGIN: Final = 0.1
KEEP_Z: Final = 2.0
#: After at least ``MIN_SAMPLES``, a candidate that trails the heuristic's choice by ``STOP_Z``
#: standard errors is dropped, and sampling stops once every other candidate is, so that the
#: samples go to the candidates still in question.
MIN_SAMPLES: Final = 8
STOP_Z: Final = 1.5
#: Weight of a sampled deal per seat that holds, in it, a play weaker than one it led calmly
#: or a play of its split that beats one it passed on calmly: not 0, since a seat may have
#: split its hand otherwise or not be a careful player at all, yet small, since real hands
#: fail these tests far less often than drawn ones.
LEAD_EPS: Final = 0.1
#: Draw a deal that fails the lead bars again, up to this many times (0: weigh it instead):
#: drawing again keeps every sample's weight at 1, where weighing would leave few effective.
LEAD_TRIES: Final = 8
#: Read the calm passes as well as the leads: off, since the evidence is real but the search
#: chose no better with it.
READ_PASSES: Final = False
#: Read the passes made when an opponent was about to go out (``Evidence.pressed``): such a
#: seat beats whatever it can, so it holds nothing that beats the play it passed on, nor a bomb.
READ_PRESSED: Final = True
#: Following, also weigh the highest plain play that beats the table: taking the trick may be
#: worth a high card.
FOLLOW_TOP: Final = True
#: Weigh the heuristic's play made of other cards too (``SearchPlayer.other_cards``): up to
#: this many of them, the cheapest for the rest of the hand first. Off by default
#: (``every_play=False``): docs/api.md has ``act`` return one of ``obs.legal_actions``, which
#: lists one play per kind, rank and size, and such a play is not among them.
EVERY_PLAY: Final = 2
#: Read every turn the other seats played: each sampled deal is picked among ``REPLAY_DRAWS``
#: drawn ones, each with weight ``REPLAY_EPS`` per turn that the fast policy, replaying the
#: hand from its first lead with the deal's cards, would have played otherwise
#: (``playout.replay_misses``). 1 draw, off: it costs ten times the time and won no more hands.
REPLAY_DRAWS: Final = 1
REPLAY_EPS: Final = 0.3
#: Read the tribute into the sampled deals (``Tracker.tribute``): a giver holds nothing
#: stronger than its gift but wilds (and the return it got), and after an exemption the big
#: jokers are with the givers; a setting only to measure what it is worth.
READ_TRIBUTE: Final = True


class PlayOut(Protocol):
    """One candidate played out on one sampled deal: ``run`` plays the deal to its end,
    ``value`` is the levels won (positive) or lost by a seat's team."""

    def run(self) -> None: ...
    def value(self, seat: int) -> float: ...


class PlayOutPolicy(Protocol):
    """Builds the play-out of a candidate (``SearchPlayer(playout=...)``): ``deal`` is a clone
    of the sampled deal with the candidate applied, ``parts`` every seat's split of its hand
    (the search's own after the candidate), ``obs`` the decision's observation; the rest are
    the heuristic's settings the default play-out (``playout.Rollout``) follows."""

    def __call__(self, obs: Observation, deal: Deal, parts: dict[int, list[APlay]],
                 lead_size: float, styles: dict[int, float] | None, finish: dict[int, int],
                 race: dict[int, int]) -> PlayOut: ...


class HandsDraw(Protocol):
    """Draws the hidden cards of one sampled deal (``SearchPlayer(draw=...)``): every seat's
    cards, ``obs.hand`` for the searching seat, or None to draw as the search does by itself.
    Hands it returns are used as they are, each deal weighing 1: the search's reading of the
    other seats' plays (``Evidence``) applies only to the deals it draws itself."""

    def __call__(self, obs: Observation, tracker: Tracker, rng: random.Random
                 ) -> Mapping[int, Sequence[Card]] | None: ...


class RealHands:
    """An oracle's draw: every sampled deal is the real one, as ``hands()`` gives it (e.g.
    ``lambda: match.current_deal.hands``). Not a fair player: it measures what seeing every
    card is worth to the search, ``SearchPlayer(draw=RealHands(...))``."""

    def __init__(self, hands: Callable[[], Mapping[int, Sequence[Card]]]) -> None:
        self.hands = hands

    def __call__(self, obs: Observation, tracker: Tracker, rng: random.Random
                 ) -> Mapping[int, Sequence[Card]] | None:
        return self.hands()


def fails_bar(parts: Sequence[APlay], bar: tuple[float, int], per_card: float = LEAD_SIZE
              ) -> bool:
    """Does a split hold a plain play weaker as a lead than the bar (see ``lead_bar``)?"""
    return any(not p.power and lead_rank(p, per_card) > bar for p in parts)


def beats_a_pass(parts: Sequence[APlay], passed: Sequence[APlay]) -> bool:
    """Does a split hold a plain play that beats one of the plays its seat passed on calmly?

    A calm heuristic player beats an opponent's play with a whole play of its split, which
    costs the hand nothing; only a big joker may be kept back (see ``CONTROL_KEEP``). Full
    houses are left out: the player's own pair may not be the one ``legal_plays`` offers.
    """
    return any(not p.power and p.key < 17 and p.kind != "full_house" and p.beats(q)
               for q in passed for p in parts)


def holds_above(cards: Sequence[Card], level: str, size: int, key: int) -> bool:
    """Do ``cards`` hold a single, pair or triple (``size``) stronger than ``key``?"""
    wilds = 0
    jokers = {"LJ": 0, "BJ": 0}
    by_strength: dict[int, int] = {}
    for c in cards:
        if c.is_joker:
            jokers[c.rank] += 1
        elif c.is_wild(level):
            wilds += 1
        else:
            st = c.strength(level)
            by_strength[st] = by_strength.get(st, 0) + 1
    if any(st > key and n + wilds >= size for st, n in by_strength.items()):
        return True
    if key < 15 and wilds >= size:
        return True
    return size <= 2 and ((key < 16 and jokers["LJ"] >= size)
                          or (key < 17 and jokers["BJ"] >= size))


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one seat's calm plays, and its passes when pressed, say its hand no longer holds
    (see ``fails``)."""

    bar: tuple[float, int] | None = None  # its lead bar (``lead_bar``)
    per_card: float = LEAD_SIZE  # the lead order the bar was read with (``lead_order``)
    passed: tuple[APlay, ...] = ()  # plays it passed on calmly, its hand unchanged since
    #: Plays it passed on when an opponent was about to go out (``Tracker.pressed_passes``):
    #: it then held nothing of their kind that beats them, and no bomb.
    pressed: tuple[APlay, ...] = ()

    @classmethod
    def of(cls, tracker: Tracker, seat: int, passes: bool = True,
           pressed: bool = True, per_card: float = LEAD_SIZE) -> Evidence | None:
        bar = lead_bar(tracker.calm_leads.get(seat, []), per_card)
        passed = (tuple(abstract_reading(r) for r in tracker.calm_passes.get(seat, []))
                  if passes else ())
        hard = (tuple(abstract_reading(r) for r in tracker.pressed_passes.get(seat, []))
                if pressed else ())
        if bar is None and not passed and not hard:
            return None
        return cls(bar, per_card, passed, hard)

    def fails(self, parts: Sequence[APlay], cards: Sequence[Card] = (),
              level: str = "2") -> bool:
        """Does a split of this seat's hand (``cards``) hold what its plays say it does not?"""
        if self.bar is not None and fails_bar(parts, self.bar, self.per_card):
            return True
        if self.passed and beats_a_pass(parts, self.passed):
            return True
        if self.pressed:
            if any(p.power for p in parts):
                return True
            for q in self.pressed:
                if q.kind in ("single", "pair", "triple"):
                    if holds_above(cards, level, q.size, q.key):
                        return True
                elif any(p.beats(q) for p in parts):
                    return True
        return False



@dataclass
class Candidate:
    action: Reading | None  # None: pass
    mine: list[APlay]  # my hand split after the action
    values: list[float] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)  # each sampled deal's weight
    wins: float = 0.0  # weight of the sampled deals in which the seat's team won the hand
    dropped: bool = False  # trailed too far behind the heuristic's choice to be chosen

    def add(self, value: float, won: bool, weight: float) -> None:
        self.values.append(value)
        self.weights.append(weight)
        if won:
            self.wins += weight

    @property
    def win_share(self) -> float:
        """Weighted share of its sampled deals in which the seat's team won, in percent."""
        total = sum(self.weights, 0.0)
        return 100.0 * self.wins / total if total else 0.0

    def edge_over(self, other: Candidate) -> tuple[float, float]:
        """Weighted mean and standard error of the per-sample difference to ``other`` (the
        same samples, the same weights); the error counts the effective number of samples."""
        d = [a - b for a, b in zip(self.values, other.values, strict=True)]
        w = self.weights
        n = len(d)
        total = sum(w, 0.0)
        if n < 2 or total <= 0:
            return 0.0, float("inf")
        m = sum((wi * x for wi, x in zip(w, d, strict=True)), 0.0) / total
        var = sum((wi * (x - m) ** 2 for wi, x in zip(w, d, strict=True)), 0.0) / total
        n_eff = total * total / sum((wi * wi for wi in w), 0.0)
        if n_eff <= 1.0:
            return m, float("inf")
        return m, math.sqrt(var / (n_eff - 1.0))


def departure(play: Reading | None, base: Reading | None, table: Reading | None
              ) -> tuple[str, dict[str, object]]:
    """How the search's choice ``play`` departs from the heuristic's ``base`` (None: a pass),
    as a reason code and its values (``describe.REASON_CODES``), for the hint."""
    if play is None:
        return "search_pass", {"other": base}
    if base is not None and (base.kind, base.rank, len(base.cards)) == (
            play.kind, play.rank, len(play.cards)):
        return "search_cards", {"play": play, "cards": [c.notation for c in play.cards]}
    if table is None:
        return "search_lead", {"play": play, "other": base}
    if play.power and (base is None or not base.power):
        return "search_bomb", {"play": play, "table": table}
    if base is None:
        return "search_take", {"play": play, "table": table}
    return "search_follow", {"play": play, "table": table, "other": base}


class SearchPlayer:
    """Determinized Monte Carlo search (see the module docstring)."""

    name = "search"

    def __init__(self, seed: int = 0, budget_ms: float | None = DEFAULT_BUDGET_MS,
                 samples: int = DEFAULT_SAMPLES, endgame_cards: int = ENDGAME_CARDS,
                 win_weight: float = WIN_WEIGHT, level_weight: float = LEVEL_WEIGHT,
                 keep_margin: float = KEEP_MARGIN, keep_z: float = KEEP_Z,
                 bombs: bool = True, play_over_pass: bool = True,
                 lead_eps: float = LEAD_EPS, lead_tries: int = LEAD_TRIES,
                 read_passes: bool = READ_PASSES, read_pressed: bool = READ_PRESSED,
                 follow_top: bool = FOLLOW_TOP, every_play: bool = False,
                 lead_size: float = LEAD_SIZE, answer_size: float | None = ANSWER_SIZE,
                 bomb_finish: int = BOMB_FINISH, replay_draws: int = REPLAY_DRAWS,
                 replay_eps: float = REPLAY_EPS, read_tribute: bool = READ_TRIBUTE,
                 race: int = RACE, draw: HandsDraw | None = None,
                 playout: PlayOutPolicy | None = None) -> None:
        if not 0.0 < lead_eps <= 1.0:
            raise ValueError(f"lead_eps must be in (0, 1], not {lead_eps}")
        if replay_draws < 1 or not 0.0 < replay_eps <= 1.0:
            raise ValueError(f"replay_draws must be at least 1 and replay_eps in (0, 1], not "
                             f"{replay_draws} and {replay_eps}")
        self.seed = seed
        self.lead_eps = lead_eps
        self.replay_draws = replay_draws
        self.replay_eps = replay_eps
        self.read_tribute = read_tribute
        self.lead_tries = lead_tries
        self.read_passes = read_passes
        self.read_pressed = read_pressed
        self.follow_top = follow_top
        self.every_play = every_play
        self.endgame_cards = endgame_cards
        self.win_weight = win_weight
        self.level_weight = level_weight
        self.keep_margin = keep_margin
        self.keep_z = keep_z
        self.bombs = bombs
        self.play_over_pass = play_over_pass
        self.budget_ms = budget_ms
        self.samples = samples
        #: How the hidden cards are drawn, and how a candidate is played out, when not the
        #: search's own way (None): variants are built with these, never patched in.
        self.draw = draw
        self.playout = playout
        self.core = HeuristicCore(lead_size=lead_size, answer_size=answer_size,
                                  bomb_finish=bomb_finish, race=race)
        self.reason = Reason("아직 고르지 않았습니다.", "Nothing chosen yet.")
        self.last_samples = 0

    def _rng(self, obs: Observation) -> random.Random:
        return random.Random(f"search:{self.seed}:{obs.match_number}:{obs.hand_number}:"
                             f"{obs.seat}:{len(obs.history)}")

    def act(self, obs: Observation) -> Action:
        if not obs.legal_actions:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        start = time.perf_counter()
        cards = [a for a in obs.legal_actions if isinstance(a, Card)]
        if cards:
            card, self.reason = self.core.choose_return(obs.hand, obs.level, cards,
                                                        returns_to_partner(obs))
            return card
        tracker = Tracker.from_observation(obs)
        if not self.read_tribute:
            tracker.tribute = GiftBounds({}, {}, ())
        v = view_of(obs, tracker)
        h_play, h_reason = self.core.choose(v)
        self.last_samples = 0
        endgame = min(n for n in obs.counts.values() if n > 0) <= self.endgame_cards
        cands = self.candidates(v, h_play) if endgame else []
        if len(cands) <= 1:
            self.reason = h_reason
            return h_play if h_play is not None else pass_action(obs)
        self.evaluate(obs, v, tracker, cands, start)
        h_cand = next(c for c in cands if c.action is h_play)
        best = h_cand
        best_bound = 0.0
        for c in cands:
            if c is h_cand or c.dropped:
                continue
            m, se = c.edge_over(h_cand)
            bound = m - self.keep_z * se
            if m >= self.keep_margin and bound > best_bound:
                best, best_bound = c, bound
        self.reason = self._reason(best, h_cand, h_reason, len(cands),
                                   v.table.play if v.table is not None else None)
        if best.action is None:
            return pass_action(obs)
        return best.action

    # -- candidates --------------------------------------------------------------------------

    def candidates(self, v: View, h_play: Reading | None) -> list[Candidate]:
        level = v.level
        if h_play is not None and len(h_play.cards) == len(v.hand):
            return [Candidate(h_play, [])]  # going out: nothing to weigh
        chosen: list[Reading | None] = [h_play]
        # The departures from the heuristic worth weighing: another lead; passing instead of
        # an ordinary follow; and (``bombs``, ``play_over_pass``, on by default since the
        # search weighs the whole hand) bombing or not, and playing where the heuristic passes.
        if v.table is None:
            d = decompose(v.hand, level)
            for part in d.parts:
                if part.is_bomb:
                    continue
                for r in v.plays:
                    if r.kind == part.kind and r.rank == part.rank and len(r.cards) == part.size:
                        chosen.append(r)
                        break
            singles = [r for r in v.plays if r.kind == "single"]
            if singles:
                chosen.append(min(singles, key=lambda r: r.key))
                chosen.append(max(singles, key=lambda r: r.key))
        else:
            # Following: the heuristic's play or pass, and (by setting) the other side of it.
            bombs = [r for r in v.plays if r.power]
            smallest_bomb = min(bombs, key=lambda r: (r.power, r.key)) if bombs else None
            if h_play is None:
                normal = [r for r in v.plays if not r.power]
                if self.play_over_pass and normal:
                    chosen.append(min(normal, key=lambda r: (r.key, len(r.cards))))
                if self.bombs and smallest_bomb is not None:
                    chosen.append(smallest_bomb)
            elif v.can_pass and (not h_play.power or self.bombs):
                chosen.append(None)
                if self.bombs and not h_play.power and smallest_bomb is not None:
                    chosen.append(smallest_bomb)
            if self.follow_top and h_play is not None and not h_play.power:
                normal = [r for r in v.plays if not r.power]
                chosen.append(max(normal, key=lambda r: (r.key, len(r.cards))))
        if self.every_play and h_play is not None and h_play.kind != "joker_bomb":
            chosen.extend(self.other_cards(v, h_play))
        out: list[Candidate] = []
        seen: set[object] = set()
        for choice in chosen:
            key = None if choice is None else choice.signature()
            if key in seen:
                continue
            seen.add(key)
            rest = v.hand if choice is None else remove_cards(v.hand, choice.cards)
            out.append(Candidate(choice, abstract_hand(rest, level)))
        return out

    def other_cards(self, v: View, play: Reading) -> list[Reading]:
        """The same play (kind, rank, size) made of other cards, where the choice matters: a
        full house's pair, spending a wild or not, which straight flush (``legal_plays(...,
        every=True)``); the ``EVERY_PLAY`` whose rest of the hand splits cheapest."""
        if play.kind not in ("full_house", "straight_flush") and not self._wild_choice(v, play):
            return []
        table = v.table.play if v.table is not None else None
        same = [r for r in legal_plays(v.hand, v.level, table, every=True)
                if r.kind == play.kind and r.rank == play.rank
                and len(r.cards) == len(play.cards) and r.signature() != play.signature()]
        if not same:
            return []
        level = v.level
        same.sort(key=lambda r: self.core.cost(remove_cards(v.hand, r.cards), level))
        return same[:EVERY_PLAY]

    @staticmethod
    def _wild_choice(v: View, play: Reading) -> bool:
        """Does the hand hold a wild that this play could spend, or spends?"""
        return any(c.is_wild(v.level) for c in v.hand) and play.kind not in ("single",)

    # -- evaluation --------------------------------------------------------------------------

    def evaluate(self, obs: Observation, v: View, tracker: Tracker, cands: list[Candidate],
                 start: float) -> None:
        rng = self._rng(obs)
        me = v.seat
        deadline = None if self.budget_ms is None else start + self.budget_ms / 1000.0
        evidence: dict[int, Evidence] = {}
        if self.lead_eps < 1.0:
            for s in tracker.others():
                ev = Evidence.of(tracker, s, self.read_passes, self.read_pressed,
                                 self.core.lead_size)
                if ev is not None:
                    evidence[s] = ev
        # The play-outs lead for this seat and its partner as the heuristic would now.
        ours = self.core.lead_order_of(tracker, me)
        styles = {me: ours, partner(me): ours} if ours != self.core.lead_size else None
        # Each seat bombs for the lead as the heuristic would, given what it has seen.
        finish = {s: self.core.finish_plays(tracker, s) for s in SEATS}
        # Every seat races as the heuristic would, given what it has seen.
        race = {s: self.core.race_for(tracker, s) for s in SEATS}
        turns = hand_turns(obs.history) if self.replay_draws > 1 else []
        for i in range(self.samples):
            if deadline is not None and i >= 2 and time.perf_counter() > deadline:
                break
            drawn = self.draw(obs, tracker, rng) if self.draw is not None else None
            if drawn is not None:
                hands = {s: list(drawn[s]) for s in SEATS}
                others = {s: abstract_hand(hands[s], v.level) for s in SEATS if s != me}
                weight = 1.0
            elif turns:
                hands, others, weight = self._draw_replayed(
                    tracker, rng, evidence, turns, styles, finish)
            else:
                hands, others, weight = self._draw(tracker, rng, evidence)
            position = Deal.at(obs, hands)
            for c in cands:
                if c.dropped:
                    continue
                parts = {s: list(others[s]) for s in others}
                parts[me] = list(c.mine)
                deal = position.clone()
                deal.apply(PASS if c.action is None else c.action)
                if self.playout is None:  # the fast policy, called natively when compiled
                    rollout = Rollout(deal, parts, self.core.lead_size, styles, finish, race)
                    rollout.run()
                    steps = rollout.value(me)
                else:
                    other = self.playout(obs, deal, parts, self.core.lead_size, styles, finish,
                                         race)
                    other.run()
                    steps = other.value(me)
                won = steps > 0
                c.add(self.win_weight * (1.0 if won else -1.0) + self.level_weight * steps,
                      won, weight)
            self.last_samples = i + 1
            if i + 1 >= MIN_SAMPLES and (i + 1) % 4 == 0 and self._settled(cands):
                break

    def _draw(self, tracker: Tracker, rng: random.Random, evidence: dict[int, Evidence]
              ) -> tuple[dict[int, list[Card]], dict[int, list[APlay]], float]:
        """One sampled deal: every seat's cards, the other seats' splits, and its weight.

        A deal is weighed ``lead_eps`` for each seat whose split, in it, holds what the seat's
        calm plays say it does not (``Evidence.fails``). With ``lead_tries`` the deal is instead
        kept with that probability and drawn again otherwise (up to ``lead_tries`` times more),
        so that kept deals weigh 1.
        """
        level = tracker.level
        for attempt in range(self.lead_tries + 1):
            hands = tracker.sample(rng)
            others: dict[int, list[APlay]] = {}
            weight = 1.0
            # Drawn first, so that the splits stop once the deal is sure to be drawn again.
            keep = rng.random() if attempt < self.lead_tries else 0.0
            for s, ev in evidence.items():
                parts = others[s] = abstract_hand(hands[s], level)
                if ev.fails(parts, hands[s], level):
                    weight *= self.lead_eps
                    if weight <= keep:
                        break
            if weight > keep:
                if attempt < self.lead_tries:  # kept by the draw: a fair sample, weight 1
                    weight = 1.0
                for s in SEATS:
                    if s != tracker.seat and s not in others:
                        others[s] = abstract_hand(hands[s], level)
                return hands, others, weight
        raise AssertionError("the last attempt is always kept")

    def _draw_replayed(self, tracker: Tracker, rng: random.Random,
                       evidence: dict[int, Evidence], turns: list[tuple[int, Reading | None]],
                       styles: dict[int, float] | None, finish: dict[int, int]
                       ) -> tuple[dict[int, list[Card]], dict[int, list[APlay]], float]:
        """One of ``replay_draws`` sampled deals (``_draw``), chosen with weight ``replay_eps``
        per turn of another seat that the fast policy would have played otherwise."""
        seats = tracker.others()
        drawn = []
        weights = []
        for _ in range(self.replay_draws):
            hands, others, weight = self._draw(tracker, rng, evidence)
            misses = replay_misses(start_hands(hands, turns), tracker.level, turns, seats,
                                   self.core.lead_size, styles, finish)
            drawn.append((hands, others, weight))
            weights.append(self.replay_eps ** sum(misses.values()))
        pick = rng.random() * sum(weights)
        for item, w in zip(drawn, weights, strict=True):
            pick -= w
            if pick <= 0.0:
                return item
        return drawn[-1]

    def _settled(self, cands: list[Candidate]) -> bool:
        """Drop the candidates that can no longer overtake the heuristic's choice (the first),
        so that the samples left go to the others; True when none is left."""
        h = cands[0]
        live = 0
        for c in cands[1:]:
            if c.dropped:
                continue
            m, se = c.edge_over(h)
            if m + STOP_Z * se < self.keep_margin:
                c.dropped = True
            else:
                live += 1
        return live == 0

    def _reason(self, best: Candidate, h: Candidate, h_reason: Reason, n: int,
                table: Reading | None = None) -> Reason:
        k = self.last_samples
        # The figures behind the choice, for the page (beside the reason's words).
        figures = {"samples": k, "win_share": round(best.win_share), "candidates": n,
                   "base_share": round(h.win_share)}
        if best is h:
            return Reason(
                ko=f"{h_reason.ko} (표본 {k}판 탐색: 이 수로 {best.win_share:.0f}% 이김, "
                   f"후보 {n}개 중 최선)",
                en=f"{h_reason.en} (search over {k} sampled deals: wins {best.win_share:.0f}% "
                   f"of them, best of {n} candidates)",
                zh=h_reason.zh, code=h_reason.code, params={**h_reason.params, **figures})
        code, values = departure(best.action, h.action, table)
        if best.action is None:
            ko_a, en_a = "패스", "passing"
        else:
            ko_a, en_a = play_names(best.action)
        return Reason(
            ko=f"표본 {k}판으로 끝까지 두어 보니 {ko_a}이(가) {best.win_share:.0f}% 이겨 가장 "
               f"좋습니다 (기본 선택은 {h.win_share:.0f}%).",
            en=f"Playing the hand out over {k} sampled deals, {en_a} does best: it wins "
               f"{best.win_share:.0f}% of them (the rule of thumb {h.win_share:.0f}%).",
            code=code, params={**reason_params(**values), **figures})
