"""The "Playing a match" API: Match, observations, actions, saving, prepared matches."""

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan import PASS, Card, Match, Observation, Reading, make_player
from guandan.cards import full_deck, parse_cards
from guandan.match import Pass, dealt_hands
from guandan.players.base import Player
from guandan.readings import beats, read_as
from guandan.records import replay_records


def bots(name: str = "greedy") -> dict[int, Player]:
    return {s: make_player(name, seed=s) for s in (1, 2, 3, 4)}


def step(m: Match, players: dict[int, Player]) -> None:
    seat = m.to_act
    assert seat is not None
    m.apply(players[seat].act(m.observation(seat)))


def play_to_hand(m: Match, hand_number: int, players: dict[int, Player] | None = None) -> None:
    players = players or bots()
    while m.hand_number < hand_number and m.to_act is not None:
        step(m, players)


def test_new_match() -> None:
    m = Match("site", seed=7)
    assert (m.rules, m.match_number, m.hand_number, m.level) == ("site", 1, 1, "2")
    assert (m.to_act, m.phase, m.leader, m.table) == (1, "play", 1, None)
    assert m.team_levels == {"13": "2", "24": "2"} and m.a_tries == {"13": 0, "24": 0}
    assert all(len(c) == 27 for c in m.hands.values())
    assert PASS not in m.legal_actions            # the leader must play
    assert all(isinstance(a, Reading) for a in m.legal_actions)
    assert m.records == [] and m.results == []


