"""The web game's server: a thin FastAPI adapter over the engine's ``Match``.

The person at the browser is seat 1; seats 2, 3 and 4 are the AI. Every play is decided and
checked by the engine. The application is put together here from its parts:

- ``routers/``: the routes by concern (``games``, ``records``, ``pages``);
- ``deps``: the game looked up by its id, for reading or for a change committed before the
  answer;
- ``middleware``: the request body's guard (size, time, duplicate keys) and security headers;
- ``errors``: the ``{"error": {"code", "message", "params"}}`` answers;
- ``store/``: the games in SQLite (default) or PostgreSQL; ``ai``: the AI's worker processes;
- ``connections``: uvicorn's limits (the request head's timeout, idle connections, how many).
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.staticfiles import StaticFiles

from guandan.web import connections, errors, outside
from guandan.web.ai import DEFAULT_BUDGET_MS, DEFAULT_TARGET_S, AIPool, end_with_parent
from guandan.web.middleware import MAX_BODY, BodyGuard, SecurityHeaders
from guandan.web.programs import ProgramSeats
from guandan.web.rooms.hub import RoomHub, RoomLimits, RoomTimes
from guandan.web.rooms.store import RoomStore
from guandan.web.routers import games, pages, records, rooms
from guandan.web.routers import outside as outside_routes
from guandan.web.routers.games import new_match
from guandan.web.store import Limits, open_store

STATIC = pages.STATIC

__all__ = ["MAX_BODY", "add_serve_arguments", "create_app", "default_data_dir", "new_match",
           "serve_main"]


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "guandan"


def create_app(data_dir: Path | str | None = None, ai: str | None = None,
               ai_workers: int = 0, allow_seed: bool = False, database: str | None = None,
               limits: Limits | None = None, ai_budget_ms: float = DEFAULT_BUDGET_MS,
               ai_target_s: float = DEFAULT_TARGET_S, outside_seats: bool = True,
               outside_timeout: float = outside.DEFAULT_TIMEOUT,
               room_times: RoomTimes | None = None, room_limits: RoomLimits | None = None,
               processes: int = 1) -> FastAPI:
    """The web game's application, saving games in ``database`` (default: the SQLite file in
    ``data_dir``, see ``default_data_dir``).

    ``ai`` names the player of every AI seat and the hint, whatever a game's difficulty
    (default: seats 2-4 play the game's difficulty's player, the hint ``STRONGEST``);
    ``ai_workers`` > 0 lets it think in that many worker processes, for at most
    ``ai_budget_ms`` a decision, less under load (``ai.AIPool``). ``allow_seed`` lets a new
    game name its seed (tests, replaying a deal): the seed decides every deal, so a player
    who chooses it could know the AI's cards; it is off unless asked for. ``limits``: the
    games kept (``store.Limits``). ``outside_seats``: whether a game may leave seats to
    outside programs (with several server processes too, see ``outside``), each of which has
    ``outside_timeout`` s for an answer. ``room_times`` / ``room_limits``: the friends' rooms'
    clocks and limits (``rooms.hub``); ``processes``: how many server processes share the
    database (with SQLite and more than one, each looks for its rooms' changes in it).
    """
    folder = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
    store = open_store(database, folder, ai=ai, limits=limits)
    pool = AIPool(ai_workers, budget_ms=ai_budget_ms, target_s=ai_target_s)
    postgres = bool(database and database.startswith("postgres"))
    times = room_times or RoomTimes()
    # Several processes on one database: a program's seat is held through it (``programs``).
    shared = postgres or processes > 1
    seats = outside.Outside(store, available=outside_seats, timeout=outside_timeout,
                            programs=ProgramSeats(store, uuid.uuid4().hex, times.lease)
                            if shared else None, ai=pool)
    hub = RoomHub(RoomStore(store), pool, times=times, limits=room_limits,
                  bus="postgres" if postgres else "poll" if processes > 1 else "local",
                  database=database if postgres else None, allow_seed=allow_seed,
                  outside=seats)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start()  # its beat, and a look at the rooms of processes that died meanwhile
        yield
        await hub.shutdown()
        await seats.shutdown()
        pool.shutdown()  # the workers end with the server, none left behind
        store.close()

    app = FastAPI(title="Guandan", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.store = store
    app.state.ai = pool
    app.state.outside = seats
    app.state.rooms = hub
    app.state.allow_seed = allow_seed
    # The last added runs first: headers on every answer, then the body's guard.
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(BodyGuard)
    app.add_middleware(SecurityHeaders)
    errors.install(app)
    rooms.install(app)
    app.include_router(pages.router)
    app.include_router(games.router)
    app.include_router(records.router)
    app.include_router(rooms.router)
    app.include_router(outside_routes.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


#: The collector's first threshold in a serving process (Python's default: 700).
GC_YOUNG = 10_000


def tune_gc() -> None:
    """The garbage collector of a serving process: what was built before serving (modules,
    the application, its schemas: ~80,000 objects) is frozen out of every collection, and the
    young generation is collected after 10,000 allocations rather than 700, so that most of a
    request's objects are gone before a collection looks at them. At 200 games the default
    spent 18% of the server's CPU collecting, with a full collection (64 ms, a pause of every
    request) every 2-3 s; so tuned, 9% (``bench/web_load.md``)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, older, oldest)


