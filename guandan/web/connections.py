"""Limits on the server's connections (uvicorn): how long a request's head may take, how long
an idle connection is kept, and how many are served at once.

uvicorn's keep-alive timer stops at the first byte a client sends, so a client that sends its
head a byte at a time, or connects and sends nothing, would hold a connection (and a file
handle) for ever. ``GuardedH11Protocol`` adds a timer that only a complete request head stops:
armed when the connection opens (``HEADER_TIMEOUT``) and after each response (the keep-alive
time more), it closes the connection when the next head has not arrived in time. The body
has its own clock (``middleware.BodyGuard``).
"""

from __future__ import annotations

import asyncio
import os
import resource
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: The longest a request's head (its line and headers) may take to arrive (s).
HEADER_TIMEOUT = 10.0
#: How long an idle kept-alive connection stays open (s): longer than a person's pause
#: between two requests, so the page rarely races a closing connection.
KEEP_ALIVE = 20.0


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a timeout on each request's head (``GUANDAN_HEADER_TIMEOUT``
    in the environment, so that every server process of ``--processes`` has it)."""

    _head_timer: asyncio.TimerHandle | None = None

    @property
    def header_timeout(self) -> float:
        return float(os.environ.get("GUANDAN_HEADER_TIMEOUT", HEADER_TIMEOUT))

    def _arm(self, idle: float = 0.0) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(idle + self.header_timeout, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:  # no request under way
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # a whole head came: the request is under way

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            # The next request's head must come in time too, after the keep-alive idle time.
            self._arm(idle=self.timeout_keep_alive)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()  # the connection is a WebSocket's now (``outside``): no more heads
        super().handle_websocket_upgrade(event)


def connection_limit() -> int:
    """Connections served at once: well below the process's file handles, so that saving a
    game always finds one (uvicorn answers 503 beyond it)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 2000
    return max(16, min(2000, soft // 2 - 32))


def uvicorn_settings(header_timeout: float = HEADER_TIMEOUT,
                     keep_alive: float = KEEP_ALIVE) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` that bound the connections."""
    os.environ["GUANDAN_HEADER_TIMEOUT"] = str(header_timeout)
    return {"http": GuardedH11Protocol, "timeout_keep_alive": keep_alive,
            "limit_concurrency": connection_limit(), "backlog": 512,
            "proxy_headers": True, "forwarded_allow_ips": "127.0.0.1",
            # Outside programs' WebSockets (``outside``): small messages, and no pings, which
            # the competition's clients answer only between two decisions.
            "ws_max_size": 1 << 16, "ws_ping_interval": None}
