"""The command line: simulate, validate, and the lazy serve / arena entries."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from guandan.cli import LAZY_COMMANDS, build_parser, main, player_seed


def run(*args: str) -> int:
    return main(list(args))


def test_simulate_writes_records_and_is_repeatable(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = ["simulate", "--rules", "national", "--hands", "30", "--seed", "2",
            "--bots", "random,greedy,random,greedy"]
    assert run(*argv, "--out", str(a)) == 0
    assert run(*argv, "--out", str(b)) == 0
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 30
    records = [json.loads(line) for line in lines]
    assert {r["rules"] for r in records} == {"national"}
    assert (records[0]["match"], records[0]["hand"]) == (1, 1)
    assert "wrote 30 hands" in capsys.readouterr().out
    c = tmp_path / "c.jsonl"
    assert run("simulate", "--rules", "national", "--hands", "30", "--seed", "3",
               "--bots", "random,greedy,random,greedy", "--out", str(c)) == 0
    assert c.read_bytes() != a.read_bytes()


def test_final_victory_starts_a_new_match(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert run("simulate", "--hands", "40", "--seed", "1", "--bots",
               "greedy,random,greedy,random", "--out", str(out)) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    won = [i for i, r in enumerate(records) if r["final_winner"]]
    assert won, "greedy against random wins a match within 40 hands"
    nxt = records[won[0] + 1]
    assert (nxt["match"], nxt["hand"]) == (records[won[0]]["match"] + 1, 1)


def test_validate_ok_and_broken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.jsonl"
    assert run("simulate", "--hands", "5", "--seed", "4", "--out", str(out)) == 0
    capsys.readouterr()
    assert run("validate", str(out)) == 0
    assert "checked 5 hands: 0 broken" in capsys.readouterr().out
    lines = out.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[2])
    rec["actions"][0]["seat"] = rec["actions"][0]["seat"] % 4 + 1
    lines[2] = json.dumps(rec)
    lines.append("{oops")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("validate", str(out)) == 1
    text = capsys.readouterr().out
    assert "checked 6 hands: 2 broken" in text
    assert "line 3, hand 3, action 0: it is seat" in text
    assert "line 6, hand ?: malformed JSON" in text


def test_validate_refuses_a_ten_written_10(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Records are canonical: ``H10`` for the ten of hearts is refused with its line and
    reason (``parse_card`` reads it where a person types cards)."""
    out = tmp_path / "s.jsonl"
    assert run("simulate", "--hands", "2", "--seed", "4", "--out", str(out)) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[1])
    seat = next(s for s in "1234" if "HT" in rec["deal"][s])
    rec["deal"][seat][rec["deal"][seat].index("HT")] = "H10"
    lines[1] = json.dumps(rec)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert run("validate", str(out)) == 1
    text = capsys.readouterr().out
    assert "checked 2 hands: 1 broken" in text
    assert (f"line 2, hand 2: deal of seat {seat}: 'H10' is not how a record writes a card: "
            "it writes 'HT'") in text


def test_validate_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("validate", str(tmp_path / "none.jsonl")) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--hands", "1", "--bots", "greedy,greedy", "--out",
               str(tmp_path / "x")) == 2
    assert run("simulate", "--hands", "1", "--bots", "greedy,greedy,greedy,wizard", "--out",
               str(tmp_path / "x")) == 2
    assert "four player names" in capsys.readouterr().err


def test_bad_arguments_exit_with_usage() -> None:
    with pytest.raises(SystemExit):
        run("simulate", "--hands", "0", "--out", "x")
    with pytest.raises(SystemExit):
        run("simulate", "--rules", "chengdu", "--hands", "1", "--out", "x")
    assert run() == 2


def test_lazy_commands_are_listed_and_point_to_their_modules() -> None:
    assert LAZY_COMMANDS["serve"][:2] == ("guandan.web.server", "serve_main")
    assert "arena" not in LAZY_COMMANDS  # parsed in cli.py, played by guandan.arena
    helptext = build_parser().format_help()
    for name in ("serve", "simulate", "validate", "arena"):
        assert name in helptext


def test_player_seeds_differ_by_seat_and_seed() -> None:
    seeds = {player_seed(s, seat) for s in range(5) for seat in (1, 2, 3, 4)}
    assert len(seeds) == 20


def test_python_dash_m(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    done = subprocess.run([sys.executable, "-m", "guandan", "simulate", "--hands", "2",
                           "--out", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""          # no progress bar off a terminal
    done = subprocess.run([sys.executable, "-m", "guandan", "validate", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "checked 2 hands: 0 broken" in done.stdout


def test_simulate_with_workers_writes_the_same_records(tmp_path: Path) -> None:
    # Each match is a task; merged in match order they are one process's records.
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = ["simulate", "--hands", "40", "--seed", "1", "--bots", "greedy,random,greedy,random"]
    assert run(*argv, "--out", str(a)) == 0
    assert run(*argv, "--out", str(b), "--workers", "2") == 0
    assert a.read_bytes() == b.read_bytes()
    assert len({json.loads(line)["match"] for line in a.read_text().splitlines()}) > 1


def test_ray_without_ray_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray then fails, as when missing
    out = tmp_path / "x.jsonl"
    assert run("simulate", "--hands", "2", "--ray", "--out", str(out)) == 2
    assert run("arena", "--players", "greedy,random", "--hands", "2", "--ray") == 2
    err = capsys.readouterr().err
    assert err.count("pip install 'guandan-lab[ray]'") == 2
    assert not out.exists()
