"""Hand records (guandan-hand/1): export, replay, continuity, and corrupted records refused."""

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from guandan import Match, make_player
from guandan.cards import parse_cards
from guandan.cli import simulate
from guandan.records import (
    FORMAT,
    RecordError,
    hands_after_tribute,
    replay_records,
    trick_leads,
    validate_lines,
)

Record = dict[str, Any]
CONTRACT_KEYS = {
    "format", "rules", "match", "hand", "level", "team_levels", "a_tries", "deal", "tribute",
    "leader", "actions", "finish_order", "team_levels_after", "a_tries_after", "final_winner",
}


def play_hands(rules: str, seed: int, n: int) -> list[Record]:
    m = Match(rules, seed=seed)
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    while len(m.records) < n:
        m.apply(bots[m.to_act].act(m.observation(m.to_act)))  # type: ignore[index]
    return copy.deepcopy(m.records[:n])


@pytest.fixture(scope="module")
def two() -> list[Record]:
    """Hands 1-2 of site seed 21: hand 2 has a single tribute 1→3 and a return."""
    recs = play_hands("site", 21, 2)
    assert recs[1]["tribute"]["kind"] == "single"
    return recs


def test_export_format(two: list[Record]) -> None:
    r = two[1]
    assert set(r) == CONTRACT_KEYS | {"level_team"}
    assert (r["format"], r["rules"], r["match"], r["hand"]) == (FORMAT, "site", 1, 2)
    assert all(len(r["deal"][s]) == 27 for s in ("1", "2", "3", "4"))
    assert r["tribute"]["gifts"] == [{"from": 1, "to": 3, "card": "LJ"}]
    assert len(r["tribute"]["returns"]) == 1
    ret = r["tribute"]["returns"][0]
    assert (ret["from"], ret["to"]) == (3, 1)
    assert r["leader"] == 1
    assert two[0]["tribute"] == {"kind": "none", "gifts": [], "returns": []}
    assert two[0]["team_levels_after"] == r["team_levels"] == {"13": "3", "24": "2"}
    plays = [a for a in r["actions"] if "cards" in a]
    assert set(plays[0]) == {"seat", "cards", "kind", "rank"}
    passes = [a for a in r["actions"] if "pass" in a]
    assert passes and passes[0] == {"seat": passes[0]["seat"], "pass": True}
    assert sorted(r["finish_order"]) == [1, 2, 3, 4] and r["final_winner"] is None
    json.dumps(r)


def test_deal_is_before_tribute(two: list[Record]) -> None:
    assert "LJ" in two[1]["deal"]["1"]


@pytest.mark.parametrize("rules", ["site", "national", "huaian", "nanjing"])
def test_hundreds_of_hands_replay_without_error(rules: str) -> None:
    recs = list(simulate(rules, 250, seed=17, bots=["random", "greedy", "greedy", "random"]))
    assert len(recs) == 250
    assert {r["tribute"]["kind"] for r in recs} >= {"none", "single", "double"}
    assert replay_records(recs) == []


def test_a_record_alone_is_checked_on_its_own(two: list[Record]) -> None:
    assert replay_records([two[1]]) == []
    rec = copy.deepcopy(two[1])
    rec["leader"] = 3        # after a single tribute the giver (seat 1) leads
    (err,) = replay_records([rec])
    assert err.action is None and "follows from no finish order" in err.reason


def beat_fail(rec: Record) -> None:
    deal = {s: parse_cards(rec["deal"][str(s)]) for s in (1, 2)}
    top = max(deal[1], key=lambda c: c.strength(rec["level"]))
    low = min(deal[2], key=lambda c: c.strength(rec["level"]))
    rec["actions"][:2] = [{"seat": 1, "cards": [top.notation], "kind": "single", "rank": top.rank},
                          {"seat": 2, "cards": [low.notation], "kind": "single", "rank": low.rank}]


def not_held(rec: Record) -> None:
    missing = next(c for c in ("BJ", "LJ", "SA", "HA") if rec["deal"]["1"].count(c) == 0)
    rec["actions"][0] = {"seat": 1, "cards": [missing], "kind": "single", "rank": missing}


def respell(rec: Record, where: str, card: str | None,
            spelling: str | Callable[[str], str]) -> None:
    """Write a card of the record another way than its notation: one ``card`` of the deal, or
    the first card of the first play or of the first return; ``spelling`` is the new spelling
    or makes it from the notation."""
    def spell(notation: str) -> str:
        return spelling if isinstance(spelling, str) else spelling(notation)
    if where == "deal":
        seat = next(s for s in "1234" if card in rec["deal"][s])
        cards = rec["deal"][seat]
        cards[cards.index(card)] = spell(cards[cards.index(card)])
    elif where == "return":
        ret = rec["tribute"]["returns"][0]
        ret["card"] = spell(ret["card"])
    else:
        play = rec["actions"][0]
        play["cards"][0] = spell(play["cards"][0])


