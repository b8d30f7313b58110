"""Fixtures for the browser tests: a real server (uvicorn, a free localhost port, its own data
folder) and Debian's chromium driven by Playwright (no browser download)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``guandan serve`` in a subprocess; ``restart()`` stops it and starts it again."""

    def __init__(self, data_dir: Path, port: int | None = None,
                 args: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.args = args  # more arguments of guandan serve
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        # One client for every call: a new one per request costs ~0.1 s (its SSL context).
        self.client = httpx.Client(timeout=30)

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "guandan", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--data-dir", str(self.data_dir), "--ai", "greedy", "--allow-seed",
             *self.args],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if httpx.get(self.url + "/api/catalogs/ko", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def api(self, method: str, path: str, **kw: Any) -> Any:
        r = self.client.request(method, self.url + path, **kw)
        r.raise_for_status()
        return r.json()


@pytest.fixture
def make_server() -> type[Server]:
    """The ``Server`` class, for a test that needs a server of its own."""
    return Server


@pytest.fixture(scope="session")
def make_server_cls() -> type[Server]:
    """``Server``, for a module-scoped server of a test module's own."""
    return Server


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web-data"))
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1200, "height": 860}, locale="ko-KR")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    outside: list[str] = []
    pg.on("request", lambda r: outside.append(r.url)
          if not r.url.startswith(("http://127.0.0.1", "data:", "blob:")) else None)
    pg.set_default_timeout(20000)
    yield pg
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(Exception):
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-end.png"))
    ctx.close()
    assert not errors, errors
    assert not outside, outside


# -- a throwaway PostgreSQL (the shared database's tests, the store's tests on PostgreSQL) --


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def as_user() -> dict[str, Any]:
    """Popen's arguments to run PostgreSQL's programs: as ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return {}
    pw = pwd.getpwnam("postgres")
    return {"user": pw.pw_uid, "group": pw.pw_gid,
            "env": dict(os.environ, HOME=pw.pw_dir, LC_ALL="C.UTF-8")}


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    bindir = pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL's initdb was not found (bash scripts/test installs Debian's "
                    "postgresql)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
    tmp = Path(tempfile.mkdtemp(prefix="guandan-pg-"))
    data, sock = tmp / "data", tmp / "sock"
    sock.mkdir()
    user = as_user()
    if user:
        for p in (tmp, sock):
            os.chown(p, user["user"], user["group"])
    port = free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE,
           "cwd": str(tmp), **user}
    subprocess.run([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                    "-E", "UTF8", "--no-sync"], **run)
    subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(tmp / "pg.log"), "-w",
                    "-o", f"-p {port} -k {sock} -c listen_addresses=127.0.0.1", "start"], **run)
    try:
        subprocess.run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", "guandan"], **run)
        yield f"postgresql://postgres@127.0.0.1:{port}/guandan"
    finally:
        subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       **{**run, "check": False})
        shutil.rmtree(tmp, ignore_errors=True)
