"""The web game's server: a thin FastAPI adapter over the engine's ``Match``.

The person at the browser is seat 1; seats 2, 3 and 4 are the AI. Every play is decided and
checked by the engine; the server keeps one ``Match`` per game id and saves it after every
change. The page (``static/``) and its catalogs are served from the package itself.

Endpoints (all JSON; errors are ``{"error": {"code", "message", "params"}}``):

- ``POST /api/games`` start a match (``preset``, ``difficulty``); ``GET /api/games/{id}`` its state;
- ``POST /api/games/{id}/play`` the selected cards; ``/pass``; ``/return`` a tribute return;
- ``POST /api/games/{id}/readings`` the readings of a selection; ``/hint`` the AI's suggestion;
- ``POST /api/games/{id}/step`` one AI action (seat 1 too when auto-play is on);
- ``POST /api/games/{id}/next`` after a hand's result: on to the next hand (or a new match);
- ``GET /api/games/{id}/records`` the results; ``/export`` the hands as guandan-hand/1 lines;
  ``/replay/{hand}`` one finished hand with every seat's cards, for the page's replay;
- ``GET /api/catalogs/{lang}`` the page's strings.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from guandan.cards import Card
from guandan.match import PASS, Action, Match
from guandan.players import Reason
from guandan.readings import Reading
from guandan.web import views
from guandan.web.models import (
    CardsIn,
    ErrorOut,
    Event,
    GameState,
    HintOut,
    NewGameIn,
    PlayIn,
    ReadingsOut,
    RecordsOut,
    ReplayOut,
    ReturnIn,
    StepIn,
    StepOut,
)
from guandan.web.store import (
    DEFAULT_LEVEL,
    CorruptSave,
    Game,
    GameNotFound,
    GameStore,
    ai_pool,
)
from guandan.web.views import HUMAN, Refusal

HERE = Path(__file__).parent
STATIC = HERE / "static"
CATALOGS = HERE / "catalogs"
LANGS = ("ko", "zh", "en")


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "guandan"


def _error(status: int, code: str, message: str, **params: object) -> JSONResponse:
    body = ErrorOut.model_validate({"error": {"code": code, "message": message,
                                              "params": params}})
    return JSONResponse(body.model_dump(), status_code=status)


def new_match(preset: str, seed: int | None, team_levels: dict[str, str] | None = None,
              level_team: str | None = None, match_number: int = 1,
              a_tries: dict[str, int] | None = None) -> Match:
    kwargs: dict[str, Any] = {"match_number": match_number}
    if a_tries is not None:
        kwargs["a_tries"] = {"13": 0, "24": 0} | a_tries
    if team_levels is not None:
        kwargs["team_levels"] = dict(team_levels)
    if level_team is not None:
        kwargs["level_team"] = level_team
    return Match(preset, seed=secrets.randbits(48) if seed is None else seed, **kwargs)


#: The largest request body the server reads (a play names at most 27 cards).
MAX_BODY = 16_384


def create_app(data_dir: Path | str | None = None, ai: str | None = None,
               ai_workers: int = 0, allow_seed: bool = False) -> FastAPI:
    """The web game's application, saving games in ``data_dir`` (see ``default_data_dir``).

    ``ai`` names the player of every AI seat and the hint, whatever a game's difficulty
    (default: seats 2-4 play the game's difficulty's player, the hint ``STRONGEST``);
    ``ai_workers`` > 0 lets it think in that many worker processes. ``allow_seed`` lets a new
    game name its seed (tests, replaying a deal): the seed decides every deal, so a player
    who chooses it could know the AI's cards; it is off unless asked for.
    """
    store = GameStore(Path(data_dir) if data_dir is not None else default_data_dir(), ai=ai)
    pool = ai_pool(ai_workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        if pool is not None:  # the workers end with the server, none left behind
            pool.shutdown(wait=True, cancel_futures=True)

    app = FastAPI(title="Guandan", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.store = store
    app.add_middleware(GZipMiddleware, minimum_size=1000)

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Callable[[Request], Awaitable[Response]]
                         ) -> Response:
        """Every request of the game is small: refuse a large body before reading it."""
        size = request.headers.get("content-length", "0")
        if not size.isdigit() or int(size) > MAX_BODY:
            return _error(413, "bad_request", f"the request body is limited to {MAX_BODY} bytes")
        return await call_next(request)

    @app.exception_handler(Refusal)
    async def refusal_handler(request: Request, exc: Refusal) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message, **exc.params)

    @app.exception_handler(GameNotFound)
    async def not_found_handler(request: Request, exc: GameNotFound) -> JSONResponse:
        return _error(404, "game_not_found", "no game has this id")

    @app.exception_handler(CorruptSave)
    async def corrupt_handler(request: Request, exc: CorruptSave) -> JSONResponse:
        return _error(409, "corrupt_save", str(exc))

    @app.exception_handler(RequestValidationError)
    async def validation_handler(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg"))}
                  for e in exc.errors()]
        first = errors[0] if errors else {"loc": [], "msg": "bad request"}
        return _error(422, "bad_request", f"{'.'.join(first['loc'])}: {first['msg']}",
                      errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        return _error(exc.status_code, code, str(exc.detail))

    @asynccontextmanager
    async def locked(game_id: str) -> AsyncIterator[Game]:
        """The game, locked; waiting for the lock without blocking the other games."""
        game = store.get(game_id)
        while not game.lock.acquire(blocking=False):
            await asyncio.sleep(0.002)
        try:
            yield game
        finally:
            game.lock.release()

    def changed(game: Game) -> GameState:
        game.version += 1
        store.save(game)
        return views.state_out(game)

    def ai_decides(game: Game, seat: int, check: Callable[[Game], None]) -> tuple[
            Action, Reason, int]:
        """The AI's action for ``seat``: the game is read under its lock, the AI thinks
        outside it (other requests of this game, and every other game, go on meanwhile)."""
        with game.ai_lock:
            with game.lock:
                check(game)
                obs = game.match.observation(seat)
                version = game.version
            action, reason = game.decide(seat, obs, pool)
        return action, reason, version

    # -- pages -----------------------------------------------------------------------------

    def page(name: str) -> Callable[[], FileResponse]:
        def handler() -> FileResponse:
            return FileResponse(STATIC / name, media_type="text/html",
                                headers={"Cache-Control": "no-cache"})
        return handler

    app.get("/", include_in_schema=False)(page("index.html"))
    app.get("/rules", include_in_schema=False)(page("index.html"))
    app.get("/intro", include_in_schema=False)(page("index.html"))
    app.get("/records", include_in_schema=False)(page("index.html"))

    @app.get("/api/catalogs/{lang}")
    def catalog(lang: str) -> Response:
        if lang not in LANGS:
            raise Refusal("unknown_language", f"languages: {', '.join(LANGS)}", status=404)
        return Response((CATALOGS / f"{lang}.json").read_bytes(), media_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})

    # -- games -----------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def create_game(body: NewGameIn) -> GameState:
        if body.seed is not None and not allow_seed:
            raise Refusal("seed_not_allowed", "this server deals its own cards: a new game "
                          "cannot choose its seed (start the server with --allow-seed)",
                          status=403)
        try:
            match = new_match(body.preset, body.seed,
                              {str(k): str(v) for k, v in body.team_levels.items()}
                              if body.team_levels else None,
                              body.level_team,
                              a_tries={str(k): v for k, v in body.a_tries.items()}
                              if body.a_tries else None)
        except (ValueError, TypeError) as e:
            raise Refusal("bad_request", str(e), status=422) from None
        game = store.add(Game(id=store.new_id(), preset=body.preset, match=match,
                              difficulty=body.difficulty or DEFAULT_LEVEL))
        with game.lock:
            return views.state_out(game)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> GameState:
        async with locked(game_id) as game:
            return views.state_out(game)

    @app.delete("/api/games/{game_id}", status_code=204)
    async def delete_game(game_id: str) -> Response:
        async with locked(game_id):  # an AI step finishing now cannot save the game again
            store.delete(game_id)
        return Response(status_code=204)

    @app.post("/api/games/{game_id}/play")
    async def play(game_id: str, body: PlayIn) -> GameState:
        async with locked(game_id) as game:
            obs = views.check_turn(game, "play")
            cards = views.parse_input_cards(body.cards)
            reading = views.choose_play(obs, cards, body.kind, body.rank)
            views.apply(game.match, reading)
            return changed(game)

    @app.post("/api/games/{game_id}/pass")
    async def pass_turn(game_id: str) -> GameState:
        async with locked(game_id) as game:
            obs = views.check_turn(game, "play")
            views.check_pass(obs)
            views.apply(game.match, PASS)
            return changed(game)

    @app.post("/api/games/{game_id}/return")
    async def return_card(game_id: str, body: ReturnIn) -> GameState:
        async with locked(game_id) as game:
            obs = views.check_turn(game, "return")
            card = views.check_return(obs, body.card)
            views.apply(game.match, card)
            return changed(game)

    @app.post("/api/games/{game_id}/readings")
    async def readings(game_id: str, body: CardsIn) -> ReadingsOut:
        async with locked(game_id) as game:
            obs = views.own_observation(game)
            cards = views.parse_input_cards(body.cards)
            views.check_held(obs, cards)
            all_, legal = views.readings_of(obs, cards)
            return ReadingsOut(readings=[views.play_out(r) for r in all_],
                               legal=[views.play_out(r) for r in legal])

    @app.post("/api/games/{game_id}/hint")
    def hint(game_id: str) -> HintOut:
        """The AI's choice for seat 1 with its reason; nothing is played. (A plain ``def``:
        the AI thinks in a worker thread, not in the event loop.)"""
        game = store.get(game_id)

        def check(g: Game) -> None:
            if g.match.to_act != HUMAN or views.pending_result(g) is not None:
                raise Refusal("not_your_turn", "a hint is given on your turn",
                              seat=g.match.to_act)

        action, reason, _ = ai_decides(game, HUMAN, check)
        why = {"ko": reason.ko, "en": reason.en, "zh": reason.zh or reason.en}
        coded = views.why_out(reason.code, reason.params)
        if action is PASS:
            return HintOut(kind="pass", cards=[], play=None, reason=why, why=coded)
        if isinstance(action, Card):
            return HintOut(kind="return", cards=[action.notation], play=None, reason=why,
                           why=coded)
        p = views.play_out(action)  # type: ignore[arg-type]
        return HintOut(kind="play", cards=p.cards, play=p, reason=why, why=coded)

    @app.post("/api/games/{game_id}/step")
    def step(game_id: str, body: StepIn | None = None) -> StepOut:
        """One action by the seat to act: an AI seat, or seat 1 when auto-play is on."""
        auto = body.auto if body is not None else False
        game = store.get(game_id)
        seat_box: list[int] = []

        def check(g: Game) -> None:
            if views.pending_result(g) is not None:
                raise Refusal("result_pending", "the result of the hand is shown: continue first")
            seat = g.match.to_act
            if seat is None:
                raise Refusal("match_over", "the match is over: start a new one")
            if seat == HUMAN and not auto:
                raise Refusal("your_turn", "it is your turn")
            seat_box.append(seat)

        with game.ai_lock:  # one AI decision at a time per game
            with game.lock:
                check(game)
                seat = seat_box[0]
                obs = game.match.observation(seat)
                version = game.version
            action, _ = game.decide(seat, obs, pool)
            with game.lock:
                if game.version != version:
                    raise Refusal("changed", "the game changed meanwhile: step again")
                m = game.match
                hand_before = m.hand_number
                views.apply(m, action)
                state = changed(game)
        event = None
        if m.hand_number == hand_before and state.history:
            event = state.history[-1]
        elif isinstance(action, Reading):
            event = Event(kind="play", seat=seat, play=views.play_out(action))
        return StepOut(state=state, event=event)

    @app.post("/api/games/{game_id}/next")
    async def next_hand(game_id: str) -> GameState:
        """다시 하기: past the shown result, on to the next hand (after a final victory, a new
        match under the same preset)."""
        async with locked(game_id) as game:
            pending = views.pending_result(game)
            if pending is None and game.match.to_act is not None:
                raise Refusal("no_result", "the hand is not over")
            if pending is not None:
                game.seen_results = len(game.match.results)
            if game.match.to_act is None:
                game.match = new_match(game.preset, None, match_number=game.match_number + 1)
                game.match_number += 1
                game.seen_results = 0
            return changed(game)

    @app.get("/api/games/{game_id}/records")
    async def records(game_id: str) -> RecordsOut:
        async with locked(game_id) as game:
            return RecordsOut(preset=game.preset, match_number=game.match_number,
                              results=views.hand_results(game),
                              hands=len(game.match.records))

    @app.get("/api/games/{game_id}/replay/{hand}")
    async def replay(game_id: str, hand: int) -> ReplayOut:
        """A finished hand of the match, every seat's cards open (as in the export)."""
        async with locked(game_id) as game:
            return views.replay_out(game, hand)

    @app.get("/api/games/{game_id}/export")
    async def export(game_id: str) -> Response:
        async with locked(game_id) as game:
            lines = [json.dumps(r, ensure_ascii=False) for r in game.match.records]
            name = f"guandan-match{game.match_number}-{time.strftime('%Y%m%d')}.jsonl"
            return Response("\n".join(lines) + ("\n" if lines else ""),
                            media_type="application/x-ndjson",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def serve_main(args: argparse.Namespace | list[str] | None = None) -> int:
    """``guandan serve [--host H] [--port P] [--data-dir D]``: run the web game."""
    if not isinstance(args, argparse.Namespace):
        parser = argparse.ArgumentParser(prog="guandan serve", description="the web game")
        add_serve_arguments(parser)
        args = parser.parse_args(args)
    import uvicorn

    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    workers = args.ai_workers if args.ai_workers is not None else min(2, os.cpu_count() or 1)
    app = create_app(data_dir, ai=args.ai, ai_workers=workers, allow_seed=args.allow_seed)
    host = args.host
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"관단 Guandan: open http://{shown}:{args.port}/  (saves in {data_dir})", flush=True)
    uvicorn.run(app, host=host, port=args.port, log_level="warning", timeout_keep_alive=30)
    return 0


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--data-dir", default=None,
                        help="folder for the saved games (default ~/.local/share/guandan)")
    parser.add_argument("--ai", default=None,
                        help="player for every AI seat and the hint, whatever the difficulty "
                             "(default: the game's difficulty for seats 2-4, the strongest "
                             "for the hint)")
    parser.add_argument("--ai-workers", type=int, default=None,
                        help="worker processes for the AI (default: 2; 0: in the server)")
    parser.add_argument("--allow-seed", action="store_true",
                        help="let a new game choose its seed (tests; the seed decides the deals)")
