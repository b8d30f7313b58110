"""Many friends' rooms at once against a real ``guandan serve``: how soon every seat has an action.

``--rooms`` rooms (default 100) of four people each, every person on a socket of their own
(``/api/rooms/CODE/socket``), all four seats people (no AI seat): each acts at a human pace
(``--think`` seconds, ±50%, after their turn comes): the lowest single when leading, a pass
when following (no AI asked), sent with the room's version. It measures, for
``--seconds``:

- from the moment the acting person has the answer to their action to the moment each of the
  three others has the room at that version (pushed on their socket): p50/p95/p99 of the
  slowest of the three (the goal: p95 <= 100 ms), and of each;
- the action's round trip (sent -> answered), p50/p95;
- errors: refused actions (other than a version moved on meanwhile), sockets closed, timeouts;
- the server's memory (RSS) before the rooms and with them all playing: per room, per process;
- the CPU of every part (each server, PostgreSQL, nginx, itself) and the machine's load average.

One ``guandan serve`` on SQLite by default; ``--servers N --postgres --nginx`` runs N of them on
one throwaway PostgreSQL cluster (``initdb`` in a temp folder, as ``postgres`` when run as
root) behind nginx, as docs/serving.md sets them up: the rooms are made through nginx (its
hash on the room code), and the four people of each room are spread over the processes (seat
s on process (s - 1) mod N, through nginx: ``?via=K`` picks the upstream), so every action
reaches half the seats through PostgreSQL's ``NOTIFY``. ``--spread room`` sends the sockets
the way the documented config does (every socket of a room to the process its code hashes to).
``--database URL`` instead of ``--postgres`` uses a database already running.

    .venv/bin/python bench/rooms_load.py --rooms 100 --seconds 60
    .venv/bin/python bench/rooms_load.py --rooms 100 --seconds 60 --servers 2 --postgres --nginx
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import pwd
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    """The process's CPU time so far (user + system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


class Stats:
    def __init__(self) -> None:
        # (code, version) -> when the actor had its answer; (code, seat) -> each version the
        # seat received, with when, in order (a socket that lags is sent the room as it is
        # then: it may skip a version, and has it once it has a later one)
        self.answered: dict[tuple[str, int], float] = {}
        self.seen: dict[tuple[str, int], list[tuple[int, float]]] = {}
        self.actor: dict[tuple[str, int], int] = {}
        self.round_trips: list[float] = []
        self.errors: list[str] = []
        self.actions = 0
        self.changed = 0
        self.measuring = False


async def person(socket_url: str, code: str, token: str, seat: int, stats: Stats,
                 think: float, stop: asyncio.Event) -> None:
    async with connect(socket_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view: dict[str, Any] | None = None
        answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        next_id = 0
        turn = asyncio.Event()

        async def reader() -> None:
            nonlocal view
            async for raw in ws:
                now = time.perf_counter()
                f = json.loads(raw)
                if f.get("type") == "room":
                    view = f
                    stats.seen.setdefault((code, seat), []).append((f["version"], now))
                    g = f.get("game")
                    if g and g["my_turn"]:
                        turn.set()
                elif f.get("type") == "answer":
                    fut = answers.pop(f["id"], None)
                    if fut is not None and not fut.done():
                        fut.set_result(f)

        async def ask(msg: dict[str, Any]) -> dict[str, Any]:
            nonlocal next_id
            next_id += 1
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            answers[next_id] = fut
            await ws.send(json.dumps(msg | {"id": next_id}))
            return await asyncio.wait_for(fut, 30)

        task = asyncio.create_task(reader())
        try:
            while not stop.is_set():
                turn.clear()
                g = view["game"] if view else None
                if not (g and g["my_turn"]):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(turn.wait(), 1.0)
                    continue
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
                assert view is not None
                version = view["version"]
                g = view["game"]
                if not g["my_turn"]:
                    continue  # the room moved on while the person thought
                # A person's choice without asking the server: the lowest single when
                # leading, a pass when following, the first card that may be returned.
                if g["phase"] == "return":
                    msg: dict[str, Any] = {"type": "return", "card": g["returnable"][0]}
                elif g["table"] is None or not g["can_pass"]:
                    msg = {"type": "play", "cards": [g["hand"][-1]]}
                else:
                    msg = {"type": "pass"}
                msg["version"] = version
                t0 = time.perf_counter()
                out = await ask(msg)
                t1 = time.perf_counter()
                if out["ok"]:
                    stats.actions += 1
                    if stats.measuring:
                        stats.round_trips.append(t1 - t0)
                        stats.answered[(code, version + 1)] = t1
                        stats.actor[(code, version + 1)] = seat
                elif out["error"]["code"] == "changed":
                    if stats.measuring:  # (the seats connecting first change the room too)
                        stats.changed += 1
                else:
                    stats.errors.append(f"{code} seat {seat}: {out['error']['code']} "
                                        f"(seen: version {version}, to act {g['to_act']}, "
                                        f"{msg['type']})")
        finally:
            task.cancel()


def start_server(port: int, data: Path, args: list[str],
                 database: str | None) -> subprocess.Popen[bytes]:
    data.mkdir(parents=True, exist_ok=True)
    log = data / "serve.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "guandan", "serve", "--port", str(port), "--data-dir", str(data),
         "--ai", "greedy", "--ai-workers", "0", "--allow-seed", "--rooms-per-client", "100000",
         "--room-joins-per-minute", "100000", "--room-result-wait", "2",
         *(["--database", database] if database else []), *args],
        cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start: " + log.read_text()[-2000:])


