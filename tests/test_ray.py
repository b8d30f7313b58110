"""Arenas, simulations and batched tables on a Ray cluster of two nodes on this machine.

The cluster (ray.cluster_utils.Cluster: a head and a second node, one CPU each, real processes)
is started once for the module; every test here runs in one xdist group (scripts/test runs
pytest with --dist loadgroup). Everything stays on 127.0.0.1: with
RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 Ray takes the loopback address for this machine's.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before ray reads it: loopback only

import io

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="the [ray] extra (installed by .[test])")

from ray.cluster_utils import Cluster  # noqa: E402

from guandan.arena import run_arena  # noqa: E402
from guandan.env import Tables  # noqa: E402
from guandan.env.ray_tables import RayTables  # noqa: E402
from guandan.raypool import RayPool  # noqa: E402
from guandan.simulate import simulate, simulate_on  # noqa: E402

pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    cluster = Cluster(initialize_head=True,
                      head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1"})
    try:
        cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        cluster.wait_for_nodes()
        yield str(cluster.address)
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]


def _figures(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k != "timing"}


def test_the_arena_on_ray_gives_one_process_figures_and_records(address: str,
                                                                tmp_path: Path) -> None:
    # The command line as a person runs it, against the same arena in one process.
    argv = ["--players", "heuristic,greedy", "--hands", "6", "--seed", "5", "--max-hands", "3"]
    out = tmp_path / "ray.jsonl"
    done = subprocess.run([sys.executable, "-m", "guandan", "arena", *argv, "--json",
                           "--ray", address, "--out", str(out)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "arena: 12 of 12 hands (100%)" in done.stderr  # progress, as with workers
    buf = io.StringIO()
    alone = run_arena("heuristic", "greedy", hands=6, seed=5, max_hands=3, out=buf)
    # stdout is the report alone: a message of Ray's driver (a task retried after a worker
    # was lost) goes to stderr.
    assert _figures(json.loads(done.stdout)) == _figures(alone.to_json())
    assert out.read_text(encoding="utf-8") == buf.getvalue()


def _deal_set_workers() -> list[int]:
    """Ray worker processes playing a seating now (Ray titles them by the task they run)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"ray::play_seating" in title:
                found.append(int(entry.name))
    return found


def test_a_worker_lost_mid_run_has_its_deal_sets_played_again(address: str) -> None:
    killed: list[int] = []

    def kill_one(_: int) -> None:
        # At the first merged seating, kill a worker that is playing another, mid-game.
        deadline = time.monotonic() + 30
        while not killed and time.monotonic() < deadline:
            for pid in _deal_set_workers():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    continue
                killed.append(pid)
                break
            else:
                time.sleep(0.01)

    buf = io.StringIO()
    lost = run_arena("heuristic", "greedy", hands=8, seed=9, max_hands=3, out=buf,
                     progress=kill_one, pool=RayPool(address))
    assert killed, "no worker was playing a deal set when the first one was merged"
    alone_buf = io.StringIO()
    alone = run_arena("heuristic", "greedy", hands=8, seed=9, max_hands=3, out=alone_buf)
    assert _figures(lost.to_json()) == _figures(alone.to_json())  # none lost, none twice
    assert buf.getvalue() == alone_buf.getvalue()


def test_simulate_on_ray_writes_one_process_records(address: str) -> None:
    bots = ["greedy", "random", "greedy", "random"]
    got: list[dict[str, object]] = []
    steps: list[int] = []
    simulate_on(RayPool(address), 2, "site", 40, 1, bots, got.append, steps.append)
    alone = list(simulate("site", 40, 1, bots))
    assert got == alone and sum(steps) == 40
    assert len({r["match"] for r in alone}) > 1  # matches in several tasks


def test_ray_tables_are_tables_per_actor(address: str) -> None:
    # Two actors of two tables: the arrays of two local Tables numbered as the actors number
    # their matches, laid end to end.
    remote = RayTables(actors=2, tables=2, rules="site", seed=4, episode="match",
                       address=address)
    try:
        local = [Tables(2, rules="site", seed=4, episode="match", first_match=k + 1,
                        match_step=2) for k in range(2)]
        obs, mask, seat = remote.reset()
        parts = [t.reset() for t in local]
        for k in range(3):
            assert (np.concatenate([p[k] for p in parts]) == (obs, mask, seat)[k]).all()
        rng = np.random.default_rng(2)
        for _ in range(150):
            ids = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
            got = remote.step(ids)
            want = [t.step(ids[2 * k:2 * k + 2]) for k, t in enumerate(local)]
            for k in range(5):
                assert (got[k] == np.concatenate([w[k] for w in want])).all()
            mask = got[1]
        assert [m.match_number for t in local for m in t.matches] == [1, 3, 2, 4]
        with pytest.raises(ValueError, match="one integer action id per table"):
            remote.step(np.zeros(3, dtype=np.int64))
    finally:
        remote.close()
