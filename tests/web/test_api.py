"""API tests for the web game: every endpoint, refused and forged requests, saving.

The AI is ``greedy`` (fast, deterministic with the seat as its seed), so the seeds below give
known situations: seed 10 puts seat 1 to return a single tribute in hand 2, seed 8 gives an
exemption in hand 2, seed 1 from A against A gives team 13 the final victory in one hand.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.cards import parse_cards
from guandan.players import DEFAULT_DIFFICULTY, DIFFICULTY, STRONGEST, make_player
from guandan.readings import beats, classify
from guandan.web.server import create_app
from guandan.web.store import DEFAULT_LEVEL, DIFFICULTY_KEYS, GameNotFound, GameStore, id_hash

Json = dict[str, Any]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def client(data_dir: Path) -> TestClient:
    return TestClient(create_app(data_dir, ai="greedy", allow_seed=True))


def new_game(client: TestClient, **body: Any) -> Json:
    r = client.post("/api/games", json={"seed": 5, **body})
    assert r.status_code == 201, r.text
    state: Json = r.json()
    return state


def get(client: TestClient, gid: str) -> Json:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    state: Json = r.json()
    return state


def refused(r: Any, status: int, code: str) -> Json:
    assert r.status_code == status, r.text
    body: Json = r.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body


def game_of(client: TestClient, gid: str) -> Any:
    """The game as the server's store holds it (the engine's objects, every seat's cards)."""
    with client.app.state.store.reading(gid) as game:  # type: ignore[attr-defined]
        return game


def raw_save(store: GameStore, gid: str) -> bytes:
    """A game's save as the store holds it."""
    with store.transaction(write=False) as tx:
        row = tx.row(id_hash(gid))
    assert row is not None
    return row[1]


def put_raw_save(store: GameStore, gid: str, data: bytes) -> None:
    """Overwrite a game's save (as damage, or a hand editing the database, would)."""
    with store.transaction(write=True) as tx:
        tx.execute("UPDATE games SET data = ?, version = version + 1 WHERE key = ?",
             (data, id_hash(gid)))


def human_acts(client: TestClient, gid: str) -> Any:
    """Seat 1 follows the hint (as a person clicking 추천 then 내기)."""
    h = client.post(f"/api/games/{gid}/hint").json()
    if h["kind"] == "pass":
        return client.post(f"/api/games/{gid}/pass")
    if h["kind"] == "return":
        return client.post(f"/api/games/{gid}/return", json={"card": h["cards"][0]})
    return client.post(f"/api/games/{gid}/play", json={
        "cards": h["cards"], "kind": h["play"]["kind"], "rank": h["play"]["rank"]})


def advance(client: TestClient, gid: str, until: Any, limit: int = 2000) -> Json:
    """Let the AI act (seat 1 too, by auto-play) until ``until(state)`` holds."""
    state = get(client, gid)
    for _ in range(limit):
        if until(state):
            return state
        if state["result"]:
            state = client.post(f"/api/games/{gid}/next").json()
            continue
        r = client.post(f"/api/games/{gid}/step", json={"auto": True})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    raise AssertionError("the situation never came")


def to_seat1(client: TestClient, gid: str) -> Json:
    state = get(client, gid)
    while state["to_act"] != 1:
        r = client.post(f"/api/games/{gid}/step", json={})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    return state


# -- creating and reading --------------------------------------------------------------------


def test_new_game_state(client: TestClient) -> None:
    g = new_game(client)
    assert len(g["id"]) >= 30
    assert g["preset"] == "site" and g["hand_number"] == 1 and g["match_number"] == 1
    assert g["level"] == "2" and g["wild"] == "H2"
    assert g["team_levels"] == {"13": "2", "24": "2"}
    assert g["seat_teams"] == {"1": "13", "2": "24", "3": "13", "4": "24"}
    assert g["counts"] == {"1": 27, "2": 27, "3": 27, "4": 27}
    assert len(g["hand"]) == 27
    assert sorted(c for grp in g["hand_groups"] for c in grp) == sorted(g["hand"])
    assert g["to_act"] == 1 and g["my_turn"] and not g["can_pass"]
    assert g["tribute"]["kind"] == "none"
    assert get(client, g["id"]) == g


