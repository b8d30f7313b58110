"""One web game (a ``Match`` and what the page needs around it) and its save.

The save is the JSON object ``guandan-web-game/1`` (the match as ``Match.to_json``, the preset,
the level, how many hand results the person has seen …), kept as UTF-8 bytes in the store.
``decode`` checks every field: any damage, random bytes included, is a ``CorruptSave`` with a
message that names the problem and never a path of the server.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from guandan.match import Match
from guandan.players import DEFAULT_DIFFICULTY, DIFFICULTY, REGISTRY, STRONGEST, make_player
from guandan.presets import PRESETS

SAVE_FORMAT = "guandan-web-game/1"
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: The API's names of the levels -> the players package's (Korean) keys of ``DIFFICULTY``.
#: The one place where the two meet: saves and requests use the API's names.
DIFFICULTY_KEYS: dict[str, str] = {"easy": "쉬움", "normal": "보통", "hard": "어려움"}
DEFAULT_LEVEL = next(k for k, v in DIFFICULTY_KEYS.items() if v == DEFAULT_DIFFICULTY)


class GameNotFound(Exception):
    """No game has this id (or the id is malformed)."""


class CorruptSave(Exception):
    """The save of this game cannot be read (the message names the damage, never a path)."""


@functools.cache
def usable(name: str) -> str:
    """``name`` if it is a registered player that can be built, else the strongest one that
    can (``STRONGEST``, then the difficulties' players, then any registered one)."""
    for n in (name, STRONGEST, *reversed(DIFFICULTY.values()), *REGISTRY):
        if n in REGISTRY:
            try:
                make_player(n, seed=0)
            except Exception:  # a player being written may not import yet: take the next
                continue
            return n
    raise RuntimeError("no player can be built")


def difficulty_player(difficulty: str) -> str:
    """The player of the AI seats (2-4) at this level (``easy`` / ``normal`` / ``hard``)."""
    return usable(DIFFICULTY[DIFFICULTY_KEYS[difficulty]])


def id_hash(game_id: str) -> str:
    """The store's key of a game: a hash, so that a copy of the store reveals no game id."""
    return hashlib.sha256(game_id.encode()).hexdigest()[:40]


def outside_path(game_id: str, seat: int) -> str:
    """The WebSocket path where an outside program takes ``seat`` of the game (served by the
    page's own server): derived from the id, so that the program never learns the id (which
    would show it seat 1's cards)."""
    token = hashlib.sha256(f"guandan outside seat {seat} of {game_id}".encode()).hexdigest()
    return f"/game/{token[:32]}"


#: The seat the person plays.
HUMAN = 1
#: The seats a new game may leave to outside programs (seat 1 is the person's).
OUTSIDE_SEATS = (2, 3, 4)


def new_id() -> str:
    """A new game id: unguessable, and the only key to the game."""
    return secrets.token_urlsafe(24)


@dataclass
class Game:
    """One game: the match, which results the person has seen, and the names of its AIs.

    Seats 2-4 are played by ``ai`` (the player of the game's ``difficulty``); seat 1's hint
    and auto-play by ``hint_ai`` (``STRONGEST``). The server's ``--ai`` sets both.
    ``version`` counts the game's committed changes (the store's compare-and-set).
    """

    id: str
    preset: str
    match: Match
    match_number: int = 1
    seen_results: int = 0
    created: float = field(default_factory=time.time)
    difficulty: str = DEFAULT_LEVEL
    ai: str = "greedy"
    hint_ai: str = "greedy"
    version: int = 0
    #: Seats left to outside programs (the competition's protocol, ``guandan.web.outside``).
    outside: tuple[int, ...] = ()
    #: By hand of the current match: the outside programs that played it and the seats our AI
    #: took over (``outside``, ``replaced`` of its ``guandan-hand/1`` record).
    outside_notes: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return id_hash(self.id)

    @property
    def finished(self) -> bool:
        """The match is over (its final victory reached): the game may be cleaned up."""
        return self.match.to_act is None

    def player_name(self, seat: int) -> str:
        return self.hint_ai if seat == HUMAN else self.ai

    def records(self) -> list[dict[str, Any]]:
        """The match's hand records, with what ``outside_notes`` says of each hand."""
        if not self.outside_notes:
            return self.match.records
        return [r | self.outside_notes.get(r["hand"], {}) for r in self.match.records]

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.outside:
            extra["outside"] = list(self.outside)
            extra["outside_notes"] = {str(k): v for k, v in self.outside_notes.items()}
        return extra | {
            "format": SAVE_FORMAT,
            "id_hash": self.key,
            "preset": self.preset,
            "difficulty": self.difficulty,
            "match_number": self.match_number,
            "seen_results": self.seen_results,
            "created": self.created,
            "saved": time.time(),
            "match": self.match.to_json(),
        }

    def encode(self) -> bytes:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")).encode()


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook`` that refuses an object naming a key twice
    (where the last would silently win)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _int(data: dict[str, Any], name: str, low: int) -> int:
    v = data.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ValueError(f"{name} must be an integer of at least {low}, not {v!r}")
    return v


def decode(game_id: str, raw: bytes, version: int) -> Game:
    """The game saved as ``raw``; ``CorruptSave`` naming the damage if it cannot be read."""
    try:
        data = json.loads(bytes(raw).decode("utf-8"), object_pairs_hook=no_duplicate_keys)
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a {SAVE_FORMAT} save")
        if data.get("id_hash") != id_hash(game_id):
            raise ValueError("the save is of another game")
        preset = data.get("preset")
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}")
        difficulty = data.get("difficulty", DEFAULT_LEVEL)  # older saves: the default
        if difficulty not in DIFFICULTY_KEYS:
            raise ValueError(f"unknown difficulty {difficulty!r}")
        created = data.get("created")
        if isinstance(created, bool) or not isinstance(created, (int, float)) \
                or not math.isfinite(created) or created < 0:
            raise ValueError(f"created must be a time, not {created!r}")
        match = Match.from_json(data.get("match"))  # type: ignore[arg-type]
        if match.rules != preset:
            raise ValueError(f"the match is played under {match.rules!r}, not {preset!r}")
        seen = _int(data, "seen_results", 0)
        if seen > len(match.results):
            raise ValueError(f"seen_results {seen} but {len(match.results)} hands finished")
        number = _int(data, "match_number", 1)
        if number != match.match_number:
            raise ValueError(f"match_number {number} but the match is match "
                             f"{match.match_number}")
        outside, notes = _outside(data)
        game = Game(id=game_id, preset=preset, match=match,
                    match_number=number, seen_results=seen,
                    created=float(created), difficulty=difficulty, version=version,
                    outside=outside, outside_notes=notes)
        game.match.observation(1)  # the person's view can be made
        return game
    except RecursionError:
        raise CorruptSave("the save is damaged (nested too deeply)") from None
    except Exception as e:  # any damage in the save: a clear error, never a crash
        raise CorruptSave(f"the save is damaged ({type(e).__name__}: {_short(e)})") from None


