"""Outside programs in the arena: ``guandan arena --players search,outside --listen PORT``.

One side is ours, the other two outside programs that connect to ``ws://HOST:PORT/game/NAME``
and speak the competition's protocol. The duplicate scheme, the figures and the records are the
arena's (see :mod:`guandan.arena`): each deal set is played twice, the outside programs on seats
2 and 4, then on seats 1 and 3 (the first program to connect takes the lower seat). Seats are
told by ``myPos`` at every hand's beginning, so the programs follow the move.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import IO, Any

from guandan.arena import (
    ArenaResult,
    ProgressLines,
    _new_result,
    _players,
    _seating,
    _settings,
    play_deal_set,
    searches,
)
from guandan.host.relay import OutsideSeat, Peer, Relay
from guandan.host.server import Lobby
from guandan.players import REGISTRY, Player
from guandan.seats import SEATS, team_of

OUTSIDE = "outside"


class _Seats:
    """The outside seats of the deal set being played, filled from the lobby's two places."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.seats: tuple[int, int] = (2, 4)

    def __call__(self) -> dict[int, Peer]:
        programs = self.lobby.seating()
        return {seat: programs[place] for place, seat in zip((1, 2), self.seats, strict=True)
                if place in programs}


def run_outside_arena(
    a: str,
    b: str,
    lobby: Lobby,
    *,
    rules: str = "site",
    hands: int = 100,
    seed: int = 0,
    out: IO[str] | None = None,
    mode: str = "match",
    max_hands: int = 60,
    progress: Callable[[int], None] | None = None,
    samples: int | None = None,
    first: int = 1,
    timeout: float = 10.0,
    fallback: str = "heuristic",
    log: Callable[[str], None] | None = None,
) -> tuple[ArenaResult, Relay]:
    """The arena of :func:`guandan.arena.run_arena` with one side (``a`` or ``b`` is
    ``"outside"``) played by the two programs of ``lobby`` (places 1 and 2)."""
    if (a == OUTSIDE) == (b == OUTSIDE):
        raise ValueError("one side is 'outside' and the other one of our players")
    ours = b if a == OUTSIDE else a
    seats = _Seats(lobby)
    relay = Relay(seats, fallback=fallback, fallback_settings=_settings(fallback, samples),
                  timeout=timeout, seed=seed, setting=2 * hands, log=log)
    result = _new_result(a, b, rules, mode, seed, samples, first)
    per_seating = {0: 0, 1: 0}
    index = first - 1
    while min(per_seating.values()) < hands:
        index += 1
        for flip in (0, 1):
            seating = _seating(a, b, flip)
            outside_team = "13" if seating["13"] == OUTSIDE else "24"
            seats.seats = (1, 3) if outside_team == "13" else (2, 4)
            players: dict[int, Player] = _players({"13": ours, "24": ours}, seed, index, samples)
            for seat in SEATS:
                if team_of(seat) == outside_team:
                    players[seat] = OutsideSeat(relay, seat)
            n = play_deal_set(rules, seed, index, seating, players, result, mode, max_hands,
                              out, relay)
            per_seating[flip] += n
            if progress is not None:
                progress(n)
        result.deal_sets = index - first + 1
    relay.finish()
    return result, relay


def outside_figures(relay: Relay) -> dict[str, Any]:
    st = relay.stats
    return {"outside_decisions": st.asked, "refused": st.refused,
            "hands_with_replacement": st.hands_replaced,
            "host_ms_per_outside_decision":
                1e3 * st.build_seconds / st.asked if st.asked else 0.0,
            "mean_action_list": sum(st.actions) / len(st.actions) if st.actions else 0.0}


def outside_arena_main(args: argparse.Namespace, names: list[str]) -> int:
    """``guandan arena`` when a side is ``outside`` (called by :func:`guandan.arena.arena_main`
    with its parsed arguments)."""
    def fail(text: str) -> int:
        print(f"guandan arena: {text}", file=sys.stderr)
        return 2

    if len(names) != 2 or names.count(OUTSIDE) != 1:
        return fail("with outside programs, --players names one of ours and 'outside' "
                    f"(e.g. search,outside), not {args.players!r}")
    ours = names[1] if names[0] == OUTSIDE else names[0]
    if ours not in REGISTRY or args.fallback not in REGISTRY:
        return fail(f"players are {', '.join(sorted(REGISTRY))} (and 'outside'); got "
                    f"{ours!r}, fallback {args.fallback!r}")
    if args.listen is None:
        return fail("'outside' needs --listen PORT: the outside programs connect there")
    if args.workers != 1:
        return fail("outside programs play in one process: leave --workers at 1")
    if args.hands < 1 or args.first < 1 or not args.timeout > 0:
        return fail("--hands and --first must be at least 1, --timeout more than 0")
    if args.samples is not None and (args.samples < 1 or not (
            searches(ours) or searches(args.fallback))):
        return fail(f"--samples sets how many deals a search draws; {ours} does not search")

    def log(text: str) -> None:
        print(f"guandan arena: {text}", file=sys.stderr, flush=True)

    lobby = Lobby([1, 2], log)
    try:
        lobby.start(args.host, args.listen)
    except OSError as e:
        return fail(f"cannot listen on {args.host}:{args.listen}: {e.strerror or e}")
    log(f"listening on ws://{args.host}:{args.listen}/game/NAME; waiting for two programs")
    out: IO[str] | None = None
    try:
        lobby.wait_full()
        log("both programs connected: playing")
        progress = None if args.no_progress else ProgressLines(2 * args.hands, sys.stderr)
        out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
        result, relay = run_outside_arena(
            names[0], names[1], lobby, rules=args.rules, hands=args.hands, seed=args.seed,
            out=out, mode=args.mode, max_hands=args.max_hands, progress=progress,
            samples=args.samples, first=args.first, timeout=args.timeout,
            fallback=args.fallback, log=log)
    except KeyboardInterrupt:
        return fail("stopped")
    finally:
        if out is not None:
            out.close()
        lobby.stop()
    figures = outside_figures(relay)
    if args.json:
        print(json.dumps(result.to_json() | {"outside": figures}, indent=2))
    else:
        print(result.report())
        print(f"  outside programs: {figures['outside_decisions']} decisions asked "
              f"(actionList of {figures['mean_action_list']:.0f} on average), "
              f"{figures['refused']} answers refused, {figures['hands_with_replacement']} "
              f"hands with a seat replaced by {args.fallback}; host "
              f"{figures['host_ms_per_outside_decision']:.2f} ms per outside decision")
    return 0


__all__ = ["OUTSIDE", "outside_arena_main", "outside_figures", "run_outside_arena"]
