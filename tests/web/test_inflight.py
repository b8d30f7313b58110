"""The counted database work (guandan/web/inflight.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from guandan.web.inflight import InFlight


def test_work_is_counted_until_it_ends_even_when_its_caller_is_cancelled() -> None:
    async def main() -> None:
        work = InFlight()
        gate = threading.Event()
        caller = asyncio.ensure_future(work.run(gate.wait, 5))
        await asyncio.sleep(0.05)
        assert work.running == 1
        caller.cancel()
        await asyncio.sleep(0.05)
        assert work.running == 1  # the statement runs on in its thread
        gate.set()
        await work.drain(2)
        assert work.running == 0
        assert await work.run(sum, [1, 2]) == 3

    asyncio.run(main())


def test_no_work_starts_once_closed() -> None:
    async def main() -> None:
        work = InFlight()
        work.close()
        with pytest.raises(RuntimeError, match="stopping"):
            await work.run(sum, [1])
        assert work.running == 0

    asyncio.run(main())
