"""What people (and the AI for them) do in a room, as changes of a ``Room``.

Each function checks first and changes after: a refused request raises ``Refusal`` (a code the
page's catalogs translate) with the room untouched. The match's rules are the engine's
(``Match.apply`` through ``checks``); nothing here decides a play.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from guandan.match import PASS, Action, Match
from guandan.web import checks, results
from guandan.web.errors import Refusal
from guandan.web.rooms.room import (
    TIMERS,
    Room,
    Seat,
    Settings,
    clean_name,
    new_code,
    new_token,
    token_hash,
)
from guandan.web.store import Game

#: Turns in a row a seat may let its timer run out before it is put on 자동.
TIMEOUTS_TO_AUTO = 3


def check_name(name: str) -> str:
    cleaned = clean_name(name)
    if cleaned is None:
        raise Refusal("bad_name", "a name is 1-16 characters", status=422)
    return cleaned


def new_room(settings: Settings, name: str) -> tuple[Room, str]:
    """A room made by a person named ``name``, who sits at seat 1: the room and their token."""
    if settings.timer not in TIMERS:
        raise Refusal("bad_request", "the turn timer is off, 15, 30 or 60 s", status=422)
    token = new_token()
    room = Room(code=new_code(), settings=settings)
    room.seats[1] = Seat(name=check_name(name), token=token_hash(token))
    room.maker = room.seats[1].token
    return room, token


def seat_number(seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (1, 2, 3, 4):
        raise Refusal("bad_seat", "a seat is 1, 2, 3 or 4", status=422)
    return seat


def take_seat(room: Room, seat: int, name: str) -> str:
    """A person sits at a free seat (in the lobby, or during a match, taking it from the AI):
    their new token."""
    seat_number(seat)
    name = check_name(name)
    if all(s.taken for s in room.seats.values()):
        raise Refusal("room_full", "every seat of this room is taken")
    if room.seats[seat].taken or seat in room.outside:
        raise Refusal("seat_taken", f"seat {seat} is taken", seat=seat)
    token = new_token()
    room.seats[seat] = Seat(name=name, token=token_hash(token), connected=False,
                            ready=room.phase != "lobby")
    if not room.maker:
        room.maker = room.seats[seat].token
    return token


def set_ready(room: Room, seat: int, ready: bool) -> None:
    if room.phase != "lobby":
        raise Refusal("not_in_lobby", "the match has started")
    room.seats[seat].ready = bool(ready)


def _maker(room: Room, seat: int) -> None:
    if not room.is_maker(seat):
        raise Refusal("not_maker", "only the room's maker may do this", status=403)


def move(room: Room, by: int, frm: int, to: int) -> None:
    """The maker moves the person at ``frm`` to ``to`` (swapping with whoever sits there)."""
    _maker(room, by)
    seat_number(frm)
    seat_number(to)
    if room.phase != "lobby":
        raise Refusal("not_in_lobby", "seats are moved before the match")
    if not room.seats[frm].taken:
        raise Refusal("seat_empty", f"nobody sits at seat {frm}", seat=frm)
    room.seats[frm], room.seats[to] = room.seats[to], room.seats[frm]


def free(room: Room, by: int, seat: int) -> None:
    """The maker frees a seat: its person's token no longer acts, the AI plays it."""
    _maker(room, by)
    seat_number(seat)
    if seat == by:
        raise Refusal("bad_seat", "leave the room to free your own seat", status=422)
    if not room.seats[seat].taken:
        raise Refusal("seat_empty", f"nobody sits at seat {seat}", seat=seat)
    room.seats[seat] = Seat()


def set_outside(room: Room, by: int, seat: int, on: bool) -> None:
    """The maker leaves an empty seat to an outside program (or gives it back to the AI), in
    the lobby: the program connects to the seat's address (``outside_path``)."""
    _maker(room, by)
    if room.phase != "lobby":
        raise Refusal("not_in_lobby", "outside seats are chosen before the match")
    if seat not in (2, 3, 4):
        raise Refusal("bad_seat", "an outside program may take seat 2, 3 or 4", status=422)
    if room.seats[seat].taken:
        raise Refusal("seat_taken", f"seat {seat} is taken", seat=seat)
    room.outside = tuple(sorted(set(room.outside) - {seat} | ({seat} if on else set())))


