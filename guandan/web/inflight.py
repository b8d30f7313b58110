"""Database work run in threads and counted, so that a server stops only once none is on its
way: a connection closed under a running statement crashes (SQLite) or fails (PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class InFlight:
    """``await work.run(fn, *args)`` runs ``fn`` in a thread, counted until it ends (even when
    its caller is cancelled: the statement runs on); ``await work.drain()`` waits until none is
    running; after ``close()`` no new work starts."""

    def __init__(self) -> None:
        self.running = 0
        self.closed = False

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.closed:
            raise RuntimeError("the server is stopping")
        self.running += 1
        task = asyncio.ensure_future(asyncio.to_thread(fn, *args))

        def done(_: object) -> None:
            self.running -= 1

        task.add_done_callback(done)
        return await asyncio.shield(task)

    def close(self) -> None:
        self.closed = True

    async def drain(self, seconds: float = 5.0) -> None:
        """Wait (at most ``seconds``) until no work is running."""
        for _ in range(round(seconds / 0.01)):
            if self.running == 0:
                return
            await asyncio.sleep(0.01)
