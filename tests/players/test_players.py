"""Every player: legal moves only, decisions from the observation only, reasons that name."""

from __future__ import annotations

import copy
import random

import pytest

from guandan.cards import Card
from guandan.deal import Deal
from guandan.match import PASS, Match
from guandan.players import DIFFICULTY, REGISTRY, STRONGEST, make_player, player_settings
from guandan.players.base import Player
from guandan.players.describe import play_names
from guandan.players.search import SearchPlayer
from guandan.readings import Reading


def check_reason(player: Player, action: object) -> None:
    r = player.reason
    assert r.ko and r.en
    if isinstance(action, Reading):
        ko, en = play_names(action)
        assert en in r.en and ko in r.ko, (r, action)
    elif isinstance(action, Card):
        assert action.notation in r.en and action.notation in r.ko, (r, action)
    else:
        assert action is PASS
        assert "pass" in r.en.lower() and "패스" in r.ko, r


def play_hands(names: list[str], hands: int, seed: int, players: dict[int, Player] | None = None,
               reasons: bool = False) -> int:
    """Play ``hands`` hands of whole matches; every action must be legal. Decisions made."""
    players = players or {s: make_player(n, seed=seed + s) for s, n in zip((1, 2, 3, 4), names,
                                                                        strict=True)}
    match_number = 1
    m = Match("site", seed=seed, match_number=match_number)
    played = decisions = 0
    while played < hands:
        seat = m.to_act
        if seat is None:
            match_number += 1
            m = Match("site", seed=seed, match_number=match_number)
            continue
        obs = m.observation(seat)
        action = players[seat].act(obs)
        assert action in obs.legal_actions, (names[seat - 1], action)
        if reasons and names[seat - 1] in ("heuristic", "search"):
            check_reason(players[seat], action)
        before = len(m.records)
        m.apply(action)
        decisions += 1
        played += len(m.records) - before
    return decisions


def test_registry_and_levels() -> None:
    assert {"random", "greedy", "heuristic", "search"} <= set(REGISTRY)
    assert DIFFICULTY == {"쉬움": "greedy", "보통": "heuristic", "어려움": "search"}
    assert STRONGEST == "search"


def test_settings_go_to_the_player() -> None:
    p = make_player("search", seed=5, samples=16, budget_ms=None)
    assert isinstance(p, SearchPlayer) and (p.seed, p.samples, p.budget_ms) == (5, 16, None)
    assert player_settings("greedy") == [] and "follow_top" in player_settings("search")
    with pytest.raises(ValueError, match=r"'greedy' has no setting samples \(its settings: none\)"):
        make_player("greedy", samples=16)
    with pytest.raises(ValueError, match="has no setting budget, sample"):
        make_player("search", sample=16, budget=1.0)
    with pytest.raises(ValueError, match="unknown player 'serch'"):
        make_player("serch")


@pytest.mark.parametrize(("names", "hands", "seed"), [
    (["heuristic", "random", "heuristic", "random"], 500, 1),
    (["random", "heuristic", "greedy", "heuristic"], 300, 2),
    (["heuristic", "heuristic", "heuristic", "heuristic"], 200, 3),
])
def test_heuristic_plays_only_legal_moves(names: list[str], hands: int, seed: int) -> None:
    # 1,000 hands in all (with tribute returns from hand 2 of each match on); the slow soak
    # (tests/test_soak.py, pytest -m slow) plays many more.
    assert play_hands(names, hands, seed) > hands * 20


def test_search_plays_only_legal_moves_and_names_its_reasons() -> None:
    players: dict[int, Player] = {
        1: SearchPlayer(seed=1, samples=3, budget_ms=None, endgame_cards=27),
        2: make_player("random", seed=2),
        3: SearchPlayer(seed=3, samples=3, budget_ms=None, endgame_cards=27),
        4: make_player("heuristic", seed=4)}
    play_hands(["search", "random", "search", "heuristic"], 12, 5, players, reasons=True)


def test_heuristic_reasons_name_what_they_claim() -> None:
    play_hands(["heuristic", "greedy", "heuristic", "random"], 40, 6, reasons=True)


def _swap_hidden(m: Match, seat: int, rng: random.Random) -> Match:
    """A copy of ``m`` in which the seats other than ``seat`` hold other cards, as
    ``Deal.sample`` deals them from what ``seat`` has seen."""
    world = copy.deepcopy(m)
    world.play_state = Deal.sample(m.observation(seat), rng)
    return world


def test_players_decide_from_the_observation_only() -> None:
    rng = random.Random(7)
    greedy = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    checked = 0
    for seed in range(4):
        m = Match("site", seed=seed)
        for step in range(60):
            seat = m.to_act
            assert seat is not None
            if step % 6 == 0:
                world = _swap_hidden(m, seat, rng)
                assert world.hands != m.hands
                a, b = m.observation(seat), world.observation(seat)
                assert a == b
                for name in ("random", "greedy", "heuristic"):
                    assert make_player(name, seed=1).act(a) == make_player(name, seed=1).act(b)
                s1 = SearchPlayer(seed=1, samples=4, budget_ms=None, endgame_cards=27)
                s2 = SearchPlayer(seed=1, samples=4, budget_ms=None, endgame_cards=27)
                assert s1.act(a) == s2.act(b)
                checked += 1
            m.apply(greedy[seat].act(m.observation(seat)))
    assert checked == 40


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_players_travel_light_between_processes(name: str) -> None:
    import pickle

    m = Match("site", seed=2)
    # The search without its clock, so that the copy and the original draw the same deals
    # however loaded the machine is (with the clock this test failed once under CI's load).
    settings: dict[str, object] = {"samples": 16, "budget_ms": None} if name == "search" else {}
    p = make_player(name, seed=1, **settings)
    for _ in range(40):  # fill the caches
        seat = m.to_act
        assert seat is not None
        obs = m.observation(seat)
        m.apply(p.act(obs))
    copy_ = pickle.loads(pickle.dumps(p))
    assert len(pickle.dumps(p)) < 2000
    seat = m.to_act
    assert seat is not None
    obs = m.observation(seat)
    assert copy_.act(obs) == p.act(obs)