def set_field(name: str, value: Any) -> Callable[[Record], None]:
    return lambda rec: rec.__setitem__(name, value)


CORRUPTIONS: list[tuple[str, int, Callable[[Record], None], int | None, str]] = [
    ("card not held", 0, not_held, 0, "seat 1 does not hold"),
    ("out of turn", 0, lambda r: r["actions"][1].__setitem__("seat", 3), 1,
     "seat 2's turn, not seat 3's"),
    ("does not beat", 0, beat_fail, 1, "does not beat the table"),
    ("wrong reading", 0, lambda r: r["actions"][0].__setitem__("kind", "bomb"), 0,
     "cannot be played as bomb"),
    ("leader passes", 0, lambda r: r["actions"].__setitem__(0, {"seat": 1, "pass": True}), 0,
     "must play"),
    ("bad action", 0, lambda r: r["actions"][0].__setitem__("pass", False), 0,
     "an action is"),
    ("hand not over", 0, lambda r: r["actions"].pop(), None, "not over after the last action"),
    ("extra action", 0, lambda r: r["actions"].append({"seat": 1, "pass": True}), None,
     "already over"),
    ("wrong gift", 1, lambda r: r["tribute"]["gifts"][0].__setitem__("card", "S2"), None,
     "tribute should be single"),
    ("wrong kind", 1, lambda r: r["tribute"].__setitem__("kind", "exempt"), None,
     "tribute should be single"),
    ("return the gift", 1, lambda r: r["tribute"]["returns"][0].__setitem__("card", "LJ"), None,
     "return 0: .*cannot return LJ"),
    ("missing return", 1, lambda r: r["tribute"]["returns"].clear(), None, "1 returns are due"),
    ("wrong levels after", 0, set_field("team_levels_after", {"13": "4", "24": "2"}), None,
     "team_levels_after should be"),
    ("wrong tries after", 0, set_field("a_tries_after", {"13": 1, "24": 0}), None,
     "a_tries_after should be"),
    ("wrong final winner", 0, set_field("final_winner", "13"), None, "final_winner should be"),
    ("wrong finish order", 0, set_field("finish_order", [1, 2, 3, 4]), None,
     "finish order should be"),
    ("missing field", 0, lambda r: r.pop("deal"), None, "missing field 'deal'"),
    ("unknown rules", 0, set_field("rules", "chengdu"), None, "unknown rules"),
    ("bad format", 0, set_field("format", "guandan-hand/0"), None, "format must be"),
    ("bad level", 0, set_field("level", "Z"), None, "not a level"),
    ("level not the team's", 0, set_field("level", "5"), None, "level 5"),
    ("duplicate card", 0, lambda r: r["deal"]["1"].__setitem__(0, r["deal"]["1"][1]), None,
     "two full decks"),
    ("short deal", 0, lambda r: r["deal"]["1"].pop(), None, "dealt 26 cards"),
    ("bad card", 0, lambda r: r["deal"]["1"].__setitem__(0, "X9"), None, "not a card"),
    ("ten written H10", 0, lambda r: respell(r, "deal", "HT", "H10"), None,
     r"deal of seat .: 'H10' is not how a record writes a card: it writes 'HT'"),
    ("a heart written ♥", 0, lambda r: respell(r, "deal", "HT", "♥T"), None, "it writes 'HT'"),
    ("a card in lower case", 0, lambda r: respell(r, "deal", "HT", "ht"), None, "it writes 'HT'"),
    ("old joker notation", 0, lambda r: respell(r, "deal", "BJ", "RJ"), None, "not a card: 'RJ'"),
    ("a play's card in lower case", 0, lambda r: respell(r, "play", None, str.lower), 0,
     r"cards: '\w+' is not how a record writes a card"),
    ("a return's card in lower case", 1, lambda r: respell(r, "return", None, str.lower), None,
     r"tribute returns\[0\]\.card: '\w+' is not how a record writes a card"),
    ("level written 10", 0, set_field("level", "10"), None, "not a level: '10'"),
    ("levels break continuity", 1, set_field("team_levels", {"13": "2", "24": "2"}), None,
     "differ from those after hand 1"),
    ("tribute on hand 1", 0, lambda r: r["tribute"].__setitem__("kind", "single"), None,
     "hand 1 of a match has no tribute"),
]


@pytest.mark.parametrize(("name", "index", "corrupt", "action", "why"), CORRUPTIONS,
                         ids=[c[0] for c in CORRUPTIONS])