def test_default_rules_and_bad_options() -> None:
    assert Match().rules == "site"
    with pytest.raises(ValueError, match="unknown rules"):
        Match("shanghai")
    with pytest.raises(ValueError, match="seed"):
        Match("site", seed="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="match number"):
        Match("site", match_number=0)
    with pytest.raises(ValueError, match="level_team"):
        Match("site", team_levels={"13": "A", "24": "9"})
    with pytest.raises(ValueError, match="not a level"):
        Match("site", team_levels={"13": "1", "24": "9"}, level_team="13")
    with pytest.raises(ValueError, match="tries"):
        Match("site", team_levels={"13": "A", "24": "9"}, level_team="13",
              a_tries={"13": 1, "24": 0})


def test_pass_singleton() -> None:
    assert Pass() is PASS and repr(PASS) == "PASS"


def test_deals_depend_only_on_seed_match_and_hand() -> None:
    a, b = Match("site", seed=4), Match("nanjing", seed=4)
    assert a.dealt_hands == b.dealt_hands == dealt_hands(4, 1, 1)
    assert Match("site", seed=4, match_number=2).dealt_hands != a.dealt_hands
    play_to_hand(a, 2, bots("greedy"))
    play_to_hand(b, 2, bots("random"))
    assert a.dealt_hands == b.dealt_hands == dealt_hands(4, 1, 2)
    assert Counter(c for s in (1, 2, 3, 4) for c in a.dealt_hands[s]) == Counter(full_deck())


def test_illegal_actions_change_nothing() -> None:
    m = Match("site", seed=2)
    saved = m.to_json()
    other = next(c for c in full_deck() if c not in m.hands[1])
    for action, why in [
        (PASS, "must play"),
        (read_as([other], "2", "single", other.rank), "does not hold"),
        (Card("S3"), "not an action"),
        ("S3", "not an action"),
    ]:
        with pytest.raises(ValueError, match=why):
            m.apply(action)  # type: ignore[arg-type]
        assert m.to_json() == saved
    first = m.legal_actions[0]
    m.apply(first)
    assert m.to_act == 2
    saved = m.to_json()
    with pytest.raises(ValueError, match="seat 2's turn, not seat 1's"):
        m.current_deal.check_turn(1)  # type: ignore[union-attr]
    assert m.to_json() == saved


def test_apply_accepts_any_legal_reading_of_held_cards() -> None:
    m = Match("site", seed=11)
    hand = m.hands[1]
    by_rank: dict[str, list[Card]] = {}
    for c in hand:
        if not c.is_joker and not c.is_wild("2"):
            by_rank.setdefault(c.rank, []).append(c)
    rank, cards = next((r, cs) for r, cs in by_rank.items() if len(cs) >= 2)
    reading = read_as(cards[-2:][::-1], "2", "pair", rank)
    m.apply(reading)
    assert m.table is not None and m.table.play == reading


def test_return_phase_then_play_with_27_cards_each() -> None:
    m = Match("site", seed=21)
    play_to_hand(m, 2)
    assert m.phase == "return" and m.exchange.kind == "single"
    receiver = m.to_act
    assert receiver == 3
    obs = m.observation(3)
    assert obs.counts == {1: 26, 2: 27, 3: 28, 4: 27}
    assert obs.legal_actions and all(isinstance(a, Card) for a in obs.legal_actions)
    assert m.observation(1).legal_actions == ()
    with pytest.raises(ValueError, match="must return a card"):
        m.apply(PASS)
    card = obs.legal_actions[0]
    assert isinstance(card, Card)
    m.apply(card)
    assert m.phase == "play" and m.to_act == m.leader == 1
    assert all(len(c) == 27 for c in m.hands.values())
    returns = [e for e in m.observation(1).history if e.kind == "return"]
    assert returns[0].card == card                           # the giver sees it
    hidden = [e for e in m.observation(2).history if e.kind == "return"]
    assert hidden[0].card is None and hidden[0].seat == 3     # others see only that it happened
    assert m.observation(2).tribute.returns == ()
    assert [e.kind for e in m.observation(2).history] == ["gift", "return"]
    assert m.observation(2).history[0].card == m.exchange.gifts[0].card   # gifts are public


def test_double_tribute_returns_each_receiver_in_turn() -> None:
    m = Match("site", seed=3)
    play_to_hand(m, 2)
    assert m.exchange.kind == "double"
    order = []
    while m.phase == "return":
        order.append(m.to_act)
        m.apply(m.legal_actions[0])
    assert order == [1, 3]          # the 1st returns first, then the 2nd
    assert m.leader == 4 == m.to_act


def test_observation_never_shows_another_seats_cards() -> None:
    m = Match("huaian", seed=5)
    players = bots("random")
    for _ in range(400):
        if m.to_act is None:
            break
        for seat in (1, 2, 3, 4):
            obs = m.observation(seat)
            assert list(obs.hand) == m.hands[seat]
            public = [c for e in obs.history if e.play for c in e.play.cards]
            public += [g.card for g in obs.tribute.gifts]
            public += [r.card for r in obs.tribute.returns]
            seen = [e.card for e in obs.history if e.card is not None]
            assert Counter(seen) <= Counter(public)
            assert not obs.legal_actions or seat == m.to_act
        step(m, players)


def test_observation_fields() -> None:
    m = Match("national", seed=9)
    obs = m.observation(1)
    assert isinstance(obs, Observation)
    assert (obs.seat, obs.rules, obs.match_number, obs.hand_number, obs.phase) == (
        1, "national", 1, 1, "play")
    assert (obs.level, obs.leader, obs.to_act, obs.table) == ("2", 1, 1, None)
    assert obs.team_levels == {"13": "2", "24": "2"} and obs.a_tries == {"13": 0, "24": 0}
    assert obs.counts == {1: 27, 2: 27, 3: 27, 4: 27}
    assert obs.history == () and obs.trick == () and obs.finish_order == ()
    assert obs.tribute.kind == "none"
    m.apply(m.legal_actions[0])
    m.apply(PASS)
    obs = m.observation(4)
    assert [e.kind for e in obs.trick] == ["play", "pass"]
    assert obs.table is not None and obs.table.seat == 1
    with pytest.raises(ValueError, match="not a seat"):
        m.observation(5)


def test_prepared_match_and_final_victory() -> None:
    m = Match("site", seed=3, team_levels={"13": "A", "24": "9"}, level_team="13")
    assert m.level == "A"
    players = bots()
    while m.to_act is not None:
        step(m, players)
        assert m.hand_number < 200
    assert m.records[0]["team_levels"] == {"13": "A", "24": "9"}
    assert m.records[0]["level"] == "A"
    last = m.records[-1]
    assert last["final_winner"] == m.final_winner is not None
    assert m.results[-1].final_winner == m.final_winner
    assert m.phase == "over" and m.legal_actions == ()
    assert m.observation(1).phase == "over"
    with pytest.raises(ValueError, match="over"):
        m.apply(PASS)
    assert replay_records(m.records) == []


def test_results_explain_each_hand() -> None:
    m = Match("site", seed=21)
    play_to_hand(m, 2)
    r = m.results[0]
    assert r.hand == 1 and r.level == "2" and r.finish_order == (3, 4, 2, 1)
    assert r.winner == "13" and r.settlement.steps == 1
    assert r.settlement.team_levels_after == m.team_levels == {"13": "3", "24": "2"}
    assert "partner 4th" in r.settlement.why_en and r.settlement.why_ko
    assert m.level_team == "13" and m.level == "3"


# -- saving -----------------------------------------------------------------------------------

def test_save_and_load_round_trip() -> None:
    m = Match("nanjing", seed=6, team_levels={"13": "A", "24": "5"}, level_team="24",
              a_tries={"13": 1, "24": 0})
    play_to_hand(m, 3, bots("random"))
    assert m.to_act is not None
    for _ in range(7):
        step(m, bots("random"))
    saved = m.to_json()
    again = Match.from_json(saved)
    assert again.to_json() == saved
    assert again.records == m.records
    assert again.observation(1) == m.observation(1)
    assert again.hands == m.hands and again.to_act == m.to_act


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(format="x"), "not a saved match"),
        (lambda d: d.pop("rules"), "missing field 'rules'"),
        (lambda d: d.update(rules="chengdu"), "unknown rules"),
        (lambda d: d.update(actions="x"), "actions must be a list"),
        (lambda d: d["actions"].__setitem__(0, [2, "pass"]), "action 0: the action is by seat 2"),
        (lambda d: d["actions"].__setitem__(0, [1, "pass"]), "action 0: .*must play"),
        (lambda d: d["actions"].__setitem__(1, [2, "play", "ZZ", "single", "3"]), "action 1"),
        (lambda d: d["actions"].__setitem__(0, [1]), "action 0: malformed"),
        (lambda d: d["actions"].__setitem__(0, [1, "play", "BJ", "pair", "BJ"]), "action 0"),
    ],
)
def test_corrupt_save_is_refused(change: Any, why: str) -> None:
    m = Match("site", seed=2)
    for _ in range(5):
        step(m, bots())
    saved = m.to_json()
    change(saved)
    with pytest.raises(ValueError, match=why):
        Match.from_json(saved)


