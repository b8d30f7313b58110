"""Duplicate play: two players against each other on the same cards, each side in both seats.

The arena plays *boards* (numbered 1, 2, …, as duplicate bridge calls the deals it plays at
every table); each is played twice, once with A on seats 1 and 3 (team ``13``) and B on seats 2
and 4, once with the teams swapped. Both seatings get exactly the same cards, because a
match's deals depend only on its seed, its match number and the hand number.

- mode ``match``: a board is a whole match, from hand 1 at level 2 to final victory (or
  ``max_hands`` hands). Hand *h* of both seatings is dealt the same cards; from hand 2 on,
  levels and tribute follow each seating's own results.
- mode ``hand``: a board is one hand, hand 1 of a match started at a level drawn from the seed
  (both teams at that level, no tribute, seat 1 leads).

A board's cards and its players' seeds depend only on its index, so each seating of each board
may be played on its own (``play_seating``, as the pool does, :mod:`guandan.arena.pool`).
"""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import Callable
from typing import IO, Any

from guandan.arena.stats import ArenaResult, Timing
from guandan.cards import RANKS
from guandan.match import Match
from guandan.players import Player, make_player, player_settings
from guandan.seats import team_of

_LEVEL_INDEX = {r: i for i, r in enumerate(RANKS)}


def _levels_gained(before: str, after: str) -> int:
    return max(0, _LEVEL_INDEX[after] - _LEVEL_INDEX[before])


def _board_seed(seed: int, index: int) -> tuple[int, int]:
    """Seed and match number of board ``index`` (the match number makes the deals differ)."""
    return seed, index


def _start(rules: str, seed: int, index: int, mode: str) -> Match:
    s, number = _board_seed(seed, index)
    if mode == "hand":
        level = random.Random(f"arena-level:{seed}:{index}").choice(RANKS)
        return Match(rules, seed=s, match_number=number,
                     team_levels={"13": level, "24": level})
    return Match(rules, seed=s, match_number=number)


def play_board(
    rules: str,
    seed: int,
    index: int,
    seating: dict[str, str],
    players: dict[int, Player],
    result: ArenaResult,
    mode: str,
    max_hands: int,
    out: IO[str] | None,
    relay: Any = None,
) -> int:
    """Play one board in one seating (``seating``: team -> player name); hands played.

    ``relay`` (a :class:`guandan.host.relay.Relay`, for outside programs) hears of every action
    and tells them; their seats' players ask it for their actions.
    """
    match = _start(rules, seed, index, mode)
    a_team = "13" if seating["13"] == result.a else "24"
    played = 0
    while match.to_act is not None:
        if relay is not None:
            relay.sync(match)
        seat = match.to_act
        player = players[seat]
        obs = match.observation(seat)
        t0 = time.perf_counter()
        action = player.act(obs)
        result.timing[seating[team_of(seat)]].times.append(time.perf_counter() - t0)
        before = len(match.records)
        match.apply(action)
        if relay is not None:
            relay.applied(match, seat, action, obs)
        if len(match.records) > before:
            played += 1
            rec = match.records[-1]
            if match.final_winner is None and (mode == "hand" or played >= max_hands):
                rec = {**rec, "stopped": True}  # the match ends here: the validator may go on
            if out is not None:
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
            res = match.results[-1]
            result.hands += 1
            if res.winner == a_team:
                result.a_hand_wins += 1
            b_team = "24" if a_team == "13" else "13"
            result.a_gain.append(_levels_gained(rec["team_levels"][a_team],
                                                rec["team_levels_after"][a_team]))
            result.b_gain.append(_levels_gained(rec["team_levels"][b_team],
                                                rec["team_levels_after"][b_team]))
            if match.final_winner is not None:
                result.matches += 1
                if match.final_winner == a_team:
                    result.a_match_wins += 1
                break
            if mode == "hand" or played >= max_hands:
                if mode == "match":
                    result.unfinished_matches += 1
                break
    return played


def new_result(a: str, b: str, rules: str, mode: str, seed: int,
                samples: int | None, first: int = 1) -> ArenaResult:
    """An empty result for a run of ``a`` against ``b``, with a clock for each player."""
    result = ArenaResult(a, b, rules, mode, seed, samples=samples, first=first)
    result.timing = {a: Timing()} if a == b else {a: Timing(), b: Timing()}
    return result


