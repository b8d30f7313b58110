"""The match's finished hands as the page shows them (the same for every seat): who won, the
levels before and after, why, and the result waiting to be seen."""

from __future__ import annotations

from typing import Any

from guandan.match import HandResult as MatchResult
from guandan.presets import get_preset
from guandan.seats import partner
from guandan.web.models import HandResult, PlayOut, TableOut
from guandan.web.store import Game


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
    """The result of the hand just finished while it waits to be seen (다시 하기), else None."""
    results = game.match.results
    if len(results) > game.seen_results:
        records = game.match.records
        return result_out(results[-1], get_preset(game.preset).a_tries,
                          records[-1] if records else None)
    return None