def leave(room: Room, seat: int) -> None:
    """The person leaves: the seat is free (the AI plays it); the maker's role passes on."""
    was_maker = room.is_maker(seat)
    room.seats[seat] = Seat()
    if was_maker:
        rest = room.people()
        room.maker = room.seats[rest[0]].token if rest else ""


def set_settings(room: Room, by: int, changes: dict[str, Any]) -> None:
    """The maker changes the settings: any in the lobby, the quick phrases at any time."""
    _maker(room, by)
    s = room.settings
    allowed = set(s.__dict__) if room.phase == "lobby" else {"phrases", "spectators"}
    bad = set(changes) - allowed
    if bad:
        raise Refusal("not_in_lobby", f"{sorted(bad)[0]} is set before the match")
    new = Settings(**(s.__dict__ | changes))
    if new.timer not in TIMERS:
        raise Refusal("bad_request", "the turn timer is off, 15, 30 or 60 s", status=422)
    room.settings = new


def start(room: Room, by: int, seed: int | None = None) -> None:
    """The maker starts the match once everyone seated is ready."""
    _maker(room, by)
    if room.phase == "playing":
        raise Refusal("already_started", "the match has started")
    waiting = [s for s in room.people() if not room.seats[s].ready]
    if waiting:
        raise Refusal("not_ready", "everyone seated must be ready", seats=waiting)
    _new_match(room, seed, 1)


def again(room: Room, seat: int, seed: int | None = None) -> None:
    """한 판 더: another match in the room, once the last one is over."""
    if room.phase != "over" or room.game is None:
        raise Refusal("match_not_over", "the match is not over")
    _new_match(room, seed, room.game.match_number + 1)


def _new_match(room: Room, seed: int | None, number: int) -> None:
    s = room.settings
    match = Match(s.preset, seed=secrets.randbits(48) if seed is None else seed,
                  match_number=number)
    room.game = Game(id=room.secret, preset=s.preset, match=match, difficulty=s.level,
                     match_number=number, outside=room.outside)
    room.phase = "playing"
    for seat in room.seats.values():
        seat.timeouts = 0


def check_playing(room: Room) -> Game:
    if room.phase == "lobby" or room.game is None:
        raise Refusal("not_started", "the match has not started")
    return room.game


def play(room: Room, seat: int, cards: list[str], kind: str | None, rank: str | None) -> None:
    game = check_playing(room)
    obs = checks.check_turn(game, seat, "play")
    reading = checks.choose_play(obs, checks.parse_input_cards(cards), kind, rank)
    _act(room, seat, reading)


def pass_turn(room: Room, seat: int) -> None:
    game = check_playing(room)
    obs = checks.check_turn(game, seat, "play")
    checks.check_pass(obs)
    _act(room, seat, PASS)


def return_card(room: Room, seat: int, card: str) -> None:
    game = check_playing(room)
    obs = checks.check_turn(game, seat, "return")
    _act(room, seat, checks.check_return(obs, card))


def _act(room: Room, seat: int, action: Action) -> None:
    assert room.game is not None
    checks.apply_action(room.game.match, action)
    st = room.seats[seat]
    st.timeouts = 0


def ai_act(room: Room, seat: int, action: Action, timed_out: bool) -> None:
    """The AI's action for ``seat`` (an empty or 자동 seat, or one whose timer ran out)."""
    assert room.game is not None
    checks.apply_action(room.game.match, action)
    st = room.seats[seat]
    if timed_out and st.taken:
        st.timeouts += 1
        if st.timeouts >= TIMEOUTS_TO_AUTO:
            st.auto = True


def go_on(room: Room) -> None:
    """Past the shown result of a hand, to the next one."""
    game = check_playing(room)
    if results.pending_result(game) is None:
        raise Refusal("no_result", "the hand is not over")
    game.seen_results = len(game.match.results)


def take_back(room: Room, seat: int) -> None:
    """The person takes their seat back from the AI (자동 off)."""
    st = room.seats[seat]
    st.auto = False
    st.timeouts = 0
    st.gone_since = None


def settle(room: Room, now: float | None = None) -> None:
    """After any change: the turn's start (for its timer), the result's, the match's end."""
    now = time.time() if now is None else now
    key = room.turn_state()
    if key != room.turn_key:
        room.turn_key = key
        room.turn_since = now
        if room.game is not None and results.pending_result(room.game) is not None:
            room.result_since = now
    if room.game is not None and room.game.match.to_act is None and room.phase == "playing":
        room.phase = "over"
