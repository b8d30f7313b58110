"""``guandan host``, ``guandan connect`` and ``guandan arena --listen`` as separate processes,
with real clients: the competition's example clients and rule bots (../shared/compbots), our
own client, and a misbehaving one."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from guandan.records import trick_leads, validate_lines
from guandan.seats import partner

HERE = Path(__file__).resolve().parent
COMPBOTS = HERE.parents[1].parent / "shared" / "compbots"
PY = sys.executable

needs_compbots = pytest.mark.skipif(
    not COMPBOTS.is_dir(), reason=f"the competition's clients are not here ({COMPBOTS})")


def _ws4py() -> bool:
    try:
        import ws4py  # noqa: F401
    except ImportError:
        return False
    return True


needs_ws4py = pytest.mark.skipif(not _ws4py(), reason="ws4py is not installed (test extra)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A ``guandan`` command that listens, started and awaited as a process."""

    def __init__(self, args: Sequence[str], tmp: Path) -> None:
        self.err = (tmp / "server.err").open("w+", encoding="utf-8")
        self.proc = subprocess.Popen([PY, "-m", "guandan", *args], stdout=subprocess.PIPE,
                                     stderr=self.err, text=True)
        deadline = time.monotonic() + 30
        while "listening" not in self.log():
            assert self.proc.poll() is None, self.log()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def log(self) -> str:
        self.err.flush()
        self.err.seek(0)
        return self.err.read()

    def wait(self, timeout: float = 180) -> str:
        out, _ = self.proc.communicate(timeout=timeout)
        assert self.proc.returncode == 0, self.log()
        return out


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait()
        s.err.close()


def client(script: Path, port: int, log: Path,
           seed: int | None = None) -> subprocess.Popen[bytes]:
    """Run a competition client from a copy of its folder, on ``port`` (its ``random``
    seeded with ``seed``, if given)."""
    text = script.read_text(encoding="utf-8").replace("23456", str(port))
    if seed is not None:
        text = f"import random as _random; _random.seed({seed})\n" + text
    copy = script.with_name("run_" + script.name)
    copy.write_text(text, encoding="utf-8")
    return subprocess.Popen([PY, copy.name], cwd=script.parent, stdout=log.open("wb"),
                            stderr=subprocess.STDOUT)


def check_records(path: Path, hands: int) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as f:
        report = validate_lines(f)
    assert report.checked == hands and not report.errors, [str(e) for e in report.errors]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def lead_kinds(record: dict[str, Any]) -> list[tuple[int, str]]:
    """Each lead of a hand record and what made it: ``first`` (the hand's first), ``passes``
    (everyone else passed the seat's play), ``partner`` (the partner went out with the last
    play and the others passed: 接风) or ``next`` (the last to play went out after its
    partner)."""
    out: list[tuple[int, str]] = []
    last: int | None = None
    for a, lead in zip(record["actions"], trick_leads(record), strict=True):
        if "pass" in a:
            continue
        seat = a["seat"]
        if lead:
            out.append((seat, "first" if last is None else "passes" if seat == last
                        else "partner" if seat == partner(last) else "next"))
        last = seat
    return out


#: Each bot of ../shared/compbots (the example clients: three of them) with the host's seed
#: whose hands give a bot's seat leads after passes and the lead of a partner gone out (接风).
BOTS = [
    ("ai2", ("client0.py", "client2.py"), 1),
    ("ai3", ("对抗AI1.py", "对抗AI2.py"), 1),
    ("ai6", ("client1.py", "client2.py"), 1),
    ("example-clients", ("client1.py", "client2.py", "client3.py"), 4),
]
HANDS = 3