@pytest.mark.parametrize("preset", ["site", "national", "huaian", "nanjing"])
def test_presets(client: TestClient, preset: str) -> None:
    g = new_game(client, preset=preset)
    assert g["preset"] == preset
    assert g["a_tries_max"] == {"site": None, "national": 3, "huaian": 3, "nanjing": 2}[preset]


def test_new_game_refuses_bad_options(client: TestClient) -> None:
    refused(client.post("/api/games", json={"preset": "chengdu"}), 422, "bad_request")
    refused(client.post("/api/games", json={"team_levels": {"13": "Z", "24": "2"}}), 422,
            "bad_request")
    refused(client.post("/api/games", json={"team_levels": {"13": "A", "24": "2"}}), 422,
            "bad_request")  # levels differ: whose level is played must be said
    refused(client.post("/api/games", json={"cheat": True}), 422, "bad_request")


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_difficulty_chooses_seats_2_to_4_and_survives_a_restart(data_dir: Path,
                                                                 difficulty: str) -> None:
    """Without ``--ai``: seats 2-4 play the difficulty's player, the hint ``STRONGEST``."""
    app = create_app(data_dir, allow_seed=True)
    g = new_game(TestClient(app), difficulty=difficulty)
    expected = DIFFICULTY[DIFFICULTY_KEYS[difficulty]]
    assert g["difficulty"] == difficulty and g["ai"] == expected and g["hint_ai"] == STRONGEST
    with app.state.store.reading(g["id"]) as game:
        for seat in (2, 3, 4):
            assert type(make_player(game.player_name(seat))) is type(make_player(expected))
        assert game.player_name(1) == STRONGEST
    # a new server on the same folder keeps the difficulty
    other = create_app(data_dir, allow_seed=True)
    assert get(TestClient(other), g["id"])["difficulty"] == difficulty
    with other.state.store.reading(g["id"]) as again:
        assert (again.difficulty, again.ai, again.hint_ai) == (difficulty, expected, STRONGEST)


def test_difficulty_default_and_the_ai_override(client: TestClient, data_dir: Path) -> None:
    g = new_game(client)
    assert g["difficulty"] == "hard" == DEFAULT_LEVEL
    assert DIFFICULTY_KEYS[DEFAULT_LEVEL] == DEFAULT_DIFFICULTY
    assert set(DIFFICULTY_KEYS.values()) == set(DIFFICULTY)
    # --ai overrides every AI, the hint included, whatever the difficulty
    e = new_game(client, difficulty="easy")
    assert (e["difficulty"], e["ai"], e["hint_ai"]) == ("easy", "greedy", "greedy")
    # an old save without a difficulty loads as the default
    store = client.app.state.store  # type: ignore[attr-defined]
    data = json.loads(raw_save(store, e["id"]))
    del data["difficulty"]
    put_raw_save(store, e["id"], json.dumps(data).encode())
    other = TestClient(create_app(data_dir, ai="greedy", allow_seed=True))
    assert get(other, e["id"])["difficulty"] == DEFAULT_LEVEL


def test_bad_difficulty_is_refused_and_no_game_made(client: TestClient, data_dir: Path) -> None:
    for bad in ("expert", "어려움", "", 3, "HARD"):
        refused(client.post("/api/games", json={"difficulty": bad}), 422, "bad_request")
    assert client.app.state.store.count() == 0  # type: ignore[attr-defined]


