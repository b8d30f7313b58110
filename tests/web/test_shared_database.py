"""Two ``guandan serve`` processes behind nginx share one PostgreSQL: clients play whole hands
through both, every step sent twice at once, and one process is killed midway. No action is
lost or doubled: each game's actions in the database are exactly those its client was told
of (or found applied after a lost answer), and the game replays.

The test makes its own throwaway cluster (``initdb`` in a temp folder, run as the ``postgres``
user when the tests run as root, since PostgreSQL refuses root) and its own nginx config, on
loopback ports. ``bash scripts/test`` installs Debian's ``postgresql`` and ``nginx``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from guandan.web.store import decode, id_hash

ROOT = Path(__file__).resolve().parents[2]
HANDS = 1  # whole hands each client plays
GAMES = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def nginx_bin() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)


class Serve:
    def __init__(self, database: str, data_dir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "serve.log"
        data_dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "guandan", "serve", "--port", str(self.port), "--database",
             database, "--data-dir", str(data_dir), "--ai", "greedy", "--ai-workers", "0",
             "--allow-seed", "--max-games-per-client", "1000"],
            cwd=ROOT, stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("guandan serve did not start: " + self.log.read_text()[-2000:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


NGINX_CONF = """
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
{user}
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    upstream guandan {{
        server 127.0.0.1:{a} max_fails=1 fail_timeout=30s;
        server 127.0.0.1:{b} max_fails=1 fail_timeout=30s;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://guandan;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
            proxy_read_timeout 30s;
        }}
    }}
}}
"""


@contextlib.contextmanager
def nginx(a: int, b: int) -> Iterator[str]:
    binary = nginx_bin()
    if binary is None:
        pytest.skip("nginx was not found (bash scripts/test installs Debian's nginx)")
    tmp = Path(tempfile.mkdtemp(prefix="guandan-nginx-"))
    port = free_port()
    conf = tmp / "nginx.conf"
    conf.write_text(NGINX_CONF.format(tmp=tmp, a=a, b=b, port=port,
                                      user="user root;" if os.geteuid() == 0 else ""))
    proc = subprocess.Popen([binary, "-c", str(conf), "-p", str(tmp), "-e", str(tmp / "e.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(url + "/api/health", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None:
                    raise RuntimeError("nginx did not start: " + proc.stderr.read().decode()
                                       if proc.stderr else "") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


class Player:
    """One client playing one game through the load balancer, every step sent twice at once
    (``If-Match`` the version it saw): it counts the actions it knows were applied."""

    def __init__(self, url: str, seed: int) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        self.state = self.retry(lambda: self.http.post("/api/games", json={"seed": seed}), 201)
        self.id = self.state["id"]
        self.actions = 0  # the match's actions this client made
        self.changes = 0  # every committed change (actions and "next")
        self.lost_answers = 0  # answers lost with the killed process, found applied or not
        self.refused_twins = 0  # the second of two identical steps, refused

    def retry(self, send: Any, ok: int = 200) -> Any:
        for _ in range(100):
            try:
                r = send()
            except httpx.HTTPError:
                time.sleep(0.1)
                continue
            if r.status_code == ok:
                return r.json()
            if r.status_code not in (502, 503, 504):
                raise AssertionError(f"{r.status_code} {r.text}")
            time.sleep(0.1)
        raise AssertionError("no answer")

    def send(self, path: str, body: Any, version: int) -> tuple[int, Any]:
        try:
            r = self.http.post(f"/api/games/{self.id}{path}", json=body,
                               headers={"If-Match": str(version)})
        except httpx.HTTPError:
            return 0, None
        return r.status_code, r.json() if r.headers.get("content-type", "").startswith(
            "application/json") else None

    def change(self, path: str, body: Any, twice: bool) -> None:
        v = self.state["version"]
        with ThreadPoolExecutor(2) as ex:
            results = list(ex.map(lambda _: self.send(path, body, v), range(2 if twice else 1)))
        applied = [out for status, out in results if status == 200]
        assert len(applied) <= 1, "one version, two changes"
        for status, out in results:
            if status == 409:
                assert out["error"]["code"] == "changed", out
                self.refused_twins += 1
            elif status != 200:  # the answer was lost (the process died under it)
                self.lost_answers += 1
        now = self.retry(lambda: self.http.get(f"/api/games/{self.id}"))
        assert now["version"] in (v, v + 1), (v, now["version"])
        if now["version"] == v + 1:  # applied exactly once, answered or not
            if applied:
                assert applied[0].get("state", applied[0]) == now
            self.changes += 1
            if path == "/step":
                self.actions += 1
        self.state = now

    def play(self, hands: int, stop: threading.Event) -> None:
        while not stop.is_set():
            if self.state["result"]:
                if len(self.state["results"]) >= hands:
                    return
                self.change("/next", None, twice=False)
            else:
                self.change("/step", {"auto": True}, twice=True)


def test_two_processes_behind_nginx_share_postgres_and_one_dies(
        postgres: str, tmp_path: Path) -> None:
    a = Serve(postgres, tmp_path / "a")
    b = Serve(postgres, tmp_path / "b")
    try:
        with nginx(a.port, b.port) as url:
            players = [Player(url, seed) for seed in range(1, GAMES + 1)]
            stop = threading.Event()
            killed = threading.Event()

            def killer() -> None:  # kill -9 one process once the games are well under way
                while not stop.is_set():
                    if sum(p.actions for p in players) >= GAMES * 30:
                        a.proc.kill()
                        killed.set()
                        return
                    time.sleep(0.02)

            k = threading.Thread(target=killer)
            k.start()
            with ThreadPoolExecutor(GAMES) as ex:
                futures = [ex.submit(p.play, HANDS, stop) for p in players]
                try:
                    for f in futures:
                        f.result(timeout=600)
                finally:
                    stop.set()
                    k.join()
            assert killed.is_set() and a.proc.wait(5) == -signal.SIGKILL
            import psycopg

            with psycopg.connect(postgres) as db:
                for p in players:
                    row = db.execute("SELECT version, data FROM games WHERE key = %s",
                                     (id_hash(p.id),)).fetchone()
                    assert row is not None
                    game = decode(p.id, bytes(row[1]), int(row[0]))  # it replays
                    assert len(game.match.to_json()["actions"]) == p.actions
                    assert row[0] == p.changes == p.state["version"]
                    assert len(game.match.results) == HANDS
            # Both processes served, the twins were refused, not doubled.
            assert sum(p.refused_twins for p in players) > 0
            print(f"games {GAMES}, actions {sum(p.actions for p in players)}, "
                  f"twins refused {sum(p.refused_twins for p in players)}, "
                  f"answers lost with the killed process "
                  f"{sum(p.lost_answers for p in players)}")
    finally:
        a.stop()
        b.stop()
