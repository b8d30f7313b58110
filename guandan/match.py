"""A match: hands dealt one after another, tribute, play and levels until final victory.

>>> from guandan.players import make_player
>>> match = Match("site", seed=7)
>>> match.to_act, match.phase, match.level
(1, 'play', '2')
>>> players = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
>>> while match.hand_number == 1:
...     match.apply(players[match.to_act].act(match.observation(match.to_act)))
>>> len(match.records), match.records[0]["format"]
(1, 'guandan-hand/1')

Actions are a :class:`~guandan.readings.Reading` (a play), :data:`PASS` when following, or a
:class:`~guandan.cards.Card` when the seat must return a tribute card. Gifts are automatic.
``apply`` raises ``ValueError(reason)`` and changes nothing when the action is illegal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from guandan.cards import Card, check_level, parse_card, parse_cards, shuffled_hands
from guandan.deal import PASS, Deal, Pass, TableEntry
from guandan.levels import Settlement, check_levels, settle
from guandan.presets import Preset, get_preset
from guandan.readings import Reading, read_as
from guandan.records import hand_record
from guandan.seats import SEATS, TEAMS
from guandan.tribute import Gift, TributeExchange, TributeKind

Phase = Literal["return", "play", "over"]
SAVE_FORMAT: Final = "guandan-match/1"



#: What a seat does: play a reading, pass, or return a card.
Action = Reading | Pass | Card


def dealt_hands(seed: int, match_number: int, hand_number: int) -> dict[int, list[Card]]:
    """The cards dealt for one hand: they depend only on the seed, the match and the hand
    number."""
    return shuffled_hands(random.Random(f"guandan:{seed}:{match_number}:{hand_number}"))


def hand_start(preset: Preset, seed: int, match_number: int, hand_number: int,
               team_levels: Mapping[str, str], level_team: str | None,
               previous_finish: list[int] | None) -> tuple[str, dict[int, list[Card]],
                                                            TributeExchange]:
    """How a hand of a match begins: the level played (the team whose level it is; on a first
    hand of equal levels, either), the deal, and the tribute after ``previous_finish``."""
    level = team_levels[level_team] if level_team is not None else team_levels["13"]
    dealt = dealt_hands(seed, match_number, hand_number)
    return level, dealt, TributeExchange(dealt, level, preset, previous_finish)


@dataclass(frozen=True)
class Event:
    """One thing that happened in a hand: ``gift``, ``return``, ``play`` or ``pass``.

    ``to`` is the receiver of a gift or return. ``card`` is ``None`` for a return the observer
    was not part of. ``lead`` is True for a play that led a new trick (the one before ended).
    """

    kind: Literal["gift", "return", "play", "pass"]
    seat: int
    to: int | None = None
    card: Card | None = None
    play: Reading | None = None
    lead: bool = False


#: A pass by each seat: the same event every time (events are immutable).
_PASSES: Final = {s: Event("pass", s) for s in SEATS}


@dataclass(frozen=True)
class TributeView:
    """The hand's tribute as one seat sees it: ``returns`` only those the seat was part of."""

    kind: TributeKind
    gifts: tuple[Gift, ...]
    returns: tuple[Gift, ...]


@dataclass(frozen=True)
class HandResult:
    """One finished hand, for the result screen."""

    hand: int
    level: str
    finish_order: tuple[int, ...]
    settlement: Settlement

    @property
    def winner(self) -> str:
        return self.settlement.winner

    @property
    def final_winner(self) -> str | None:
        return self.settlement.final_winner


@dataclass(frozen=True)
class Observation:
    """What one seat may know. It never holds another seat's cards."""

    seat: int
    rules: str
    match_number: int
    hand_number: int
    phase: Phase
    hand: tuple[Card, ...]
    level: str
    team_levels: dict[str, str]
    a_tries: dict[str, int]
    counts: dict[int, int]
    table: TableEntry | None
    leader: int
    history: tuple[Event, ...]
    trick: tuple[Event, ...]
    finish_order: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    to_act: int | None
    tribute: TributeView
    level_team: str | None = None
    results: tuple[HandResult, ...] = field(default=(), repr=False)


