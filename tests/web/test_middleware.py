"""The request body's guard (size whatever the framing, time, duplicate keys) and the
security headers. Framings a ``TestClient`` cannot send are sent on raw sockets to a real
``guandan serve``."""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.web.middleware import MAX_BODY, BodyGuard
from guandan.web.server import create_app
from guandan.web.store.sqlite import FILE_NAME


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, make_server_cls: Any) -> Iterator[Any]:
    s = make_server_cls(tmp_path_factory.mktemp("guard"), args=("--ai-workers", "0"))
    s.start()
    yield s
    s.stop()


def games_in(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / FILE_NAME) as db:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def answer(sock: socket.socket, timeout: float = 10) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_a_chunked_body_past_the_limit_is_refused_early(live: Any) -> None:
    """20 MB sent chunked: 413 comes once the limit is passed, and the server reads no more
    (it closes the connection long before the upload could end)."""
    gid = live.api("POST", "/api/games", json={})["id"]
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(f"POST /api/games/{gid}/readings HTTP/1.1\r\nHost: x\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"%x\r\n%s\r\n" % (4096, b" " * 4096)
        sent = 0
        s.setblocking(False)
        reply = b""
        closed = False
        deadline = time.time() + 20
        while sent < 20_000_000 and time.time() < deadline:
            readable, writable, _ = select.select([s], [s], [], 1)
            if readable or not writable:
                try:
                    reply = s.recv(65536)
                except (BlockingIOError, ConnectionResetError):
                    closed = True
                break
            try:
                sent += s.send(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                # The server closed the connection under the upload: its 413 may have been
                # dropped with the reset.
                with contextlib.suppress(OSError):
                    reply = s.recv(65536)
                closed = True
                break
        assert reply.startswith(b"HTTP/1.1 413") or (closed and not reply), reply[:100]
        assert sent < 4_000_000, sent  # far from 20 MB: the server stopped reading
    assert live.api("GET", f"/api/games/{gid}")["id"] == gid  # the server goes on


def test_a_lying_content_length_makes_no_game(live: Any) -> None:
    before = games_in(live.data_dir)
    body = b'{"preset": "site"}' + b" " * 100_000
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked)
        reply = answer(s)
    assert reply.startswith((b"HTTP/1.1 400", b"HTTP/1.1 413")), reply[:100]
    # Content-Length shorter than the body: the rest is not a request either.
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 2\r\n\r\n" + body)
        reply = answer(s)
    assert not reply.startswith(b"HTTP/1.1 201"), reply[:100]
    assert games_in(live.data_dir) == before


def test_a_large_content_length_is_refused_before_any_body(live: Any) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 60000000\r\n\r\n")
        reply = answer(s)  # no byte of the body was sent
    assert reply.startswith(b"HTTP/1.1 413"), reply[:100]
    assert b"connection: close" in reply.lower()


def run_guard(messages: list[dict[str, Any]], delay: float = 0.0,
              timeout: float = 10.0) -> tuple[int, bool]:
    """BodyGuard on its own: the status it answers and whether the app was called."""
    called = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        called.append(await receive())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def go() -> int:
        queue = list(messages)
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            await asyncio.sleep(delay)
            return queue.pop(0) if queue else {"type": "http.disconnect"}

        async def send(m: dict[str, Any]) -> None:
            sent.append(m)
        scope = {"type": "http", "headers": [(b"content-type", b"application/json")]}
        await BodyGuard(app, timeout=timeout)(scope, receive, send)  # type: ignore[arg-type]
        return int(sent[0]["status"])
    return asyncio.run(go()), bool(called)


def test_the_guard_counts_what_arrives_and_times_a_slow_body() -> None:
    part = {"type": "http.request", "body": b" " * 4096, "more_body": True}
    status, called = run_guard([part] * (MAX_BODY // 4096 + 1) + [part] * 100)
    assert (status, called) == (413, False)
    last = {"type": "http.request", "body": b"{}", "more_body": False}
    assert run_guard([part, last]) == (200, True)
    # A body trickling in: 408 once its time is up, the app never called.
    assert run_guard([part] * 10 + [last], delay=0.05, timeout=0.2) == (408, False)


def test_duplicate_json_keys_are_refused(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path, ai="greedy"))
    r = c.post("/api/games", content=b'{"preset": "site", "preset": "nanjing"}',
               headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
    assert "duplicate key 'preset'" in r.json()["error"]["message"]
    assert c.app.state.store.count() == 0  # type: ignore[attr-defined]
    gid = c.post("/api/games", json={}).json()["id"]
    r = c.post(f"/api/games/{gid}/readings", content=b'{"cards": ["S3"], "cards": []}',
               headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_security_headers_on_every_answer(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path, ai="greedy"))
    for path in ("/", "/static/app.js", "/api/catalogs/ko", "/api/games/" + "x" * 32):
        h = c.get(path).headers
        csp = h["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "script-src 'self'" in csp and "unsafe-eval" not in csp
        assert h["x-frame-options"] == "DENY"
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
