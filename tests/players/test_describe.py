"""The players' reasons as codes and values (``describe.REASON_CODES``), for the page's words."""

from __future__ import annotations

from guandan.cards import Card, parse_cards
from guandan.match import PASS, Match
from guandan.players import make_player
from guandan.players.base import Player, Reason
from guandan.players.describe import REASON_CODES, play_param, reason_params
from guandan.players.search import SearchPlayer
from guandan.readings import Reading, classify

FIGURES = {"samples", "win_share", "candidates", "base_share"}


def test_values_of_a_reason() -> None:
    pair = classify(parse_cards("S3 D3"), "2")[0]
    assert play_param(pair) == {"cards": ["S3", "D3"], "kind": "pair", "rank": "3"}
    assert reason_params(play=pair, card=parse_cards("HT")[0], n=2) == {
        "play": play_param(pair), "card": "HT", "n": 2}
    r = Reason("가", "a")  # words only: still a reason, with no code
    assert (r.code, dict(r.params), str(r)) == ("", {}, "a")


def check_code(player: Player, action: object) -> None:
    r = player.reason
    assert r.ko and r.en  # the words stay
    assert r.code in REASON_CODES, r
    names = set(REASON_CODES[r.code])
    assert names <= set(r.params) <= names | FIGURES, r
    if FIGURES & set(r.params):
        share = r.params["win_share"]
        assert set(r.params) >= FIGURES and isinstance(share, int) and 0 <= share <= 100
    if isinstance(action, Card):
        assert r.params["card"] == action.notation
    elif isinstance(action, Reading) and "play" in names and r.code != "pass_keep_shape":
        assert r.params["play"] == play_param(action), r
    elif action is PASS:
        assert r.code.startswith("pass_") or r.code in ("random", "search_pass"), r


def test_every_player_says_its_reason_as_a_code() -> None:
    players: dict[int, Player] = {
        1: SearchPlayer(seed=1, samples=3, budget_ms=None, endgame_cards=27),
        2: make_player("greedy", seed=2),
        3: make_player("heuristic", seed=3),
        4: make_player("random", seed=4)}
    m = Match("site", seed=9)
    codes = set()
    while len(m.records) < 3 and m.to_act is not None:
        seat = m.to_act
        action = players[seat].act(m.observation(seat))
        check_code(players[seat], action)
        codes.add(players[seat].reason.code)
        m.apply(action)
    assert len(codes) >= 8, codes