def _outside(data: dict[str, Any]) -> tuple[tuple[int, ...], dict[int, dict[str, Any]]]:
    """The outside seats and their notes of a save (none in older saves)."""
    seats = data.get("outside", [])
    if not isinstance(seats, list) or any(s not in OUTSIDE_SEATS or isinstance(s, bool)
                                          for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"outside must list distinct seats 2-4, not {seats!r}")
    raw = data.get("outside_notes", {})
    if not isinstance(raw, dict):
        raise ValueError("outside_notes must be an object")
    notes: dict[int, dict[str, Any]] = {}
    for k, v in raw.items():
        if not (k.isascii() and k.isdigit() and 1 <= int(k) <= 10_000) or not isinstance(v, dict) \
                or set(v) - {"outside", "replaced"} or not _note(v):
            raise ValueError(f"outside_notes: bad entry {k!r}")
        notes[int(k)] = v
    return tuple(seats), notes


def _note(note: dict[str, Any]) -> bool:
    """A hand's note is what the record gets (``guandan.host.relay``): ``outside``, the
    programs by seat, and ``replaced``, the seats our AI took over (seat, turn, reason)."""
    programs = note.get("outside", {})
    if not isinstance(programs, dict) or not all(
            s in ("1", "2", "3", "4") and isinstance(n, str) for s, n in programs.items()):
        return False
    replaced = note.get("replaced", [])
    return isinstance(replaced, list) and all(
        isinstance(r, dict) and set(r) == {"seat", "turn", "reason"}
        and r["seat"] in (1, 2, 3, 4) and not isinstance(r["seat"], bool)
        and type(r["turn"]) is int and r["turn"] >= 0 and isinstance(r["reason"], str)
        for r in replaced)


def _short(e: Exception) -> str:
    text = str(e)
    return text if len(text) <= 200 else text[:200] + "…"