# -- a throwaway PostgreSQL cluster and nginx (as tests/web/test_shared_database.py makes them) --


def pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise SystemExit("PostgreSQL's initdb was not found (bash scripts/test installs it)")
    return Path(initdb).resolve().parent


@contextlib.contextmanager
def postgres(tmp: Path) -> Iterator[tuple[str, Path]]:
    """A cluster of its own on a loopback port: its URL and its data folder (the postmaster's
    pid is in it). PostgreSQL refuses root: run as ``postgres`` then."""
    bindir = pg_bin()
    run: dict[str, Any] = {"check": True, "stdout": subprocess.DEVNULL,
                           "stderr": subprocess.PIPE, "cwd": str(tmp)}
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        run |= {"user": pw.pw_uid, "group": pw.pw_gid,
                "env": dict(os.environ, HOME=pw.pw_dir, LC_ALL="C.UTF-8")}
        os.chown(tmp, pw.pw_uid, pw.pw_gid)
    data, sock = tmp / "data", tmp / "sock"
    sock.mkdir()
    if "user" in run:
        os.chown(sock, run["user"], run["group"])
    port = free_port()
    subprocess.run([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                    "-E", "UTF8", "--no-sync"], **run)
    subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(tmp / "pg.log"), "-w",
                    "-o", f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 "
                    "-c max_connections=200", "start"], **run)
    try:
        subprocess.run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", "guandan"], **run)
        yield f"postgresql://postgres@127.0.0.1:{port}/guandan", data
    finally:
        subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       **(run | {"check": False}))


