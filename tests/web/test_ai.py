"""The AI's worker pool: a killed worker is replaced (and the log says so) with no move made
by another player; a failing player is never hidden; workers end with a killed server; the
thinking budget shrinks with the queue."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from guandan.web import ai as ai_module
from guandan.web.ai import AIPool
from guandan.web.server import create_app

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def step_ok(c: TestClient, gid: str) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/step", json={"auto": True})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_killed_worker_is_replaced_and_the_game_keeps_its_player(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(tmp_path, ai="heuristic", ai_workers=1, allow_seed=True)
    with TestClient(app) as c:
        games = [c.post("/api/games", json={"seed": s}).json()["id"] for s in (1, 2)]
        assert step_ok(c, games[0])["played_by"] == "heuristic"
        pool: AIPool = app.state.ai
        workers = list(pool._executor._processes)  # type: ignore[union-attr]
        assert workers
        with caplog.at_level(logging.WARNING, logger="guandan.web"):
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            deadline = time.time() + 10
            while any(alive(p) for p in workers) and time.time() < deadline:
                time.sleep(0.05)
            for _ in range(3):  # every later move, in every game, by the game's own player
                for gid in games:
                    assert step_ok(c, gid)["played_by"] == "heuristic"
        assert pool.replaced == 1
        assert any("worker process died" in r.getMessage() and "replaced" in r.getMessage()
                   for r in caplog.records)
        assert not any(alive(p) for p in workers)


def test_a_failing_player_is_said_not_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        reason = None

        def act(self, obs: Any) -> Any:
            raise RuntimeError("a bug in the player")

    real = ai_module.make_player
    monkeypatch.setattr(ai_module, "make_player",
                        lambda name, seed=0: Broken() if name == "heuristic" else real(name, seed))
    monkeypatch.setattr(ai_module, "_players", lambda: {})  # no player made before
    c = TestClient(create_app(tmp_path, ai="heuristic", allow_seed=True))
    gid = c.post("/api/games", json={"seed": 1}).json()["id"]
    with caplog.at_level(logging.ERROR, logger="guandan.web"):
        out = step_ok(c, gid)
    assert out["played_by"] == "greedy" and out["state"]["ai"] == "heuristic"
    assert any("player heuristic failed" in r.getMessage() for r in caplog.records)


def test_the_budget_shrinks_with_the_queue() -> None:
    pool = AIPool(0, budget_ms=260, target_s=1.0)
    assert pool.budget() == 260
    pool.in_flight = 9
    assert pool.budget() == pytest.approx(100)
    pool.in_flight = 199
    assert pool.budget() == pytest.approx(5)
    # A decision that waited past its deadline is the heuristic's.
    from guandan.match import Match

    obs = Match(seed=1).observation(1)
    _, _, name, budget, *_ = ai_module.think("search", 1, obs, 260.0, time.time() - 1)
    assert (name, budget) == ("heuristic", 0.0)


def test_searches_are_made_while_the_workers_have_the_time() -> None:
    pool = AIPool(2, budget_ms=260, target_s=1.0)
    try:
        full = 260 + ai_module.SEARCH_BASE_MS  # what a search is charged, at first
        now = pool._refilled
        plans = [pool.plan("search", now=now) for _ in range(10)]
        # Two workers' second: 7 full searches, then the heuristic's, at once.
        assert [m for m, *_ in plans] == ["search"] * 7 + ["heuristic"] * 3
        assert all(b == 260 and c == pytest.approx(full) for m, b, c in plans if m == "search")
        # A second later, 70% of two workers' second more: 5 more searches.
        plans = [pool.plan("search", now=now + 1) for _ in range(7)]
        assert [m for m, *_ in plans] == ["search"] * 5 + ["heuristic"] * 2
        # Searches that took half their plan (they stopped early) are charged half.
        pool._planned, pool._wall, pool._measured = 20.0, 10.0, now + 1
        assert pool.plan("search", now=now + 1.1)[2] == pytest.approx(full / 2)
        # A measure five seconds old is forgotten: the next searches measure again.
        assert pool.plan("search", now=now + 10)[2] == pytest.approx(full)
        assert len(pool._asked) == 1  # only those of the last five seconds are kept
        assert pool.plan("heuristic", now=now + 10)[0] == "worker"  # no budget: as it is
        pool.in_flight = 4  # two waiting per worker: a long queue
        assert pool.plan("heuristic", now=now + 20)[0] == "inline"
        assert pool.plan("search", now=now + 20)[0] == "heuristic"
        pool.in_flight = 0
        pool.target_s = 0.05  # an answer wanted within 50 ms leaves no time worth a search
        assert pool.plan("search", now=now + 30)[0] == "heuristic"
    finally:
        pool.shutdown()


def test_a_search_is_settled_with_the_time_it_took() -> None:
    import asyncio

    from guandan.match import Match

    pool = AIPool(0, budget_ms=260, target_s=1.0)
    obs = Match(seed=2).observation(1)
    assert pool._time == 1000  # a worker's second (with no workers: the server's thread)
    d = asyncio.run(pool.decide("search", 1, obs))
    assert d.played_by == "search" and d.budget_ms == 260
    took = (pool._wall - 0.95) / 0.05  # this search's time, from the moving sum
    assert 0 < took < 5000
    assert pool._time == pytest.approx(1000 - took, abs=1)  # charged, then settled


def test_under_load_the_heuristic_decides_and_the_strength_is_said() -> None:
    import asyncio

    from guandan.match import Match
    from guandan.players import make_player

    pool = AIPool(0, budget_ms=260, target_s=1.0)
    m = Match(seed=2)
    obs = m.observation(m.to_act or 1)
    quiet = asyncio.run(pool.decide("search", obs.seat, obs))
    assert quiet.played_by == "search" and quiet.budget_ms == 260
    pool.in_flight = 2  # the queue is long
    busy = asyncio.run(pool.decide("search", obs.seat, obs))
    assert busy.played_by == "heuristic" and busy.budget_ms == 0
    assert busy.action == make_player("heuristic", seed=obs.seat).act(obs)
    stats = pool.stats()
    assert stats["decisions"] == {"search": 1, "heuristic": 1}
    assert stats["recent_searched_share"] == 0.5
    assert stats["recent_search_budget_ms"] == 260
    assert stats["recent_budget_ms"] == 130


def test_workers_end_with_a_killed_server(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "guandan", "serve", "--port", str(port), "--data-dir",
         str(tmp_path), "--ai", "heuristic", "--ai-workers", "2", "--allow-seed"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(url + "/api/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        gid = httpx.post(url + "/api/games", json={"seed": 1}).json()["id"]
        r = httpx.post(f"{url}/api/games/{gid}/step", json={"auto": True}, timeout=60)
        assert r.status_code == 200 and r.json()["played_by"] == "heuristic"
        workers = descendants(proc.pid)
        assert workers
        proc.kill()  # kill -9: no shutdown of the pool runs
        proc.wait()
        deadline = time.time() + 10
        while any(alive(p) for p in workers) and time.time() < deadline:
            time.sleep(0.1)
        assert not [p for p in workers if alive(p)], "workers left behind"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