def test_unknown_and_forged_ids(client: TestClient) -> None:
    new_game(client)
    for gid in ["x" * 32, "short", "../../etc/passwd", "a" * 200]:
        r = client.get(f"/api/games/{gid}")
        assert r.status_code == 404
        assert r.json()["error"]["code"] in ("game_not_found", "not_found")
    refused(client.post("/api/games/" + "y" * 32 + "/play", json={"cards": ["S3"]}), 404,
            "game_not_found")
    refused(client.post("/api/games/" + "y" * 32 + "/step", json={}), 404, "game_not_found")


def test_only_own_cards_are_sent(client: TestClient) -> None:
    g = new_game(client)
    game = game_of(client, g["id"])
    hands = game.match.hands
    text = json.dumps(get(client, g["id"]))
    assert Counter(g["hand"]) == Counter(c.notation for c in hands[1])
    # After some AI plays, the state holds seat 1's cards and played cards, nothing else.
    state = to_seat1(client, g["id"])
    human_acts(client, g["id"])
    state = to_seat1(client, g["id"])
    text = json.dumps(state)
    assert "deal" not in state
    own = Counter(state["hand"])
    played = Counter(c for e in state["history"] if e["play"] for c in e["play"]["cards"])
    shown = Counter(state["hand"]) + played
    for key in ("hand", "history", "trick", "table", "hand_groups"):
        assert key in text
    assert own <= shown


# -- playing -----------------------------------------------------------------------------------


def test_play_pass_and_turns(client: TestClient, data_dir: Path) -> None:
    g = new_game(client)
    gid = g["id"]
    refused(client.post(f"/api/games/{gid}/pass"), 409, "leader_cannot_pass")
    assert get(client, gid) == g
    refused(client.post(f"/api/games/{gid}/step", json={}), 409, "your_turn")
    card = g["hand"][-1]
    r = client.post(f"/api/games/{gid}/play", json={"cards": [card]})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["counts"]["1"] == 26 and len(s["hand"]) == 26
    assert s["table"]["seat"] == 1 and s["table"]["play"]["cards"] == [card]
    assert s["history"][-1]["kind"] == "play" and s["to_act"] == 2
    # Out of turn: refused, nothing changes.
    refused(client.post(f"/api/games/{gid}/play", json={"cards": [s["hand"][-1]]}), 409,
            "not_your_turn")
    refused(client.post(f"/api/games/{gid}/pass"), 409, "not_your_turn")
    assert get(client, gid) == s
    # One AI step shows one action.
    r = client.post(f"/api/games/{gid}/step", json={})
    assert r.status_code == 200
    out = r.json()
    assert out["event"]["seat"] == 2 and out["event"]["kind"] in ("play", "pass")
    assert len(out["state"]["history"]) == 2
    # Saved after every change (committed before the answer).
    saved = json.loads(raw_save(client.app.state.store, gid))  # type: ignore[attr-defined]
    assert len(saved["match"]["actions"]) == 2 and out["state"]["version"] == 2


