"""The web game's three figures, measured against a real ``guandan serve``.

1. Click on 내기 → the next position on screen (the page's own clock, in Debian's chromium):
   from the click to the first frame after the new state is drawn. The AI does not think in
   this request (AI seats act in their own ``/step`` requests), so nothing is excluded by hand.
   Goal p95 ≤ 100 ms.
2. Bytes transferred for a first page load (empty cache; the start screen, its fonts and
   catalog), as the browser counts them (headers and bodies on the wire). Goal ≤ 300 KB.
3. The server's action round trip with 50 games played at once: 50 clients, each playing its
   own game (the person's play or pass, the AI seats' steps in between), timing the person's
   action requests. Goal p95 ≤ 50 ms. Measured twice: at the page's pace (an AI step every
   0.9 s, the person acting 1 s after their turn comes: 50 people playing), and flat out
   (every client sends its next request as soon as the last one returns: a stress figure).

    .venv/bin/python bench/web_bench.py [--ai greedy] [--games 50] [--actions 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


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
    return {"n": len(xs), "p50": round(statistics.median(xs), 1), "p95": round(pct(xs, 95), 1),
            "max": round(max(xs), 1)}


def start_server(data_dir: str, ai: str, workers: int | None) -> tuple[
        subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    extra = [] if workers is None else ["--ai-workers", str(workers)]
    log = ROOT / "bench" / "out" / "web_bench_server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "guandan", "serve", "--port", str(port),
                             "--data-dir", data_dir, "--ai", ai, *extra,
                             "--max-games-per-client", "1000"], cwd=ROOT,
                            stdout=log.open("w"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            httpx.get(url + "/api/catalogs/ko", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


# -- 1 and 2: in the browser -------------------------------------------------------------------

CLICK_JS = """async (sel) => {
  const S = window.__guandan;
  const v = S.version;
  const t0 = performance.now();
  document.querySelector(sel).click();
  await new Promise((res) => {
    const f = () => (S.version > v ? requestAnimationFrame(() => setTimeout(res, 0))
                                   : setTimeout(f, 1));
    f();
  });
  return performance.now() - t0;
}"""


def browser_figures(url: str, samples: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        # 2. First load: a fresh context (empty cache), bytes counted by the network layer.
        ctx = b.new_context(viewport={"width": 1200, "height": 860})
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        sizes: dict[str, float] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.requestWillBeSent",
               lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
        cdp.on("Network.loadingFinished",
               lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        page.goto(url + "/")
        page.wait_for_load_state("networkidle")
        page.wait_for_function("() => !document.documentElement.classList.contains('loading')")
        page.wait_for_timeout(300)
        total = sum(sizes.values())
        out["first_load_bytes"] = int(total)
        out["first_load_files"] = {urls.get(k, k).replace(url, ""): int(v)
                                   for k, v in sorted(sizes.items(), key=lambda kv: -kv[1])}
        ctx.close()
        # 1. Click on 내기 → next position drawn.
        ctx = b.new_context(viewport={"width": 1200, "height": 860})
        page = ctx.new_page()
        page.goto(url + "/?pace=0.01")
        page.click("#btn-new-start-screen")
        page.click("#btn-new-start")
        page.wait_for_selector("#hand .card")
        times: list[float] = []
        while len(times) < samples:
            page.wait_for_function(
                "() => { const s = window.__guandan, g = s.game;"
                " return g && !s.busy && (g.result || g.my_turn); }", timeout=60000)
            g = page.evaluate("window.__guandan.game")
            if g["result"]:
                page.click("#btn-again")
                page.wait_for_function("() => !window.__guandan.game.result")
                continue
            if g["phase"] == "return":
                page.click("#btn-hint")
                page.wait_for_selector("#message.hint")
                times.append(page.evaluate(CLICK_JS, "#btn-return"))
                continue
            page.click("#btn-hint")
            page.wait_for_selector("#message.hint")
            page.wait_for_timeout(120)  # the readings of the selection
            if page.evaluate("window.__guandan.selected.size") == 0:
                times.append(page.evaluate(CLICK_JS, "#btn-pass"))
            else:
                times.append(page.evaluate(CLICK_JS, "#btn-play"))
        out["click_to_screen_ms"] = summary(times)
        ctx.close()
        b.close()
    return out


# -- 3: fifty games at once ----------------------------------------------------------------------


AI_PACE = 0.9  # the page's default pause between AI plays (static/state.js PACES.normal)
THINK = 1.0  # a quick person's pause before playing


async def one_game(client: httpx.AsyncClient, actions: int, mine: list[float],
                   steps: list[float], gets: list[float], paced: bool) -> None:
    if paced:
        await asyncio.sleep(random.random() * AI_PACE)  # the players did not all start at once
    r = await client.post("/api/games", json={})
    gid = r.json()["id"]
    done = 0
    state = r.json()
    while done < actions:
        if state["result"]:
            state = (await client.post(f"/api/games/{gid}/next")).json()
            continue
        if state["to_act"] == 1:
            hint = (await client.post(f"/api/games/{gid}/hint")).json()
            if paced:
                await asyncio.sleep(THINK)
            t0 = time.perf_counter()
            if hint["kind"] == "pass":
                r = await client.post(f"/api/games/{gid}/pass")
            elif hint["kind"] == "return":
                r = await client.post(f"/api/games/{gid}/return", json={"card": hint["cards"][0]})
            else:
                r = await client.post(f"/api/games/{gid}/play", json={
                    "cards": hint["cards"], "kind": hint["play"]["kind"],
                    "rank": hint["play"]["rank"]})
            mine.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
            state = r.json()
            done += 1
            t0 = time.perf_counter()
            r = await client.get(f"/api/games/{gid}")
            gets.append((time.perf_counter() - t0) * 1000)
        else:
            if paced:
                await asyncio.sleep(AI_PACE)
            t0 = time.perf_counter()
            r = await client.post(f"/api/games/{gid}/step", json={})
            steps.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
            state = r.json()["state"]


async def concurrent(url: str, games: int, actions: int, paced: bool) -> dict[str, Any]:
    mine: list[float] = []
    steps: list[float] = []
    gets: list[float] = []
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        t0 = time.perf_counter()
        await asyncio.gather(*(one_game(client, actions, mine, steps, gets, paced)
                               for _ in range(games)))
        wall = time.perf_counter() - t0
    return {"games": games, "paced": paced, "person_action_ms": summary(mine),
            "state_get_ms": summary(gets),
            "ai_step_ms (includes AI thinking)": summary(steps),
            "requests_per_s": round((len(mine) + len(steps) + len(gets)) / wall, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ai", default="search", help="AI of the seats and the hint")
    ap.add_argument("--ai-workers", type=int, default=None,
                    help="AI worker processes (default: the server's, 2)")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--actions", type=int, default=20,
                    help="person's actions per game, flat out")
    ap.add_argument("--paced-actions", type=int, default=10,
                    help="person's actions per game at the page's pace")
    ap.add_argument("--samples", type=int, default=60, help="clicks timed in the browser")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "web_bench.json"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as data:
        proc, url = start_server(data, args.ai, args.ai_workers)
        try:
            figures: dict[str, Any] = {"ai": args.ai, "ai_workers": args.ai_workers,
                                       "load_average": list(os.getloadavg())}
            figures.update(browser_figures(url, args.samples))
            figures["concurrent"] = asyncio.run(
                concurrent(url, args.games, args.paced_actions, paced=True))
            figures["flat_out"] = asyncio.run(
                concurrent(url, args.games, args.actions, paced=False))
        finally:
            proc.terminate()
            proc.wait(10)
    text = json.dumps(figures, indent=1, ensure_ascii=False)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    c = figures["concurrent"]["person_action_ms"]
    f = figures["flat_out"]["person_action_ms"]
    print(f"\nclick→screen p95 {figures['click_to_screen_ms']['p95']} ms (goal ≤ 100); "
          f"first load {figures['first_load_bytes'] / 1024:.1f} KB (goal ≤ 300); "
          f"action round trip, {args.games} games at the page's pace, p95 {c['p95']} ms "
          f"(goal ≤ 50); flat out (no pauses), p95 {f['p95']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
