"""The relay: the messages of every stage, nothing hidden leaks, and bad peers are replaced."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from guandan.cards import Card
from guandan.host.notation import card_from_wire, cards_from_wire, play_from_wire
from guandan.host.relay import Peer, PeerGone, Relay, action_list, read_answer
from guandan.match import Action, Match, Observation
from guandan.players import make_player
from guandan.records import replay_records

from .protocol_fields import Checker

# None: stay silent; "DROP": hang up; a list: several replies at once
Answer = Callable[[dict[str, Any]], "str | list[str] | None"]


class FakePeer(Peer):
    """An outside program in memory: ``answer`` decides each reply to an ``act``."""

    def __init__(self, name: str, answer: Answer) -> None:
        self.name = name
        self.answer = answer
        self.sent: list[dict[str, Any]] = []
        self.pending: list[str] = []
        self.closed = False

    def send(self, message: Mapping[str, Any]) -> None:
        if self.closed:
            raise PeerGone(self.name)
        msg = json.loads(json.dumps(message))  # what would go over the wire
        self.sent.append(msg)
        if msg["type"] == "act":
            reply = self.answer(msg)
            if reply == "DROP":
                self.closed = True
                return
            if isinstance(reply, list):
                self.pending.extend(reply)
            elif reply is not None:
                self.pending.append(reply)

    def receive(self, timeout: float) -> str:
        if self.closed:
            raise PeerGone(self.name)
        if not self.pending:
            raise TimeoutError
        return self.pending.pop(0)

    @property
    def gone(self) -> bool:
        return self.closed


def first(msg: dict[str, Any]) -> str:
    return json.dumps({"actIndex": 0})


def play(peers: dict[int, FakePeer], hands: int = 2, seed: int = 3,
         ours: str = "greedy", rules: str = "site") -> tuple[list[dict[str, Any]], Relay]:
    relay = Relay(lambda: peers, fallback="greedy", timeout=0.01, seed=seed, setting=hands)
    players = {s: make_player(ours, seed=s) for s in (1, 2, 3, 4)}
    match = Match(rules, seed=seed)
    records: list[dict[str, Any]] = []
    while len(records) < hands:
        relay.sync(match)
        seat = match.to_act
        assert seat is not None
        obs = match.observation(seat)
        action: Action = relay.act(seat, obs) if seat in peers else players[seat].act(obs)
        before = len(match.records)
        match.apply(action)
        relay.applied(match, seat, action, obs)
        if len(match.records) > before:
            records.append(match.records[-1])
    relay.finish()
    return records, relay


def test_every_stage_is_told_and_records_replay() -> None:
    peers = {2: FakePeer("two", first), 4: FakePeer("four", first)}
    records, relay = play(peers, hands=3)
    assert replay_records(records) == []
    stages = [(m["type"], m["stage"]) for m in peers[2].sent]
    for needed in [("notify", "beginning"), ("notify", "play"), ("act", "play"),
                   ("notify", "episodeOver"), ("notify", "gameOver"), ("notify", "gameResult")]:
        assert needed in stages
    begin = [m for m in peers[2].sent if m["stage"] == "beginning"]
    assert [m["myPos"] for m in begin] == [1, 1, 1]
    spelt = {"BJ": "HR", "LJ": "SB"}
    assert Counter(begin[0]["handCards"]) == Counter(
        spelt.get(c, c) for c in records[0]["deal"]["2"])
    assert begin[0]["selfRank"] == begin[0]["oppoRank"] == begin[0]["curRank"] == "2"
    for r in records:
        assert r["outside"] == {"2": "two", "4": "four"}
        assert "replaced" not in r
    assert relay.stats.asked > 0 and relay.stats.refused == 0


def test_every_message_has_the_competition_servers_fields() -> None:
    """Each message as the competition's clients document it and its server sends it; in
    particular a seat asked to lead (the hand's first lead, after everyone else passed, the
    lead it inherits when its partner goes out: 接风) is told ``curPos`` and ``greaterPos``
    -1 with no action, as programs tell a lead from a follow by them. Programs that always
    pass when they may make every trick end in passes and every hand end in 接风."""
    peers = {s: FakePeer(f"p{s}", first) for s in (1, 2, 3, 4)}
    records, _ = play(peers, hands=4, seed=5)
    kinds = {r["tribute"]["kind"] for r in records}
    assert "exempt" in kinds and kinds & {"single", "double"}  # anti-tribute, tribute and back
    leads: Counter[str] = Counter()
    stages: Counter[tuple[str, str]] = Counter()
    for p in peers.values():
        checker = Checker()
        for m in p.sent:
            assert checker.check(m) == [], (p.name, m)
            stages[m["type"], m["stage"]] += 1
        leads.update(checker.leads)
    assert leads["first"] and leads["passes"] and leads["partner"], leads
    assert {("act", "back"), ("notify", "tribute"), ("notify", "back"),
            ("notify", "anti-tribute"), ("notify", "episodeOver"), ("notify", "gameOver"),
            ("notify", "gameResult")} <= set(stages)


def test_tribute_and_back_are_told() -> None:
    peers = {s: FakePeer(f"p{s}", first) for s in (1, 2, 3, 4)}
    records, _ = play(peers, hands=4, seed=5)
    for r in records[1:]:
        kinds = {m["stage"] for p in peers.values() for m in p.sent}
        assert {"tribute", "back"} <= kinds or r["tribute"]["kind"] == "exempt"
    gifts = [m for m in peers[1].sent if m["stage"] == "tribute"]
    assert gifts and all(len(g) == 3 for m in gifts for g in m["result"])
    backs = [m for m in peers[1].sent if m["type"] == "act" and m["stage"] == "back"]
    for m in backs:
        assert m["actionList"][0][:2] == ["back", "back"]
        assert m["indexRange"] == len(m["actionList"]) - 1


def _own_cards(record: dict[str, Any], seat: int) -> Counter[str]:
    """Every card ``seat`` ever held in a hand: its deal and what it received."""
    held = Counter(record["deal"][str(seat)])
    for g in record["tribute"]["gifts"] + record["tribute"]["returns"]:
        if g["to"] == seat:
            held[g["card"]] += 1
    return held


def test_no_hidden_card_reaches_an_outside_program() -> None:
    peers = {s: FakePeer(f"p{s}", first) for s in (2, 3)}
    records, _ = play(peers, hands=4, seed=11)
    for seat, peer in peers.items():
        hand = -1
        for m in peer.sent:
            if m["stage"] == "beginning":
                hand += 1
            own = _own_cards(records[hand], seat)
            shown: list[str] = []
            if m["stage"] == "beginning" or m["type"] == "act":
                shown = m["handCards"]
            elif m["stage"] == "back":
                for giver, receiver, _card in m["result"]:
                    assert seat - 1 in (giver, receiver)
            elif m["stage"] == "episodeOver":
                assert all(pos == seat - 1 for pos, _ in m["restCards"])
                shown = [c for _, cards in m["restCards"] for c in cards]
            ours = Counter(c.notation for c in cards_from_wire(shown))
            assert not ours - own, (seat, m["stage"])


def test_action_list_is_complete_and_pass_comes_first() -> None:
    match = Match("site", seed=2)
    greedy = make_player("greedy")
    while match.observation(match.to_act).table is None:  # type: ignore[arg-type]
        match.apply(greedy.act(match.observation(match.to_act)))  # type: ignore[arg-type]
    obs = match.observation(match.to_act)  # type: ignore[arg-type]
    wire, ours = action_list(obs)
    assert wire[0] == ["PASS", "PASS", "PASS"]
    for entry, action in zip(wire[1:], ours[1:], strict=True):
        assert play_from_wire(entry, obs.level) == action
    kinds = {(a.kind, a.rank) for a in obs.legal_actions if not isinstance(a, type(ours[0]))}
    assert kinds <= {(a.kind, a.rank) for a in ours[1:]}  # type: ignore[union-attr]


def test_read_answer_says_what_is_wrong() -> None:
    assert read_answer('{"actIndex": 2}', 3) == 2
    for text, why in [("{oops", "not JSON"), ('[1]', "object"), ('{"actIndex": "1"}', "integer"),
                      ('{"actIndex": true}', "integer"), ('{"actIndex": 3}', "not in actionList"),
                      ('{"actIndex": -1}', "not in actionList"), ('{"x": 1}', "object")]:
        try:
            read_answer(text, 3)
        except ValueError as e:
            assert why in str(e)
        else:
            raise AssertionError(text)


def _bad_then(kind: str, good_after: int | None) -> Answer:
    """Bad answers of one kind; good ones from act number ``good_after`` on (None: never)."""
    count = [0]

    def answer(msg: dict[str, Any]) -> str | None:
        count[0] += 1
        if good_after is not None and count[0] > good_after:
            return json.dumps({"actIndex": 0})
        if kind == "index":
            return json.dumps({"actIndex": len(msg["actionList"]) + 5})
        if kind == "json":
            return "{actIndex: 0"
        if kind == "silent":
            return None
        return "DROP"

    return answer


def test_a_bad_answer_is_refused_and_asked_again() -> None:
    peer = FakePeer("bad", _bad_then("index", good_after=1))
    records, relay = play({2: peer}, hands=1)
    acts = [m for m in peer.sent if m["type"] == "act"]
    assert "error" not in acts[0]
    assert "not in actionList" in acts[1]["error"]
    assert acts[1]["actionList"] == acts[0]["actionList"]
    assert relay.stats.refused == 1
    assert "replaced" not in records[0]


def test_bad_peers_are_replaced_for_the_rest_of_the_hand() -> None:
    for kind, why in [("index", "not in actionList"), ("json", "not JSON"),
                      ("silent", "no answer within"), ("drop", "connection closed")]:
        peer = FakePeer(kind, _bad_then(kind, good_after=None))
        records, _ = play({2: peer}, hands=2)
        assert replay_records(records) == []
        replaced = records[0]["replaced"]
        assert [r["seat"] for r in replaced] == [2]
        assert why in replaced[0]["reason"]
        end = next((i for i, m in enumerate(peer.sent) if m["stage"] == "episodeOver"),
                   len(peer.sent))
        acts_in_hand_1 = sum(1 for m in peer.sent[:end] if m["type"] == "act")
        assert acts_in_hand_1 == (1 if kind == "drop" else 2)  # asked again, then replaced
        if kind != "drop":  # still connected: back on its seat for hand 2, replaced again
            assert [r["seat"] for r in records[1]["replaced"]] == [2]
            assert any(m["stage"] == "episodeOver" for m in peer.sent)


def test_a_seat_without_a_program_is_played_by_ours_and_marked() -> None:
    relay = Relay(dict, fallback="greedy", timeout=0.01)
    match = Match("site", seed=1)
    while not match.records:
        relay.sync(match)
        seat = match.to_act
        assert seat is not None
        obs: Observation = match.observation(seat)
        action = relay.act(seat, obs)
        match.apply(action)
        relay.applied(match, seat, action, obs)
    assert replay_records(match.records) == []
    assert {r["seat"] for r in match.records[0]["replaced"]} == {1, 2, 3, 4}


def test_protocol_cards_in_back_results_are_cards() -> None:
    peers = {s: FakePeer(f"p{s}", first) for s in (1, 2, 3, 4)}
    play(peers, hands=3, seed=5)
    for p in peers.values():
        for m in p.sent:
            if m["stage"] in ("tribute", "back") and m["type"] == "notify":
                for _, _, card in m["result"]:
                    assert isinstance(card_from_wire(card), Card)


def test_a_late_answer_to_an_earlier_question_is_thrown_away() -> None:
    count = [0]

    def answer(msg: dict[str, Any]) -> str | list[str] | None:
        count[0] += 1
        if count[0] == 1:
            return None  # too slow: asked again
        if count[0] == 2:
            return json.dumps({"actIndex": 0})
        if count[0] == 3:  # its late answer to the first copy comes before this one's
            return [json.dumps({"actIndex": len(msg["actionList"]) - 1}),
                    json.dumps({"actIndex": 0})]
        return json.dumps({"actIndex": 0})

    peer = FakePeer("slow", answer)
    records, relay = play({2: peer}, hands=1)
    assert relay.stats.stale == 1 and relay.stats.refused == 1
    assert "replaced" not in records[0]
    third = [m for m in peer.sent if m["type"] == "act"][2]
    mine = [a for a in records[0]["actions"] if a["seat"] == 2]
    chosen = third["actionList"][0]
    assert ("pass" in mine[1]) == (chosen[0] == "PASS")


def test_the_preset_decides_which_cards_may_go_back() -> None:
    for rules in ("site", "huaian"):
        peers = {s: FakePeer(f"p{s}", first) for s in (1, 2, 3, 4)}
        records, _ = play(peers, hands=4, seed=5, rules=rules)
        assert replay_records(records) == []
        offered = [m["actionList"] for p in peers.values() for m in p.sent
                   if m["type"] == "act" and m["stage"] == "back"]
        assert offered
        big = {c for lst in offered for _, _, (c,) in lst if c[1] in "JQKARB"}
        assert bool(big) == (rules == "huaian")  # site: only cards up to 10 go back


def test_ask_leaves_a_replaced_seat_to_the_caller_and_says_why() -> None:
    """``ask`` (the web game's way): the program's action, or None once replaced, with the
    replacement's reason as a code for a page to say in its own words."""
    for kind, code in [("index", "refused"), ("json", "refused"), ("silent", "silent"),
                       ("drop", "closed")]:
        peer = FakePeer(kind, _bad_then(kind, good_after=None))
        relay = Relay(lambda p=peer: {2: p}, timeout=0.01)
        match = Match("site", seed=3)
        relay.sync(match)
        assert relay.hand == 1 and relay.outside == {2: kind}
        ours = make_player("greedy", seed=1)
        obs = match.observation(1)
        first_action = ours.act(obs)
        match.apply(first_action)
        relay.applied(match, 1, first_action, obs)
        assert relay.ask(2, match.observation(2)) is None
        replaced = relay.replacements[2]
        assert (replaced.code, replaced.turn) == (code, 1)
        assert relay.ask(2, match.observation(2)) is None  # for the rest of the hand
    good = FakePeer("good", first)
    relay = Relay(lambda: {1: good}, timeout=0.01)
    match = Match("site", seed=3)
    relay.sync(match)
    obs = match.observation(1)
    assert relay.ask(1, obs) in obs.legal_actions and relay.replacements == {}
    none = Relay(dict, timeout=0.01)
    none.sync(match)
    assert none.ask(4, match.observation(4)) is None
    assert none.replacements[4].code == "absent"
