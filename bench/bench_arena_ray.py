"""Deal sets a second of the arena: one process, ``--workers 2`` and Ray on a local cluster.

Run: ``.venv/bin/python bench/bench_arena_ray.py [--hands N] [--mode hand|match]
[--players A,B]`` (needs the ``[ray]`` extra). Starts a Ray cluster of two nodes on this
machine (one CPU each, on 127.0.0.1, as tests/test_ray.py does), plays the same arena three
ways and prints each one's deal sets a second of wall-clock time (start-up included: the
worker processes' and, for Ray, the driver's connection; not the cluster's own start) and
whether its figures equal one process's. On a shared machine the figures follow its load.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before ray reads it: loopback only


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--mode", default="hand", choices=("hand", "match"))
    ap.add_argument("--players", default="heuristic,greedy")
    args = ap.parse_args()
    from ray.cluster_utils import Cluster

    from guandan.arena import run_arena
    from guandan.raypool import RayPool

    a, b = args.players.split(",")
    cluster = Cluster(initialize_head=True,
                      head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1"})
    try:
        cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        cluster.wait_for_nodes()
        runs: dict[str, dict[str, Any]] = {}
        for name in ("--workers 1", "--workers 2", "--ray (2 nodes x 1 CPU)"):
            start = time.monotonic()
            if name.startswith("--ray"):
                result = run_arena(a, b, hands=args.hands, mode=args.mode,
                                   pool=RayPool(str(cluster.address)))
            else:
                result = run_arena(a, b, hands=args.hands, mode=args.mode,
                                   workers=int(name.split()[1]))
            spent = time.monotonic() - start
            figures = {k: v for k, v in result.to_json().items() if k != "timing"}
            runs[name] = figures
            same = figures == runs["--workers 1"]
            print(f"{name}: {result.boards} boards in {spent:.1f} s: "
                  f"{result.boards / spent:.2f} boards/s (figures equal one "
                  f"process's: {same})", flush=True)
    finally:
        cluster.shutdown()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    main()
