"""Outside programs in the arena: ``guandan arena --players search,outside --listen PORT``.

One side is ours, the other two outside programs that connect to ``ws://HOST:PORT/game/NAME``
and speak the competition's protocol. The duplicate scheme, the figures and the records are the
arena's (see :mod:`guandan.arena`): each board is played twice, the outside programs on seats
2 and 4, then on seats 1 and 3 (the first program to connect takes the lower seat). Seats are
told by ``myPos`` at every hand's beginning, so the programs follow the move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any

from guandan.arena.duplicate import board_players, new_result, play_boards, search_settings
from guandan.arena.stats import ArenaResult
from guandan.host.relay import OutsideSeat, Peer, Relay
from guandan.host.server import Lobby
from guandan.players import Player
from guandan.seats import SEATS, team_of

OUTSIDE = "outside"


class _Seats:
    """The outside seats of the board being played, filled from the lobby's two places."""

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
    relay = Relay(seats, fallback=fallback,
                  fallback_settings=search_settings(fallback, samples), timeout=timeout,
                  seed=seed, setting=2 * hands, log=log)
    result = new_result(a, b, rules, mode, seed, samples, first)

    def seat_players(index: int, seating: dict[str, str]) -> dict[int, Player]:
        outside_team = "13" if seating["13"] == OUTSIDE else "24"
        seats.seats = (1, 3) if outside_team == "13" else (2, 4)
        players = board_players({"13": ours, "24": ours}, seed, index, samples)
        for seat in SEATS:
            if team_of(seat) == outside_team:
                players[seat] = OutsideSeat(relay, seat)
        return players

    play_boards(result, hands, out, max_hands, progress, seat_players, relay)
    relay.finish()
    return result, relay


def outside_figures(relay: Relay) -> dict[str, Any]:
    st = relay.stats
    return {"outside_decisions": st.asked, "refused": st.refused,
            "hands_with_replacement": st.hands_replaced,
            "host_ms_per_outside_decision":
                1e3 * st.build_seconds / st.asked if st.asked else 0.0,
            "mean_action_list": sum(st.actions) / len(st.actions) if st.actions else 0.0}


__all__ = ["OUTSIDE", "outside_figures", "run_outside_arena"]
