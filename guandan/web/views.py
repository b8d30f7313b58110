"""From the engine's objects to the page's JSON, and the reasons a request is refused.

Nothing here decides a rule: readings come from ``classify``, whether one may be played from
``beats`` and ``Match.apply``, the cards a seat may return from the observation's legal actions.
This module only turns them into what the page shows, and names the reason of a refusal with a
code the page's catalogs translate.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from guandan.cards import Card, parse_card, parse_cards
from guandan.deal import Deal
from guandan.match import PASS, Match, Observation
from guandan.match import HandResult as MatchResult
from guandan.plays import legal_plays
from guandan.presets import get_preset
from guandan.readings import Reading, beats, classify, read_as, why_not_beats
from guandan.seats import SEATS, partner, team_of
from guandan.tribute import givers
from guandan.web.models import (
    EndedHand,
    Event,
    GameState,
    HandResult,
    OutsideSeatOut,
    PlayOut,
    ReplayOut,
    TableOut,
    TributeOut,
    WhyOut,
)
from guandan.web.store import Game
from guandan.web.store.game import outside_path

HUMAN = 1


class Refusal(Exception):
    """A request the game refuses: ``code`` for the catalogs, ``message`` in English."""

    def __init__(self, code: str, message: str, status: int = 409, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params = params


# -- small conversions ------------------------------------------------------------------------


def play_out(r: Reading) -> PlayOut:
    return PlayOut(cards=[c.notation for c in r.cards], kind=r.kind, rank=r.rank)


def parse_input_cards(tokens: Sequence[str]) -> list[Card]:
    try:
        return [parse_card(t) for t in tokens]
    except (ValueError, AttributeError, TypeError) as e:
        raise Refusal("bad_card", str(e), status=422) from None


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _seat_key_map(d: Any) -> dict[str, Any]:
    return {str(k): v for k, v in dict(d or {}).items()}


def event_out(ev: Any) -> Event:
    kind = str(_get(ev, "kind"))
    play = _get(ev, "play")
    card = _get(ev, "card")
    return Event(
        kind=kind,  # type: ignore[arg-type]
        seat=int(_get(ev, "seat")),
        to=_get(ev, "to"),
        card=None if card is None else str(getattr(card, "notation", card)),
        play=None if play is None else play_out(play),
    )


def _mark_finishes(events: list[Event], finish_order: Sequence[int], counts_known: bool) -> None:
    """Mark the play with which each seat went out (its last play of the hand)."""
    last_play: dict[int, int] = {}
    for i, e in enumerate(events):
        if e.kind == "play":
            last_play[e.seat] = i
    for rank, seat in enumerate(finish_order, start=1):
        at = last_play.get(seat)
        if at is not None and counts_known:
            events[at].finished = rank


class TrickMarks:
    """Which trick each play and pass of a hand belongs to, and the plays that took a trick.

    The engine's own play of a deal (``Deal``) decides where a trick ends: the plays are
    replayed from the hands held once the tribute was exchanged (the server's knowledge; the
    page receives only the numbers). ``feed`` takes the hand's turns so far and replays only
    those it has not seen.
    """

    def __init__(self, start: dict[int, list[Card]], level: str, leader: int) -> None:
        self.deal = Deal(start, level, leader)
        self.level = level
        self.trick = 1
        self.marks: list[tuple[int, bool]] = []  # per turn: its trick, and whether it took it
        self.last: int | None = None  # the turn of the trick's last play

    def feed(self, turns: Sequence[Event]) -> None:
        for e in turns[len(self.marks):]:
            self.marks.append((self.trick, False))
            if e.kind == "play" and e.play is not None:
                self.deal.apply(read_as(parse_cards(e.play.cards), self.level,
                                        e.play.kind, e.play.rank))
                self.last = len(self.marks) - 1
            else:
                self.deal.apply(PASS)
            if (self.deal.table is None or self.deal.to_act is None) and self.last is not None:
                self.marks[self.last] = (self.marks[self.last][0], True)
                self.trick += 1
                self.last = None

    def mark(self, events: Sequence[Event]) -> None:
        """Set ``trick`` and ``wins`` on the plays and passes of ``events``."""
        turns = [e for e in events if e.kind in ("play", "pass")]
        self.feed(turns)
        for e, (trick, wins) in zip(turns, self.marks, strict=False):
            e.trick, e.wins = trick, wins


def mark_tricks(events: Sequence[Event], start: dict[int, list[Card]], level: str,
                leader: int) -> None:
    """Number the trick of each play and pass of a whole hand (see ``TrickMarks``)."""
    TrickMarks(start, level, leader).mark(events)


def _played_by(events: Iterable[Event]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {s: [] for s in SEATS}
    for e in events:
        if e.kind == "play" and e.play is not None:
            out[e.seat].extend(parse_cards(e.play.cards))
    return out


#: The trick marks of the hand each match is playing, kept between requests so that each
#: state replays only the turns since the last one (a match that is let go takes its marks).
_LIVE: weakref.WeakKeyDictionary[Match, tuple[tuple[int, int], TrickMarks]] = (
    weakref.WeakKeyDictionary())


def _live_tricks(game: Game, history: list[Event]) -> None:
    """Trick marks for the hand in play: the hands at its first lead are the cards held now
    and those played since."""
    m = game.match
    turns = [e for e in history if e.kind in ("play", "pass")]
    if m.phase != "play" or not turns:
        return
    key = (m.match_number, m.hand_number)
    kept = _LIVE.get(m)
    if kept is None or kept[0] != key or len(kept[1].marks) > len(turns):
        played = _played_by(history)
        start = {s: list(m.hands[s]) + played[s] for s in SEATS}
        kept = (key, TrickMarks(start, m.level, m.leader))
        _LIVE[m] = kept
    kept[1].mark(turns)


# -- finished hands, from their records ----------------------------------------------------------


def _record_events(record: dict[str, Any], seat: int | None) -> list[Event]:
    """A finished hand's events: gifts, returns (cards hidden unless ``seat`` took part; every
    card with ``seat`` None), plays and passes."""
    out: list[Event] = []
    tribute = record.get("tribute") or {}
    for g in tribute.get("gifts", []):
        out.append(Event(kind="gift", seat=g["from"], to=g["to"], card=g["card"]))
    for g in tribute.get("returns", []):
        seen = seat is None or seat in (g["from"], g["to"])
        out.append(Event(kind="return", seat=g["from"], to=g["to"],
                         card=g["card"] if seen else None))
    for a in record.get("actions", []):
        if a.get("pass"):
            out.append(Event(kind="pass", seat=a["seat"]))
        else:
            out.append(Event(kind="play", seat=a["seat"], play=PlayOut(
                cards=list(a["cards"]), kind=a["kind"], rank=a["rank"])))
    return out


def _record_start(record: dict[str, Any]) -> dict[int, list[Card]]:
    """Every seat's cards once the tribute was exchanged (the deal, gifts and returns)."""
    hands = {s: parse_cards(record["deal"][str(s)]) for s in SEATS}
    tribute = record.get("tribute") or {}
    for g in [*tribute.get("gifts", []), *tribute.get("returns", [])]:
        c = parse_card(g["card"])
        hands[int(g["from"])].remove(c)
        hands[int(g["to"])].append(c)
    return hands


