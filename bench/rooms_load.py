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
- the server's memory (RSS) before the rooms and with them all playing: per room.

    .venv/bin/python bench/rooms_load.py --rooms 100 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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
        # (code, version) -> when the actor had its answer; when each seat had the version
        self.answered: dict[tuple[str, int], float] = {}
        self.seen: dict[tuple[str, int], dict[int, float]] = {}
        self.actor: dict[tuple[str, int], int] = {}
        self.round_trips: list[float] = []
        self.errors: list[str] = []
        self.actions = 0
        self.changed = 0
        self.measuring = False


async def person(url: str, code: str, token: str, seat: int, stats: Stats, think: float,
                 stop: asyncio.Event) -> None:
    async with connect(f"{url.replace('http', 'ws')}/api/rooms/{code}/socket",
                       max_size=2**22) as ws:
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
                    stats.seen.setdefault((code, f["version"]), {})[seat] = now
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
                    stats.changed += 1
                else:
                    stats.errors.append(f"{code} seat {seat}: {out['error']['code']} "
                                        f"(seen: version {version}, to act {g['to_act']}, "
                                        f"{msg['type']})")
        finally:
            task.cancel()


def start_server(port: int, data: Path, args: list[str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "guandan", "serve", "--port", str(port), "--data-dir", str(data),
         "--ai", "greedy", "--ai-workers", "0", "--allow-seed", "--rooms-per-client", "100000",
         "--room-joins-per-minute", "100000", "--room-result-wait", "2", *args],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


async def make_room(http: httpx.AsyncClient, seed: int) -> tuple[str, dict[int, str]]:
    r = (await http.post("/api/rooms", json={"name": "p1"})).json()
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
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, Path(tmp), args.serve_args.split() if args.serve_args else [])
        try:
            await asyncio.sleep(1)
            base = rss_mb(proc.pid)
            stats = Stats()
            stop = asyncio.Event()
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                rooms = [await make_room(http, seed) for seed in range(args.rooms)]
            people = [asyncio.create_task(person(url, code, tokens[s], s, stats, args.think,
                                                 stop))
                      for code, tokens in rooms for s in (1, 2, 3, 4)]
            await asyncio.sleep(args.warmup)
            stats.measuring = True
            cpu0, own0 = cpu_s(proc.pid), resource.getrusage(resource.RUSAGE_SELF)
            peak = 0.0
            t_end = time.time() + args.seconds
            while time.time() < t_end:
                await asyncio.sleep(1)
                peak = max(peak, rss_mb(proc.pid))
                for p in people:
                    if p.done() and p.exception() is not None:
                        stats.errors.append(repr(p.exception()))
                        people.remove(p)
            stats.measuring = False
            cpu1, own1 = cpu_s(proc.pid), resource.getrusage(resource.RUSAGE_SELF)
            load = os.getloadavg()[0]
            stop.set()
            await asyncio.sleep(1.5)
            for p in people:
                p.cancel()
            health = httpx.get(url + "/api/health").json()
        finally:
            proc.terminate()
            proc.wait(10)
    slowest: list[float] = []
    each: list[float] = []
    missing = 0
    for key, t1 in stats.answered.items():
        seen = stats.seen.get(key, {})
        others = [s for s in (1, 2, 3, 4) if s != stats.actor[key]]
        if any(s not in seen for s in others):
            missing += 1
            continue
        lags = [max(0.0, seen[s] - t1) for s in others]
        each += lags
        slowest.append(max(lags))
    return {
        "rooms": args.rooms, "sockets": args.rooms * 4, "seconds": args.seconds,
        "think_s": args.think, "actions_measured": len(stats.answered),
        "actions_per_s": round(len(stats.answered) / args.seconds, 1),
        "to_every_other_seat_ms": {"p50": ms(pct(slowest, 50)), "p95": ms(pct(slowest, 95)),
                                   "p99": ms(pct(slowest, 99)), "max": ms(max(slowest))
                                   if slowest else None},
        "to_each_other_seat_ms": {"p50": ms(pct(each, 50)), "p95": ms(pct(each, 95))},
        "action_round_trip_ms": {"p50": ms(pct(stats.round_trips, 50)),
                                 "p95": ms(pct(stats.round_trips, 95))},
        "pushes_missing": missing, "errors": stats.errors[:10], "error_count": len(stats.errors),
        "version_moved_on": stats.changed,
        "server_rss_mb": {"before": round(base, 1), "peak": round(peak, 1),
                          "per_room": round((peak - base) / max(1, args.rooms), 2)},
        "server_pushes": health.get("rooms", {}).get("pushed"),
        # The CPU each side used while measuring, in cores, and the machine's load (other
        # work on the machine delays the server: the figures above include its waits).
        "server_cpu_cores": round((cpu1 - cpu0) / args.seconds, 2),
        "server_cpu_ms_per_action": round((cpu1 - cpu0) * 1000 / max(1, len(stats.answered)),
                                          2),
        "load_generator_cpu_cores": round((own1.ru_utime + own1.ru_stime - own0.ru_utime
                                           - own0.ru_stime) / args.seconds, 2),
        "machine_load_average_1min": round(load, 1), "cpus": os.cpu_count(),
        "mean_slowest_ms": ms(statistics.fmean(slowest)) if slowest else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--think", type=float, default=1.5, help="a person's pause before acting")
    ap.add_argument("--serve-args", default="", help="more arguments of guandan serve")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "rooms_load.json"))
    args = ap.parse_args()
    res = asyncio.run(run(args))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps(res, indent=1))
    sys.exit(0 if not res["error_count"] else 1)


if __name__ == "__main__":
    main()