def test_corrupted_record_is_refused(two: list[Record], name: str, index: int,
                                     corrupt: Callable[[Record], None], action: int | None,
                                     why: str) -> None:
    recs = copy.deepcopy(two)
    corrupt(recs[index])
    errors = replay_records(recs)
    assert errors, name
    err = errors[0]
    assert isinstance(err, RecordError) and isinstance(err, ValueError)
    assert err.line == index + 1 and err.hand == index + 1
    expected_action = action
    if name == "hand not over":
        expected_action = len(recs[index]["actions"])
    if name == "extra action":
        expected_action = len(recs[index]["actions"]) - 1
    assert err.action == expected_action
    assert re.search(why, err.reason), err.reason
    assert str(err).startswith(f"line {index + 1}, hand {index + 1}")


def test_play_after_final_victory_is_refused() -> None:
    m = Match("site", seed=3, team_levels={"13": "A", "24": "9"}, level_team="13")
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    while m.to_act is not None:
        m.apply(bots[m.to_act].act(m.observation(m.to_act)))
    last = copy.deepcopy(m.records[-1])
    follow = copy.deepcopy(last)
    follow["hand"] = last["hand"] + 1
    errors = replay_records([last, follow])
    assert errors and errors[0].line == 2 and "already won" in errors[0].reason


def test_validate_lines_counts_and_reports_malformed_json(two: list[Record]) -> None:
    lines = [json.dumps(two[0]), "", "{not json", json.dumps(two[1])]
    v = validate_lines(lines)
    assert v.checked == 3
    assert [(e.line, e.hand, e.action) for e in v.errors] == [(3, None, None)]
    assert "malformed JSON" in v.errors[0].reason
    assert str(v.errors[0]).startswith("line 3, hand ?")


def test_not_an_object() -> None:
    (err,) = replay_records([[1, 2]])
    assert "JSON object" in err.reason


def test_deeply_nested_json_is_a_malformed_line_not_a_crash() -> None:
    v = validate_lines(["[" * 100_000 + "]" * 100_000])
    assert v.checked == 1 and len(v.errors) == 1
    assert "malformed JSON" in v.errors[0].reason


# -- a file's records follow each other (docs/api.md's validate line) -------------------------

def test_a_skipped_hand_is_refused() -> None:
    recs = play_hands("site", 21, 3)
    assert replay_records(recs) == []
    (err,) = replay_records([recs[0], recs[2]])
    assert (err.line, err.hand, err.action) == (2, 3, None)
    assert "hand 3 of match 1 follows hand 1: hand 2 missing" in err.reason


def test_a_new_match_before_final_victory_is_refused() -> None:
    first = play_hands("site", 21, 1)
    m2 = Match("site", seed=21, match_number=2)
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    while not m2.records:
        m2.apply(bots[m2.to_act].act(m2.observation(m2.to_act)))  # type: ignore[index]
    (err,) = replay_records([first[0], m2.records[0]])
    assert err.line == 2 and "did not reach final victory" in err.reason
    # The same match again from hand 1 (or a hand other than 1) is refused too.
    (err,) = replay_records([first[0], first[0]])
    assert err.line == 2 and "did not reach final victory" in err.reason
    # A record that says its match was stopped there may be followed by a new match.
    stopped = dict(first[0], stopped=True)
    assert replay_records([stopped, m2.records[0]]) == []
    (err,) = replay_records([dict(first[0], stopped="yes")])
    assert "stopped must be true or false" in err.reason


def test_a_new_match_starts_at_hand_1() -> None:
    m = Match("site", seed=3, team_levels={"13": "A", "24": "9"}, level_team="13")
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    while m.to_act is not None:
        m.apply(bots[m.to_act].act(m.observation(m.to_act)))  # type: ignore[index]
    later = play_hands("site", 21, 2)[1]
    later["match"] = 2
    (err,) = replay_records([m.records[-1], later])
    assert err.line == 2 and "a match starts at hand 1" in err.reason
    first = dict(play_hands("site", 21, 1)[0], match=2)
    assert replay_records([m.records[-1], first]) == []


def test_a_records_trick_leads_are_the_matchs_event_leads() -> None:
    """``trick_leads`` gives each action of a record the ``Event.lead`` the match gave it, and
    ``hands_after_tribute`` the cards its first lead was played from."""
    m = Match("site", seed=4)
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    leads: list[bool] = []
    start = None
    while len(m.records) < 4:
        if m.play_state is not None and start is None:
            start = {s: sorted(m.hands[s]) for s in (1, 2, 3, 4)}
        hand = len(m.records)
        m.apply(bots[m.to_act].act(m.observation(m.to_act)))
        if len(m.records) > hand:  # the hand ended (its events went with it but the last)
            record = m.records[-1]
            assert trick_leads(record)[:-1] == leads
            assert {s: sorted(c) for s, c in hands_after_tribute(record).items()} == start
            assert sum(trick_leads(record)) > 1
            leads, start = [], None
        elif m.events and m.events[-1].kind in ("play", "pass"):
            leads.append(m.events[-1].lead)
