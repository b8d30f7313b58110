"""A friends' room: its code, settings, four seats and the match played in it, and its save.

A room is one row of the store (``rooms``), saved as the JSON object ``guandan-room/1``; the
match inside is a ``Game`` (the one-person page's game: the same ``Match``, the same results
seen, the same records), so every rule stays the engine's. ``decode`` checks every field.

Seats hold people: a name, the hash of the seat's token (the token itself is only ever in its
browser), ready, connected (and through which server processes), ``auto`` (the AI plays the
seat: 자동 / 托管) and the turns in a row the seat let its timer run out. An empty seat is
played by the AI at the room's level.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from guandan.seats import SEATS
from guandan.web.store.game import DIFFICULTY_KEYS, Game, decode, no_duplicate_keys

ROOM_FORMAT = "guandan-room/1"
#: A room code's letters: no 0/O, 1/I: read aloud and typed on a phone without doubt.
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6
TIMERS = (0, 15, 30, 60)  # the turn timer's choices in seconds (0: 끄기, off)
NAME_MAX = 16
PRESETS = ("site", "national", "huaian", "nanjing")
Phase = Literal["lobby", "playing", "over"]


def new_code() -> str:
    """A room code: 6 of 32 letters (30 bits: with joins per minute limited per client, not
    found by trying)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


def new_token() -> str:
    """A seat token: 192 random bits; only its hash is kept."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(("guandan seat token:" + token).encode()).hexdigest()


def clean_name(name: str) -> str | None:
    """A person's name as kept: spaces at the ends dropped, control characters refused;
    1-16 characters, else None."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_MAX:
        return None
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\u202a\u202b\u202c\u202d\u202e"
           "\u2066\u2067\u2068\u2069" for c in name):
        return None
    return name


@dataclass
class Settings:
    preset: str = "site"
    level: str = "normal"  # the AI of the empty seats: easy / normal / hard
    timer: int = 0  # seconds a person has for a turn (0: no timer)
    spectators: bool = True
    counter: bool = True  # the card counter may be shown
    phrases: bool = True  # quick phrases and emotes


@dataclass
class Seat:
    name: str | None = None  # None: empty, the AI plays it
    token: str = ""  # the hash of the seat's token
    ready: bool = False
    connected: bool = False
    gone_since: float | None = None  # when its last connection closed
    #: The server processes holding its person's sockets (their ids: ``processes``): connected
    #: while one is; a dead process's id is taken out by whoever sees it dead.
    via: list[str] = field(default_factory=list)
    auto: bool = False  # the AI plays it for its person (자동 / 托管)
    timeouts: int = 0  # turns in a row its timer ran out

    @property
    def taken(self) -> bool:
        return self.name is not None


@dataclass
class Room:
    code: str
    settings: Settings
    game: Game | None = None  # the match, once started
    seats: dict[int, Seat] = field(default_factory=lambda: {s: Seat() for s in SEATS})
    maker: str = ""  # the token hash of the room's maker (moves with them, passes on leaving)
    phase: Phase = "lobby"
    created: float = field(default_factory=time.time)
    #: When the seat to act began its turn (the turn timer counts from here).
    turn_since: float = 0.0
    turn_key: str = ""  # what ``turn_since`` belongs to (hand, actions so far)
    result_since: float = 0.0  # when the shown result appeared
    empty_since: float | None = None  # since when nobody has been connected
    closed: bool = False
    #: Seats left to outside programs (the competition's protocol, ``guandan.web.outside``),
    #: at addresses derived from ``secret`` (the id of the room's matches: never shown but to
    #: the maker, as those addresses).
    outside: tuple[int, ...] = ()
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    version: int = 0

    # -- who is who -------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token holds, or None."""
        if not token:
            return None
        h = token_hash(token)
        for s, seat in self.seats.items():
            if seat.taken and secrets.compare_digest(seat.token, h):
                return s
        return None

    def is_maker(self, seat: int) -> bool:
        return bool(self.maker) and self.seats[seat].token == self.maker

    def people(self) -> list[int]:
        return [s for s, seat in self.seats.items() if seat.taken]

    def ai_plays(self, seat: int) -> bool:
        """The AI acts for this seat now: empty, or on 자동."""
        st = self.seats[seat]
        return not st.taken or st.auto

    def turn_state(self) -> str:
        """Hand and actions so far: changes exactly when the seat to act begins a new turn."""
        g = self.game
        if g is None:
            return ""
        m = g.match
        return f"{g.match_number}.{m.hand_number}.{len(m.events)}.{m.to_act}.{g.seen_results}"

    # -- the save ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": ROOM_FORMAT,
            "code": self.code,
            "settings": self.settings.__dict__,
            "seats": {str(s): seat.__dict__ for s, seat in self.seats.items()},
            "maker": self.maker,
            "phase": self.phase,
            "created": self.created,
            "turn_since": self.turn_since,
            "turn_key": self.turn_key,
            "result_since": self.result_since,
            "empty_since": self.empty_since,
            "closed": self.closed,
            "outside": list(self.outside),
            "secret": self.secret,
            "game": None if self.game is None else {"id": self.game.id,
                                                    "save": self.game.to_json()},
        }

    def encode(self) -> bytes:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")).encode()


