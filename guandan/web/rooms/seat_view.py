"""What each seat and each spectator of a room may see: the one place every push and every
answer of a room is built.

A seat gets the page's state of the match from its own seat (``shown.game_state(game, seat)``:
its own cards, the plays, the gifts, the returns it took part in; every seat's remaining cards
once a hand is over). A spectator gets the same without any hidden card: no hand, no returned
card, the hand's end as everyone sees it. Nobody gets the deal, the seed, the game's id, or a
hint asked by another seat (hints are answered to the asking seat only, never pushed).
"""

from __future__ import annotations

from typing import Any

from guandan.web import results, shown
from guandan.web.models import Event, GameState
from guandan.web.rooms.room import Room
from guandan.web.store.game import outside_path

SPECTATOR = 0  # the seat number a spectator's view is cached under


def _hide_returns(events: list[Event]) -> None:
    for e in events:
        if e.kind == "return":
            e.card = None


def game_view(room: Room, seat: int | None) -> GameState | None:
    """The match as ``seat`` (None: a spectator) may see it now."""
    game = room.game
    if game is None:
        return None
    state = shown.game_state(game, seat or 1)
    state.id = room.code  # the match has an id of its own, which nobody needs
    state.version = room.version
    state.outside = []
    if seat is None:  # seat 1's view, less everything only seat 1 could see
        state.hand = []
        state.hand_groups = []
        state.my_turn = False
        state.can_pass = False
        state.returnable = []
        _hide_returns(state.history)
        _hide_returns(state.trick)
        if state.tribute is not None:
            _hide_returns(state.tribute.returns)
        if state.ended is not None:
            _hide_returns(state.ended.history)
            _hide_returns(state.ended.tribute.returns)
    return state


def seats_view(room: Room, you: int | None) -> list[dict[str, Any]]:
    """The four seats as everyone sees them (never a token or its hash)."""
    out = []
    for s, seat in room.seats.items():
        out.append({"seat": s, "name": seat.name, "ai": not seat.taken and s not in room.outside,
                    "program": s in room.outside, "ready": seat.ready,
                    "connected": seat.connected, "gone_since": seat.gone_since,
                    "auto": seat.auto, "maker": room.is_maker(s) if seat.taken else False,
                    "you": s == you})
    return out


def room_view(room: Room, seat: int | None, grace: float,
              timer_scale: float = 1.0, as_json: bool = False) -> dict[str, Any]:
    """The whole room as ``seat`` (None: a spectator) sees it: the lobby and the match.
    The room's ``version`` may be compared: a change made after this view has a higher one."""
    game = game_view(room, seat)
    deadline = None
    if room.phase == "playing" and room.settings.timer and room.game is not None:
        to_act = room.game.match.to_act
        if to_act is not None and not room.ai_plays(to_act) \
                and results.pending_result(room.game) is None:
            deadline = room.turn_since + room.settings.timer * timer_scale
    return {
        "type": "room",
        "code": room.code,
        "version": room.version,
        "phase": room.phase,
        "settings": dict(room.settings.__dict__),
        "seats": seats_view(room, seat),
        "you": seat,
        "maker": seat is not None and room.is_maker(seat),
        "grace": grace,
        "turn_deadline": deadline,
        # The match as a dict, or (``as_json``) already as JSON text.
        # The outside seats; their addresses only to the maker (an address takes the seat).
        "outside": [{"seat": s, "path": outside_path(room.secret, s)
                     if seat is not None and room.is_maker(seat) else None}
                    for s in room.outside],
        "game": None if game is None else game.model_dump_json() if as_json
        else game.model_dump(),
    }