def _record_tribute(record: dict[str, Any], events: list[Event]) -> TributeOut:
    kind = str((record.get("tribute") or {}).get("kind", "none"))
    return TributeOut(kind=kind, gifts=[e for e in events if e.kind == "gift"],
                      returns=[e for e in events if e.kind == "return"])


def _went_out(record: dict[str, Any], start: dict[int, list[Card]],
              played: dict[int, list[Card]]) -> list[int]:
    """The seats of the finish order that played all their cards (the last ones are ranked
    with cards in hand)."""
    return [s for s in record["finish_order"] if len(played[s]) == len(start[s])]


def ended_out(game: Game, record: dict[str, Any], seat: int = HUMAN) -> EndedHand:
    """The hand just finished as ``seat`` may see it now: its log and every seat's remaining
    cards (returns it took no part in stay hidden)."""
    level = str(record["level"])
    events = _record_events(record, seat)
    start = _record_start(record)
    mark_tricks(events, start, level, int(record["leader"]))
    played = _played_by(events)
    remaining = {}
    for s in SEATS:
        left = Counter(start[s])
        left.subtract(played[s])
        remaining[str(s)] = [c.notation for c in strength_order(left.elements(), level)]
    _mark_finishes(events, _went_out(record, start, played), True)
    return EndedHand(hand=int(record["hand"]), level=level, wild="H" + level, history=events,
                     remaining=remaining, tribute=_record_tribute(record, events),
                     finish_order=list(record["finish_order"]))


