"""Hand records (``guandan-hand/1``): export, replay and validation.

A record is one finished hand as a JSON object (see docs/api.md): the deal before tribute, the
tribute, the leader, every action, the finish order and the levels before and after. Replaying
a record checks it against the rules from its own deal and levels; consecutive records of one
match are also checked for continuity (levels after = levels before of the next hand, the
tribute derived from the previous finish order), and a file's records must follow each other:
the next hand of the same match, or hand 1 of a new match once the one before reached final
victory. A player that ends a match early (the arena's one-hand deal sets, ``--max-hands``)
marks its last record ``"stopped": true``, and a new match may follow it.

>>> from guandan.match import Match
>>> from guandan.players import make_player
>>> m = Match("site", seed=1)
>>> bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
>>> while len(m.records) < 2:
...     m.apply(bots[m.to_act].act(m.observation(m.to_act)))
>>> replay_records(m.records)
[]
>>> broken = dict(m.records[0], actions=m.records[0]["actions"][1:])
>>> print(replay_records([broken])[0])
line 1, hand 1, action 0: it is seat 1's turn, not seat 2's
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Final

from guandan.cards import RANK_VALUE, Card, full_deck, parse_card
from guandan.deal import PASS, Deal
from guandan.levels import Settlement, check_levels, settle
from guandan.presets import PRESETS
from guandan.readings import Reading, read_as
from guandan.seats import SEATS, TEAMS
from guandan.tribute import Gift, TributeExchange, TributePlan, plan_tribute

FORMAT: Final = "guandan-hand/1"
TRIBUTE_KINDS: Final = ("none", "single", "double", "exempt")


def hand_record(
    *,
    rules: str,
    match: int,
    hand: int,
    level: str,
    level_team: str | None,
    dealt: Mapping[int, Sequence[Card]],
    exchange: TributeExchange,
    turns: Sequence[tuple[int, Reading | None]],
    finish_order: Sequence[int],
    settlement: Settlement,
) -> dict[str, Any]:
    """The ``guandan-hand/1`` record of one finished hand.

    Besides the contract's fields it writes ``level_team``: the team whose level the hand was
    played at (``null`` when both teams share it), which decides tries at A.
    """
    actions: list[dict[str, Any]] = []
    for seat, play in turns:
        if play is None:
            actions.append({"seat": seat, "pass": True})
        else:
            actions.append({"seat": seat, **play.to_json()})
    return {
        "format": FORMAT,
        "rules": rules,
        "match": match,
        "hand": hand,
        "level": level,
        "level_team": level_team,
        "team_levels": dict(settlement.team_levels),
        "a_tries": dict(settlement.a_tries),
        "deal": {str(s): [c.notation for c in dealt[s]] for s in SEATS},
        "tribute": {
            "kind": exchange.kind,
            "gifts": [g.to_json() for g in exchange.gifts],
            "returns": [r.to_json() for r in exchange.returns],
        },
        "leader": exchange.leader,
        "actions": actions,
        "finish_order": list(finish_order),
        "team_levels_after": dict(settlement.team_levels_after),
        "a_tries_after": dict(settlement.a_tries_after),
        "final_winner": settlement.final_winner,
    }


def hands_after_tribute(record: Mapping[str, Any]) -> dict[int, list[Card]]:
    """Every seat's cards in a (valid) record once the tribute was exchanged: the deal, less
    the cards given and returned, plus those received."""
    hands = {s: [parse_card(c) for c in record["deal"][str(s)]] for s in SEATS}
    tribute = record.get("tribute") or {}
    for g in [*tribute.get("gifts", []), *tribute.get("returns", [])]:
        card = parse_card(g["card"])
        hands[int(g["from"])].remove(card)
        hands[int(g["to"])].append(card)
    return hands


def trick_leads(record: Mapping[str, Any]) -> list[bool]:
    """For each action of a (valid) record, whether it is a play that led a trick: the
    ``Event.lead`` the match gave it (the record keeps the actions, not where tricks end, which
    the hand's ``Deal`` decides as it is replayed)."""
    level = str(record["level"])
    state = Deal(hands_after_tribute(record), level, int(record["leader"]))
    leads = []
    for a in record["actions"]:
        if a.get("pass"):
            leads.append(False)
            state.apply(PASS)
        else:
            leads.append(state.table is None)
            state.apply(read_as([parse_card(c) for c in a["cards"]], level, a["kind"],
                                a["rank"]))
    return leads


@dataclass(frozen=True)
class RecordError(ValueError):
    """A record that breaks a rule: where (line, hand, action index) and why.

    ``action`` is the index in the record's ``actions`` list (``None`` when the fault is
    elsewhere: fields, deal, tribute, levels).
    """

    line: int | None
    hand: int | None
    action: int | None
    reason: str

    def __str__(self) -> str:
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        parts.append(f"hand {self.hand if self.hand is not None else '?'}")
        if self.action is not None:
            parts.append(f"action {self.action}")
        return ", ".join(parts) + ": " + self.reason


class _Fault(Exception):
    def __init__(self, reason: str, action: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


def _need(record: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in record:
        raise _Fault(f"missing field {name!r}")
    value = record[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _Fault(f"field {name!r} has the wrong type ({type(value).__name__})")
    return value


#: Every card by the one spelling records use (``T`` for ten, ``BJ`` / ``LJ`` for the jokers).
_CANONICAL: Final = {c.notation: c for c in full_deck()}


def _card(token: str, where: str) -> Card:
    """The card a record writes ``token``: only its canonical spelling is one. ``parse_card``
    reads what a person types (``H10``, ``h7``, ``7H``, ``♥7``); a record is a file of the
    format, so another spelling is refused, naming the canonical one."""
    card = _CANONICAL.get(token)
    if card is not None:
        return card
    try:
        meant = parse_card(token)
    except ValueError as e:
        raise _Fault(f"{where}: {e}") from None
    raise _Fault(f"{where}: {token!r} is not how a record writes a card: it writes "
                 f"{meant.notation!r} (suit S H D C then rank 2-9 T J Q K A, or BJ / LJ)")


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _Fault(f"{where} must be a list of card notations")
    return [_card(t, where) for t in value]


def _seat(value: object, where: str) -> int:
    if type(value) is not int or value not in SEATS:
        raise _Fault(f"{where} must be a seat 1-4, not {value!r}")
    return value


def _gifts(value: object, where: str) -> list[Gift]:
    if not isinstance(value, list):
        raise _Fault(f"{where} must be a list")
    out = []
    for i, g in enumerate(value):
        if not isinstance(g, dict) or set(g) != {"from", "to", "card"}:
            raise _Fault(f"{where}[{i}] must be {{from, to, card}}")
        card = _cards([g["card"]], f"{where}[{i}].card")[0]
        out.append(Gift(_seat(g["from"], f"{where}[{i}].from"), _seat(g["to"], f"{where}[{i}].to"),
                        card))
    return out


def _show(gifts: Iterable[Gift]) -> str:
    return ", ".join(f"{g.giver}→{g.receiver} {g.card.notation}" for g in gifts) or "none"


@dataclass(frozen=True)
class _Replayed:
    """What a checked record leaves for the next one of the same match."""

    rules: str
    match: int
    hand: int
    finish_order: list[int]
    team_levels_after: dict[str, str]
    a_tries_after: dict[str, int]
    level_team_after: str
    final_winner: str | None
    stopped: bool


def _check_record(record: object, previous: _Replayed | None) -> _Replayed:
    if not isinstance(record, dict):
        raise _Fault("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise _Fault(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    rules = _need(record, "rules", str)
    if rules not in PRESETS:
        raise _Fault(f"unknown rules {rules!r} (known: {', '.join(PRESETS)})")
    preset = PRESETS[rules]
    match_no = _need(record, "match", int)
    hand_no = _need(record, "hand", int)
    if match_no < 1 or hand_no < 1:
        raise _Fault("match and hand numbers start at 1")
    try:
        level = _need(record, "level", str)
        if level not in RANK_VALUE:  # canonical, as the cards: T for ten
            raise ValueError(f"not a level: {level!r} (a record writes a rank 2-9 T J Q K A)")
        team_levels = dict(_need(record, "team_levels", dict))
        a_tries = dict(_need(record, "a_tries", dict))
        check_levels(team_levels, a_tries, preset)
    except ValueError as e:
        raise _Fault(str(e)) from None
    level_team = record.get("level_team")
    if level_team is not None and level_team not in TEAMS:
        raise _Fault(f"level_team must be 13, 24 or null, not {level_team!r}")
    if previous is not None:
        if previous.final_winner is not None:
            raise _Fault(f"match {match_no} was already won by team {previous.final_winner}")
        if team_levels != previous.team_levels_after or a_tries != previous.a_tries_after:
            raise _Fault(f"levels before the hand {team_levels} / tries {a_tries} differ from "
                         f"those after hand {previous.hand}: {previous.team_levels_after} / "
                         f"{previous.a_tries_after}")
        if level_team is not None and level_team != previous.level_team_after:
            raise _Fault(f"the hand is played at team {previous.level_team_after}'s level, "
                         f"not team {level_team}'s")
        level_team = previous.level_team_after
    elif "level_team" not in record:
        matching = [t for t in TEAMS if team_levels[t] == level]
        level_team = matching[0] if len(matching) == 1 else None
    if level_team is not None and team_levels[level_team] != level:
        raise _Fault(f"level {level} is not team {level_team}'s level {team_levels[level_team]}")
    if level_team is None and not team_levels["13"] == team_levels["24"] == level:
        raise _Fault(f"level {level} is not the level the hand must be played at")

    deal_field = _need(record, "deal", dict)
    if set(deal_field) != {"1", "2", "3", "4"}:
        raise _Fault("deal must give the cards of seats 1, 2, 3, 4")
    deal = {s: _cards(deal_field[str(s)], f"deal of seat {s}") for s in SEATS}
    for s in SEATS:
        if len(deal[s]) != 27:
            raise _Fault(f"seat {s} was dealt {len(deal[s])} cards, not 27")
    if Counter(c for s in SEATS for c in deal[s]) != Counter(full_deck()):
        raise _Fault("the deal is not two full decks of 108 cards")

    tribute = _need(record, "tribute", dict)
    kind = tribute.get("kind")
    if kind not in TRIBUTE_KINDS:
        raise _Fault(f"tribute kind must be one of {', '.join(TRIBUTE_KINDS)}, not {kind!r}")
    gifts = _gifts(tribute.get("gifts"), "tribute gifts")
    returns = _gifts(tribute.get("returns"), "tribute returns")
    leader = _seat(record.get("leader"), "leader")
    declared = TributePlan(kind, tuple(gifts), leader)
    if previous is not None:
        prev_finish: list[int] | None = previous.finish_order
        plan = plan_tribute(prev_finish, deal, level, preset)
        if plan != declared:
            raise _Fault(f"tribute should be {plan.kind} (gifts {_show(plan.gifts)}, leader "
                         f"{plan.leader}) after finish order {prev_finish}, not {kind} (gifts "
                         f"{_show(gifts)}, leader {leader})")
    elif hand_no == 1:
        prev_finish = None
        if declared != TributePlan("none", (), 1):
            raise _Fault("hand 1 of a match has no tribute and seat 1 leads")
    else:
        candidates = [list(p) for p in permutations(SEATS)
                      if plan_tribute(list(p), deal, level, preset) == declared]
        if not candidates:
            raise _Fault(f"tribute {kind} (gifts {_show(gifts)}, leader {leader}) follows from "
                         f"no finish order of the previous hand")
        prev_finish = candidates[0]

    exchange = TributeExchange(deal, level, preset, prev_finish)
    if len(returns) != len(exchange.gifts):
        raise _Fault(f"{len(exchange.gifts)} returns are due, the record has {len(returns)}")
    for i, r in enumerate(returns):
        due = exchange.gifts[i]
        if (r.giver, r.receiver) != (due.receiver, due.giver):
            raise _Fault(f"return {i} must go from seat {due.receiver} to seat {due.giver}")
        try:
            exchange.apply_return(r.giver, r.card)
        except ValueError as e:
            raise _Fault(f"return {i}: {e}") from None

    state = Deal(exchange.hands, level, exchange.leader)
    actions = _need(record, "actions", list)
    for i, a in enumerate(actions):
        if state.over:
            raise _Fault("the hand was already over", i)
        if not isinstance(a, dict) or "seat" not in a:
            raise _Fault("an action must be an object with a seat", i)
        try:
            seat = _seat(a["seat"], "seat")
            if a.get("pass") is True and set(a) == {"seat", "pass"}:
                state.check_turn(seat)
                state.apply(PASS)
            elif set(a) == {"seat", "cards", "kind", "rank"}:
                cards = _cards(a["cards"], "cards")
                rank = a["rank"]
                if not isinstance(a["kind"], str) or not (rank is None or isinstance(rank, str)):
                    raise _Fault("kind and rank must be strings (rank null for a joker bomb)")
                state.check_turn(seat)
                if not cards:
                    raise _Fault("a play needs at least one card")
                state.apply(read_as(cards, level, a["kind"], rank))
            else:
                raise _Fault(f"an action is {{seat, pass: true}} or {{seat, cards, kind, rank}}, "
                             f"not {sorted(a)}")
        except _Fault as f:
            raise _Fault(f.reason, i) from None
        except ValueError as e:
            raise _Fault(str(e), i) from None
    if not state.over:
        raise _Fault("the hand is not over after the last action", len(actions))
    order = state.finish_order
    if record.get("finish_order") != order:
        raise _Fault(f"finish order should be {order}, not {record.get('finish_order')!r}")
    result = settle(team_levels, a_tries, level_team, order, preset)
    for name, want in (("team_levels_after", result.team_levels_after),
                       ("a_tries_after", result.a_tries_after),
                       ("final_winner", result.final_winner)):
        if name not in record:
            raise _Fault(f"missing field {name!r}")
        if record[name] != want:
            raise _Fault(f"{name} should be {want!r}, not {record[name]!r}")
    stopped = record.get("stopped", False)
    if not isinstance(stopped, bool):
        raise _Fault(f"stopped must be true or false, not {stopped!r}")
    return _Replayed(rules, match_no, hand_no, order, result.team_levels_after,
                     result.a_tries_after, result.level_team, result.final_winner, stopped)


def _check_sequence(record: Mapping[str, Any], hand_no: int | None, prev: _Replayed) -> None:
    """A record after ``prev`` is the next hand of its match, or hand 1 of a new match once
    ``prev``'s match is over (final victory, or stopped by its player)."""
    if type(hand_no) is not int:
        return  # the record's own check says what is wrong
    same = record.get("rules") == prev.rules and record.get("match") == prev.match
    if same and hand_no == prev.hand + 1:
        return
    if same and hand_no > prev.hand + 1:
        missing = (f"hand {prev.hand + 1}" if hand_no == prev.hand + 2
                   else f"hands {prev.hand + 1}-{hand_no - 1}")
        raise _Fault(f"hand {hand_no} of match {prev.match} follows hand {prev.hand}: "
                     f"{missing} missing")
    if hand_no != 1:
        raise _Fault(f"hand {hand_no} of match {record.get('match')!r} follows hand {prev.hand} "
                     f"of match {prev.match}: a match starts at hand 1")
    if prev.final_winner is None and not prev.stopped:
        raise _Fault(f"a new match starts after hand {prev.hand} of match {prev.match}, which "
                     f"did not reach final victory (nor says it was stopped)")


class Validator:
    """Checks records one at a time, in file order, keeping what continuity needs.

    Consecutive records of one match (same rules and match, hand numbers following) are
    checked for continuity; a record whose previous hand is not the record before it is
    checked on its own, its tribute against some finish order that explains it.
    """

    def __init__(self) -> None:
        self.checked = 0
        self.errors: list[RecordError] = []
        self._previous: _Replayed | None = None

    def feed(self, record: object, line: int | None = None) -> RecordError | None:
        """Check one record; the error (also kept in ``errors``) or ``None``."""
        self.checked += 1
        hand_no = record.get("hand") if isinstance(record, dict) else None
        hand_no = hand_no if type(hand_no) is int else None
        prev = self._previous
        try:
            if prev is not None and isinstance(record, dict):
                _check_sequence(record, hand_no, prev)
                if not (record.get("rules") == prev.rules and record.get("match") == prev.match
                        and hand_no == prev.hand + 1):
                    prev = None  # a new match: its first hand is checked on its own
            self._previous = _check_record(record, prev)
        except _Fault as f:
            self._previous = None
            error = RecordError(line, hand_no, f.action, f.reason)
            self.errors.append(error)
            return error
        return None

    def feed_line(self, text: str, line: int) -> RecordError | None:
        """Check one line of JSON Lines text."""
        try:
            record = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as e:
            self.checked += 1
            self._previous = None
            why = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            error = RecordError(line, None, None, f"malformed JSON: {why}")
            self.errors.append(error)
            return error
        return self.feed(record, line)


def replay_records(records: Iterable[object]) -> list[RecordError]:
    """Check records in order (lines numbered from 1); every error, ``[]`` when all are fine."""
    validator = Validator()
    for line, record in enumerate(records, start=1):
        validator.feed(record, line)
    return validator.errors


def validate_lines(lines: Iterable[str]) -> Validator:
    """Check JSON Lines text, one record per line (blank lines are skipped, still counted)."""
    validator = Validator()
    for line, text in enumerate(lines, start=1):
        if text.strip():
            validator.feed_line(text, line)
    return validator