#: ``--processes``: each server process builds its application from this variable.
ENV_SETTINGS = "GUANDAN_SERVE_SETTINGS"


def app_from_environment() -> FastAPI:
    """The application of one of several server processes (uvicorn's ``workers``): the
    settings come from ``GUANDAN_SERVE_SETTINGS``; the process ends with its supervisor."""
    end_with_parent(os.getppid())
    s = json.loads(os.environ[ENV_SETTINGS])
    app = create_app(s["data_dir"], ai=s["ai"], ai_workers=s["ai_workers"],
                     allow_seed=s["allow_seed"], database=s["database"],
                     limits=Limits(**s["limits"]), ai_target_s=s["ai_target"],
                     ai_budget_ms=s.get("ai_budget", DEFAULT_BUDGET_MS),
                     room_times=RoomTimes(**s["room_times"]),
                     room_limits=RoomLimits(**s["room_limits"]),
                     processes=s["processes"])
    tune_gc()
    return app


def serve_main(args: argparse.Namespace | list[str] | None = None) -> int:
    """``guandan serve [--host H] [--port P] [--data-dir D] [--database URL] …``."""
    if not isinstance(args, argparse.Namespace):
        parser = argparse.ArgumentParser(prog="guandan serve", description="the web game")
        add_serve_arguments(parser)
        args = parser.parse_args(args)
    import uvicorn

    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("guandan").setLevel(logging.INFO)
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    workers = args.ai_workers if args.ai_workers is not None else min(2, os.cpu_count() or 1)
    limits = Limits(max_games=args.max_games, max_games_per_client=args.max_games_per_client,
                    finished_ttl=args.keep_finished_hours * 3600.0,
                    idle_ttl=args.keep_idle_days * 86400.0)
    room_times = RoomTimes(grace=args.room_grace, pace=args.room_pace,
                           result_wait=args.room_result_wait, idle_close=args.room_idle_close,
                           lease=args.room_lease, timer_scale=args.room_timer_scale)
    room_limits = RoomLimits(rooms_per_client=args.rooms_per_client,
                             joins_per_minute=args.room_joins_per_minute)
    try:
        app = create_app(data_dir, ai=args.ai, ai_workers=workers, allow_seed=args.allow_seed,
                         database=args.database, limits=limits, ai_target_s=args.ai_target,
                         outside_timeout=args.outside_timeout,
                         ai_budget_ms=args.ai_budget, room_times=room_times,
                         room_limits=room_limits, processes=args.processes)
    except ValueError as e:
        raise SystemExit(f"guandan serve: {e}") from None
    settings = connections.uvicorn_settings(args.header_timeout, args.keep_alive)
    target: FastAPI | str = app
    if args.processes > 1:  # the store, made and checked above, is shared by all of them
        app.state.store.close()
        os.environ[ENV_SETTINGS] = json.dumps({
            "data_dir": str(data_dir), "ai": args.ai, "ai_workers": workers,
            "allow_seed": args.allow_seed, "database": args.database,
            "limits": limits.__dict__, "ai_target": args.ai_target,
            "ai_budget": args.ai_budget, "room_times": room_times.__dict__,
            "room_limits": room_limits.__dict__, "processes": args.processes})
        target = "guandan.web.server:app_from_environment"
        settings |= {"factory": True, "workers": args.processes}
    if args.processes <= 1:
        tune_gc()
    host = args.host
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    where = "a PostgreSQL database" if args.database and args.database.startswith("postgres") \
        else f"{data_dir}"
    print(f"관단 Guandan: open http://{shown}:{args.port}/  (saves in {where})", flush=True)
    uvicorn.run(target, host=host, port=args.port, log_level="warning", **settings)
    return 0


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    d = Limits()
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--data-dir", default=None,
                        help="folder for the saved games (default ~/.local/share/guandan)")
    parser.add_argument("--database", default=None,
                        help="where the games live: postgresql://USER@HOST/DB to share them "
                             "between several server processes (default: the SQLite file "
                             "games.sqlite3 in the data folder)")
    parser.add_argument("--ai", default=None,
                        help="player for every AI seat and the hint, whatever the difficulty "
                             "(default: the game's difficulty for seats 2-4, the strongest "
                             "for the hint)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes sharing the port and the games (default 1; "
                             "each has its own AI workers)")
    parser.add_argument("--ai-workers", type=int, default=None,
                        help="worker processes for the AI, per server process "
                             "(default: 2; 0: in the server)")
    parser.add_argument("--ai-target", type=float, default=DEFAULT_TARGET_S,
                        help="seconds within which an AI move should answer, queue included: "
                             "its thinking shrinks with the load, down to the heuristic "
                             f"(default {DEFAULT_TARGET_S:g})")
    parser.add_argument("--ai-budget", type=float, default=DEFAULT_BUDGET_MS,
                        help="milliseconds the searching AI (hard, and the hint) may think "
                             "per decision when the server is idle; less under load "
                             f"(default {DEFAULT_BUDGET_MS:g})")
    parser.add_argument("--max-games", type=int, default=d.max_games,
                        help=f"games kept in all (default {d.max_games})")
    parser.add_argument("--max-games-per-client", type=int, default=d.max_games_per_client,
                        help=f"games per client address (default {d.max_games_per_client})")
    parser.add_argument("--keep-finished-hours", type=float, default=d.finished_ttl / 3600,
                        help="a finished match is deleted this long after its end "
                             f"(default {d.finished_ttl / 3600:g})")
    parser.add_argument("--keep-idle-days", type=float, default=d.idle_ttl / 86400,
                        help="a game untouched this long is deleted "
                             f"(default {d.idle_ttl / 86400:g})")
    parser.add_argument("--header-timeout", type=float, default=connections.HEADER_TIMEOUT,
                        help="seconds a request's head may take to arrive "
                             f"(default {connections.HEADER_TIMEOUT:g})")
    parser.add_argument("--keep-alive", type=float, default=connections.KEEP_ALIVE,
                        help="seconds an idle connection is kept open after an answer "
                             f"(default {connections.KEEP_ALIVE:g})")
    parser.add_argument("--outside-timeout", type=float, default=outside.DEFAULT_TIMEOUT,
                        help="seconds an outside program seated on the page has for each "
                             f"answer (default {outside.DEFAULT_TIMEOUT:g})")
    t, r = RoomTimes(), RoomLimits()
    parser.add_argument("--room-grace", type=float, default=t.grace,
                        help="seconds a disconnected person's seat is held before the AI "
                             f"plays it (자동) (default {t.grace:g})")
    parser.add_argument("--room-pace", type=float, default=t.pace,
                        help=f"seconds between the AI seats' actions in rooms (default {t.pace:g})")
    parser.add_argument("--room-result-wait", type=float, default=t.result_wait,
                        help="seconds a hand's result is shown in a room before the next hand "
                             f"(default {t.result_wait:g})")
    parser.add_argument("--room-idle-close", type=float, default=t.idle_close,
                        help="seconds a room with nobody connected stays open "
                             f"(default {t.idle_close:g})")
    parser.add_argument("--room-lease", type=float, default=t.lease,
                        help="seconds a server process drives a room without renewing; "
                             f"another takes it over after (default {t.lease:g})")
    parser.add_argument("--room-timer-scale", type=float, default=t.timer_scale,
                        help="seconds in one second of a room's turn timer (tests: a fraction; "
                             f"default {t.timer_scale:g})")
    parser.add_argument("--rooms-per-client", type=int, default=r.rooms_per_client,
                        help="open rooms one client address may make "
                             f"(default {r.rooms_per_client})")
    parser.add_argument("--room-joins-per-minute", type=int, default=r.joins_per_minute,
                        help="room codes looked up or seats taken per client address and "
                             f"minute (default {r.joins_per_minute})")
    parser.add_argument("--allow-seed", action="store_true",
                        help="let a new game choose its seed (tests; the seed decides the deals)")
