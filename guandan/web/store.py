"""Games kept by the web server: one ``Match`` per game id, saved after every change.

A game id is ``secrets.token_urlsafe(24)``: unguessable, and the only way to open or act on
a game. Saves are JSON files in ``<data_dir>/games/``, named by a hash of the id (a listing of
the folder does not reveal any id), written atomically (temp file + ``os.replace``).
"""

from __future__ import annotations

import contextlib
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
from guandan.players import REGISTRY, Player, Reason, make_player
from guandan.readings import Reading

log = logging.getLogger("guandan.web")

SAVE_FORMAT = "guandan-web-game/1"
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: Strongest first: the hint and the AI seats use the first one the project has.
AI_PREFERENCE = ("search", "heuristic", "greedy", "random")


def best_ai() -> str:
    """The strongest registered player that can be built."""
    for name in (*AI_PREFERENCE, *REGISTRY):
        if name in REGISTRY:
            try:
                make_player(name, seed=0)
            except Exception:  # a player being written may not import yet: take the next
                continue
            return name
    raise RuntimeError("no player can be built")


class GameNotFound(Exception):
    """No game has this id (or the id is malformed)."""


class CorruptSave(Exception):
    """The save of this game cannot be read."""


@dataclass
class Game:
    """One game: the match, which results the person has seen, and the AI players."""

    id: str
    preset: str
    match: Match
    match_number: int = 1
    seen_results: int = 0
    created: float = field(default_factory=time.time)
    ai: str = "greedy"
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
            p = self._players[seat] = make_player(self.ai, seed=seat)
        return p

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
            log.exception("player %s failed at seat %d; greedy acts instead", self.ai, seat)
        fallback = make_player("greedy", seed=seat)
        return fallback.act(obs), fallback.reason

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "id_hash": id_hash(self.id),
            "preset": self.preset,
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
        self.dir = Path(data_dir).expanduser() / "games"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ai = ai or best_ai()
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

    def add(self, game: Game) -> Game:
        game.ai = self.ai
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
            return Game(
                id=game_id,
                preset=str(data["preset"]),
                match=match,
                match_number=int(data["match_number"]),
                seen_results=int(data["seen_results"]),
                created=float(data["created"]),
                ai=self.ai,
            )
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