def replay_out(game: Game, hand: int) -> ReplayOut:
    """A finished hand of this match with every seat's cards, for the replay."""
    record = next((r for r in game.match.records if r.get("hand") == hand), None)
    if record is None:
        raise Refusal("no_such_hand", f"hand {hand} of this match is not finished",
                      status=404, hand=hand)
    level = str(record["level"])
    events = _record_events(record, None)
    start = _record_start(record)
    steps = [e for e in events if e.kind in ("play", "pass")]
    mark_tricks(steps, start, level, int(record["leader"]))
    _mark_finishes(steps, _went_out(record, start, _played_by(steps)), True)
    return ReplayOut(hand=hand, level=level, wild="H" + level, leader=int(record["leader"]),
                     hands={str(s): [c.notation for c in strength_order(start[s], level)]
                            for s in SEATS},
                     tribute=_record_tribute(record, events), steps=steps,
                     finish_order=list(record["finish_order"]))


def why_out(code: str, params: Any) -> WhyOut | None:
    """A player's structured reason for the page (None when it gave only words)."""
    if not code:
        return None
    return WhyOut(code=code, params=dict(params or {}))


# -- hand arrangement -------------------------------------------------------------------------


def strength_order(hand: Iterable[Card], level: str) -> list[Card]:
    """Strongest first (jokers, the level rank, A, K …); the engine's card strength."""
    return sorted(hand, key=lambda c: (-c.strength(level), c.suit != "H", c.index))


def group_order(hand: Sequence[Card], level: str) -> list[list[Card]]:
    """The hand in groups: bombs and straight flushes together first, then rank groups.

    The bombs and straight flushes are the engine's own (``legal_plays``), taken greedily from
    the strongest and never sharing a card; wilds are kept apart so they stay free to use.
    """
    rest = Counter(c for c in hand if not c.is_wild(level))
    groups: list[list[Card]] = []
    wilds = [c for c in hand if c.is_wild(level)]
    plays = [p for p in legal_plays(list(rest.elements()), level) if p.is_special]
    specials = [p for p in plays if p.kind != "bomb"]
    bombs = [p for p in plays if p.kind == "bomb"]
    # Bombs: the biggest of each rank (all natural cards of that rank).
    by_rank: dict[str | None, Reading] = {}
    for b in bombs:
        if b.rank not in by_rank or b.size > by_rank[b.rank].size:
            by_rank[b.rank] = b
    chosen: list[Reading] = []
    for p in sorted(specials, key=lambda r: (r.power, r.key), reverse=True):
        if p.kind == "joker_bomb" or not (Counter(p.cards) - rest):
            chosen.append(p)
            rest -= Counter(p.cards)
    for b in sorted(by_rank.values(), key=lambda r: (r.power, r.key), reverse=True):
        if not (Counter(b.cards) - rest):
            chosen.append(b)
            rest -= Counter(b.cards)
    chosen.sort(key=lambda r: (r.power, r.key), reverse=True)
    if wilds:
        groups.append(wilds)
    for p in chosen:
        groups.append(strength_order(p.cards, level))
    by_strength: dict[int, list[Card]] = {}
    for c in strength_order(rest.elements(), level):
        by_strength.setdefault(c.strength(level), []).append(c)
    groups.extend(by_strength.values())
    return [g for g in groups if g]


# -- the person's actions, checked and explained ----------------------------------------------


def own_observation(game: Game, seat: int = HUMAN) -> Observation:
    return game.match.observation(seat)


def check_turn(game: Game, phase: str, seat: int = HUMAN) -> Observation:
    """The person's observation when it is their turn in ``phase``; a refusal otherwise."""
    if pending_result(game) is not None:
        raise Refusal("result_pending", "the result of the hand is shown: continue first")
    m = game.match
    if m.to_act is None:
        raise Refusal("match_over", "the match is over: start a new one")
    obs = own_observation(game, seat)
    if m.to_act != seat:
        raise Refusal("not_your_turn", f"it is seat {m.to_act}'s turn", seat=m.to_act)
    if obs.phase != phase:
        code = "must_return" if obs.phase == "return" else "not_returning"
        raise Refusal(code, f"the hand is in its {obs.phase} phase")
    return obs