@needs_compbots
@needs_ws4py
@pytest.mark.parametrize(("bot", "scripts", "seed"), BOTS, ids=[b[0] for b in BOTS])
def test_competition_bots_play_whole_hands_through_guandan_host(
        bot: str, scripts: tuple[str, ...], seed: int, tmp_path: Path,
        servers: list[Server]) -> None:
    """Each bot plays whole hands (tricks won after passes, 接风 included) without a crash or
    a replacement, beside a client that checks every message it gets against the fields
    the competition's clients document (``protocol_fields.py``). The bots are seated one by
    one and seeded (their random choices), so that each run plays the same hands."""
    folder = tmp_path / bot
    shutil.copytree(COMPBOTS / bot, folder)
    port, out, checked = free_port(), tmp_path / "hands.jsonl", tmp_path / "checked.json"
    seats = [*["2", "4", "3"][:len(scripts)], "1"]  # the checking client last, on seat 1
    host = Server(["host", "--port", str(port), "--seats", ",".join(seats), "--hands",
                   str(HANDS), "--player", "heuristic", "--seed", str(seed), "--timeout", "60",
                   "--out", str(out)], tmp_path)
    servers.append(host)
    procs = []
    for i, script in enumerate(scripts):
        procs.append(client(folder / script, port, tmp_path / f"{script}.log", seed=seed + i))
        deadline = time.monotonic() + 60
        while host.log().count("connected: place") < i + 1:  # seated in this order
            assert time.monotonic() < deadline, host.log()
            time.sleep(0.05)
    checker = subprocess.Popen([PY, str(HERE / "checking_client.py"),
                                f"ws://127.0.0.1:{port}/game/checker", str(checked), str(seed)])
    figures = json.loads(host.wait(timeout=600))
    assert checker.wait(timeout=30) == 0
    for p in procs:
        p.wait(timeout=30)
    assert figures["hands"] == HANDS and figures["replaced"] == 0, figures
    for script in scripts:
        log = (tmp_path / f"{script}.log").read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in log, (script, log[log.index("Traceback"):][:2000])
    found = json.loads(checked.read_text(encoding="utf-8"))
    assert found["problems"] == [], found["problems"][:5]
    assert found["leads"]["passes"], found
    records = check_records(out, HANDS)
    bots = {int(s) for s in seats[:-1]}
    kinds = {kind for r in records for seat, kind in lead_kinds(r) if seat in bots}
    assert {"passes", "partner"} <= kinds, kinds


@pytest.mark.parametrize(("mode", "why", "asked"), [
    ("index", "not in actionList", 2), ("json", "not JSON", 2),
    ("silent", "no answer within", 2), ("drop", "connection closed", 1),
    ("once", None, None),
])
def test_bad_peers_are_refused_then_replaced(mode: str, why: str | None, asked: int | None,
                                             tmp_path: Path, servers: list[Server]) -> None:
    port, out = free_port(), tmp_path / "hands.jsonl"
    # a short limit only where silence is the test: a loaded machine may be slow to answer
    timeout = "0.5" if mode == "silent" else "30"
    host = Server(["host", "--port", str(port), "--seats", "3", "--hands", "1", "--player",
                   "greedy", "--timeout", timeout, "--out", str(out)], tmp_path)
    servers.append(host)
    bad = subprocess.run([PY, str(HERE / "bad_client.py"), f"ws://127.0.0.1:{port}/game/bad",
                          mode], capture_output=True, text=True, timeout=120)
    figures = json.loads(host.wait())
    record = check_records(out, 1)[0]
    messages = [json.loads(line) for line in bad.stdout.splitlines()]
    acts = [m for m in messages if m["type"] == "act"]
    if why is None:  # one bad answer, then good ones: asked again, never replaced
        assert "replaced" not in record and figures["refused"] == 1
        assert "not in actionList" in acts[1]["error"]
        assert acts[1]["actionList"] == acts[0]["actionList"]
        return
    replaced = record["replaced"]
    assert [r["seat"] for r in replaced] == [3]  # type: ignore[index]
    assert why in replaced[0]["reason"]  # type: ignore[index]
    assert len(acts) == asked
    if asked == 2:
        assert why in acts[1]["error"]
    assert "seat 3 is played by greedy" in host.log()


def test_the_host_refuses_other_paths_and_a_full_table(tmp_path: Path,
                                                       servers: list[Server]) -> None:
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    port = free_port()
    host = Server(["host", "--port", str(port), "--seats", "1", "--hands", "1", "--player",
                   "greedy", "--timeout", "0.2"], tmp_path)
    servers.append(host)
    assert f"listening on ws://127.0.0.1:{port}/game/NAME" in host.log()  # loopback only
    with pytest.raises(InvalidStatus) as e:
        connect(f"ws://127.0.0.1:{port}/lobby")
    assert e.value.response.status_code == 404
    assert b"/game/NAME" in e.value.response.body
    with connect(f"ws://127.0.0.1:{port}/game/first") as first:
        with connect(f"ws://127.0.0.1:{port}/game/second") as second:
            assert json.loads(second.recv(timeout=10)) == {
                "type": "error", "message": "every seat is taken"}
            with pytest.raises(ConnectionClosed):
                second.recv(timeout=10)
            assert second.close_code == 1013
        assert json.loads(first.recv(timeout=10))["stage"] == "beginning"
        host.wait()  # silent: replaced by greedy, the hand is played out
    assert "second connected, but every place is taken" in host.log()


