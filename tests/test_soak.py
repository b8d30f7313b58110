"""Soak runs: many seeded hands through the command line and the AI players (slow tests).

Not in the default run; run them with ``.venv/bin/pytest -m slow`` (``-n 2`` shares them out
between two cores; ``GUANDAN_SOAK_HANDS`` sets the hands per preset, default 10,000, and
``GUANDAN_SOAK_AI_HANDS`` the AI soak's, default 4,000). A full run takes 10-15 minutes on two
cores (one preset and the AI tables: 6 minutes on a shared machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from guandan.match import Match
from guandan.players import make_player
from guandan.players.base import Player
from guandan.players.search import SearchPlayer
from guandan.presets import get_preset

pytestmark = pytest.mark.slow

SOAK_HANDS = int(os.environ.get("GUANDAN_SOAK_HANDS", "10000"))
AI_HANDS = int(os.environ.get("GUANDAN_SOAK_AI_HANDS", "4000"))


@pytest.mark.parametrize("rules", ["site", "national", "huaian", "nanjing"])
def test_simulated_hands_of_every_preset_validate(rules: str, tmp_path: Path) -> None:
    """``guandan simulate`` (random and greedy seats) then ``guandan validate`` on its file: every
    hand replays, and the long run meets every kind of tribute, final victories and, in the
    presets that count them, tries at A used (``site``'s are unlimited: never counted)."""
    out = tmp_path / f"{rules}.jsonl"
    subprocess.run([sys.executable, "-m", "guandan", "simulate", "--rules", rules,
                    "--hands", str(SOAK_HANDS), "--seed", "1",
                    "--bots", "random,greedy,greedy,random", "--out", str(out)],
                   check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-m", "guandan", "validate", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"checked {SOAK_HANDS} hands: 0 broken" in done.stdout
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == SOAK_HANDS
    kinds = Counter(r["tribute"]["kind"] for r in records)
    assert set(kinds) == {"none", "single", "double", "exempt"}, kinds
    assert any(r["final_winner"] for r in records)
    tries = any(r["a_tries_after"][t] > r["a_tries"][t] for r in records for t in ("13", "24"))
    assert tries == (get_preset(rules).a_tries is not None)


TABLES = (
    ("heuristic", "random", "heuristic", "random"),
    ("greedy", "heuristic", "random", "heuristic"),
    ("heuristic", "heuristic", "heuristic", "heuristic"),
    ("search", "heuristic", "search", "greedy"),
)


@pytest.mark.parametrize("names", TABLES, ids=["/".join(t) for t in TABLES])
def test_ai_players_only_play_legal_actions(names: tuple[str, str, str, str]) -> None:
    """Whole matches (tribute returns included) with the AI players mixed with the baselines:
    every action is one of ``obs.legal_actions`` (and ``Match.apply`` checks the rules again).
    Tables with the search (6 sampled deals, no clock) play a tenth of the hands."""
    seed = TABLES.index(names)
    players: dict[int, Player] = {
        s: (SearchPlayer(seed=s, samples=6, budget_ms=None) if n == "search"
            else make_player(n, seed=s))
        for s, n in zip((1, 2, 3, 4), names, strict=True)}
    quota = AI_HANDS // len(TABLES) // (10 if "search" in names else 1)
    number, played = 1, 0
    match = Match("site", seed=seed, match_number=number)
    while played < quota:
        seat = match.to_act
        if seat is None:
            number += 1
            match = Match("site", seed=seed, match_number=number)
            continue
        obs = match.observation(seat)
        action = players[seat].act(obs)
        assert action in obs.legal_actions, (
            f"{names[seat - 1]} at match {number} hand {match.hand_number}: {action!r}")
        before = len(match.records)
        match.apply(action)
        played += len(match.records) - before
