"""The shared rule vectors (/work/shared/vectors, see its README.md), one test id per case.

readings.json: classify gives exactly the listed (kind, rank) pairs, each once, strongest first.
beats.json: the reading of a_cards with the given kind/rank/size beats that of b_cards or not.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from guandan.cards import parse_cards
from guandan.readings import Reading, beats, classify

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"


def _load(name: str) -> list[Any]:
    path = VECTORS / name
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as f:
        data = json.load(f)
    assert isinstance(data, list), f"{path} should hold a JSON list"
    return data


def _params(name: str, ident: Any) -> list[Any]:
    cases = _load(name)
    if not cases:
        return [
            pytest.param(
                None,
                marks=pytest.mark.skip(reason=f"shared rule vectors not found: {VECTORS / name}"),
                id="missing",
            )
        ]
    return [pytest.param(case, id=f"{i:04d}-{ident(case)}") for i, case in enumerate(cases)]


def _reading_id(case: dict[str, Any]) -> str:
    return f"L{case['level']}-{case['cards'].replace(' ', '_')}"


def _beats_id(case: dict[str, Any]) -> str:
    a, b = case["a"], case["b"]
    return f"L{case['level']}-{a[0]}:{a[1]}:{a[2]}-vs-{b[0]}:{b[1]}:{b[2]}"


def _pick(cards: str, level: str, kind: str, rank: str | None, size: int) -> Reading:
    cs = parse_cards(cards)
    assert len(cs) == size, f"{cards!r} has {len(cs)} cards, the vector says {size}"
    found = [r for r in classify(cs, level) if (r.kind, r.rank) == (kind, rank)]
    assert found, f"{cards!r} at level {level} has no reading {kind} {rank}: " + repr(
        [(r.kind, r.rank) for r in classify(cs, level)]
    )
    return found[0]


@pytest.mark.parametrize("case", _params("readings.json", _reading_id))
def test_reading_vector(case: dict[str, Any]) -> None:
    level = case["level"]
    cards = parse_cards(case["cards"])
    readings = classify(cards, level)
    got = [(r.kind, r.rank) for r in readings]
    expected = [(k, r) for k, r in case["readings"]]
    note = case.get("note") or case.get("why") or ""
    assert Counter(got) == Counter(expected), f"{case['cards']} at {level}: {got} {note}"
    assert len(set(got)) == len(got), "each reading once"
    for r in readings:
        assert Counter(r.cards) == Counter(cards)
        assert r.level == level
    if expected:
        assert got[0] in [(k, r) for k, r in case["strongest"]], f"first of {got} {note}"
    else:
        assert case["strongest"] == []


@pytest.mark.parametrize("case", _params("beats.json", _beats_id))
def test_beats_vector(case: dict[str, Any]) -> None:
    level = case["level"]
    a = _pick(case["a_cards"], level, *case["a"])
    b = _pick(case["b_cards"], level, *case["b"])
    note = case.get("note") or case.get("why") or ""
    assert beats(a, b) is case["beats"], f"beats({a}, {b}) should be {case['beats']} {note}"


def test_vectors_present_and_plentiful() -> None:
    """Guards against a silently empty parametrization when the folder is there."""
    if not VECTORS.is_dir():
        pytest.skip(f"shared rule vectors not found: {VECTORS}")
    assert len(_load("readings.json")) >= 100
    assert len(_load("beats.json")) >= 100