# -- properties -------------------------------------------------------------------------------

@settings(max_examples=12, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["site", "national", "huaian",
                                                          "nanjing"]),
       names=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4))
def test_every_step_keeps_the_rules(seed: int, rules: str, names: list[str]) -> None:
    m = Match(rules, seed=seed)
    players = {s: make_player(names[s - 1], seed=seed + s) for s in (1, 2, 3, 4)}
    deck = Counter(full_deck())
    played: Counter[Card] = Counter()
    hand_number = 1
    while m.to_act is not None and len(m.records) < 3:
        if m.hand_number != hand_number:
            hand_number, played = m.hand_number, Counter()
        seat = m.to_act
        obs = m.observation(seat)
        action = players[seat].act(obs)
        assert action in obs.legal_actions
        table = m.table
        if isinstance(action, Reading):
            assert read_as(action.cards, m.level, action.kind, action.rank) == action
            assert table is None or beats(action, table.play)
            assert Counter(action.cards) <= Counter(m.hands[seat])
            played.update(action.cards)
        m.apply(action)
        if m.hand_number == hand_number:
            held = Counter(c for s in (1, 2, 3, 4) for c in m.hands[s])
            assert held + played == deck                 # all 108 cards accounted for
    assert replay_records(m.records) == []
    again = Match.from_json(m.to_json())
    assert again.to_json() == m.to_json() and again.hands == m.hands


def test_parse_cards_exported() -> None:
    assert [c.notation for c in parse_cards("S3 BJ")] == ["S3", "BJ"]


@pytest.mark.parametrize(
    "module",
    ["guandan.cards", "guandan.readings", "guandan.plays",
     "guandan.presets", "guandan.seats", "guandan.tribute", "guandan.deal", "guandan.sampling",
     "guandan.levels",
     "guandan.match", "guandan.records", "guandan.cli", "guandan.simulate", "guandan.arena.stats",
     "guandan",
     "guandan.players.random", "guandan.players.greedy", "guandan.players.heuristic",
     "guandan.players.search", "guandan.players.playout", "guandan.players.tracker",
     "guandan.players.decompose",
     "guandan.players.describe", "guandan.players.compiled"],
)
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib
    import importlib.util
    import sys

    mod = importlib.import_module(module)
    if mod.__file__ is not None and not mod.__file__.endswith(".py"):
        # Compiled with mypyc (setup.py): its functions keep no docstrings to find, so the
        # examples are read from the source, run as a plain module beside the compiled one.
        built = Path(mod.__file__)
        source = built.with_name(built.name.split(".", 1)[0] + ".py")
        name = f"{module}__source"
        spec = importlib.util.spec_from_file_location(name, source)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod  # dataclasses look their module up while it is being run
        try:
            spec.loader.exec_module(mod)
        finally:
            del sys.modules[name]
    result = doctest.testmod(mod)
    assert result.failed == 0 and result.attempted > 0
