"""Many players at once against a real ``guandan serve``: the AI's answer time under load.

Each simulated person plays their own game at the page's pace: the AI seats act one per
``POST /step``, each asked 0.9 s after the last answer (the page's ``AI_PACE``), and the person
acts 1 s after their turn comes (the lowest single when leading, else a pass: no AI is asked
for them). For 50 and 200 games at once it measures, for ``--seconds`` each:

- the person's action round trip (``/play``, ``/pass``, ``/return``), p50/p95/p99;
- the AI's move round trip (``/step``, the thinking included), p50/p95/p99: the goal is
  p95 ≤ 1.5 s at 200 games;
- the memory of the server and its AI workers (the largest sum of their RSS seen);
- the search's thinking budget the server gave its decisions (``/api/health``, when the
  server has it), and the share of the searching AI's decisions that were searched rather
  than left to the heuristic: how strong the AI played at that load (see the README);
- the CPU each part used, in cores: the server's process, its AI workers, and this load
  generator itself (all on the same machine).

``--cwd`` runs the server of another checkout (the code before a change), so the figures
before and after come from the same script:

    .venv/bin/python bench/web_load.py --games 50,200 --seconds 60 [--cwd /tmp/before]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
AI_PACE = 0.9  # the page's pause before asking for the next AI move (static/state.js)
THINK = 1.0  # the person's pause before acting
#: One TLS context for all the clients (the server is plain HTTP, but each httpx client would
#: otherwise load the CA certificates anew: 20 ms of the load generator's CPU per person).
TLS = ssl.create_default_context()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, round(p / 100 * (len(xs) - 1))))
    return xs[k]


def summary(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "p50": round(statistics.median(xs), 1), "p95": round(pct(xs, 95), 1),
            "p99": round(pct(xs, 99), 1), "max": round(max(xs), 1)}


def tree_rss_mb(pid: int) -> float:
    """The resident memory of ``pid`` and its descendants (MB), from /proc."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return round(total / 1024, 1)


def _stat(pid: int) -> tuple[int, str, float] | None:
    """(parent pid, name, CPU seconds used so far) of a process, from /proc/PID/stat."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    f = text.rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(f[1]), name, (int(f[11]) + int(f[12])) / tick


def tree_cpu(pid: int) -> dict[int, tuple[int, float]]:
    """Each of ``pid`` and its descendants: (its depth below ``pid``, or -1 for a helper of
    ``multiprocessing`` such as its resource tracker; the CPU seconds it used so far)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            st = _stat(int(d.name))
            if st is not None:
                parents[int(d.name)] = st[0]
                cpu[int(d.name)] = st[2]
    out = {}
    for p, c in cpu.items():
        q, depth = p, 0
        while q not in (0, 1, pid) and q in parents:
            q, depth = parents[q], depth + 1
        if q == pid:
            try:
                helper = b"resource_tracker" in Path(f"/proc/{p}/cmdline").read_bytes()
            except OSError:
                helper = False
            out[p] = (-1 if helper else depth, c)
    return out


