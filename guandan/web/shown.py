"""What a seat is shown: the engine's objects → the page's JSON.

The one place that decides what a seat may see. While a hand is played a seat sees its own
observation (``Match.observation``): its cards, the counts of the others', the plays, and the
tribute returns it took part in. Once a hand is over, every seat's remaining cards
(``ended_hand``); a finished hand replayed shows every card (``hand_replay``, as the export).
Nothing here decides a rule: tricks are the engine's (``tricks``), results its settlement
(``results``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from guandan.cards import Card, parse_cards
from guandan.match import PASS, Observation
from guandan.match import Event as MatchEvent
from guandan.players import Reason
from guandan.presets import get_preset
from guandan.readings import Reading
from guandan.records import hands_after_tribute, trick_leads
from guandan.seats import SEATS, team_of
from guandan.tribute import givers
from guandan.web.errors import Refusal
from guandan.web.hand_order import group_order, strength_order
from guandan.web.models import (
    EndedHand,
    Event,
    GameState,
    HintOut,
    OutsideSeatOut,
    PlayOut,
    ReplayOut,
    TableOut,
    TributeOut,
    WhyOut,
)
from guandan.web.results import hand_results, pending_result
from guandan.web.store import Game
from guandan.web.store.game import outside_path
from guandan.web.tricks import mark_finishes, number_tricks

TURNS = ("play", "pass")


def play_out(reading: Reading) -> PlayOut:
    return PlayOut(cards=[c.notation for c in reading.cards], kind=reading.kind,
                   rank=reading.rank)


def event_out(event: MatchEvent) -> Event:
    return Event(
        kind=event.kind,
        seat=event.seat,
        to=event.to,
        card=None if event.card is None else event.card.notation,
        play=None if event.play is None else play_out(event.play),
    )


def why_out(code: str, params: Any) -> WhyOut | None:
    """A player's structured reason for the page (None when it gave only words)."""
    if not code:
        return None
    return WhyOut(code=code, params=dict(params or {}))


def hint_out(action: object, reason: Reason, played_by: str) -> HintOut:
    """The AI's suggestion for the seat that asked (추천): the play, pass or return card, the
    player's words and its coded reason for the catalogs."""
    why = {"ko": reason.ko, "en": reason.en, "zh": reason.zh or reason.en}
    coded = why_out(reason.code, reason.params)
    if action is PASS:
        return HintOut(kind="pass", cards=[], play=None, reason=why, why=coded,
                       played_by=played_by)
    if isinstance(action, Card):
        return HintOut(kind="return", cards=[action.notation], play=None, reason=why,
                       why=coded, played_by=played_by)
    assert isinstance(action, Reading)
    played = play_out(action)
    return HintOut(kind="play", cards=played.cards, play=played, reason=why, why=coded,
                   played_by=played_by)


