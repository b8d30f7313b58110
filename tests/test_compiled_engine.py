"""The engine's compiled modules (setup.py, mypyc): built as named, and giving exactly what
their sources give when run plainly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from players.test_compiled import PURE, _setup_compiled  # tests/ is on the path

import guandan
from guandan.players.compiled import compiled_modules, stale_modules

ENGINE = Path(guandan.__file__).resolve().parent


def _engine_compiled() -> list[str]:
    """The engine modules (directly in ``guandan/``) that setup.py compiles."""
    return sorted(p for p in _setup_compiled() if (ENGINE / f"{p}.py").exists())


def test_setup_compiles_the_engine_core() -> None:
    assert _engine_compiled() == ["cards", "deal", "encoding", "plays", "readings", "sampling"]


@pytest.mark.skipif(PURE, reason="installed with GUANDAN_PURE=1: nothing compiled")
def test_the_install_compiles_the_engine_modules_setup_names() -> None:
    assert sorted(compiled_modules(ENGINE)) == _engine_compiled(), (
        "not compiled as setup.py says: installed with GUANDAN_PURE=1? then test with it too")
    assert stale_modules(ENGINE) == [], "sources edited after compiling: run pip install -e . again"


#: Seeded deals at every level: the plays of each hand (both modes, on the empty table and on
#: tables from another hand), each play's readings, and beats between them; printed as JSON.
_TRACE = """
import json, random
from guandan.cards import RANKS, shuffled_hands, parse_cards, format_cards
from guandan.plays import legal_plays
from guandan.readings import beats, classify
from guandan.players.compiled import compiled_modules
import guandan
from pathlib import Path

def show(p):
    return f"{p.kind} {p.rank} {format_cards(p.cards)} {p.key} {p.power}"

rng = random.Random(23)
out = []
for i in range(26):
    hands = shuffled_hands(rng)
    level = RANKS[i % 13]
    for every in (False, True):
        plays = legal_plays(hands[1], level, every=every)
        out.append([show(p) for p in plays])
        tables = legal_plays(hands[2], level, every=every)
        for t in tables[:: max(1, len(tables) // 12)]:
            out.append([show(p) for p in legal_plays(hands[1], level, t, every=every)])
            out.append([beats(p, t) for p in plays[::3]])
    for p in plays[::5]:
        out.append([show(r) for r in classify(list(reversed(p.cards)), level)])
out.append(format_cards(parse_cards("h7 s10 ♠9 BJ lj")))
# Whole deals played by seeded random choices through Deal, with clones along the way.
from guandan.deal import Deal
for i in range(12):
    d = Deal(shuffled_hands(rng), level=RANKS[i % 13], leader=1 + i % 4)
    while d.to_act is not None:
        actions = d.legal_actions()
        if d.turn_count % 7 == 3:
            d = d.clone()
        d.apply(actions[rng.randrange(len(actions))])
    out.append(d.finish_order)
# And by Deal.play_out, the loop in compiled code.
for i in range(6):
    d = Deal(shuffled_hands(rng), level=RANKS[(5 * i) % 13], leader=1 + i % 4)
    d.play_out(rng)
    out.append([d.finish_order, [(s, None if p is None else show(p)) for s, p in d.turns]])
engine = Path(guandan.__file__).resolve().parent
print(json.dumps({"compiled": sorted(compiled_modules(engine)), "trace": out}))
"""


def _trace(pythonpath: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run([sys.executable, "-c", _TRACE], env=env, capture_output=True,
                          text=True, check=True, cwd=pythonpath)
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(PURE, reason="installed with GUANDAN_PURE=1: nothing compiled")
def test_compiled_engine_gives_what_its_source_gives(tmp_path: Path) -> None:
    """The same seeded plays, tables, readings and comparisons from the installed package and
    from a copy of its sources alone."""
    shutil.copytree(ENGINE, tmp_path / "guandan",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    compiled = _trace(ENGINE.parent)
    plain = _trace(tmp_path)
    assert compiled["compiled"] == _engine_compiled()
    assert plain["compiled"] == []
    assert compiled["trace"] and compiled["trace"] == plain["trace"]