def test_refusals_say_why_and_change_nothing(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    hand = g["hand"]
    missing = next(c for c in ["S3", "H4", "DA", "BJ", "LJ", "C9", "SK"] if c not in hand)
    body = refused(client.post(f"/api/games/{gid}/play", json={"cards": [missing]}), 409,
                   "not_held")
    assert body["error"]["params"]["cards"] == [missing]
    refused(client.post(f"/api/games/{gid}/play", json={"cards": []}), 409, "empty_selection")
    refused(client.post(f"/api/games/{gid}/play", json={"cards": ["Z9"]}), 422, "bad_card")
    # Two cards that are no combination.
    cards = parse_cards(hand)
    pair = next((a, b) for i, a in enumerate(cards) for b in cards[i + 1:]
                if not classify([a, b], "2"))
    refused(client.post(f"/api/games/{gid}/play",
                        json={"cards": [pair[0].notation, pair[1].notation]}), 409,
            "not_combination")
    # Playing a card twice that is held once.
    once = next(c for c in hand if hand.count(c) == 1)
    refused(client.post(f"/api/games/{gid}/play", json={"cards": [once, once]}), 409,
            "not_held")
    refused(client.post(f"/api/games/{gid}/play",
                        json={"cards": [hand[0]], "kind": "bomb", "rank": "3"}), 409,
            "no_such_reading")
    refused(client.post(f"/api/games/{gid}/return", json={"card": hand[0]}), 409,
            "not_returning")
    assert get(client, gid) == g


def test_wrong_kind_and_not_higher(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    # Lead the weakest single; play on until seat 1 follows a single.
    for _ in range(200):
        s = to_seat1(client, gid)
        if s["result"]:
            s = client.post(f"/api/games/{gid}/next").json()
            continue
        table = s["table"]
        if table and table["play"]["kind"] == "single":
            break
        human_acts(client, gid)
    else:
        raise AssertionError("seat 1 never followed a single")
    level = s["level"]
    hand = parse_cards(s["hand"])
    t = classify(parse_cards(table["play"]["cards"]), level)[0]
    lower = next((c for c in hand if not beats(classify([c], level)[0], t)), None)
    if lower is not None:
        body = refused(client.post(f"/api/games/{gid}/play", json={"cards": [lower.notation]}),
                       409, "not_higher")
        assert body["error"]["params"]["table_kind"] == "single"
    pair = next(((a, b) for i, a in enumerate(hand) for b in hand[i + 1:]
                 if any(r.kind == "pair" for r in classify([a, b], level))), None)
    if pair is not None:
        body = refused(client.post(f"/api/games/{gid}/play",
                                   json={"cards": [pair[0].notation, pair[1].notation]}),
                       409, "wrong_kind")
        assert body["error"]["params"]["table_size"] == 1
    assert get(client, gid) == s
    # Passing while following is allowed.
    r = client.post(f"/api/games/{gid}/pass")
    assert r.status_code == 200 and r.json()["history"][-1]["kind"] == "pass"


def test_malformed_requests(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    headers = {"Content-Type": "application/json"}
    for raw in ["{", "[]", "null", '{"cards": "S3"}', '{"cards": [3]}', '{"card": 1}', "x"]:
        r = client.post(f"/api/games/{gid}/play", content=raw, headers=headers)
        refused(r, 422, "bad_request")
    refused(client.post(f"/api/games/{gid}/play", json={"cards": ["S3"], "evil": 1}), 422,
            "bad_request")
    refused(client.post(f"/api/games/{gid}/play", json={"cards": ["S3"] * 40}), 422,
            "bad_request")
    refused(client.post(f"/api/games/{gid}/return", content="{}", headers=headers), 422,
            "bad_request")
    assert get(client, gid) == g


def test_readings(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/readings", json={"cards": [g["hand"][0]]})
    assert r.status_code == 200
    assert len(r.json()["readings"]) == 1 and len(r.json()["legal"]) == 1
    refused(client.post(f"/api/games/{gid}/readings", json={"cards": ["Q1"]}), 422, "bad_card")


def test_readings_with_several_legal(client: TestClient) -> None:
    """A selection read several ways lists every legal reading, strongest first."""
    g = new_game(client, team_levels={"13": "7", "24": "7"}, level_team="13", seed=5)
    gid = g["id"]
    game = game_of(client, gid)
    hand = game.match.hands[1]
    # Any five of seat 1's cards read in more than one way make the case.
    from itertools import combinations
    for combo in combinations(hand, 5):
        if len(classify(combo, "7")) > 1:
            cards = [c.notation for c in combo]
            break
    else:
        pytest.skip("no multi-reading selection in this hand")
    out = client.post(f"/api/games/{gid}/readings", json={"cards": cards}).json()
    assert len(out["legal"]) > 1
    kinds = [(x["kind"], x["rank"]) for x in out["legal"]]
    chosen = out["legal"][1]
    r = client.post(f"/api/games/{gid}/play",
                    json={"cards": cards, "kind": chosen["kind"], "rank": chosen["rank"]})
    assert r.status_code == 200, r.text
    played = r.json()["table"]["play"]
    assert (played["kind"], played["rank"]) == (chosen["kind"], chosen["rank"]) != kinds[0]


def test_hint_changes_nothing(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    h = client.post(f"/api/games/{gid}/hint").json()
    assert h["kind"] == "play" and h["cards"] and h["reason"]["ko"] and h["reason"]["en"]
    assert set(h["cards"]) <= set(g["hand"])
    assert get(client, gid) == g
    client.post(f"/api/games/{gid}/play", json={"cards": [g["hand"][0]]})
    refused(client.post(f"/api/games/{gid}/hint"), 409, "not_your_turn")


# -- hands, tribute, results -----------------------------------------------------------------


def test_whole_hand_result_and_next(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    refused(client.post(f"/api/games/{gid}/next"), 409, "no_result")
    s = advance(client, gid, lambda s: s["result"] is not None)
    res = s["result"]
    assert sorted(res["finish_order"]) == [1, 2, 3, 4]
    assert res["winner"] in ("13", "24") and res["gain"] in (1, 2, 3)
    assert res["why"] == f"gain{res['gain']}" and res["why_ko"] and res["why_en"]
    assert res["team_levels_before"] == {"13": "2", "24": "2"}
    assert res["last_play"]["seat"] in res["finish_order"][:3]
    refused(client.post(f"/api/games/{gid}/step", json={"auto": True}), 409, "result_pending")
    refused(client.post(f"/api/games/{gid}/play", json={"cards": s["hand"][:1]}), 409,
            "result_pending")
    assert not s["my_turn"]
    recs = client.get(f"/api/games/{gid}/records").json()
    assert len(recs["results"]) == 1 and recs["hands"] == 1 and "records" not in recs
    ex = client.get(f"/api/games/{gid}/export")
    assert ex.status_code == 200 and "attachment" in ex.headers["content-disposition"]
    lines = [json.loads(x) for x in ex.text.splitlines()]
    assert len(lines) == 1 and lines[0]["format"] == "guandan-hand/1"
    assert lines[0]["finish_order"] == res["finish_order"]
    s2 = client.post(f"/api/games/{gid}/next").json()
    assert s2["result"] is None and s2["hand_number"] == 2
    assert s2["team_levels"] == res["team_levels_after"]
    assert s2["level"] == res["team_levels_after"][res["winner"]]
    refused(client.post(f"/api/games/{gid}/next"), 409, "no_result")


def test_person_returns_a_tribute(client: TestClient) -> None:
    g = new_game(client, seed=10)
    gid = g["id"]
    s = advance(client, gid, lambda s: s["hand_number"] == 2 and not s["result"])
    assert s["phase"] == "return" and s["to_act"] == 1 and s["my_turn"]
    tr = s["tribute"]
    assert tr["kind"] == "single" and tr["gifts"][0]["to"] == 1 and tr["pending"] == [1]
    assert s["returnable"] and set(s["returnable"]) <= set(s["hand"])
    bad = next((c for c in s["hand"] if c not in s["returnable"]), None)
    assert bad is not None
    body = refused(client.post(f"/api/games/{gid}/return", json={"card": bad}), 409,
                   "not_returnable")
    assert body["error"]["params"]["allowed"] == s["returnable"]
    refused(client.post(f"/api/games/{gid}/play", json={"cards": [bad]}), 409, "must_return")
    refused(client.post(f"/api/games/{gid}/pass"), 409, "must_return")
    h = client.post(f"/api/games/{gid}/hint").json()
    assert h["kind"] == "return" and h["cards"][0] in s["returnable"]
    assert get(client, gid) == s
    r = client.post(f"/api/games/{gid}/return", json={"card": s["returnable"][0]})
    assert r.status_code == 200, r.text
    s2 = r.json()
    assert s2["phase"] == "play" and len(s2["hand"]) == 27
    assert s2["tribute"]["returns"][0]["card"] == s["returnable"][0]
    assert [e["kind"] for e in s2["history"]] == ["gift", "return"]


def test_exemption_shows_big_jokers(client: TestClient) -> None:
    g = new_game(client, seed=8)
    s = advance(client, g["id"], lambda s: s["hand_number"] == 2 and not s["result"])
    tr = s["tribute"]
    assert tr["kind"] == "exempt" and sum(tr["exempt_jokers"].values()) >= 2
    assert tr["gifts"] == [] and tr["returns"] == []


def test_final_victory_then_new_match(client: TestClient) -> None:
    g = new_game(client, seed=1, team_levels={"13": "A", "24": "A"}, level_team="13")
    gid = g["id"]
    assert g["level"] == "A"
    s = advance(client, gid, lambda s: s["result"] is not None)
    res = s["result"]
    assert res["final_winner"] == "13" and res["why"] == "final" and s["final_winner"] == "13"
    assert s["to_act"] is None and s["phase"] == "over"
    refused(client.post(f"/api/games/{gid}/step", json={"auto": True}), 409, "result_pending")
    s2 = client.post(f"/api/games/{gid}/next").json()
    assert s2["match_number"] == 2 and s2["hand_number"] == 1
    assert s2["team_levels"] == {"13": "2", "24": "2"} and s2["results"] == []


def test_tries_at_a_are_reported(client: TestClient) -> None:
    """Nanjing: two tries at A. Seed 0: team 13 loses its hand at its own A."""
    g = new_game(client, preset="nanjing", seed=0, team_levels={"13": "A", "24": "5"},
                 level_team="13")
    res = advance(client, g["id"], lambda s: s["result"] is not None)["result"]
    assert (res["why"], res["a_try"], res["a_tries_max"]) == ("a_try_failed", 1, 2)
    assert res["a_tries_after"]["13"] == 1 and res["team_levels_after"]["13"] == "A"
    # The same hand on the last try: back to 2.
    g = new_game(client, preset="nanjing", seed=0, team_levels={"13": "A", "24": "5"},
                 level_team="13", a_tries={"13": 1})
    assert g["a_tries"] == {"13": 1, "24": 0}
    res = advance(client, g["id"], lambda s: s["result"] is not None)["result"]
    assert (res["why"], res["a_try"], res["reset"]) == ("a_reset", 2, "13")
    assert res["team_levels_after"]["13"] == "2" and res["a_tries_after"]["13"] == 0
    refused(client.post("/api/games", json={"preset": "nanjing", "a_tries": {"13": 5},
                                            "team_levels": {"13": "A", "24": "5"},
                                            "level_team": "13"}), 422, "bad_request")


# -- saving --------------------------------------------------------------------------------


def test_restart_brings_back_the_game(client: TestClient, data_dir: Path) -> None:
    g = new_game(client)
    gid = g["id"]
    human_acts(client, gid)
    s = to_seat1(client, gid)
    human_acts(client, gid)
    s = get(client, gid)
    # a new server on the same folder
    other = TestClient(create_app(data_dir, ai="greedy", allow_seed=True))
    assert get(other, gid) == s
    # It goes on from there.
    r = other.post(f"/api/games/{gid}/step", json={})
    assert r.status_code == 200


def test_corrupt_save_is_a_clear_error(client: TestClient, data_dir: Path) -> None:
    g = new_game(client)
    ok = new_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    put_raw_save(store, g["id"], b"{ not json")
    other = TestClient(create_app(data_dir, ai="greedy", allow_seed=True))
    refused(other.get(f"/api/games/{g['id']}"), 409, "corrupt_save")
    refused(other.post(f"/api/games/{g['id']}/play", json={"cards": ["S3"]}), 409,
            "corrupt_save")
    assert get(other, ok["id"])["id"] == ok["id"]  # the server goes on
    # A save edited by hand (an impossible action) is refused the same way.
    data = json.loads(raw_save(store, ok["id"]))
    data["match"]["actions"] = [[1, "play", "BJ BJ BJ", "triple", "BJ"]]
    put_raw_save(store, ok["id"], json.dumps(data).encode())
    third = TestClient(create_app(data_dir, ai="greedy", allow_seed=True))
    refused(third.get(f"/api/games/{ok['id']}"), 409, "corrupt_save")


def test_save_names_do_not_reveal_ids(client: TestClient, data_dir: Path) -> None:
    g = new_game(client)
    human_acts(client, g["id"])
    client.app.state.store.close()  # type: ignore[attr-defined]
    files = list(data_dir.iterdir())
    assert files and all(g["id"] not in p.name for p in files)
    assert all(g["id"].encode() not in p.read_bytes() for p in files)


def test_delete(client: TestClient) -> None:
    g = new_game(client)
    assert client.delete(f"/api/games/{g['id']}").status_code == 204
    refused(client.get(f"/api/games/{g['id']}"), 404, "game_not_found")


# -- page, assets, catalogs ------------------------------------------------------------------


def test_page_and_assets_are_local(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    static = Path(__file__).resolve().parents[2] / "guandan" / "web" / "static"
    for p in static.rglob("*"):
        if p.suffix in (".html", ".js", ".css"):
            text = p.read_text("utf-8")
            assert "http://" not in text and "https://" not in text, p
            assert client.get(f"/static/{p.relative_to(static)}").status_code == 200
    for font in ("gd-ko.woff2", "gd-ko-ext.woff2", "gd-zh.woff2", "gd-han.woff2"):
        assert client.get(f"/static/fonts/{font}").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404


def test_page_modules_are_all_preloaded_and_their_keys_in_the_catalogs() -> None:
    """Every module the page imports exists and index.html preloads it (no waterfall of
    requests); every catalog key the scripts name literally is in the catalogs."""
    import re

    web = Path(__file__).resolve().parents[2] / "guandan" / "web"
    static = web / "static"
    html = (static / "index.html").read_text("utf-8")
    modules = {p.name for p in static.glob("*.js")}
    imported = set()
    keys = set()
    for name in modules:
        text = (static / name).read_text("utf-8")
        imported |= set(re.findall(r'from "\./([\w.-]+\.js)"', text))
        keys |= set(re.findall(r'\bt\("([\w.]+)"[,)]', text))
    assert imported <= modules
    assert 'src="/static/app.js"' in html
    preloaded = set(re.findall(r'rel="modulepreload" href="/static/([\w.-]+\.js)"', html))
    assert preloaded == modules - {"app.js"}
    for lang in ("ko", "zh", "en"):
        cat = json.loads((web / "catalogs" / f"{lang}.json").read_text("utf-8"))
        assert not keys - set(cat), (lang, keys - set(cat))


def test_catalogs_have_the_same_keys(client: TestClient) -> None:
    cats = {}
    for lang in ("ko", "zh", "en"):
        r = client.get(f"/api/catalogs/{lang}")
        assert r.status_code == 200
        cats[lang] = r.json()
    assert set(cats["ko"]) == set(cats["zh"]) == set(cats["en"])
    for lang in cats:
        assert len(cats[lang]["rules.sections"]) == len(cats["ko"]["rules.sections"])
    refused(client.get("/api/catalogs/fr"), 404, "unknown_language")


def test_every_error_code_has_a_message() -> None:
    here = Path(__file__).resolve().parents[2] / "guandan" / "web"
    text = "".join(p.read_text() for p in here.rglob("*.py"))
    import re

    codes = set(re.findall(r'Refusal\(\s*"(\w+)"', text))
    codes |= set(re.findall(r'error\(\d+, "(\w+)"', text))  # errors.py, middleware.py
    assert {"game_not_found", "corrupt_save", "save_failed", "server_full"} <= codes
    for lang in ("ko", "zh", "en"):
        cat = json.loads((here / "catalogs" / f"{lang}.json").read_text())
        missing = [c for c in codes - {"unknown_language"} if f"err.{c}" not in cat]
        assert not missing, (lang, missing)


def test_ai_in_worker_processes_plays_the_same(tmp_path: Path) -> None:
    """The AI thinking in a worker process (as ``guandan serve`` runs it) decides exactly as
    in the server's process: the player's state travels with it."""
    finished = []
    for workers in (0, 1):
        with TestClient(create_app(tmp_path / str(workers), ai="greedy", allow_seed=True,
                                   ai_workers=workers)) as c:
            g = new_game(c, seed=3)
            s = advance(c, g["id"], lambda s: s["result"] is not None)
            hint = None
            s = c.post(f"/api/games/{g['id']}/next").json()
            if s["to_act"] == 1:
                hint = c.post(f"/api/games/{g['id']}/hint").json()
            finished.append((s["results"], c.get(f"/api/games/{g['id']}/export").text, hint))
    assert finished[0] == finished[1]


def test_games_beyond_memory_wait_on_disk(data_dir: Path) -> None:
    app = create_app(data_dir, ai="greedy", allow_seed=True)
    app.state.store.keep = 2
    c = TestClient(app)
    games = [new_game(c, seed=i) for i in range(4)]
    assert app.state.store.cached() == 2
    for g in games:  # the forgotten ones come back from their saves
        assert get(c, g["id"]) == g


@pytest.mark.parametrize(("levels", "level_team", "why"), [
    ({"13": "A", "24": "9"}, "13", "a_not_passed"),   # a 1-4 win at its own A
    ({"13": "A", "24": "9"}, "24", "gain1"),          # a 1-4 win in a hand played at 9
])
def test_a_not_passed_only_for_a_hand_played_at_a(levels: dict[str, str], level_team: str,
                                                  why: str) -> None:
    from guandan.levels import settle
    from guandan.match import HandResult as MatchResult
    from guandan.web.results import result_out

    s = settle(levels, {"13": 0, "24": 0}, level_team, [1, 2, 4, 3], "site")
    hand_level = levels[level_team]
    assert result_out(MatchResult(2, hand_level, (1, 2, 4, 3), s), None).why == why


def test_a_new_game_cannot_choose_its_seed_unless_the_server_allows_it(tmp_path: Path) -> None:
    """The seed decides every deal: a person who chose it could know the AI seats' cards."""
    client = TestClient(create_app(tmp_path, ai="greedy"))
    r = client.post("/api/games", json={"seed": 5})
    assert r.status_code == 403 and r.json()["error"]["code"] == "seed_not_allowed"
    assert list(tmp_path.iterdir()) == [] or not any(tmp_path.rglob("*.json"))
    assert client.post("/api/games", json={}).status_code == 201


def test_a_deleted_game_is_not_written_back_by_a_late_save(tmp_path: Path) -> None:
    """An AI step that finishes after the game was deleted must not bring its file back."""
    app = create_app(tmp_path, ai="greedy")
    client = TestClient(app)
    gid = client.post("/api/games", json={}).json()["id"]
    with app.state.store.reading(gid) as game:
        version = game.version
    assert client.delete(f"/api/games/{gid}").status_code == 204
    with pytest.raises(GameNotFound), app.state.store.changing(gid, expect=version):
        pass  # what a late AI step would do
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert app.state.store.count() == 0


def test_a_large_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path, ai="greedy"))
    gid = client.post("/api/games", json={}).json()["id"]
    r = client.post(f"/api/games/{gid}/play", content=b"{" + b" " * 100_000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "bad_request"
