"""The server's ASGI middleware: the request body's guard and the security headers.

``BodyGuard`` reads the body itself, counting the bytes as ``receive()`` hands them over,
whatever the transfer encoding (a ``Content-Length``, chunked, or one that lies): past
``max_body`` it answers 413 at once and reads nothing more (the connection is closed); a body
that takes longer than ``timeout`` to arrive gets 408. The route then reads the checked body
from memory. A JSON body naming a key twice is refused (422) rather than the last one winning.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from guandan.web.store.game import no_duplicate_keys

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body the server reads (a play names at most 27 cards).
MAX_BODY = 16_384
#: The longest a request body may take to arrive (s).
BODY_TIMEOUT = 10.0


async def send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message, "params": {}}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyGuard:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY,
                 timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        length = headers.get(b"content-length")
        if length is not None and b"transfer-encoding" in headers:
            await send_error(send, 400, "bad_request",
                             "a request may not have both Content-Length and Transfer-Encoding")
            return
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await send_error(send, 413, "bad_request",
                             f"the request body is limited to {self.max_body} bytes")
            return
        body = bytearray()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                await send_error(send, 408, "bad_request",
                                 f"the request body did not arrive within {self.timeout:g} s")
                return
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await send_error(send, 413, "bad_request",
                                 f"the request body is limited to {self.max_body} bytes")
                return
            more = bool(message.get("more_body", False))
        if body and b"json" in headers.get(b"content-type", b""):
            try:
                json.loads(body, object_pairs_hook=no_duplicate_keys)
            except ValueError as e:
                if "duplicate key" in str(e):
                    await send_error(send, 422, "bad_request", f"the JSON body names a {e}")
                    return
                # other malformed JSON: the route's own validation says what is wrong
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()  # after the body: the disconnect, when it comes

        await self.app(scope, replay, send)


#: The page loads nothing from another host, runs no inline script, and is framed by no one.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


class SecurityHeaders:
    """The security headers on every response (the page's and the API's)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)