def _played_by(events: list[Event]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {s: [] for s in SEATS}
    for e in events:
        if e.kind == "play" and e.play is not None:
            out[e.seat].extend(parse_cards(e.play.cards))
    return out


# -- finished hands, from their records ----------------------------------------------------------


def _record_events(record: dict[str, Any], seat: int | None) -> list[Event]:
    """A finished hand's events: gifts, returns (cards hidden unless ``seat`` took part; every
    card with ``seat`` None), then its plays and passes, numbered by trick."""
    out: list[Event] = []
    tribute = record.get("tribute") or {}
    for g in tribute.get("gifts", []):
        out.append(Event(kind="gift", seat=g["from"], to=g["to"], card=g["card"]))
    for g in tribute.get("returns", []):
        seen = seat is None or seat in (g["from"], g["to"])
        out.append(Event(kind="return", seat=g["from"], to=g["to"],
                         card=g["card"] if seen else None))
    turns = []
    for a in record.get("actions", []):
        if a.get("pass"):
            turns.append(Event(kind="pass", seat=a["seat"]))
        else:
            turns.append(Event(kind="play", seat=a["seat"], play=PlayOut(
                cards=list(a["cards"]), kind=a["kind"], rank=a["rank"])))
    number_tricks(turns, trick_leads(record), last_over=True)
    return out + turns


def _record_tribute(record: dict[str, Any], events: list[Event]) -> TributeOut:
    kind = str((record.get("tribute") or {}).get("kind", "none"))
    return TributeOut(kind=kind, gifts=[e for e in events if e.kind == "gift"],
                      returns=[e for e in events if e.kind == "return"])


def _went_out(record: dict[str, Any], start: dict[int, list[Card]],
              played: dict[int, list[Card]]) -> list[int]:
    """The seats of the finish order that played all their cards (the last ones are ranked
    with cards in hand)."""
    return [s for s in record["finish_order"] if len(played[s]) == len(start[s])]


def ended_hand(record: dict[str, Any], seat: int) -> EndedHand:
    """The hand just finished as ``seat`` may see it now: its log and every seat's remaining
    cards (returns it took no part in stay hidden)."""
    level = str(record["level"])
    events = _record_events(record, seat)
    start = hands_after_tribute(record)
    played = _played_by(events)
    remaining = {}
    for s in SEATS:
        left = Counter(start[s])
        left.subtract(played[s])
        remaining[str(s)] = [c.notation for c in strength_order(left.elements(), level)]
    mark_finishes(events, _went_out(record, start, played))
    return EndedHand(hand=int(record["hand"]), level=level, wild="H" + level, history=events,
                     remaining=remaining, tribute=_record_tribute(record, events),
                     finish_order=list(record["finish_order"]))


def hand_replay(game: Game, hand: int) -> ReplayOut:
    """A finished hand of this match with every seat's cards, for the replay (any seat may
    see it: the hand is over, and the export gives the same)."""
    record = next((r for r in game.match.records if r.get("hand") == hand), None)
    if record is None:
        raise Refusal("no_such_hand", f"hand {hand} of this match is not finished",
                      status=404, hand=hand)
    level = str(record["level"])
    events = _record_events(record, None)
    start = hands_after_tribute(record)
    steps = [e for e in events if e.kind in TURNS]
    mark_finishes(steps, _went_out(record, start, _played_by(steps)))
    return ReplayOut(hand=hand, level=level, wild="H" + level, leader=int(record["leader"]),
                     hands={str(s): [c.notation for c in strength_order(start[s], level)]
                            for s in SEATS},
                     tribute=_record_tribute(record, events), steps=steps,
                     finish_order=list(record["finish_order"]))


# -- the hand in play ----------------------------------------------------------------------------


def game_state(game: Game, seat: int) -> GameState:
    """The whole state as ``seat`` may see it, with the game's version."""
    m = game.match
    obs = m.observation(seat)
    level = obs.level
    hand = list(obs.hand)
    history = [event_out(e) for e in obs.history]
    trick = [event_out(e) for e in obs.trick]
    mark_finishes(history, obs.finish_order)
    mark_finishes(trick, obs.finish_order)
    if m.phase == "play":
        number_tricks([e for e in history if e.kind in TURNS],
                      [e.lead for e in obs.history if e.kind in TURNS],
                      last_over=obs.table is None)
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
        ended = ended_hand(m.records[-1], seat)
    return GameState(
        id=game.id,
        version=game.version,
        preset=game.preset,  # type: ignore[arg-type]
        difficulty=game.difficulty,  # type: ignore[arg-type]
        match_number=game.match_number,
        hand_number=obs.hand_number,
        phase=str(obs.phase),
        level=level,
        wild="H" + level,
        level_team=obs.level_team,
        team_levels={str(k): v for k, v in obs.team_levels.items()},
        seat_teams={str(s): team_of(s) for s in SEATS},
        a_tries={str(k): int(v) for k, v in obs.a_tries.items()},
        a_tries_max=preset.a_tries,
        counts={str(k): v for k, v in obs.counts.items()},
        hand=[c.notation for c in strength_order(hand, level)],
        hand_groups=[[c.notation for c in g] for g in group_order(hand, level)],
        table=None if obs.table is None else TableOut(seat=obs.table.seat,
                                                      play=play_out(obs.table.play)),
        leader=obs.leader,
        to_act=m.to_act,
        my_turn=my_turn and pending is None,
        can_pass=PASS in legal,
        returnable=returnable,
        history=history,
        trick=trick,
        finish_order=list(obs.finish_order),
        tribute=tribute_shown(game, obs),
        result=pending,
        results=results,
        final_winner=final,
        ai=game.ai,
        hint_ai=game.hint_ai,
        ended=ended,
        outside=[OutsideSeatOut(seat=s, path=outside_path(game.id, s)) for s in game.outside],
    )


def tribute_shown(game: Game, obs: Observation) -> TributeOut:
    """The hand's tribute as the observing seat may see it: every gift, its own returns, and
    who returned to whom (the card unseen) for the others."""
    t = obs.tribute
    gifts = [Event(kind="gift", seat=g.giver, to=g.receiver, card=g.card.notation)
             for g in t.gifts]
    returns = [Event(kind="return", seat=g.giver, to=g.receiver, card=g.card.notation)
               for g in t.returns]
    for e in obs.history:
        if e.kind == "return" and e.card is None:
            returns.append(Event(kind="return", seat=e.seat, to=e.to))
    jokers: dict[str, int] = {}
    results = game.match.results
    if t.kind == "exempt" and results:
        # The givers show their big jokers: who gives comes from the engine's ``givers``.
        dealt = game.match.dealt_hands
        for s in givers(results[-1].finish_order):
            jokers[str(s)] = sum(1 for c in dealt[s] if c.rank == "BJ")
    returned = {r.seat for r in returns}
    pending = [g.to for g in gifts if g.to is not None and g.to not in returned]
    return TributeOut(kind=t.kind, gifts=gifts, returns=returns, exempt_jokers=jokers,
                      pending=pending)
