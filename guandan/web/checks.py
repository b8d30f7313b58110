"""A seat's requests checked against the game, and the reason of a refusal.

Nothing here decides a rule: readings come from ``classify``, whether one may be played from
``beats`` and ``Match.apply``, the cards a seat may return from the observation's legal
actions. A refusal names its reason with a code the page's catalogs translate (``Refusal``:
409, or 422 for malformed input); a refused request changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from guandan.cards import Card, parse_card
from guandan.match import PASS, Action, Match, Observation
from guandan.readings import Reading, beats, classify, why_not_beats
from guandan.web.errors import Refusal
from guandan.web.results import pending_result
from guandan.web.store import Game


def parse_input_cards(tokens: Sequence[str]) -> list[Card]:
    try:
        return [parse_card(t) for t in tokens]
    except (ValueError, AttributeError, TypeError) as e:
        raise Refusal("bad_card", str(e), status=422) from None


def check_turn(game: Game, seat: int, phase: str) -> Observation:
    """``seat``'s observation when it is its turn in ``phase``; a refusal otherwise."""
    if pending_result(game) is not None:
        raise Refusal("result_pending", "the result of the hand is shown: continue first")
    m = game.match
    if m.to_act is None:
        raise Refusal("match_over", "the match is over: start a new one")
    obs = m.observation(seat)
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
    """The reading the seat plays: the one named, or the strongest legal one.

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
    table = obs.table.play
    first = readings[0]
    params: dict[str, object] = {"kind": first.kind, "size": first.size,
                                 "table_kind": table.kind, "table_size": table.size,
                                 "table_rank": table.rank}
    if why_not_beats(first, table) == "wrong_kind":
        refusal = Refusal("wrong_kind", f"{first.kind} of {first.size} cannot follow the "
                          f"table's {table.kind} of {table.size}")
    else:
        refusal = Refusal("not_higher", f"{first.kind} {first.rank} does not beat the "
                          f"table's {table.kind} {table.rank}")
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


def apply_action(match: Match, action: Action) -> None:
    """``match.apply`` with the engine's refusal turned into a ``Refusal``."""
    try:
        match.apply(action)
    except ValueError as e:
        raise Refusal("refused", str(e)) from None