class CorruptRoom(Exception):
    """A room's save cannot be read."""


def _bool(v: Any, name: str) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"{name} must be true or false")
    return v


def _time(v: Any, name: str, none: bool = False) -> float | None:
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"{name} must be a time")
    return float(v)


def decode_room(raw: bytes, version: int) -> Room:
    """The room saved as ``raw``; ``CorruptRoom`` naming the damage otherwise."""
    try:
        d = json.loads(bytes(raw).decode("utf-8"), object_pairs_hook=no_duplicate_keys)
        if not isinstance(d, dict) or d.get("format") != ROOM_FORMAT:
            raise ValueError(f"not a {ROOM_FORMAT} save")
        code = d.get("code")
        if not isinstance(code, str) or not valid_code(code):
            raise ValueError("bad code")
        s = d.get("settings")
        if not isinstance(s, dict) or set(s) != set(Settings().__dict__):
            raise ValueError("bad settings")
        settings = Settings(**s)
        if settings.preset not in PRESETS or settings.level not in DIFFICULTY_KEYS \
                or settings.timer not in TIMERS:
            raise ValueError("bad settings")
        for k in ("spectators", "counter", "phrases"):
            _bool(getattr(settings, k), k)
        seats: dict[int, Seat] = {}
        raw_seats = d.get("seats")
        if not isinstance(raw_seats, dict) or set(raw_seats) != {str(s) for s in SEATS}:
            raise ValueError("bad seats")
        for k, v in raw_seats.items():
            # ``via`` is newer than the format: a save without it was connected through
            # processes unknown (``hub`` counts them gone).
            if not isinstance(v, dict) or set(v) | {"via"} != set(Seat().__dict__):
                raise ValueError(f"bad seat {k}")
            seat = Seat(**v)
            if not isinstance(seat.via, list) or len(seat.via) > 64 or \
                    not all(isinstance(p, str) for p in seat.via):
                raise ValueError(f"bad seat {k}")
            if seat.name is not None and clean_name(str(seat.name)) != seat.name:
                raise ValueError(f"bad name of seat {k}")
            if not isinstance(seat.token, str) or not isinstance(seat.timeouts, int):
                raise ValueError(f"bad seat {k}")
            for b in ("ready", "connected", "auto"):
                _bool(getattr(seat, b), b)
            _time(seat.gone_since, "gone_since", none=True)
            seats[int(k)] = seat
        phase = d.get("phase")
        if phase not in ("lobby", "playing", "over"):
            raise ValueError("bad phase")
        game = None
        g = d.get("game")
        if g is not None:
            if not isinstance(g, dict) or not isinstance(g.get("id"), str):
                raise ValueError("bad game")
            game = decode(g["id"], json.dumps(g.get("save")).encode(), 0)
        elif phase != "lobby":
            raise ValueError("a room at play has no game")
        if not isinstance(d.get("maker"), str) or not isinstance(d.get("turn_key"), str):
            raise ValueError("bad maker")
        outside = d.get("outside")
        if not isinstance(outside, list) or any(x not in (2, 3, 4) or isinstance(x, bool)
                                                for x in outside):
            raise ValueError("bad outside seats")
        secret = d.get("secret")
        if not isinstance(secret, str) or len(secret) < 20:
            raise ValueError("bad secret")
        return Room(code=code, settings=settings, game=game, seats=seats, maker=d["maker"],
                    phase=phase, created=_time(d.get("created"), "created") or 0.0,
                    turn_since=_time(d.get("turn_since"), "turn_since") or 0.0,
                    turn_key=d["turn_key"],
                    result_since=_time(d.get("result_since"), "result_since") or 0.0,
                    empty_since=_time(d.get("empty_since"), "empty_since", none=True),
                    closed=_bool(d.get("closed"), "closed"), outside=tuple(outside),
                    secret=secret, version=version)
    except RecursionError:
        raise CorruptRoom("the room's save is damaged (nested too deeply)") from None
    except Exception as e:
        raise CorruptRoom(f"the room's save is damaged ({type(e).__name__})") from None
