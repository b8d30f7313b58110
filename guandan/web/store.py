"""Games kept by the web server: one ``Match`` per game id, saved after every change.

A game id is ``secrets.token_urlsafe(24)``: unguessable, and the only way to open or act on
a game. Saves are JSON files in ``<data_dir>/games/``, named by a hash of the id (a listing of
the folder does not reveal any id), written atomically (temp file + ``os.replace``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import multiprocessing as mp
import os
import re
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guandan.match import Action, Match, Observation
from guandan.players import (
    DEFAULT_DIFFICULTY,
    DIFFICULTY,
    REGISTRY,
    STRONGEST,
    Player,
    Reason,
    make_player,
)
from guandan.readings import Reading

log = logging.getLogger("guandan.web")

SAVE_FORMAT = "guandan-web-game/1"
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: The API's names of the levels -> the players package's (Korean) keys of ``DIFFICULTY``.
#: The one place where the two meet: saves and requests use the API's names.
DIFFICULTY_KEYS: dict[str, str] = {"easy": "쉬움", "normal": "보통", "hard": "어려움"}
DEFAULT_LEVEL = next(k for k, v in DIFFICULTY_KEYS.items() if v == DEFAULT_DIFFICULTY)


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


class GameNotFound(Exception):
    """No game has this id (or the id is malformed)."""


class CorruptSave(Exception):
    """The save of this game cannot be read."""


@dataclass
class Game:
    """One game: the match, which results the person has seen, and the AI players.

    Seats 2-4 are played by ``ai`` (the player of the game's ``difficulty``); seat 1's hint
    and auto-play by ``hint_ai`` (``STRONGEST``). The server's ``--ai`` sets both.
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
    version: int = 0  # counts the changes since the game was loaded
    deleted: bool = False  # once deleted, a late AI step must not write the game back
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    #: Held while an AI thinks for this game (outside ``lock``, so the game stays readable).
    ai_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _players: dict[int, Player] = field(default_factory=dict, repr=False)

    def player(self, seat: int) -> Player:
        """The AI that acts for ``seat`` (seat 1: the hint and auto-play)."""
        p = self._players.get(seat)
        if p is None:
            p = self._players[seat] = make_player(self.player_name(seat), seed=seat)
        return p

    def player_name(self, seat: int) -> str:
        return self.hint_ai if seat == 1 else self.ai

    def decide(self, seat: int, obs: Observation,
               pool: Executor | None = None) -> tuple[Action, Reason]:
        """The AI's action for ``seat`` seeing ``obs``, and its reason.

        With a ``pool`` (worker processes), the player object travels to a worker with the
        observation and comes back with its new state: the AI thinks on another core and the
        server's own process stays free for the people's actions.

        Should the AI fail (a bug in a player must not stop the game), the ``greedy`` player
        decides this one action instead.
        """
        player = self.player(seat)
        try:
            if pool is not None:
                action, reason, player = pool.submit(think, player, obs).result(timeout=120)
                self._players[seat] = player
            else:
                action = player.act(obs)
                reason = player.reason
            if action in obs.legal_actions or isinstance(action, Reading):
                return action, reason
        except Exception:
            log.exception("player %s failed at seat %d; greedy acts instead",
                          self.player_name(seat), seat)
        fallback = make_player("greedy", seed=seat)
        return fallback.act(obs), fallback.reason

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "id_hash": id_hash(self.id),
            "preset": self.preset,
            "difficulty": self.difficulty,
            "match_number": self.match_number,
            "seen_results": self.seen_results,
            "created": self.created,
            "saved": time.time(),
            "match": self.match.to_json(),
        }


def think(player: Player, obs: Observation) -> tuple[Action, Reason, Player]:
    """One decision, in a worker process: the action, its reason and the player's new state."""
    action = player.act(obs)
    return action, player.reason, player


def _background() -> None:
    """A worker's start: a lower CPU priority, so that people's requests come first."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def ai_pool(workers: int) -> Executor | None:
    """Worker processes for the AI (``None`` for 0: the AI thinks in the server's process)."""
    if workers <= 0:
        return None
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                               initializer=_background)


def id_hash(game_id: str) -> str:
    return hashlib.sha256(game_id.encode()).hexdigest()[:40]


class GameStore:
    """Games in memory, backed by one JSON file per game in ``data_dir/games``."""

    def __init__(self, data_dir: Path, ai: str | None = None, keep: int = 1000) -> None:
        """``ai``, when given, plays every AI seat and the hint whatever the difficulty."""
        self.dir = Path(data_dir).expanduser() / "games"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ai = ai  # the override (``--ai``), or None
        self.hint_ai = ai or usable(STRONGEST)
        self.keep = keep  # games kept in memory; the others wait on disk
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def _remember(self, game: Game) -> None:
        """Keep ``game`` in memory, forgetting the least recently used beyond ``keep`` (every
        game is saved after each change, so a forgotten one is read again when asked for)."""
        self._games[game.id] = game
        self._games.move_to_end(game.id)
        while len(self._games) > self.keep:
            old_id, old = next(iter(self._games.items()))
            if old.lock.acquire(blocking=False):  # never one in the middle of a request
                old.lock.release()
                del self._games[old_id]
            else:
                self._games.move_to_end(old_id)
                break

    def path(self, game_id: str) -> Path:
        return self.dir / f"{id_hash(game_id)}.json"

    def new_id(self) -> str:
        return secrets.token_urlsafe(24)

    def set_players(self, game: Game) -> Game:
        """Name the game's players: its difficulty's, unless the server's ``--ai`` says."""
        game.ai = self.ai or difficulty_player(game.difficulty)
        game.hint_ai = self.hint_ai
        game._players.clear()
        return game

    def add(self, game: Game) -> Game:
        self.set_players(game)
        with self._lock:
            self._remember(game)
        self.save(game)
        return game

    def get(self, game_id: str) -> Game:
        """The game with this id; ``GameNotFound`` or ``CorruptSave`` if it cannot be had."""
        if not ID_PATTERN.match(game_id):
            raise GameNotFound(game_id)
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                game = self._load(game_id)
            self._remember(game)
            return game

    def _load(self, game_id: str) -> Game:
        path = self.path(game_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GameNotFound(game_id) from None
        except OSError as e:
            raise CorruptSave(f"cannot read the save: {e}") from None
        try:
            data = json.loads(text)
            if data.get("format") != SAVE_FORMAT or data.get("id_hash") != id_hash(game_id):
                raise ValueError("not a save of this game")
            match = Match.from_json(data["match"])
            difficulty = str(data.get("difficulty", DEFAULT_LEVEL))  # older saves: default
            if difficulty not in DIFFICULTY_KEYS:
                raise ValueError(f"unknown difficulty {difficulty!r}")
            return self.set_players(Game(
                id=game_id,
                preset=str(data["preset"]),
                match=match,
                difficulty=difficulty,
                match_number=int(data["match_number"]),
                seen_results=int(data["seen_results"]),
                created=float(data["created"]),
            ))
        except Exception as e:  # any damage in the file: a clear error, never a crash
            raise CorruptSave(f"the save cannot be read ({type(e).__name__}: {e})") from None

    def save(self, game: Game) -> None:
        """Write the game atomically: a temp file in the same folder, then ``os.replace``."""
        if game.deleted:
            return
        text = json.dumps(game.to_json(), ensure_ascii=False, separators=(",", ":"))
        fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path(game.id))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def delete(self, game_id: str) -> None:
        with self._lock:
            game = self._games.pop(game_id, None)
        if game is not None:
            game.deleted = True
        self.path(game_id).unlink(missing_ok=True)