def start_server(cwd: Path, data: str, args: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = ROOT / "bench" / "out" / "web_load_server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(cwd))
    proc = subprocess.Popen([sys.executable, "-m", "guandan", "serve", "--port", str(port),
                             "--data-dir", data, *args], cwd=cwd, env=env,
                            stdout=log.open("a"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            httpx.get(url + "/api/catalogs/ko", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


async def person(url: str, until: float, actions: list[float], moves: list[float],
                 errors: list[str]) -> None:
    """One person with their own connection, as a browser has: one client shared by all
    would scan its pool of every connection on each request (httpx's pool is linear), and
    the load generator, not the server, would be what the figures measure."""
    await asyncio.sleep(random.random() * AI_PACE)  # the people did not all come at once
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits,
                                 verify=TLS) as client:
        await play_game(client, until, actions, moves, errors)


async def play_game(client: httpx.AsyncClient, until: float, actions: list[float],
                    moves: list[float], errors: list[str]) -> None:
    try:
        r = await client.post("/api/games", json={})
    except httpx.HTTPError as e:
        errors.append(f"new game {type(e).__name__}")
        return
    if r.status_code != 201:
        errors.append(f"new game {r.status_code}")
        return
    state = r.json()
    gid = state["id"]
    while time.perf_counter() < until:
        if state["result"]:
            await asyncio.sleep(THINK)
            state = (await client.post(f"/api/games/{gid}/next")).json()
            continue
        if state["to_act"] is None:
            break
        # A change names the version it was decided on (the server's If-Match, where it has
        # one): a request retried after a lost answer cannot act twice.
        headers = {"If-Match": str(state["version"])} if "version" in state else {}
        if state["to_act"] == 1:
            await asyncio.sleep(THINK)
            if state["returnable"]:
                path, body = "/return", {"card": state["returnable"][-1]}
            elif state["can_pass"]:
                path, body = "/pass", None
            else:
                path, body = "/play", {"cards": [state["hand"][-1]]}
            times = actions
        else:
            await asyncio.sleep(AI_PACE)
            path, body, times = "/step", {}, moves
        t0 = time.perf_counter()
        try:
            r = await client.post(f"/api/games/{gid}{path}", json=body, headers=headers)
        except httpx.HTTPError as e:
            errors.append(f"{path} {type(e).__name__}")
            state = (await client.get(f"/api/games/{gid}")).json()
            continue
        times.append((time.perf_counter() - t0) * 1000)
        if r.status_code != 200:
            errors.append(f"{r.status_code} {r.text[:80]}")
            state = (await client.get(f"/api/games/{gid}")).json()
            continue
        out = r.json()
        state = out.get("state", out)
    await client.delete(f"/api/games/{gid}")


async def watch(url: str, pid: int, until: float, mem: list[float],
                budgets: list[float], cpu: dict[int, tuple[int, float]]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=10) as c:
        while time.perf_counter() < until:
            await asyncio.sleep(2.0)
            mem.append(tree_rss_mb(pid))
            cpu.update(tree_cpu(pid))  # a worker replaced meanwhile keeps its last figure
            try:
                r = await c.get("/api/health")
                if r.status_code == 200 and r.json()["ai"]["recent_budget_ms"] is not None:
                    budgets.append(float(r.json()["ai"]["recent_budget_ms"]))
            except (httpx.HTTPError, KeyError, ValueError):
                pass


async def ai_strength(url: str) -> dict[str, Any]:
    """How the searching AI played over the run (servers that count it): its decisions by
    how they were made (``search`` with a budget, or left to the ``heuristic`` under load),
    the share searched, and the mean budget of the searched ones lately."""
    async with httpx.AsyncClient(base_url=url, timeout=10) as c:
        try:
            ai = (await c.get("/api/health")).json()["ai"]
        except (httpx.HTTPError, KeyError, ValueError):
            return {}
    counts = ai.get("decisions")
    if counts is None:
        return {}
    searched, dropped = counts.get("search", 0), counts.get("heuristic", 0)
    return {"decisions": counts,
            "searched_share": round(searched / (searched + dropped), 3)
            if searched + dropped else None,
            "recent_search_budget_ms": ai.get("recent_search_budget_ms"),
            "worker_cpu_share": ai.get("worker_cpu_share")}


async def load(url: str, pid: int, games: int, seconds: float,
               processes: int = 1) -> dict[str, Any]:
    actions: list[float] = []
    moves: list[float] = []
    errors: list[str] = []
    mem: list[float] = []
    budgets: list[float] = []
    cpu0 = tree_cpu(pid)
    cpu: dict[int, tuple[int, float]] = {}
    me0 = time.process_time()
    t0 = time.perf_counter()
    until = t0 + seconds
    await asyncio.gather(watch(url, pid, until, mem, budgets, cpu),
                         *(person(url, until, actions, moves, errors) for _ in range(games)))
    wall = time.perf_counter() - t0
    cpu.update(tree_cpu(pid))
    strength = await ai_strength(url)
    # The server's processes: the one started, and with --processes its children; below
    # them, the AI's workers.
    used = {p: (depth, c - cpu0.get(p, (0, 0.0))[1]) for p, (depth, c) in cpu.items()}
    last = 1 if processes > 1 else 0
    server = sum(c for depth, c in used.values() if depth <= last)
    workers = sum(c for depth, c in used.values() if depth > last)
    # The share of one core each part used over the run (2.0 would be both cores).
    cores = {"server": round(server / wall, 2), "ai_workers": round(workers / wall, 2),
             "load_generator": round((time.process_time() - me0) / wall, 2)}
    return {"games": games, "seconds": seconds, "action_ms": summary(actions),
            "ai_move_ms": summary(moves), "max_rss_mb": max(mem) if mem else None,
            "search_budget_ms": summary(budgets), "strength": strength, "cpu_cores": cores,
            "load_average": [round(x, 2) for x in os.getloadavg()], "errors": len(errors),
            "first_errors": errors[:5]}


def server_processes(server_args: str) -> int:
    """The ``--processes`` among the server's arguments (1 if none)."""
    words = server_args.split()
    for i, w in enumerate(words):
        if w == "--processes" and i + 1 < len(words):
            return int(words[i + 1])
        if w.startswith("--processes="):
            return int(w.split("=", 1)[1])
    return 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="50,200", help="loads to measure (games at once)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--ai-workers", type=int, default=2)
    ap.add_argument("--cwd", default=str(ROOT), help="the checkout whose server is measured")
    # Every simulated player comes from 127.0.0.1: without this the per-client limit (20 games)
    # refuses most of the games. A checkout from before the limits takes --server-args "".
    ap.add_argument("--server-args", default="--max-games-per-client 1000",
                    help="more arguments of guandan serve (default: lift the per-client limit)")
    ap.add_argument("--label", default="after")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "web_load.json"))
    args = ap.parse_args()
    out: dict[str, Any] = {"label": args.label, "cwd": args.cwd, "ai_workers": args.ai_workers,
                           "server_args": args.server_args,
                           "load_average_before": list(os.getloadavg()), "runs": []}
    for games in (int(g) for g in args.games.split(",")):
        with tempfile.TemporaryDirectory() as data:
            proc, url = start_server(Path(args.cwd), data,
                                     ["--ai-workers", str(args.ai_workers),
                                      *args.server_args.split()])
            try:
                run = asyncio.run(load(url, proc.pid, games, args.seconds,
                                       server_processes(args.server_args)))
            finally:
                proc.terminate()
                proc.wait(20)
        print(json.dumps(run, ensure_ascii=False), flush=True)
        out["runs"].append(run)
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    old = json.loads(path.read_text()) if path.exists() else {}
    old[args.label] = out
    path.write_text(json.dumps(old, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
