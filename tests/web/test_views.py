"""What seat 1 is shown of a game (guandan/web/shown.py) as the API gives them: the hand that
ended shown with its result (every seat's remaining cards, only then), tricks and who took
them, the replay of a finished hand, the hint's reason as a code the catalogs say in words."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.players.describe import REASON_CODES
from guandan.seats import partner
from guandan.web.server import create_app

Json = dict[str, Any]
WEB = Path(__file__).resolve().parents[2] / "guandan" / "web"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "data", ai="greedy", allow_seed=True))


def step(c: TestClient, gid: str) -> Json:
    r = c.post(f"/api/games/{gid}/step", json={"auto": True})
    assert r.status_code == 200, r.text
    s: Json = r.json()["state"]
    return s


def catalog(lang: str) -> Json:
    cat: Json = json.loads((WEB / "catalogs" / f"{lang}.json").read_text("utf-8"))
    return cat


def check_tricks(events: list[Json]) -> None:
    """Tricks numbered 1, 2 … in order; each finished trick taken by its last play."""
    turns = [e for e in events if e["kind"] in ("play", "pass")]
    assert all(e["trick"] for e in turns)
    numbers = [e["trick"] for e in turns]
    assert numbers == sorted(numbers) and numbers[0] == 1
    assert set(numbers) == set(range(1, numbers[-1] + 1))
    for n in set(numbers):
        trick = [e for e in turns if e["trick"] == n]
        plays = [e for e in trick if e["kind"] == "play"]
        won = [e for e in trick if e["wins"]]
        assert trick[0]["kind"] == "play"  # a trick is led
        if n < numbers[-1]:
            assert won == [plays[-1]]  # the last play took it
            assert trick[-1]["kind"] == "pass" or trick[-1]["finished"]


def test_a_hand_until_its_result_and_after(client: TestClient) -> None:
    g = client.post("/api/games", json={"seed": 10}).json()
    gid = g["id"]
    s = g
    seen: list[Json] = []
    while not s["result"]:
        assert s["ended"] is None  # in play: no other seat's card
        s = step(client, gid)
        if not s["result"]:
            seen = s["history"]
            check_tricks(seen)
    ended = s["ended"]
    assert ended["hand"] == 1 and s["hand_number"] == 2
    check_tricks(ended["history"])
    # The live marks (kept between requests) are the whole hand's, turn by turn.
    assert ended["history"][:len(seen)] == seen
    assert ended["history"][-1]["wins"]
    # Every seat's remaining cards: 27 less what it played.
    played = Counter()
    for e in ended["history"]:
        if e["kind"] == "play":
            played[e["seat"]] += len(e["play"]["cards"])
    for seat in (1, 2, 3, 4):
        assert len(ended["remaining"][str(seat)]) == 27 - played[seat]
    last = ended["finish_order"][-1]
    assert ended["remaining"][str(last)]  # the last seat still held cards
    r = s["result"]
    assert r["first_partner"] == partner(r["finish_order"][0])
    # Past the result: the next hand, and nothing of the other seats' cards any more.
    s = client.post(f"/api/games/{gid}/next").json()
    assert s["ended"] is None and s["result"] is None


def test_replay_of_a_finished_hand(client: TestClient) -> None:
    g = client.post("/api/games", json={"seed": 10}).json()
    gid = g["id"]
    r = client.get(f"/api/games/{gid}/replay/1")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_hand"
    s = g
    while s["hand_number"] < 3 or s["result"]:
        s = (client.post(f"/api/games/{gid}/next").json() if s["result"] else step(client, gid))
    record = [json.loads(x) for x in client.get(f"/api/games/{gid}/export").text.splitlines()][1]
    rp = client.get(f"/api/games/{gid}/replay/2").json()
    assert rp["hand"] == 2 and rp["level"] == record["level"] and rp["leader"] == record["leader"]
    assert sorted(c for h in rp["hands"].values() for c in h) == sorted(
        c for h in record["deal"].values() for c in h)
    # The hands after the tribute: the deal, each gift and return moved.
    hands = {k: Counter(v) for k, v in record["deal"].items()}
    for gift in record["tribute"]["gifts"] + record["tribute"]["returns"]:
        hands[str(gift["from"])][gift["card"]] -= 1
        hands[str(gift["to"])][gift["card"]] += 1
    assert {k: +v for k, v in hands.items()} == {k: Counter(v) for k, v in rp["hands"].items()}
    assert len(rp["steps"]) == len(record["actions"])
    check_tricks(rp["steps"])
    assert client.get(f"/api/games/{gid}/replay/3").status_code == 404  # being played


def test_hint_reason_as_a_code_and_every_code_in_words(client: TestClient) -> None:
    g = client.post("/api/games", json={"seed": 5}).json()
    h = client.post(f"/api/games/{g['id']}/hint").json()
    assert h["why"]["code"] in REASON_CODES
    assert set(REASON_CODES[h["why"]["code"]]) <= set(h["why"]["params"])
    assert h["reason"]["ko"] and h["reason"]["en"]  # the player's own words stay
    for lang in ("ko", "zh", "en"):
        cat = catalog(lang)
        for code, names in REASON_CODES.items():
            text = cat[f"hint.why.{code}"]
            assert {n for n in re.findall(r"\{(\w+)", text)} <= set(names), (lang, code)
        assert cat["hint.why.search_better_pass"] and cat["hint.figures"]


def test_korean_catalog_has_no_particle_placeholder() -> None:
    ko = json.dumps(catalog("ko"), ensure_ascii=False)
    assert not re.search(r"\((?:이|가|을|를|은|는|으|과|와)\)", ko)
    forms = {"이", "가", "을", "를", "은", "는", "과", "와", "으로", "로", "아", "야"}
    assert set(re.findall(r"\{\w+\|([^}]+)\}", ko)) <= forms
    for lang in ("zh", "en"):  # the particles are Korean only
        assert "|" not in "".join(v for v in catalog(lang).values() if isinstance(v, str))
