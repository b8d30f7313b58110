"""The AI's compiled modules (setup.py, mypyc): built as named, current, and playing exactly as
their sources do."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import guandan
from guandan.players.compiled import compiled_modules, stale_modules

ROOT = Path(__file__).resolve().parents[2]
PURE = os.environ.get("GUANDAN_PURE", "") in ("1", "true", "yes")


def _setup_compiled() -> list[str]:
    """The ``COMPILED`` list of setup.py (module names), read without running it."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "COMPILED"):
            value = ast.literal_eval(node.value)
            return [Path(p).stem for p in value]
    raise AssertionError("setup.py names no COMPILED modules")


def _players_compiled() -> list[str]:
    """The AI's modules setup.py compiles (the engine's: tests/test_compiled_engine.py)."""
    players = ROOT / "guandan" / "players"
    return sorted(p for p in _setup_compiled() if (players / f"{p}.py").exists())


@pytest.mark.skipif(PURE, reason="installed with GUANDAN_PURE=1: nothing compiled")
def test_the_install_compiles_the_modules_setup_names() -> None:
    assert sorted(compiled_modules()) == _players_compiled(), (
        "not compiled as setup.py says: installed with GUANDAN_PURE=1? then test with it too")
    assert stale_modules() == [], "sources edited after compiling: run pip install -e . again"


def test_a_source_newer_than_its_compiled_module_is_stale(tmp_path: Path) -> None:
    from importlib.machinery import EXTENSION_SUFFIXES

    (tmp_path / "fresh.py").write_text("x = 1\n")
    (tmp_path / f"fresh{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (tmp_path / "old.py").write_text("x = 1\n")
    (tmp_path / f"old{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (tmp_path / "plain.py").write_text("x = 1\n")
    (tmp_path / f"orphan{EXTENSION_SUFFIXES[0]}").write_bytes(b"")  # no source: not ours
    os.utime(tmp_path / "fresh.py", (1000, 1000))
    os.utime(tmp_path / f"old{EXTENSION_SUFFIXES[0]}", (1000, 1000))
    assert sorted(compiled_modules(tmp_path)) == ["fresh", "old"]
    assert stale_modules(tmp_path) == ["old"]


def test_an_installed_copy_is_never_stale(tmp_path: Path) -> None:
    # A non-editable install (pip install .) copies the sources after building: they may be
    # newer than their compiled modules, and no one edits them there.
    from importlib.machinery import EXTENSION_SUFFIXES

    folder = tmp_path / "site-packages" / "guandan"
    folder.mkdir(parents=True)
    (folder / "old.py").write_text("x = 1\n")
    (folder / f"old{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    os.utime(folder / f"old{EXTENSION_SUFFIXES[0]}", (1000, 1000))
    assert sorted(compiled_modules(folder)) == ["old"]
    assert stale_modules(folder) == []


_PLAY = """
import io, json
from guandan.arena import run_arena
from guandan.players.compiled import compiled_modules
records = io.StringIO()
run_arena("search", "heuristic", rules="site", hands=2, seed=7, mode="hand", samples=6,
          out=records)
print(json.dumps({"compiled": sorted(compiled_modules()), "records": records.getvalue()}))
"""


def _play(pythonpath: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run([sys.executable, "-c", _PLAY], env=env, capture_output=True,
                          text=True, check=True, cwd=pythonpath)
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(PURE, reason="installed with GUANDAN_PURE=1: nothing compiled")
def test_compiled_search_plays_as_its_source(tmp_path: Path) -> None:
    """The same seeded arena (search at a fixed sample count, so no clock) from the installed
    package and from a copy of its sources alone gives the same hands."""
    package = Path(guandan.__file__).resolve().parent
    shutil.copytree(package, tmp_path / "guandan",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    compiled = _play(package.parent)
    plain = _play(tmp_path)
    assert compiled["compiled"] == _players_compiled()
    assert plain["compiled"] == []
    assert compiled["records"] and compiled["records"] == plain["records"]
