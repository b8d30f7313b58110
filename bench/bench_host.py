"""Decisions per second of ``guandan host`` with the competition's example clients on every seat.

``python bench/bench_host.py [HANDS] [SEED]``: starts ``guandan host --seats 1,2,3,4`` and the
four example clients of ``../shared/compbots/example-clients`` (random legal play; needs
``ws4py``) as separate processes on loopback, plays HANDS hands (default 200) and prints the
host's figures: decisions per second end to end (clients included), the host's own time per
decision (building the ``act`` message with every physical choice of every play, reading the
answer) and the mean ``actionList`` length. The clients' output goes to a temporary folder.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = ROOT.parent / "shared" / "compbots" / "example-clients"


def main(hands: int = 200, seed: int = 0) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "clients"
        shutil.copytree(CLIENTS, folder)
        host = subprocess.Popen(
            [sys.executable, "-m", "guandan", "host", "--port", str(port), "--seats", "1,2,3,4",
             "--hands", str(hands), "--seed", str(seed), "--player", "greedy", "--quiet",
             "--out", str(Path(tmp) / "hands.jsonl")], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        assert host.stderr is not None
        while "listening" not in host.stderr.readline():  # the clients give up if too early
            assert host.poll() is None, "the host did not start"
        procs = []
        for i in (1, 2, 3, 4):
            script = folder / f"client{i}.py"
            text = script.read_text(encoding="utf-8").replace("23456", str(port))
            run = folder / f"run{i}.py"
            run.write_text(text, encoding="utf-8")
            procs.append(subprocess.Popen([sys.executable, run.name], cwd=folder,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
        out, _ = host.communicate()
        for p in procs:
            p.wait(timeout=60)
        figures = json.loads(out)
        check = subprocess.run([sys.executable, "-m", "guandan", "validate",
                                str(Path(tmp) / "hands.jsonl")], capture_output=True, text=True)
    print(f"guandan host, 4 example clients, {figures['hands']} hands (seed {seed}): "
          f"{figures['decisions']} decisions in {figures['seconds']:.1f} s = "
          f"{figures['decisions_per_second']:.0f} decisions/s end to end; host "
          f"{figures['host_ms_per_outside_decision']:.2f} ms per decision; actionList "
          f"{figures['mean_action_list']:.0f} entries on average; {figures['refused']} refused, "
          f"{figures['hands_with_replacement']} hands with a replacement; "
          f"{check.stdout.strip()}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
