"""Levels between hands: promotion, the cap at A, tries at A and final victory.

The winners (the team of the first out) go up by their partner's place: 2nd +3, 3rd +2,
4th +1; losers keep their level; past A the level stays A. The next hand is played at the
winning team's level. A team already at A that wins a hand played at A (its own, or the other
team's when both are at A) 1-2 or 1-3 wins the match. Under presets with tries at A, a hand at
its own A that the team does not pass (a 1-4 win or a loss) uses a try; when the last one
fails, the team goes back to 2.

>>> s = settle({"13": "4", "24": "8"}, {"13": 0, "24": 0}, "24", [1, 2, 3, 4], "site")
>>> s.team_levels_after, s.next_level  # seed §16: 4 + 2 levels in a hand played at 8
({'13': '6', '24': '8'}, '6')
>>> settle({"13": "K", "24": "2"}, {"13": 0, "24": 0}, "13", [1, 3, 2, 4], "site").final_winner
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from guandan.cards import RANKS
from guandan.presets import Preset, get_preset
from guandan.seats import TEAMS, other_team, partner, team_of
from guandan.tribute import check_finish_order

LEVELS = RANKS


def promote(level: str, steps: int) -> str:
    """``level`` raised by ``steps``, capped at A.

    >>> promote("K", 2), promote("4", 3)
    ('A', '7')
    """
    if level not in LEVELS:
        raise ValueError(f"not a level: {level!r}")
    return LEVELS[min(LEVELS.index(level) + steps, len(LEVELS) - 1)]


def promotion(finish_order: Sequence[int]) -> tuple[str, int]:
    """The winning team and its steps: partner 2nd +3, 3rd +2, 4th +1.

    >>> promotion([2, 4, 1, 3])
    ('24', 3)
    """
    order = check_finish_order(finish_order)
    first = order[0]
    place = order.index(partner(first))  # 1, 2 or 3
    return team_of(first), 4 - place


@dataclass(frozen=True)
class Settlement:
    """The result of one hand for the levels (the result screen shows all of it).

    ``try_number`` is which try at A this hand was (failed or passed) for the team playing at
    its own A under a preset that counts tries (``None`` otherwise); ``reset`` names a team
    sent back to 2.
    """

    winner: str
    steps: int
    team_levels: dict[str, str]
    team_levels_after: dict[str, str]
    a_tries: dict[str, int]
    a_tries_after: dict[str, int]
    level_team: str
    next_level: str
    final_winner: str | None
    try_number: int | None
    reset: str | None
    why_ko: str
    why_en: str


def check_levels(team_levels: Mapping[str, str], a_tries: Mapping[str, int],
                 preset: Preset | str) -> None:
    """Raise ``ValueError`` unless both teams have a level and a try count the preset allows."""
    rules = get_preset(preset)
    if set(team_levels) != set(TEAMS) or any(v not in LEVELS for v in team_levels.values()):
        raise ValueError(f"team levels must give both teams 13 and 24 a level 2-A, "
                         f"not {dict(team_levels)!r}")
    if set(a_tries) != set(TEAMS) or any(type(v) is not int or v < 0 for v in a_tries.values()):
        raise ValueError(f"A tries must give both teams a count ≥ 0, not {dict(a_tries)!r}")
    limit = rules.a_tries or 0
    for team, used in a_tries.items():
        if used and (used >= limit or team_levels[team] != "A"):
            raise ValueError(f"team {team} cannot have used {used} tries at A "
                             f"(level {team_levels[team]}, {rules.name} rules)")


def own_level(team: str, team_levels: Mapping[str, str], level_team: str | None) -> bool:
    """True when the hand is played at ``team``'s own level."""
    if level_team is None:
        return team_levels[team] == team_levels["13"] == team_levels["24"]
    return level_team == team


def settle(
    team_levels: Mapping[str, str],
    a_tries: Mapping[str, int],
    level_team: str | None,
    finish_order: Sequence[int],
    preset: Preset | str,
) -> Settlement:
    """Levels and tries after a hand played at ``level_team``'s level.

    ``level_team`` is ``None`` when the teams share the level (the first hand of a match).
    Seed §17: K + 2 is A, not final victory.
    """
    rules = get_preset(preset)
    check_levels(team_levels, a_tries, rules)
    winner, steps = promotion(finish_order)
    before = dict(team_levels)
    tries = dict(a_tries)
    after = dict(before)
    tries_after = dict(tries)
    after[winner] = promote(before[winner], steps)
    final: str | None = None
    try_number: int | None = None
    reset: str | None = None
    ko = {3: "동료 2위: 3레벨 승급", 2: "동료 3위: 2레벨 승급", 1: "동료 4위: 1레벨 승급"}[steps]
    en = {3: "partner 2nd: up 3 levels", 2: "partner 3rd: up 2 levels",
          1: "partner 4th: up 1 level"}[steps]
    why_ko, why_en = [f"{winner}팀 승리, {ko}"], [f"team {winner} wins, {en}"]
    if before[winner] != "A" and after[winner] == "A":
        why_ko.append("A 도달 (최종 승리는 A 판에서 1·2위 또는 1·3위로 이겨야 합니다)")
        why_en.append("reached A (final victory needs a 1-2 or 1-3 win in a hand played at A)")
    hand_level = before[level_team] if level_team is not None else before["13"]
    for team in (winner, other_team(winner)):  # the winner first: a final victory ends it
        if before[team] != "A" or hand_level != "A":
            continue
        own = own_level(team, before, level_team)
        if team == winner and steps >= 2:
            final = team  # at A in a hand played at A (either team's): docs/rules.md final victory
            on_try_ko = on_try_en = ""
            if rules.a_tries is not None and own:
                try_number = tries[team] + 1  # the try on which A was passed
                on_try_ko, on_try_en = f" (A{try_number})", f" on try A{try_number}"
            why_ko.append(f"{team}팀 A 판 통과{on_try_ko}: 최종 승리")
            why_en.append(f"team {team} passes A{on_try_en}: final victory")
            continue  # the losers, at their own A too, still used a try (docs/rules.md)
        if not own:
            continue  # a hand at the other team's A uses no try
        failed = "1·4위 승리" if team == winner else "패배"
        failed_en = "a 1-4 win" if team == winner else "a loss"
        if rules.a_tries is None:
            why_ko.append(f"{team}팀 A 유지 ({failed}는 A 통과가 아닙니다)")
            why_en.append(f"team {team} stays at A ({failed_en} does not pass A)")
            continue
        used = tries[team] + 1
        if try_number is None:  # a final victory's try is the one the result screen names
            try_number = used
        if used >= rules.a_tries:
            after[team], tries_after[team], reset = "2", 0, team
            why_ko.append(f"{team}팀 A{used} 실패 ({failed}): 마지막 기회, 2로 돌아갑니다")
            why_en.append(f"team {team} fails A{used} ({failed_en}): last try, back to 2")
        else:
            tries_after[team] = used
            why_ko.append(f"{team}팀 A{used} 실패 ({failed})")
            why_en.append(f"team {team} fails A{used} ({failed_en})")
    return Settlement(
        winner=winner, steps=steps, team_levels=before, team_levels_after=after,
        a_tries=tries, a_tries_after=tries_after, level_team=winner,
        next_level=after[winner], final_winner=final, try_number=try_number, reset=reset,
        why_ko="; ".join(why_ko), why_en="; ".join(why_en),
    )