def readings_of(obs: Observation, cards: list[Card]) -> tuple[list[Reading], list[Reading]]:
    """Every reading of ``cards`` and those that may be played on the table, strongest first."""
    readings = classify(cards, obs.level)
    table = None if obs.table is None else obs.table.play
    legal = [r for r in readings if table is None or beats(r, table)]
    return readings, legal


def check_held(obs: Observation, cards: list[Card]) -> None:
    missing = Counter(cards) - Counter(obs.hand)
    if missing:
        shown = [c.notation for c in sorted(missing.elements())]
        raise Refusal("not_held", "you do not hold " + " ".join(shown), cards=shown)


def choose_play(obs: Observation, cards: list[Card], kind: str | None,
                rank: str | None) -> Reading:
    """The reading the person plays: the one named, or the strongest legal one.

    Refuses with the reason: no cards, cards not held, not a combination, the wrong kind or
    size for the table, not higher than the table.
    """
    if not cards:
        raise Refusal("empty_selection", "select the cards to play")
    check_held(obs, cards)
    readings, legal = readings_of(obs, cards)
    if not readings:
        raise Refusal("not_combination", "these cards are not a combination",
                      cards=[c.notation for c in cards])
    if kind is not None:
        named = [r for r in readings if r.kind == kind and r.rank == rank]
        if not named:
            raise Refusal("no_such_reading", f"these cards cannot be played as {kind} {rank}")
        legal = [r for r in legal if r in named]
        readings = named
    if legal:
        return legal[0]
    assert obs.table is not None
    t = obs.table.play
    r = readings[0]
    params: dict[str, object] = {"kind": r.kind, "size": r.size, "table_kind": t.kind,
                                 "table_size": t.size, "table_rank": t.rank}
    if why_not_beats(r, t) == "wrong_kind":
        refusal = Refusal("wrong_kind", f"{r.kind} of {r.size} cannot follow the table's "
                          f"{t.kind} of {t.size}")
    else:
        refusal = Refusal("not_higher",
                          f"{r.kind} {r.rank} does not beat the table's {t.kind} {t.rank}")
    refusal.params = params
    raise refusal


def check_pass(obs: Observation) -> None:
    if PASS not in obs.legal_actions:
        raise Refusal("leader_cannot_pass", "the leader on an empty table must play")


def check_return(obs: Observation, card_token: str) -> Card:
    card = parse_input_cards([card_token])[0]
    allowed = [a for a in obs.legal_actions if isinstance(a, Card)]
    if card not in obs.hand:
        raise Refusal("not_held", f"you do not hold {card.notation}", cards=[card.notation])
    if card not in allowed:
        raise Refusal("not_returnable", f"{card.notation} may not be returned",
                      card=card.notation, allowed=[c.notation for c in allowed])
    return card


def apply(match: Match, action: object) -> None:
    """``match.apply`` with the engine's refusal turned into a ``Refusal``."""
    try:
        match.apply(action)  # type: ignore[arg-type]
    except ValueError as e:
        raise Refusal("refused", str(e)) from None


# -- results -----------------------------------------------------------------------------------


def hand_results(game: Game) -> list[HandResult]:
    a_max = get_preset(game.preset).a_tries
    records = game.match.records
    return [result_out(r, a_max, records[i] if i < len(records) else None)
            for i, r in enumerate(game.match.results)]


def last_play(record: dict[str, Any] | None) -> TableOut | None:
    """The play that ended a hand, from its record (for the result screen)."""
    for a in reversed((record or {}).get("actions", [])):
        if "cards" in a:
            return TableOut(seat=a["seat"], play=PlayOut(cards=a["cards"], kind=a["kind"],
                                                         rank=a["rank"]))
    return None


def result_out(r: MatchResult, a_tries_max: int | None,
               record: dict[str, Any] | None = None) -> HandResult:
    """One finished hand, from the engine's settlement (nothing recomputed here)."""
    s = r.settlement
    if s.final_winner is not None:
        why = "final"
    elif s.reset is not None:
        why = "a_reset"
    elif s.try_number is not None:
        why = "a_try_failed"
    elif r.level == "A" and s.team_levels[s.winner] == "A" and s.steps == 1:
        why = "a_not_passed"  # a 1-4 win by a team at A in a hand played at A
    else:
        why = f"gain{s.steps}"
    return HandResult(
        hand=r.hand,
        level=r.level,
        finish_order=list(r.finish_order),
        winner=s.winner,
        gain=s.steps,
        team_levels_before=dict(s.team_levels),
        team_levels_after=dict(s.team_levels_after),
        a_tries_before=dict(s.a_tries),
        a_tries_after=dict(s.a_tries_after),
        why=why,
        why_ko=s.why_ko,
        why_en=s.why_en,
        a_try=s.try_number,
        a_tries_max=a_tries_max,
        reset=s.reset,
        final_winner=s.final_winner,
        last_play=last_play(record),
        first_partner=partner(r.finish_order[0]) if r.finish_order else None,
    )