def seating_of(a: str, b: str, flip: int) -> dict[str, str]:
    """Which player sits on each team in seating ``flip`` (0: ``a`` on seats 1 and 3)."""
    return {"13": a, "24": b} if flip == 0 else {"13": b, "24": a}


def searches(name: str) -> bool:
    """Whether the player called ``name`` searches sampled deals (takes ``--samples``)."""
    settings = player_settings(name)
    return "samples" in settings and "budget_ms" in settings


def samples_problem(samples: int | None, a: str, b: str) -> str | None:
    """What is wrong with ``samples`` for players ``a`` and ``b``, or None."""
    if samples is None:
        return None
    if samples < 1:
        return f"samples must be at least 1, not {samples}"
    if not (searches(a) or searches(b)):
        return f"samples sets how many deals a search draws, and neither {a} nor {b} searches"
    return None


def search_settings(name: str, samples: int | None) -> dict[str, Any]:
    """The settings that make player ``name`` draw ``samples`` deals per decision and ignore
    the clock, if it searches and ``samples`` is set; else none."""
    if samples is None or not searches(name):
        return {}
    return {"samples": samples, "budget_ms": None}


def seat_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the player on ``seat`` in board ``index`` of a run seeded ``seed``: the
    same in both seatings and in every run, so a run in parts plays what a whole run does."""
    return seed * 1000 + index * 4 + seat


def play_both_seatings(rules: str, index: int, result: ArenaResult,
                       build: Callable[[str, int], Player], mode: str = "hand",
                       max_hands: int = 60) -> None:
    """Board ``index`` in both seatings (one hand each in hand mode, a whole match each in
    match mode, stopped after ``max_hands``) into ``result``, with the player of each seat
    built by ``build(side, seat_seed(...))`` (``side``: ``result.a`` or ``result.b``); for
    scripts that build players the arena cannot name (tuning aids)."""
    for flip in (0, 1):
        seating = seating_of(result.a, result.b, flip)
        players = {seat: build(seating[team_of(seat)], seat_seed(result.seed, index, seat))
                   for seat in (1, 2, 3, 4)}
        play_board(rules, result.seed, index, seating, players, result, mode,
                   1 if mode == "hand" else max_hands, None)


def board_players(seating: dict[str, str], seed: int, index: int,
             samples: int | None = None) -> dict[int, Player]:
    """The four players of board ``index`` in ``seating``, seeded by ``seat_seed``."""
    return {seat: make_player(seating[team_of(seat)], seed=seat_seed(seed, index, seat),
                              **search_settings(seating[team_of(seat)], samples))
            for seat in (1, 2, 3, 4)}


def play_seating(
    a: str, b: str, rules: str, seed: int, index: int, flip: int, mode: str, max_hands: int,
    records: bool, samples: int | None = None,
) -> tuple[ArenaResult, str]:
    """Board ``index`` in seating ``flip`` on its own (in a worker process): its figures and,
    if ``records``, its hand records as JSON Lines."""
    part = new_result(a, b, rules, mode, seed, samples)
    seating = seating_of(a, b, flip)
    buf = io.StringIO() if records else None
    play_board(rules, seed, index, seating, board_players(seating, seed, index, samples), part,
                  mode, max_hands, buf)
    return part, buf.getvalue() if buf is not None else ""


def play_boards(result: ArenaResult, hands: int, out: IO[str] | None, max_hands: int,
                progress: Callable[[int], None] | None,
                seat_players: Callable[[int, dict[str, str]], dict[int, Player]] | None = None,
                relay: Any = None) -> None:
    """Play boards from ``result.first`` on, both seatings each, into ``result`` until each
    seating has played ``hands`` hands (``run_arena`` in one process). ``seat_players(index,
    seating)`` gives the players of a board in a seating (default ``board_players``); with
    ``relay``, outside programs hear of every action (``play_board``)."""
    a, b, rules, mode, seed = result.a, result.b, result.rules, result.mode, result.seed
    per_seating = {0: 0, 1: 0}
    index = result.first - 1
    while min(per_seating.values()) < hands:
        index += 1
        for flip in (0, 1):
            seating = seating_of(a, b, flip)
            players = (board_players(seating, seed, index, result.samples)
                       if seat_players is None else seat_players(index, seating))
            n = play_board(rules, seed, index, seating, players, result, mode, max_hands, out,
                           relay)
            per_seating[flip] += n
            if progress is not None:
                progress(n)
        result.boards = index - result.first + 1
