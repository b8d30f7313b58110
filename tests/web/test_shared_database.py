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
import json
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
    def __init__(self, database: str, data_dir: Path, args: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "serve.log"
        data_dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "guandan", "serve", "--port", str(self.port), "--database",
             database, "--data-dir", str(data_dir), "--ai", "greedy", "--ai-workers", "0",
             "--allow-seed", "--max-games-per-client", "1000", *args],
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
    # A room's requests and sockets go to one process (consistent hashing on its code), to
    # the other when that one is down.
    map $uri $room_code {{
        "~^/(?:api/rooms|r)/(?<code>[0-9A-Za-z]{{6}})" $code;
        default "";
    }}
    upstream guandan_rooms {{
        hash $room_code consistent;
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


# -- a friends' room across two processes --------------------------------------------------------


class RoomSeat:
    """One person of a room on a socket: plays the hint's choice on each of its turns, sent
    with the room's version (compare-and-set); counts the actions it knows were applied. Its
    socket goes to ``urls[0]``, to the next address when that process is gone."""

    def __init__(self, urls: list[str], code: str, token: str, seat: int) -> None:
        self.urls, self.code, self.token, self.seat = urls, code, token, seat
        self.applied = 0  # its actions answered ok, or found applied after a lost answer
        self.lost = 0  # answers lost with a dead process
        self.refused = 0  # actions refused (another version): none should apply
        self.view: dict[str, Any] | None = None
        self.served_by: list[str] = []
        self.next_id = 0

    def _frames(self, ws: Any, want: int | None) -> dict[str, Any] | None:
        """Read frames (keeping the latest view) until the answer ``want`` (or one frame)."""
        while True:
            f = json.loads(ws.recv(timeout=20))
            if f.get("type") == "room":
                self.view = f
                if want is None:
                    return None
            elif f.get("type") == "answer" and f.get("id") == want:
                return dict(f)

    def ask(self, ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        ws.send(json.dumps(msg | {"id": self.next_id}))
        out = self._frames(ws, self.next_id)
        assert out is not None
        return out

    def play(self, stop: threading.Event) -> None:
        from websockets.sync.client import connect

        at = 0
        while not stop.is_set():
            url = self.urls[at % len(self.urls)].replace("http://", "ws://")
            try:
                with connect(f"{url}/api/rooms/{self.code}/socket", open_timeout=5) as ws:
                    ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self._frames(ws, None)
                    self.served_by.append(url)
                    if self.turns(ws, stop):
                        return
            except AssertionError:
                raise
            except Exception:  # the process died under it (closed, refused, timed out)
                if stop.is_set():
                    return
                at += 1
                time.sleep(0.2)

    def turns(self, ws: Any, stop: threading.Event) -> bool:
        """Play until hand 1 is over (True), or until the socket fails (raises)."""
        while not stop.is_set():
            v = self.view
            assert v is not None
            g = v["game"]
            if g is None or g["hand_number"] > 1 or g["result"] is not None:
                return g is not None
            if not g["my_turn"]:
                self._frames(ws, None)
                continue
            hint = self.ask(ws, {"type": "hint"})
            if not hint["ok"]:
                continue  # the view moved on meanwhile
            h = hint["hint"]
            msg: dict[str, Any] = {"type": h["kind"], "version": v["version"]}
            if h["kind"] == "play":
                msg |= {"cards": h["cards"], "kind": h["play"]["kind"],
                        "rank": h["play"]["rank"]}
            elif h["kind"] == "return":
                msg["card"] = h["cards"][0]
            try:
                out = self.ask(ws, msg)
            except Exception:
                self.lost += 1  # applied or not: the database says (checked at the end)
                raise
            if out["ok"]:
                self.applied += 1
            else:
                assert out["error"]["code"] == "changed", out
                self.refused += 1
        return False


def test_a_room_across_two_processes_whose_owner_dies(postgres: str, tmp_path: Path) -> None:
    """Four people of one room, two on each process; the process that drives the room is
    killed mid-hand; the people on it come back through the other; the hand goes on to its
    end, and the room's actions in the database are exactly those the people were told of (or
    found applied): none lost, none doubled."""
    args = ("--room-lease", "1.5", "--room-pace", "0.05", "--room-result-wait", "0.5")
    a = Serve(postgres, tmp_path / "ra", args)
    b = Serve(postgres, tmp_path / "rb", args)
    try:
        with nginx(a.port, b.port) as url:
            made = httpx.post(url + "/api/rooms", json={"name": "p1"}, timeout=30).json()
            code, tokens = made["code"], {1: made["token"]}
            for seat in (2, 3, 4):
                r = httpx.post(f"{url}/api/rooms/{code}/join",
                               json={"seat": seat, "name": f"p{seat}"}, timeout=30)
                assert r.status_code == 200, r.text
                tokens[seat] = r.json()["token"]
            for seat in (1, 2, 3, 4):
                httpx.post(f"{url}/api/rooms/{code}/do", json={"type": "ready"},
                           headers={"X-Room-Token": tokens[seat]}, timeout=30)
            r = httpx.post(f"{url}/api/rooms/{code}/do", json={"type": "start", "seed": 4},
                           headers={"X-Room-Token": tokens[1]}, timeout=30)
            assert r.status_code == 200, r.text
            seats = [RoomSeat([a.url, b.url] if s <= 2 else [b.url, a.url], code, tokens[s], s)
                     for s in (1, 2, 3, 4)]
            stop = threading.Event()
            with ThreadPoolExecutor(4) as ex:
                futures = [ex.submit(s.play, stop) for s in seats]
                import psycopg

                with psycopg.connect(postgres, autocommit=True) as db:
                    owner = None
                    for _ in range(600):  # mid-hand: kill the process that drives the room
                        if sum(s.applied for s in seats) >= 30:
                            found = db.execute("SELECT owner FROM rooms WHERE code = %s",
                                               (code,)).fetchone()
                            assert found is not None
                            owner = found[0]
                            break
                        time.sleep(0.05)
                    ids = {httpx.get(p.url + "/api/health").json()["rooms"]["owner"]: p
                           for p in (a, b)}
                    assert owner in ids, (owner, ids)
                    dead, alive = ids[owner], next(p for p in (a, b) if p is not ids[owner])
                    dead.proc.kill()
                    try:
                        for f in futures:
                            f.result(timeout=300)
                    finally:
                        stop.set()
                    assert dead.proc.wait(5) == -signal.SIGKILL
                    row = db.execute("SELECT version, data, owner FROM rooms WHERE code = %s",
                                     (code,)).fetchone()
                    alive_id = httpx.get(alive.url + "/api/health").json()["rooms"]["owner"]
                    for _ in range(200):  # the survivor takes the room over once the lease
                        # has run out, and moves it past the hand's result by itself
                        now = db.execute("SELECT owner, data FROM rooms WHERE code = %s",
                                         (code,)).fetchone()
                        assert now is not None
                        if now[0] == alive_id and json.loads(bytes(now[1]))["game"]["save"][
                                "seen_results"] >= 1:
                            break
                        time.sleep(0.05)
                    else:
                        raise AssertionError("the room was not taken over")
            from guandan.web.rooms.room import decode_room

            assert row is not None
            room = decode_room(bytes(row[1]), int(row[0]))
            assert room.game is not None and len(room.game.match.results) >= 1
            actions = room.game.match.to_json()["actions"]
            by_seat = {s: sum(1 for x in actions if x[0] == s) for s in (1, 2, 3, 4)}
            # Every action in the database was told to its person, or found applied after an
            # answer lost with the dead process; none twice.
            for s in seats:
                assert s.applied <= by_seat[s.seat] <= s.applied + s.lost, (s.seat, by_seat)
            assert {u for s in seats for u in s.served_by} == {a.url.replace("http", "ws"),
                                                               b.url.replace("http", "ws")}
            print(f"room actions {len(actions)}, lost answers {sum(s.lost for s in seats)}, "
                  f"refused {sum(s.refused for s in seats)}")
    finally:
        a.stop()
        b.stop()


@pytest.mark.parametrize("kill", [False, True], ids=["whole-hand", "its-server-dies"])
def test_a_rooms_program_on_one_server_its_people_on_the_other(postgres: str, tmp_path: Path,
                                                                 kill: bool) -> None:
    """Two ``guandan serve`` on one PostgreSQL: seat 2 of a room is an outside program whose
    socket is on one server, the room's people (their requests, its driver) on the other. The
    program's server holds the seat, asks the program and commits its actions; the hand ends,
    each of the program's actions in the room once. ``kill``: the program's server is killed
    mid-hand; once its hold has run out, our AI plays the seat to the hand's end."""
    from websockets.sync.client import connect

    args = ("--room-pace", "0.02", "--room-result-wait", "3600", "--room-lease", "1.5")
    a = Serve(postgres, tmp_path / "pa", args)
    b = Serve(postgres, tmp_path / "pb", args)
    try:
        made = httpx.post(b.url + "/api/rooms", json={"name": "p1"}, timeout=30).json()
        code, tokens = made["code"], {1: made["token"]}
        tokens[3] = httpx.post(f"{b.url}/api/rooms/{code}/join",
                               json={"seat": 3, "name": "p3"}, timeout=30).json()["token"]

        def do(who: int, **msg: Any) -> httpx.Response:
            return httpx.post(f"{b.url}/api/rooms/{code}/do", json=msg,
                              headers={"X-Room-Token": tokens[who]}, timeout=30)

        path = do(1, type="outside", seat=2).json()["room"]["outside"][0]["path"]
        do(1, type="ready")
        do(3, type="ready")
        assert do(1, type="start", seed=7).status_code == 200
        asked: list[dict[str, Any]] = []

        def program() -> None:
            with connect(a.url.replace("http://", "ws://") + path, open_timeout=10) as ws:
                while True:
                    try:
                        msg = json.loads(ws.recv(timeout=60))
                    except Exception:
                        assert kill, "the program's connection failed"
                        return  # its server was killed
                    if msg.get("stage") == "episodeOver":
                        return
                    if msg.get("type") == "act":
                        asked.append(msg)
                        ws.send(json.dumps({"actIndex": 0}))

        with ThreadPoolExecutor(1) as ex:
            done = ex.submit(program)
            deadline = time.time() + 120
            while True:
                assert time.time() < deadline, "the hand did not end"
                view = httpx.get(f"{b.url}/api/rooms/{code}",
                                 headers={"X-Room-Token": tokens[1]}, timeout=30).json()
                g = view["game"]
                if g["result"] is not None:
                    break
                if kill and len(asked) >= 4 and a.proc.poll() is None:
                    a.proc.kill()  # mid-hand: the program's server dies
                    a.proc.wait(5)
                seat = g["to_act"]
                if seat not in tokens:
                    time.sleep(0.02)
                    continue
                h = do(seat, type="hint")
                if h.status_code != 200:
                    continue  # the turn moved on meanwhile
                hint = h.json()["hint"]
                msg: dict[str, Any] = {"type": hint["kind"]}
                if hint["kind"] == "play":
                    msg |= {"cards": hint["cards"], "kind": hint["play"]["kind"],
                            "rank": hint["play"]["rank"]}
                elif hint["kind"] == "return":
                    msg["card"] = hint["cards"][0]
                r = do(seat, **msg)
                # Before the program is held, the hand waits for it.
                assert r.status_code == 200 or r.json()["error"]["code"] in (
                    "waiting_outside", "not_your_turn", "changed"), r.text
                if r.status_code != 200:
                    time.sleep(0.05)
            done.result(timeout=60)
        import psycopg

        from guandan.web.rooms.room import decode_room

        with psycopg.connect(postgres, autocommit=True) as db:
            row = db.execute("SELECT version, data FROM rooms WHERE code = %s",
                             (code,)).fetchone()
        assert row is not None
        room = decode_room(bytes(row[1]), int(row[0]))
        assert room.game is not None
        record = room.game.records()[0]
        actions = room.game.match.to_json()["actions"]
        mine = sum(1 for x in actions if x[0] == 2)
        if not kill:
            assert record["outside"] == {"2": "outside"} and "replaced" not in record
            assert len(asked) == mine > 0
        else:  # its answers committed (the last one may have died with its server), then ours
            assert [r["seat"] for r in record["replaced"]] == [2]
            assert "no outside program" in record["replaced"][0]["reason"]
            assert len(asked) - 1 <= mine and len(asked) >= 4
    finally:
        a.stop()
        b.stop()


def seat_of(view: dict[str, Any], seat: int) -> dict[str, Any]:
    found: dict[str, Any] = view["seats"][seat - 1]
    return found


def room_frames(ws: Any, until: Any, timeout: float = 30) -> dict[str, Any]:
    """The room's frames on a socket until one passes ``until``; that view."""
    deadline = time.time() + timeout
    while True:
        f = json.loads(ws.recv(timeout=max(0.1, deadline - time.time())))
        if f.get("type") == "room" and until(f):
            return dict(f)


def test_a_seat_whose_process_dies_is_disconnected_then_played_by_the_ai(
        postgres: str, tmp_path: Path) -> None:
    """A person's socket is on the process that drives the room, a spectator's on the other:
    the first is killed. The spectator sees the seat disconnected within a moment, gone from
    about the kill; after the grace period the AI plays it (자동) from the other process, which
    took the room over; the person comes back through it, has the seat, takes it back."""
    import psycopg
    from websockets.sync.client import connect

    # A database of its own: the rooms the other tests left (their processes dead) would be
    # looked at, and played on, by these processes.
    with psycopg.connect(postgres, autocommit=True) as admin:
        admin.execute("CREATE DATABASE guandan_presence")
    postgres = postgres.rsplit("/", 1)[0] + "/guandan_presence"
    # Beats every 0.3 s; silent for 1.5 s is dead (the lock tells before, on a kill).
    args = ("--room-lease", "3", "--room-pace", "0.05", "--room-grace", "1.5")
    a = Serve(postgres, tmp_path / "pa", args)
    b = Serve(postgres, tmp_path / "pb", args)
    try:
        with nginx(a.port, b.port) as url:
            made = httpx.post(url + "/api/rooms", json={"name": "p1"}, timeout=30).json()
            code, token = made["code"], made["token"]
            do = f"{url}/api/rooms/{code}/do"
            head = {"X-Room-Token": token}
            assert httpx.post(do, json={"type": "ready"}, headers=head,
                              timeout=30).status_code == 200
            assert httpx.post(do, json={"type": "start", "seed": 7}, headers=head,
                              timeout=30).status_code == 200
            with psycopg.connect(postgres, autocommit=True) as db:
                owner = ""
                for _ in range(200):  # the room's driver: whichever claimed it first
                    row = db.execute("SELECT owner FROM rooms WHERE code = %s",
                                     (code,)).fetchone()
                    if row is not None and row[0]:
                        owner = row[0]
                        break
                    time.sleep(0.05)
                ids = {httpx.get(p.url + "/api/health").json()["rooms"]["owner"]: p
                       for p in (a, b)}
                dead, alive = ids[owner], next(p for p in (a, b) if p is not ids[owner])
                ws_of = {p: p.url.replace("http://", "ws://") + f"/api/rooms/{code}/socket"
                         for p in (a, b)}
                with connect(ws_of[dead]) as person, connect(ws_of[alive]) as spectator:
                    person.send(json.dumps({"type": "hello", "token": token}))
                    spectator.send(json.dumps({"type": "hello"}))
                    room_frames(spectator, lambda v: seat_of(v, 1)["connected"])
                    data = db.execute("SELECT data, version FROM rooms WHERE code = %s",
                                      (code,)).fetchone()
                    assert data is not None  # seat 1 is connected through the process
                    assert json.loads(bytes(data[0]))["seats"]["1"]["via"] == [owner]
                    killed = time.time()
                    dead.proc.kill()
                    assert dead.proc.wait(5) == -signal.SIGKILL
                    gone = room_frames(spectator, lambda v: v["version"] > data[1] and
                                       not seat_of(v, 1)["connected"])
                    seen = time.time()
                    # PostgreSQL freed the dead session's lock at once: seen within a beat
                    # (0.3 s here), a commit and a push; the bound allows for a loaded machine.
                    since = seat_of(gone, 1)["gone_since"]
                    assert seen - killed < 10, (seen - killed, gone["seats"])
                    assert killed - 3 < since <= seen, (since - killed, gone["seats"])
                    assert not seat_of(gone, 1)["auto"], gone["seats"]
                    print(f"seat 1 shown disconnected {seen - killed:.2f} s after the kill, "
                          f"gone since {since - killed:+.2f} s")
                    auto = room_frames(spectator, lambda v: seat_of(v, 1)["auto"])
                    assert auto["now"] >= since + 1.5  # the grace period, from the death
                    # The AI plays the seat: an action of seat 1 after 자동.
                    acted = room_frames(spectator, lambda v: any(
                        e["seat"] == 1 and e["kind"] in ("play", "pass")
                        for e in v["game"]["history"]) and v["version"] > auto["version"])
                    assert acted["game"]["hand_number"] >= 1
                    row = db.execute("SELECT owner FROM rooms WHERE code = %s",
                                     (code,)).fetchone()
                    assert row is not None and row[0] == alive_id(alive)
                    # The person comes back through the live process: the seat is theirs,
                    # connected, still 자동 until they take it back.
                    with connect(ws_of[alive]) as back:
                        back.send(json.dumps({"type": "hello", "token": token}))
                        mine = room_frames(back, lambda v: seat_of(v, 1)["connected"])
                        assert mine["you"] == 1 and seat_of(mine, 1)["auto"]
                        back.send(json.dumps({"type": "takeback", "id": 1}))
                        room_frames(back, lambda v: not seat_of(v, 1)["auto"])
    finally:
        a.stop()
        b.stop()


def alive_id(p: Serve) -> str:
    found: str = httpx.get(p.url + "/api/health").json()["rooms"]["owner"]
    return found