class Match:
    """A match under a preset, from hand 1 to final victory.

    ``team_levels``, ``level_team`` and ``a_tries`` prepare a match that starts elsewhere than
    2 against 2 (tests, the page's "final victory" demo)::

        Match("site", seed=3, team_levels={"13": "A", "24": "9"}, level_team="13")
    """

    def __init__(
        self,
        rules: str | Preset = "site",
        seed: int = 0,
        match_number: int = 1,
        *,
        team_levels: Mapping[str, str] | None = None,
        level_team: str | None = None,
        a_tries: Mapping[str, int] | None = None,
    ) -> None:
        self.preset = get_preset(rules)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        if isinstance(match_number, bool) or not isinstance(match_number, int) or match_number < 1:
            raise ValueError(f"the match number must be an integer ≥ 1, not {match_number!r}")
        levels = {"13": "2", "24": "2"} if team_levels is None else dict(team_levels)
        if set(levels) != set(TEAMS):
            raise ValueError(f"team levels must name teams 13 and 24, not {sorted(levels)!r}")
        levels = {t: check_level(str(v)) for t, v in levels.items()}
        tries = {"13": 0, "24": 0} if a_tries is None else dict(a_tries)
        check_levels(levels, tries, self.preset)
        if level_team is not None and level_team not in TEAMS:
            raise ValueError(f"the level team is 13 or 24, not {level_team!r}")
        if level_team is None and levels["13"] != levels["24"]:
            raise ValueError("the teams' levels differ: say whose level the first hand is "
                             "played at (level_team)")
        self.seed = seed
        self.match_number = match_number
        self.start_options: dict[str, Any] = {
            "team_levels": dict(levels), "level_team": level_team, "a_tries": dict(tries)}
        self.team_levels = levels
        self.a_tries = tries
        self.level_team = level_team
        self.hand_number = 0
        self.records: list[dict[str, Any]] = []
        self.results: list[HandResult] = []
        self.final_winner: str | None = None
        # Every action taken, as (seat, action): written as notation only when saved.
        self._log: list[tuple[int, Action]] = []
        self._previous_finish: list[int] | None = None
        self._start_hand()

    # -- the hand in play --------------------------------------------------------------------

    def _start_hand(self) -> None:
        self.hand_number += 1
        self.level, self.dealt_hands, self.exchange = hand_start(
            self.preset, self.seed, self.match_number, self.hand_number, self.team_levels,
            self.level_team, self._previous_finish)
        self.events: list[Event] = []
        # Each seat's view of the events, kept as they happen so an observation is a copy.
        self._views: dict[int, list[Event]] = {s: [] for s in SEATS}
        for g in self.exchange.gifts:
            self._add_event(Event("gift", g.giver, g.receiver, g.card))
        self.play_state: Deal | None = None
        self._trick_start = 0  # where the current trick begins in ``events``
        self._cache: tuple[int, tuple[Action, ...]] | None = None
        if self.exchange.done:
            self.play_state = Deal(self.exchange.hands, self.level, self.exchange.leader)

    @property
    def rules(self) -> str:
        """The preset's name."""
        return self.preset.name

    @property
    def phase(self) -> Phase:
        """``return`` while tribute cards go back, ``play``, or ``over`` once the match is won."""
        if self.final_winner is not None:
            return "over"
        return "play" if self.play_state is not None else "return"

    @property
    def to_act(self) -> int | None:
        """The seat that must act now; ``None`` once the match is won."""
        if self.final_winner is not None:
            return None
        if self.play_state is None:
            return self.exchange.to_return
        return self.play_state.to_act

    @property
    def current_deal(self) -> Deal | None:
        """The deal being played (``None`` while tribute cards go back): look, clone and
        search on it, but act through ``apply``."""
        return self.play_state

    @property
    def leader(self) -> int:
        """The first leader of the hand."""
        return self.exchange.leader

    @property
    def hands(self) -> dict[int, list[Card]]:
        """Every seat's cards now (the whole truth: for the engine and tests, not for players)."""
        if self.play_state is not None:
            return self.play_state.hands
        return {s: list(self.exchange.hands[s]) for s in SEATS}

    @property
    def table(self) -> TableEntry | None:
        return None if self.play_state is None else self.play_state.table

    @property
    def finish_order(self) -> list[int]:
        return [] if self.play_state is None else list(self.play_state.finish_order)

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """The actions of the seat to act (empty once the match is won)."""
        seat = self.to_act
        if seat is None:
            return ()
        key = len(self._log)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        actions: tuple[Action, ...]
        if self.play_state is None:
            actions = tuple(self.exchange.returnable(seat))
        else:
            actions = tuple(self.play_state.legal_actions())
        self._cache = (key, actions)
        return actions

    # -- acting ------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Take ``action`` for the seat to act; if illegal, ``ValueError(reason)`` and no change."""
        seat = self.to_act
        if seat is None:
            raise ValueError("the match is over")
        if self.play_state is None:
            if not isinstance(action, Card):
                raise ValueError(f"seat {seat} must return a card to its giver, not {action!r}")
            giver = self.exchange.plan.gifts[len(self.exchange.returns)].giver
            self.exchange.apply_return(seat, action)
            self._add_event(Event("return", seat, giver, action))
            self._log.append((seat, action))
            if self.exchange.done:
                self.play_state = Deal(self.exchange.hands, self.level, self.exchange.leader)
            return
        state = self.play_state
        if not isinstance(action, (Pass, Reading)):
            raise ValueError(f"not an action: {action!r} (a play, PASS, or a card to return)")
        lead = state.table is None
        state.apply(action)
        self._log.append((seat, action))
        if isinstance(action, Pass):
            self._add_event(_PASSES[seat])
        else:
            if lead:
                self._trick_start = len(self.events)
            self._add_event(Event("play", seat, play=action, lead=lead))
        if state.over:
            self._finish_hand(state)

    def _finish_hand(self, state: Deal) -> None:
        order = state.finish_order
        result = settle(self.team_levels, self.a_tries, self.level_team, order, self.preset)
        self.records.append(hand_record(
            rules=self.rules, match=self.match_number, hand=self.hand_number, level=self.level,
            level_team=self.level_team, dealt=self.dealt_hands, exchange=self.exchange,
            turns=state.turns, finish_order=order, settlement=result))
        self.results.append(HandResult(self.hand_number, self.level, tuple(order), result))
        self.team_levels = dict(result.team_levels_after)
        self.a_tries = dict(result.a_tries_after)
        self.level_team = result.level_team
        self._previous_finish = order
        if result.final_winner is not None:
            self.final_winner = result.final_winner
        else:
            self._start_hand()

    # -- what a seat sees --------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now."""
        if seat not in SEATS:
            raise ValueError(f"not a seat: {seat!r} (seats are 1, 2, 3, 4)")
        hands = self.hands
        history = tuple(self._views[seat])
        trick: tuple[Event, ...] = ()
        if self.play_state is not None and self.play_state.table is not None:
            trick = tuple(self.events[self._trick_start:])
        returns = tuple(r for r in self.exchange.returns if seat in (r.giver, r.receiver))
        return Observation(
            seat=seat, rules=self.rules, match_number=self.match_number,
            hand_number=self.hand_number, phase=self.phase, hand=tuple(hands[seat]),
            level=self.level, team_levels=dict(self.team_levels), a_tries=dict(self.a_tries),
            counts={s: len(hands[s]) for s in SEATS}, table=self.table, leader=self.leader,
            history=history, trick=trick, finish_order=tuple(self.finish_order),
            legal_actions=self.legal_actions if seat == self.to_act else (),
            to_act=self.to_act, tribute=TributeView(self.exchange.kind, self.exchange.gifts,
                                                    returns),
            level_team=self.level_team, results=tuple(self.results),
        )

    def _add_event(self, event: Event) -> None:
        self.events.append(event)
        if event.kind != "return":  # seen by all
            for view in self._views.values():
                view.append(event)
            return
        hidden = Event("return", event.seat, event.to)
        for seat, view in self._views.items():
            view.append(event if seat in (event.seat, event.to) else hidden)

    # -- saving ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A small save: rules, seed, match number, start options and every action as notation.

        Actions are ``[seat, "play", "S3 D3", "pair", "3"]``, ``[seat, "pass"]`` or
        ``[seat, "return", "S3"]``.
        """
        return {"format": SAVE_FORMAT, "rules": self.rules, "seed": self.seed,
                "match": self.match_number, **self.start_options,
                "actions": [_saved(seat, action) for seat, action in self._log]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        """Rebuild a saved match by replaying it; ``ValueError`` saying what is wrong."""
        if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a saved match (format {SAVE_FORMAT} expected)")
        try:
            match = cls(data["rules"], data["seed"], data["match"],
                        team_levels=data.get("team_levels"), level_team=data.get("level_team"),
                        a_tries=data.get("a_tries"))
        except KeyError as e:
            raise ValueError(f"saved match: missing field {e.args[0]!r}") from None
        except (ValueError, TypeError) as e:
            raise ValueError(f"saved match: {e}") from None
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise ValueError("saved match: actions must be a list")
        for i, item in enumerate(actions):
            try:
                match._replay_action(item)
            except (ValueError, TypeError, IndexError) as e:
                raise ValueError(f"saved match, action {i}: {e}") from None
        return match

    def _replay_action(self, item: object) -> None:
        if not isinstance(item, list) or len(item) < 2:
            raise ValueError(f"malformed action {item!r}")
        seat, what = item[0], item[1]
        if seat != self.to_act:
            raise ValueError(f"the action is by seat {seat!r}, but seat {self.to_act} is to act")
        if what == "pass" and len(item) == 2:
            self.apply(PASS)
        elif what == "return" and len(item) == 3 and isinstance(item[2], str):
            self.apply(parse_card(item[2]))
        elif what == "play" and len(item) == 5 and isinstance(item[2], str):
            self.apply(read_as(parse_cards(item[2]), self.level, str(item[3]),
                               None if item[4] is None else str(item[4])))
        else:
            raise ValueError(f"malformed action {item!r}")


def _saved(seat: int, action: Action) -> list[Any]:
    """One action as a save writes it."""
    if isinstance(action, Card):
        return [seat, "return", action.notation]
    if isinstance(action, Reading):
        return [seat, "play", " ".join(c.notation for c in action.cards), action.kind,
                action.rank]
    return [seat, "pass"]


__all__ = ["PASS", "Action", "Event", "HandResult", "Match", "Observation", "Pass",
           "TableEntry", "TributeView", "dealt_hands", "hand_start"]