def pending_result(game: Game) -> HandResult | None:
    results = game.match.results
    if len(results) > game.seen_results:
        records = game.match.records
        return result_out(results[-1], get_preset(game.preset).a_tries,
                          records[-1] if records else None)
    return None


# -- the whole state as the person may see it ----------------------------------------------------


def state_out(game: Game, seat: int = HUMAN) -> GameState:
    """The state ``seat`` may see: its own cards only, while a hand is played."""
    m = game.match
    obs = own_observation(game, seat)
    level = obs.level
    hand = list(obs.hand)
    history = [event_out(e) for e in obs.history]
    trick = [event_out(e) for e in obs.trick]
    _mark_finishes(history, obs.finish_order, True)
    _mark_finishes(trick, obs.finish_order, True)
    _live_tricks(game, history)
    my_turn = m.to_act == seat
    legal = obs.legal_actions if my_turn else []
    returnable = list(dict.fromkeys(a.notation for a in legal if isinstance(a, Card)))
    preset = get_preset(game.preset)
    results = hand_results(game)
    pending = pending_result(game)
    final = None
    for r in results:
        if r.final_winner:
            final = r.final_winner
    ended = None
    if (pending is not None or m.to_act is None) and m.records:
        ended = ended_out(game, m.records[-1], seat)
    return GameState(
        id=game.id,
        preset=game.preset,  # type: ignore[arg-type]
        difficulty=game.difficulty,  # type: ignore[arg-type]
        match_number=game.match_number,
        hand_number=int(_get(obs, "hand_number", len(results) + 1)),
        phase=str(obs.phase),
        level=level,
        wild="H" + level,
        level_team=_get(obs, "level_team"),
        team_levels=_seat_key_map(obs.team_levels),
        seat_teams={str(s): team_of(s) for s in SEATS},
        a_tries={k: int(v) for k, v in _seat_key_map(_get(obs, "a_tries")).items()},
        a_tries_max=preset.a_tries,
        counts=_seat_key_map(obs.counts),
        hand=[c.notation for c in strength_order(hand, level)],
        hand_groups=[[c.notation for c in g] for g in group_order(hand, level)],
        table=None if obs.table is None else TableOut(seat=obs.table.seat,
                                                      play=play_out(obs.table.play)),
        leader=_get(obs, "leader"),
        to_act=m.to_act,
        my_turn=my_turn and pending is None,
        can_pass=PASS in legal,
        returnable=returnable,
        history=history,
        trick=trick,
        finish_order=list(obs.finish_order),
        tribute=tribute_out(game, obs),
        result=pending,
        results=results,
        final_winner=final,
        ai=game.ai,
        hint_ai=game.hint_ai,
        ended=ended,
        outside=[OutsideSeatOut(seat=s, path=outside_path(game.id, s)) for s in game.outside],
    )


def tribute_out(game: Game, obs: Observation) -> TributeOut:
    t = obs.tribute
    gifts = [Event(kind="gift", seat=g.giver, to=g.receiver, card=g.card.notation)
             for g in t.gifts]
    returns = [Event(kind="return", seat=g.giver, to=g.receiver, card=g.card.notation)
               for g in t.returns]
    # Returns this seat was not part of: who returned to whom, the card unseen.
    for e in obs.history:
        if e.kind == "return" and e.card is None:
            returns.append(Event(kind="return", seat=e.seat, to=e.to))
    jokers: dict[str, int] = {}
    results = game.match.results
    if t.kind == "exempt" and results:
        # The givers show their big jokers: who gives comes from the engine's ``givers``.
        deal = game.match.deal
        for s in givers(results[-1].finish_order):
            jokers[str(s)] = sum(1 for c in deal[s] if c.rank == "BJ")
    returned = {r.seat for r in returns}
    pending = [g.to for g in gifts if g.to is not None and g.to not in returned]
    return TributeOut(kind=t.kind, gifts=gifts, returns=returns, exempt_jokers=jokers,
                      pending=pending)
