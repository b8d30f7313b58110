"""The API's errors: ``{"error": {"code", "message", "params"}}``, one handler per kind, and
``Refusal``, a request the game refuses.

Codes are translated by the page's catalogs (``err.<code>``). No message shows a path of the
server or a traceback: an unexpected error is ``internal_error`` (and the log has the rest).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from guandan.web.ai import AIUnavailable
from guandan.web.models import ErrorOut
from guandan.web.store import Changed, CorruptSave, GameNotFound, SaveFailed, TooManyGames

log = logging.getLogger("guandan.web")


class Refusal(Exception):
    """A request the game refuses: ``code`` for the catalogs, ``message`` in English. A refused
    request changes nothing."""

    def __init__(self, code: str, message: str, status: int = 409, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params = params


def error(status: int, code: str, message: str, **params: object) -> JSONResponse:
    body = ErrorOut.model_validate({"error": {"code": code, "message": message,
                                              "params": params}})
    return JSONResponse(body.model_dump(), status_code=status)


def retry_after(response: JSONResponse, seconds: int) -> JSONResponse:
    response.headers["Retry-After"] = str(seconds)
    return response


def install(app: FastAPI) -> None:
    """The handlers of every error the game answers with."""

    @app.exception_handler(Refusal)
    async def refusal(request: Request, exc: Refusal) -> JSONResponse:
        return error(exc.status, exc.code, exc.message, **exc.params)

    @app.exception_handler(GameNotFound)
    async def not_found(request: Request, exc: GameNotFound) -> JSONResponse:
        return error(404, "game_not_found", "no game has this id")

    @app.exception_handler(CorruptSave)
    async def corrupt(request: Request, exc: CorruptSave) -> JSONResponse:
        return error(409, "corrupt_save", f"{exc} (the game can only be deleted)")

    @app.exception_handler(Changed)
    async def changed(request: Request, exc: Changed) -> JSONResponse:
        return error(409, "changed", "the game changed meanwhile: read it again")

    @app.exception_handler(SaveFailed)
    async def save_failed(request: Request, exc: SaveFailed) -> JSONResponse:
        return retry_after(error(503, "save_failed", str(exc)), 5)

    @app.exception_handler(TooManyGames)
    async def too_many(request: Request, exc: TooManyGames) -> JSONResponse:
        if exc.per_client:
            return error(429, "too_many_games", str(exc))
        return retry_after(error(503, "server_full", str(exc)), 60)

    @app.exception_handler(AIUnavailable)
    async def ai_unavailable(request: Request, exc: AIUnavailable) -> JSONResponse:
        return retry_after(error(503, "ai_unavailable", str(exc)), 2)

    @app.exception_handler(RequestValidationError)
    async def validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg"))}
                  for e in exc.errors()]
        first = errors[0] if errors else {"loc": [], "msg": "bad request"}
        return error(422, "bad_request", f"{'.'.join(first['loc'])}: {first['msg']}",
                     errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        return error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error(500, "internal_error", "the server failed on this request")
