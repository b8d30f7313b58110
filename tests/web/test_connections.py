"""Connections that never finish their request, on raw sockets to a real ``guandan serve``
(``--header-timeout 1 --keep-alive 2``): a head sent a byte at a time, a connection that
sends nothing, one left idle after an answer; all are closed in time while the server
answers others."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

KEEP_ALIVE = 2.0


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, make_server_cls: Any) -> Iterator[Any]:
    s = make_server_cls(tmp_path_factory.mktemp("conn"),
                        args=("--ai-workers", "0", "--header-timeout", "1",
                              "--keep-alive", str(KEEP_ALIVE)))
    s.start()
    yield s
    s.stop()


def closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closed ``sock`` (sending ``trickle`` a byte every 0.2 s
    meanwhile), or None if it was still open after ``seconds``."""
    t0 = time.monotonic()
    sock.settimeout(0.2)
    i = 0
    while time.monotonic() - t0 < seconds:
        if i < len(trickle):
            try:
                sock.send(trickle[i:i + 1])
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - t0
            i += 1
        try:
            data = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - t0
        if not data:
            return time.monotonic() - t0
    return None


def test_a_head_sent_a_byte_at_a_time_is_cut_off(live: Any) -> None:
    head = b"GET /api/catalogs/ko HTTP/1.1\r\n" + b"X-Slow: " + b"a" * 200
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        took = closed_within(s, 6, trickle=head)
    assert took is not None and took < 4, took


def test_silent_and_idle_connections_are_closed(live: Any) -> None:
    socks = [socket.create_connection(("127.0.0.1", live.port)) for _ in range(40)]
    try:
        # Meanwhile the server answers.
        assert httpx.get(live.url + "/api/catalogs/ko", timeout=5).status_code == 200
        t0 = time.monotonic()
        for s in socks:
            took = closed_within(s, 6 - (time.monotonic() - t0))
            assert took is not None, "a silent connection stayed open"
        assert time.monotonic() - t0 < 5
    finally:
        for s in socks:
            s.close()
    # After an answer, a kept-alive connection that sends its next head a byte at a time is
    # closed too (the keep-alive time, then the head's).
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(b"GET /api/catalogs/ko HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5)
        assert s.recv(100).startswith(b"HTTP/1.1 200")
        took = closed_within(s, KEEP_ALIVE + 6, trickle=b"GET / HTTP/1.1\r\n" + b"X" * 200)
        assert took is not None and took < KEEP_ALIVE + 4, took
