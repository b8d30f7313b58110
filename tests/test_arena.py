"""The arena: duplicate play, statistics, the command line and its hand records."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from pathlib import Path

import pytest

from guandan.arena import (
    board_players,
    mean_interval,
    new_result,
    play_both_seatings,
    run_arena,
    wilson,
)
from guandan.cli import main
from guandan.cli import main as cli_main
from guandan.players import make_player
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.search import SearchPlayer
from guandan.records import replay_records


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi
    assert hi - lo == pytest.approx(2 * 1.96 * (1.6667 / 4) ** 0.5, rel=1e-3)


def _records(out: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("mode", ["hand", "match"])
def test_each_deal_is_played_twice_with_the_teams_swapped(mode: str) -> None:
    out = io.StringIO()
    r = run_arena("greedy", "random", "site", hands=3, seed=4, out=out, mode=mode,
                  max_hands=3)
    records = _records(out)
    assert len(records) == r.hands >= 6
    by_deal: dict[tuple[object, object], list[dict[str, object]]] = defaultdict(list)
    for rec in records:
        by_deal[(rec["match"], rec["hand"])].append(rec)
    # Hand 1 of every board is played in both seatings on the same cards.
    firsts = [v for (_, hand), v in by_deal.items() if hand == 1]
    assert len(firsts) == r.boards
    for pair in firsts:
        assert len(pair) == 2 and pair[0]["deal"] == pair[1]["deal"]
    assert r.a_hand_wins <= r.hands and len(r.a_gain) == r.hands
    assert not replay_records(records)


@pytest.mark.parametrize("mode", ["hand", "match"])
def test_both_seatings_of_a_board_play_as_the_arena_does(mode: str) -> None:
    # The tuning aids (bench/variant_arena.py) build their own players for a board: with the
    # arena's players, the board's figures are the arena's.
    arena = run_arena("heuristic", "greedy", "site", hands=1, seed=5, mode=mode,
                      max_hands=4).to_json()
    result = new_result("heuristic", "greedy", "site", mode, 5, None)
    play_both_seatings("site", 1, result, lambda side, seed: make_player(side, seed=seed),
                       mode, max_hands=4)
    mine = result.to_json()
    keys = ["hands", "a_hand_win_rate", "matches", "a_final_victories", "net_levels_per_hand"]
    assert arena["boards"] == 1 and arena["hands"] >= 2
    assert {k: mine[k] for k in keys} == {k: arena[k] for k in keys}


def test_results_are_repeatable_and_report_everything() -> None:
    a = run_arena("heuristic", "greedy", "site", hands=4, seed=2, mode="hand").to_json()
    b = run_arena("heuristic", "greedy", "site", hands=4, seed=2, mode="hand").to_json()
    a.pop("timing")
    timing = b.pop("timing")
    assert a == b
    assert set(timing) == {"heuristic", "greedy"}
    assert timing["heuristic"]["decisions"] > 0
    assert 0 <= a["a_hand_win_ci95"][0] <= a["a_hand_win_rate"] <= a["a_hand_win_ci95"][1] <= 1
    net = a["a_levels_per_hand"] - a["b_levels_per_hand"]
    assert a["net_levels_per_hand"] == pytest.approx(net)


def test_heuristic_beats_random_clearly() -> None:
    r = run_arena("heuristic", "random", "site", hands=20, seed=1, mode="hand")
    assert r.a_hand_wins / r.hands >= 0.85


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hands.jsonl"
    code = cli_main(["arena", "--players", "greedy,random", "--rules", "huaian", "--hands", "2",
                     "--seed", "3", "--out", str(out), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "hands won by greedy" in text and "95% CI" in text and "p95" in text
    lines = out.read_text().splitlines()
    assert len(lines) >= 4 and all(json.loads(x)["rules"] == "huaian" for x in lines)
    assert main(["arena", "--players", "greedy,nobody"]) == 2
    assert main(["arena", "--players", "greedy,random", "--hands", "1", "--json",
                       "--no-progress", "--mode", "hand"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 2 and data["players"] == ["greedy", "random"]


@pytest.mark.parametrize(("mode", "hands"), [("hand", 6), ("match", 5)])
def test_workers_give_the_same_figures_and_records(mode: str, hands: int) -> None:
    runs = []
    for workers in (1, 2):
        out = io.StringIO()
        steps: list[int] = []
        r = run_arena("greedy", "random", "site", hands=hands, seed=7, out=out, mode=mode,
                      max_hands=4, progress=steps.append, workers=workers)
        j = r.to_json()
        # Only the times differ; the number of decisions does not.
        decisions = {name: t["decisions"] for name, t in j.pop("timing").items()}
        runs.append((j, out.getvalue(), steps, r.a_gain, r.b_gain, decisions))
    assert runs[0] == runs[1]
    j, text, steps, *_ = runs[0]
    assert sum(steps) == j["hands"] == len(text.splitlines()) >= 2 * hands
    if mode == "match":
        # Matches of different lengths: the boards stop where the serial loop stops.
        assert j["boards"] < hands


def test_workers_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "greedy,random", "--workers", "0", "--no-progress"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
    with pytest.raises(ValueError, match="workers"):
        run_arena("greedy", "random", hands=1, workers=0)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_in_parts_plays_the_boards_of_the_whole(workers: int) -> None:
    whole = io.StringIO()
    w = run_arena("greedy", "random", "site", hands=5, seed=5, out=whole, mode="hand",
                  workers=workers)
    parts = []
    for first, hands in ((1, 2), (3, 3)):
        out = io.StringIO()
        r = run_arena("greedy", "random", "site", hands=hands, seed=5, out=out, mode="hand",
                      workers=workers, first=first)
        parts.append((r, out.getvalue()))
    (r1, t1), (r2, t2) = parts
    assert t1 + t2 == whole.getvalue()
    assert r1.hands + r2.hands == w.hands == 10
    assert r1.a_hand_wins + r2.a_hand_wins == w.a_hand_wins
    assert r1.a_gain + r2.a_gain == w.a_gain and r1.b_gain + r2.b_gain == w.b_gain
    j = r2.to_json()
    assert j["first_board"] == 3 and j["boards"] == 3 and j["first_deal_set"] == 3
    assert "3 boards (3-5), 6 hands" in r2.report()
    assert "boards (" not in r1.report() and r1.to_json()["first_board"] == 1


def test_first_board_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "greedy,random", "--first", "0", "--no-progress"]) == 2
    assert "--first must be at least 1" in capsys.readouterr().err
    with pytest.raises(ValueError, match="numbered from 1"):
        run_arena("greedy", "random", hands=1, first=0)


def test_progress_in_a_log_is_a_line_each_tenth(capsys: pytest.CaptureFixture[str]) -> None:
    # stderr is not a terminal here, as under nohup: no bar, plain lines.
    assert main(["arena", "--players", "greedy,random", "--hands", "5", "--mode", "hand",
                       "--seed", "2", "--first", "11"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert [x.split(",")[0] for x in lines] == [
        f"arena: {n} of 10 hands ({10 * n}%)" for n in range(1, 11)]
    assert "5 boards (11-15), 10 hands" in captured.out
    assert main(["arena", "--players", "greedy,random", "--hands", "1", "--mode", "hand",
                       "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_samples_fix_the_search_and_repeat_with_any_workers() -> None:
    runs = []
    for workers in (1, 2):
        out = io.StringIO()
        r = run_arena("search", "heuristic", "site", hands=2, seed=3, out=out, mode="hand",
                      workers=workers, samples=4)
        j = r.to_json()
        j.pop("timing")
        runs.append((j, out.getvalue()))
    assert runs[0] == runs[1]
    assert runs[0][0]["samples"] == 4
    assert "searching players draw 4 deals per decision (no clock)" in r.report()
    # Only the searching team gets the setting, and it replaces the clock.
    players = board_players({"13": "search", "24": "heuristic"}, seed=3, index=1, samples=4)
    for seat in (1, 3):
        p = players[seat]
        assert isinstance(p, SearchPlayer) and p.samples == 4 and p.budget_ms is None
    assert all(isinstance(players[s], HeuristicPlayer) for s in (2, 4))
    default = board_players({"13": "search", "24": "heuristic"}, seed=3, index=1)[1]
    assert isinstance(default, SearchPlayer) and default.budget_ms is not None
    assert "samples" not in run_arena("greedy", "random", hands=1, mode="hand").report()


def test_samples_need_a_player_that_searches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "greedy,heuristic", "--samples", "8", "--no-progress"]) == 2
    assert "neither greedy nor heuristic searches" in capsys.readouterr().err
    assert main(["arena", "--players", "search,heuristic", "--samples", "0", "--no-progress"]) == 2
    assert "--samples must be at least 1" in capsys.readouterr().err
    with pytest.raises(ValueError, match="neither"):
        run_arena("greedy", "random", hands=1, samples=8)
    with pytest.raises(ValueError, match="at least 1"):
        run_arena("search", "random", hands=1, samples=0)