def test_guandan_connect_plays_as_our_player_does_at_home(tmp_path: Path,
                                                          servers: list[Server]) -> None:
    """Our greedy player through the protocol chooses what it chooses in our own games."""
    port, out, home = free_port(), tmp_path / "hosted.jsonl", tmp_path / "home.jsonl"
    host = Server(["host", "--port", str(port), "--seats", "2", "--hands", "5", "--player",
                   "greedy", "--seed", "4", "--out", str(out)], tmp_path)
    servers.append(host)
    done = subprocess.run([PY, "-m", "guandan", "connect", f"ws://127.0.0.1:{port}/game/me",
                           "--player", "greedy", "--seed", str(4 * 4 + 2), "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 5
    host.wait()
    subprocess.run([PY, "-m", "guandan", "simulate", "--hands", "5", "--seed", "4", "--bots",
                    "greedy,greedy,greedy,greedy", "--out", str(home)], check=True,
                   capture_output=True)
    hosted, at_home = check_records(out, 5), check_records(home, 5)

    def plays(r: dict[str, object]) -> list[object]:
        return [{**a, "cards": sorted(a["cards"])} if "cards" in a else a
                for a in r["actions"]]  # type: ignore[attr-defined]

    for a, b in zip(hosted, at_home, strict=True):
        assert plays(a) == plays(b)
        assert a["tribute"] == b["tribute"]


def test_connect_says_what_is_wrong() -> None:
    done = subprocess.run([PY, "-m", "guandan", "connect", "http://x", "--player", "greedy"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "ws://" in done.stderr
    port = free_port()  # nothing listens there
    done = subprocess.run([PY, "-m", "guandan", "connect", f"ws://127.0.0.1:{port}/game/x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "cannot reach" in done.stderr


@pytest.mark.parametrize("args", [["--seats", "5"], ["--seats", "2,2"], ["--seats", "x"],
                                  ["--player", "nobody"], ["--port", "70000"],
                                  ["--timeout", "0"], ["--hands", "0"]])
def test_host_refuses_bad_options(args: list[str]) -> None:
    done = subprocess.run([PY, "-m", "guandan", "host", "--port", str(free_port()), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "guandan host" in done.stderr
    assert "Traceback" not in done.stderr


@needs_compbots
@needs_ws4py
def test_arena_seats_two_example_clients_in_duplicate(tmp_path: Path,
                                                      servers: list[Server]) -> None:
    folder = tmp_path / "example-clients"
    shutil.copytree(COMPBOTS / "example-clients", folder)
    port, out = free_port(), tmp_path / "arena.jsonl"
    arena = Server(["arena", "--players", "greedy,outside", "--listen", str(port), "--hands",
                    "3", "--mode", "hand", "--json", "--no-progress", "--timeout", "60",
                    "--out", str(out)],
                   tmp_path)
    servers.append(arena)
    procs = [client(folder / f"client{i}.py", port, tmp_path / f"c{i}.log") for i in (1, 2)]
    result = json.loads(arena.wait())
    for p in procs:
        p.wait(timeout=30)
    assert result["players"] == ["greedy", "outside"]
    assert result["hands"] == 6 and result["boards"] == 3
    assert result["outside"]["hands_with_replacement"] == 0
    records = check_records(out, 6)
    # duplicate: each board twice, the outside programs on 2 and 4, then on 1 and 3
    assert [sorted(r["outside"]) for r in records] == [["2", "4"], ["1", "3"]] * 3  # type: ignore[arg-type]
    assert records[0]["deal"] == records[1]["deal"]


def test_arena_refuses_outside_without_listen() -> None:
    env = dict(os.environ)
    done = subprocess.run([PY, "-m", "guandan", "arena", "--players", "greedy,outside"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2 and "--listen" in done.stderr