NGINX_CONF = """
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
{user}
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    # docs/serving.md's configuration: a room's requests and sockets to the process its code
    # hashes to ...
    map $uri $room_code {{
        "~^/(?:api/rooms|r)/(?<code>[0-9A-Za-z]{{6}})" $code;
        default "";
    }}
    upstream guandan_rooms {{
        hash $room_code consistent;
{servers}
    }}
    upstream guandan {{
{servers}
    }}
    # ... unless the bench's ``?via=K`` names process K (the people of a room spread out)
    map $arg_via $room_upstream {{
        default guandan_rooms;
{vias}
    }}
{picks}
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location /api/rooms/ {{
            proxy_pass http://$room_upstream;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_next_upstream error timeout;
            proxy_read_timeout 600s;
        }}
        # without it, nginx answers POST /api/rooms (a new room) with a 301 to /api/rooms/
        location = /api/rooms {{
            proxy_pass http://guandan;
            proxy_set_header X-Forwarded-For $remote_addr;
        }}
        location / {{
            proxy_pass http://guandan;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


@contextlib.contextmanager
def nginx(tmp: Path, ports: list[int]) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(binary, os.X_OK):
        raise SystemExit("nginx was not found (bash scripts/test installs Debian's nginx)")
    port = free_port()
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=30s;"
                         for p in ports)
    conf = tmp / "nginx.conf"
    conf.write_text(NGINX_CONF.format(
        tmp=tmp, port=port, servers=servers, user="user root;" if os.geteuid() == 0 else "",
        vias="\n".join(f'        "{k}" pick_{k};' for k in range(len(ports))),
        picks="\n".join(f"    upstream pick_{k} {{ server 127.0.0.1:{p}; }}"
                         for k, p in enumerate(ports))))
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
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise SystemExit("nginx did not start: " + err) from None
                time.sleep(0.1)
        yield url, proc
    finally:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def tree_cpu_s(root: int) -> float:
    """CPU time of a process and its children now alive (PostgreSQL's backends, nginx's
    worker)."""
    total = 0.0
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if int(d.name) == root or ppid == root:
                total += cpu_s(int(d.name))
        except (OSError, ValueError):
            continue
    return total


async def make_room(http: httpx.AsyncClient, seed: int) -> tuple[str, dict[int, str]]:
    made = await http.post("/api/rooms", json={"name": "p1"})
    assert made.status_code == 201, f"{made.status_code} {made.text[:300]}"
    r = made.json()
    code, tokens = r["code"], {1: r["token"]}
    for s in (2, 3, 4):
        tokens[s] = (await http.post(f"/api/rooms/{code}/join",
                                     json={"seat": s, "name": f"p{s}"})).json()["token"]
    for s in (1, 2, 3, 4):
        await http.post(f"/api/rooms/{code}/do", json={"type": "ready"},
                        headers={"X-Room-Token": tokens[s]})
    r2 = await http.post(f"/api/rooms/{code}/do", json={"type": "start", "seed": seed},
                         headers={"X-Room-Token": tokens[1]})
    assert r2.status_code == 200, r2.text
    return code, tokens


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rooms-load-")))
        database, pg_data = args.database, None
        if args.postgres:  # a folder of its own: PostgreSQL's user must reach it
            pg_tmp = Path(tempfile.mkdtemp(prefix="rooms-load-pg-"))
            stack.callback(shutil.rmtree, pg_tmp, True)
            database, pg_data = stack.enter_context(postgres(pg_tmp))
        if args.servers > 1 and not database:
            raise SystemExit("several servers share PostgreSQL: --postgres or --database URL")
        serve_args = args.serve_args.split() if args.serve_args else []
        ports = [free_port() for _ in range(args.servers)]
        procs: list[subprocess.Popen[bytes]] = []
        stack.callback(stop_all, procs)
        for k, port in enumerate(ports):
            procs.append(start_server(port, tmp / f"serve{k}", serve_args, database))
        url, nginx_proc = f"http://127.0.0.1:{ports[0]}", None
        if args.nginx:
            (tmp / "nginx").mkdir()
            url, nginx_proc = stack.enter_context(nginx(tmp / "nginx", ports))

        def socket_url(code: str, seat: int) -> str:
            """Seat s's socket: to process (s - 1) mod N (through nginx's ``via`` when there),
            or, with ``--spread room``, where the room's requests go."""
            k = (seat - 1) % len(ports)
            if args.spread == "room":
                base = url
            elif nginx_proc is not None:
                return f"{url.replace('http', 'ws')}/api/rooms/{code}/socket?via={k}"
            else:
                base = f"http://127.0.0.1:{ports[k]}"
            return f"{base.replace('http', 'ws')}/api/rooms/{code}/socket"

        await asyncio.sleep(1)
        base = [rss_mb(p.pid) for p in procs]
        stats = Stats()
        stop = asyncio.Event()
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            rooms = [await make_room(http, seed) for seed in range(args.rooms)]
        people = [asyncio.create_task(person(socket_url(code, s), code, tokens[s], s, stats,
                                             args.think, stop))
                  for code, tokens in rooms for s in (1, 2, 3, 4)]
        await asyncio.sleep(args.warmup)
        sockets = [httpx.get(f"http://127.0.0.1:{port}/api/health").json()["rooms"]["sockets"]
                   for port in ports]
        stats.measuring = True
        others = {"postgres": int((pg_data / "postmaster.pid").read_text().split()[0])
                  if pg_data else None, "nginx": nginx_proc.pid if nginx_proc else None}
        cpu0 = [cpu_s(p.pid) for p in procs]
        other0 = {k: tree_cpu_s(pid) for k, pid in others.items() if pid}
        own0 = resource.getrusage(resource.RUSAGE_SELF)
        peak = list(base)
        loads: list[float] = []
        t_end = time.time() + args.seconds
        while time.time() < t_end:
            await asyncio.sleep(1)
            peak = [max(x, rss_mb(p.pid)) for x, p in zip(peak, procs, strict=True)]
            loads.append(os.getloadavg()[0])
            for task in list(people):
                if task.done() and task.exception() is not None:
                    stats.errors.append(repr(task.exception()))
                    people.remove(task)
        stats.measuring = False
        cpu1 = [cpu_s(p.pid) for p in procs]
        other1 = {k: tree_cpu_s(pid) for k, pid in others.items() if pid}
        own1 = resource.getrusage(resource.RUSAGE_SELF)
        # The people play on a moment: the pushes of the last measured actions arrive before
        # any socket closes (a closing socket's seat turns "gone": a change of the room).
        await asyncio.sleep(2)
        stop.set()
        await asyncio.sleep(1.5)
        for task in people:
            task.cancel()
        health = [httpx.get(f"http://127.0.0.1:{port}/api/health").json() for port in ports]
        dead = [k for k, p in enumerate(procs) if p.poll() is not None]
        if dead:
            stats.errors.append(f"server processes died: {dead}")
        stop_all(procs)
        # What the servers said went wrong (warnings, errors, tracebacks), first lines of each
        complaints = [[line for line in (tmp / f"serve{k}" / "serve.log").read_text(
            errors="replace").splitlines() if any(w in line for w in (
                "WARNING", "ERROR", "Traceback", "Error:", "Exception"))]
            for k in range(len(procs))]
    slowest: list[float] = []
    each: list[float] = []
    missing = skipped = 0
    for key, t1 in stats.answered.items():
        code, version = key
        had: dict[int, float] = {}  # when each other seat first had this version or a later
        for s in (1, 2, 3, 4):
            if s == stats.actor[key]:
                continue
            got = next(((v, t) for v, t in stats.seen.get((code, s), []) if v >= version),
                       None)
            if got is not None:
                had[s] = got[1]
                skipped += got[0] > version
        if len(had) < 3:
            missing += 1
            continue
        lags = [max(0.0, t - t1) for t in had.values()]
        each += lags
        slowest.append(max(lags))
    n_actions = max(1, len(stats.answered))
    per_process = [{"rss_mb_before": round(b0, 1), "rss_mb_peak": round(pk, 1),
                    "rss_mb_per_room": round((pk - b0) / max(1, args.rooms), 2),
                    "sockets": n, "pushes": h.get("rooms", {}).get("pushed"),
                    "cpu_cores": round((c1 - c0) / args.seconds, 2),
                    "cpu_ms_per_action": round((c1 - c0) * 1000 / n_actions, 2)}
                   for b0, pk, n, h, c0, c1 in zip(base, peak, sockets, health, cpu0, cpu1,
                                                   strict=True)]
    return {
        "rooms": args.rooms, "sockets": args.rooms * 4, "seconds": args.seconds,
        "servers": args.servers, "database": "postgresql" if database else "sqlite",
        "nginx": args.nginx, "spread": args.spread if args.servers > 1 else None,
        "think_s": args.think, "actions_measured": len(stats.answered),
        "actions_per_s": round(len(stats.answered) / args.seconds, 1),
        "to_every_other_seat_ms": {"p50": ms(pct(slowest, 50)), "p95": ms(pct(slowest, 95)),
                                   "p99": ms(pct(slowest, 99)), "max": ms(max(slowest))
                                   if slowest else None},
        "to_each_other_seat_ms": {"p50": ms(pct(each, 50)), "p95": ms(pct(each, 95))},
        "action_round_trip_ms": {"p50": ms(pct(stats.round_trips, 50)),
                                 "p95": ms(pct(stats.round_trips, 95))},
        "pushes_missing": missing, "pushes_skipped_to_a_later_version": skipped,
        "errors": stats.errors[:10], "error_count": len(stats.errors),
        "version_moved_on": stats.changed,
        "per_process": per_process,
        "server_log_complaints": [{"count": len(c), "first": c[:5]} for c in complaints],
        "server_rss_mb_per_room": round(sum((pk - b0) for b0, pk in zip(base, peak,
                                                                       strict=True))
                                        / max(1, args.rooms), 2),
        # The CPU each part used while measuring, in cores, and the machine's load (other
        # work on the machine delays the server: the figures above include its waits).
        "server_cpu_cores": round(sum(c1 - c0 for c0, c1 in zip(cpu0, cpu1, strict=True))
                                  / args.seconds, 2),
        "other_cpu_cores": {k: round((other1[k] - other0[k]) / args.seconds, 2)
                            for k in other0},
        "load_generator_cpu_cores": round((own1.ru_utime + own1.ru_stime - own0.ru_utime
                                           - own0.ru_stime) / args.seconds, 2),
        "machine_load_average_1min": {"min": round(min(loads), 1), "max": round(max(loads), 1),
                                      "end": round(loads[-1], 1)} if loads else None,
        "cpus": os.cpu_count(),
        "mean_slowest_ms": ms(statistics.fmean(slowest)) if slowest else None,
    }


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--think", type=float, default=1.5, help="a person's pause before acting")
    ap.add_argument("--serve-args", default="", help="more arguments of guandan serve")
    ap.add_argument("--servers", type=int, default=1, help="guandan serve processes")
    ap.add_argument("--postgres", action="store_true",
                    help="a throwaway PostgreSQL cluster for them (initdb in a temp folder)")
    ap.add_argument("--database", default=None, help="a PostgreSQL URL already running")
    ap.add_argument("--nginx", action="store_true", help="nginx in front of the servers")
    ap.add_argument("--spread", choices=("seat", "room"), default="seat",
                    help="seat: seat s on process (s-1) mod N; room: as nginx hashes the code")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "rooms_load.json"))
    args = ap.parse_args()
    res = asyncio.run(run(args))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps(res, indent=1))
    sys.exit(0 if not res["error_count"] else 1)


if __name__ == "__main__":
    main()
