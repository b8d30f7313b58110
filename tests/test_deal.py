"""One deal's play (``Deal``): seed 000 §13-§15 and the 接风 rule of seed 004."""

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guandan import make_player
from guandan.cards import RANKS, Card, parse_cards, shuffled_hands
from guandan.deal import PASS, Deal, Move, Pass
from guandan.match import Match, Observation
from guandan.plays import legal_plays as plays_of
from guandan.readings import KINDS, Reading, classify, read_as
from guandan.sampling import GiftBounds, place_unseen


class Hand:
    """The tests' hand: a ``Deal`` acted on seat by seat (each act checks the seat's turn)."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def __getattr__(self, name: str) -> object:
        return getattr(self.deal, name)

    def act(self, seat: int, action: Move) -> None:
        self.deal.check_turn(seat)
        self.deal.apply(action)

    def play(self, seat: int, play: Reading) -> None:
        self.act(seat, play)

    def pass_turn(self, seat: int) -> None:
        self.act(seat, PASS)

    def may_pass(self, seat: int) -> bool:
        return seat == self.deal.to_act and PASS in self.deal.legal_actions()

    def legal_plays(self, seat: int) -> list[Move]:
        if seat != self.deal.to_act:
            return []
        return [a for a in self.deal.legal_actions() if a is not PASS]


def hand(s1: str, s2: str, s3: str, s4: str, level: str = "2", leader: int = 1) -> Hand:
    cards = {1: parse_cards(s1), 2: parse_cards(s2), 3: parse_cards(s3), 4: parse_cards(s4)}
    return Hand(Deal(cards, level, leader))


def p(cards: str, level: str = "2") -> Reading:
    return classify(parse_cards(cards), level)[0]


def snapshot(h: Hand) -> tuple[object, ...]:
    d = h.deal
    return (d.hands, d.table, d.passed, d.finish_order, d.to_act, d.turns, d.trick_start)


# -- turns, passes, tricks (§13) --------------------------------------------------------------

def test_turns_go_1_2_3_4_and_the_leader_must_play() -> None:
    h = hand("S3 S9", "S4 S9", "S5 S9", "S6 S9")
    assert h.to_act == 1 and h.table is None
    assert not h.may_pass(1)
    with pytest.raises(ValueError, match="leads and must play"):
        h.pass_turn(1)
    h.play(1, p("S3"))
    assert h.to_act == 2 and h.may_pass(2)
    h.play(2, p("S4"))
    h.play(3, p("S5"))
    h.play(4, p("S6"))
    assert h.to_act == 1


def test_follower_may_pass_holding_a_winner_and_return_later() -> None:
    h = hand("S3 S9", "S4 SK", "S5 S9", "S6 S9")
    h.play(1, p("S3"))
    h.pass_turn(2)             # holds S4 and SK, passes anyway
    h.play(3, p("S5"))         # someone plays higher: seat 2 is back in
    h.pass_turn(4)
    h.pass_turn(1)
    assert h.to_act == 2
    h.play(2, p("SK"))
    assert h.table is not None and h.table.seat == 2


def test_trick_ends_when_all_others_passed_in_a_row_last_player_leads() -> None:
    h = hand("S3 S9", "S4 S9", "S5 S9", "S6 S9")
    h.play(1, p("S3"))
    h.play(2, p("S4"))
    h.pass_turn(3)
    h.pass_turn(4)
    assert h.table is not None and h.to_act == 1   # seat 1 has not passed: trick goes on
    h.pass_turn(1)
    assert h.table is None and h.to_act == 2 and h.trick_start == 5


def test_out_players_are_skipped() -> None:
    h = hand("S3 S9", "S4", "S5 S9", "S6 S9")
    h.play(1, p("S3"))
    h.play(2, p("S4"))        # seat 2 is out
    assert h.finish_order == [2]
    h.pass_turn(3)
    h.pass_turn(4)
    h.pass_turn(1)
    assert h.to_act == 4      # seat 2's play stood: partner 4 leads
    h.play(4, p("S6"))
    assert h.to_act == 1      # seat 2 skipped from now on
    h.pass_turn(1)
    assert h.to_act == 3


# -- the partner lead (§14, 접풍) -------------------------------------------------------------

def test_seed_14_nobody_beats_the_last_cards_partner_leads() -> None:
    h = hand("SK", "S4 S5", "S6 S7", "S8 S9")
    h.play(1, p("SK"))
    assert h.finish_order == [1] and h.to_act == 2   # the others may still beat it
    h.pass_turn(2)
    h.pass_turn(3)
    h.pass_turn(4)
    assert h.table is None and h.to_act == 3


def test_seed_14_seat_2_beats_play_continues_on_seat_2s_play() -> None:
    h = hand("SK", "SA S5", "S6 S7", "S8 S9")
    h.play(1, p("SK"))
    h.play(2, p("SA"))
    assert h.to_act == 3 and h.table is not None and h.table.seat == 2
    h.pass_turn(3)
    h.pass_turn(4)
    assert h.table is None and h.to_act == 2         # seat 2 leads, not seat 3


def test_partner_must_pass_too_when_the_out_players_play_is_on_the_table() -> None:
    h = hand("SK", "S4 S5", "S6 S7", "S8 S9")
    h.play(1, p("SK"))
    h.pass_turn(2)
    h.pass_turn(3)
    assert h.table is not None and h.to_act == 4     # every remaining player must answer


# -- the end of the hand (§15) ----------------------------------------------------------------

def test_one_two_finish_ends_the_hand_and_ranks_the_rest_in_turn_order() -> None:
    h = hand("S3", "S4 S9", "S5", "S6 S9")
    h.play(1, p("S3"))
    h.pass_turn(2)
    h.pass_turn(3)
    h.pass_turn(4)
    assert h.to_act == 3
    h.play(3, p("S5"))
    assert h.over and h.to_act is None
    assert h.finish_order == [1, 3, 4, 2]               # after seat 3 comes seat 4


def test_three_out_ends_the_hand_last_holder_is_fourth() -> None:
    h = hand("S3", "S4", "S5 S6", "S7")
    h.play(1, p("S3"))
    h.play(2, p("S4"))
    h.play(3, p("S5"))
    h.play(4, p("S7"))
    assert h.finish_order == [1, 2, 4, 3] and h.over
    assert h.finish_order == [1, 2, 4, 3]


def test_opponent_second_does_not_end_the_hand() -> None:
    h = hand("S3", "S4", "S5 S6", "S7 S8")
    h.play(1, p("S3"))
    h.play(2, p("S4"))
    assert not h.over and h.to_act == 3


def test_no_action_after_the_end() -> None:
    h = hand("S3", "S4 S9", "S5", "S6 S9")
    for seat, play in ((1, "S3"), (2, None), (3, None), (4, None), (3, "S5")):
        if play is None:
            h.pass_turn(seat)
        else:
            h.play(seat, p(play))
    with pytest.raises(ValueError, match="over"):
        h.pass_turn(4)
    with pytest.raises(ValueError, match="over"):
        h.play(4, p("S6"))
    assert h.legal_plays(4) == []


def test_no_finish_order_before_anyone_is_out() -> None:
    assert hand("S3", "S4", "S5", "S6").finish_order == []


# -- illegal plays: a clear reason, nothing changes -------------------------------------------

@pytest.mark.parametrize(
    ("seat", "play", "why"),
    [
        (2, "S4", "seat 1's turn, not seat 2's"),
        (1, "SA", "does not hold SA"),
        (1, "S3 S3", "does not hold S3"),
    ],
)
def test_illegal_play_on_empty_table(seat: int, play: str, why: str) -> None:
    h = hand("S3 D3 S9", "S4", "S5", "S6")
    before = snapshot(h)
    with pytest.raises(ValueError, match=why):
        h.play(seat, p(play))
    assert snapshot(h) == before


def test_play_that_does_not_beat_the_table() -> None:
    h = hand("S9 S3", "S4 S5 D5", "S5", "S6")
    h.play(1, p("S9"))
    before = snapshot(h)
    with pytest.raises(ValueError, match="single 4 does not beat the table's single 9"):
        h.play(2, p("S4"))
    with pytest.raises(ValueError, match="pair 5 does not beat the table's single 9"):
        h.play(2, p("S5 D5"))
    assert snapshot(h) == before


def test_wrong_reading_is_refused() -> None:
    h = hand("S3 D3 S9", "S4", "S5", "S6")
    with pytest.raises(ValueError, match="cannot be played as"):
        h.play(1, Reading("pair", "4", parse_cards("S3 D3"), "2"))
    with pytest.raises(ValueError, match="cannot be played as"):
        h.play(1, Reading("pair", "3", parse_cards("S3 S9"), "2"))
    with pytest.raises(ValueError, match="at least one card"):
        h.play(1, Reading("single", "3", [], "2"))
    with pytest.raises(ValueError, match="level"):
        h.play(1, p("S3", level="5"))


def test_any_physical_representative_is_accepted() -> None:
    h = hand("S9 D9 C9 H2 S3", "S4", "S5", "S6")
    listed = [r for r in h.legal_plays(1) if (r.kind, r.rank) == ("pair", "9")]
    assert len(listed) == 1
    other = read_as(parse_cards("H2 C9"), "2", "pair", "9")   # a wild fills the pair
    assert other.signature() != listed[0].signature()
    h.play(1, other)
    assert sorted(c.notation for c in h.hands[1]) == ["D9", "S3", "S9"]


def test_wild_readings_are_chosen_by_kind_and_rank() -> None:
    cards = parse_cards("H2 S3 D4 C5 S6")
    h = hand("H2 S3 D4 C5 S6 S9", "S4", "S5", "S6")
    h.play(1, read_as(cards, "2", "straight", "6"))
    assert h.table is not None and (h.table.play.kind, h.table.play.rank) == ("straight", "6")


def test_legal_plays_only_for_the_seat_to_act() -> None:
    h = hand("S3", "S4", "S5", "S6")
    assert h.legal_plays(2) == []
    assert [(r.kind, r.rank) for r in h.legal_plays(1)] == [("single", "3")]


def test_leader_needs_cards_and_a_seat() -> None:
    with pytest.raises(ValueError):
        Deal({1: [], 2: [Card("S3")], 3: [], 4: []}, "2", 1)
    with pytest.raises(ValueError):
        Deal({s: [Card("S3")] for s in (1, 2, 3, 4)}, "2", 5)


# -- the shared vectors, through a deal -------------------------------------------------------

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"


def _vectors(name: str) -> list[dict[str, Any]]:
    path = VECTORS / name
    if not path.is_file():
        pytest.skip(f"shared rule vectors not found: {path}")
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return cases


def test_a_deal_takes_exactly_the_readings_of_the_vectors() -> None:
    """Leading all its cards, a seat may play them as each listed reading and as no other
    kind; ``legal_actions`` lists exactly those readings among the plays of all its cards."""
    for case in _vectors("readings.json"):
        level, cards = case["level"], parse_cards(case["cards"])
        d = Deal({1: cards, 2: parse_cards("S3"), 3: parse_cards("S3"), 4: parse_cards("S3")},
                 level, 1)
        expected = {(k, r) for k, r in case["readings"]}
        whole = {(a.kind, a.rank) for a in d.legal_actions()
                 if isinstance(a, Reading) and len(a.cards) == len(cards)}
        assert whole == expected, case
        for kind, rank in expected:
            d.clone().apply(Reading(kind, rank, cards, level))
        rank = next(iter(expected))[1] if expected else "3"
        for kind in KINDS:
            if (kind, rank) in expected or (kind == "joker_bomb") != (rank is None):
                continue
            if rank in ("BJ", "LJ") and kind not in ("single", "pair"):
                continue  # no such reading can even be written
                with pytest.raises(ValueError, match="cannot be played as"):
                    d.clone().apply(Reading(kind, rank, cards, level))
        assert d.to_act == 1 and d.held(1) == tuple(cards)


def test_a_deal_lets_a_play_follow_exactly_when_the_vectors_say_it_beats() -> None:
    for case in _vectors("beats.json"):
        level = case["level"]
        a_cards, b_cards = parse_cards(case["a_cards"]), parse_cards(case["b_cards"])
        d = Deal({1: [*b_cards, Card("S3")], 2: [*a_cards, Card("S3")], 3: parse_cards("S3"),
                  4: parse_cards("S3")}, level, 1)
        d.apply(read_as(b_cards, level, case["b"][0], case["b"][1]))
        a = read_as(a_cards, level, case["a"][0], case["a"][1])
        if case["beats"]:
            d.apply(a)
            assert d.table == (2, a)
        else:
            with pytest.raises(ValueError, match="does not beat"):
                d.apply(a)
            assert d.to_act == 2 and d.table is not None and d.table.seat == 1


# -- clones, and the match's deal --------------------------------------------------------------

def _state(d: Deal) -> tuple[object, ...]:
    return (d.hands, d.table, d.passed, d.finish_order, d.to_act, d.turns, d.over)


@pytest.mark.parametrize("rules", ["site", "national", "huaian", "nanjing"])
def test_a_clone_plays_the_match_along_and_stays_independent(rules: str) -> None:
    """A clone of the match's deal at the first lead, given the same actions, is the match's
    deal at every step; acting on a clone never changes the original, nor the other way."""
    rng = random.Random(rules)
    m = Match(rules, seed=5)
    bots = {s: make_player("random", seed=s) for s in (1, 2, 3, 4)}
    hands = 0
    shadow: Deal | None = None
    while hands < 4:
        if m.to_act is None:  # final victory: the next match
            m = Match(rules, seed=5, match_number=m.match_number + 1)
        deal = m.current_deal
        if deal is not None and deal.turn_count == 0:
            shadow = deal.clone()
        seat = m.to_act
        assert seat is not None
        action = bots[seat].act(m.observation(seat))
        if deal is not None and shadow is not None and deal.turn_count % 9 == 0:
            before = _state(deal)
            probe = deal.clone()
            while not probe.over:  # a random play-out of a clone
                acts = probe.legal_actions()
                probe.apply(acts[rng.randrange(len(acts))])
            assert _state(deal) == before
        if deal is not None and shadow is not None:
            assert isinstance(action, (Reading, Pass))
            shadow.apply(action)
        done = len(m.records)
        m.apply(action)
        if deal is not None and shadow is not None:
            assert _state(shadow) == _state(deal)
        if len(m.records) > done:
            hands += 1
            assert shadow is not None and shadow.over
            assert m.records[-1]["finish_order"] == shadow.finish_order
            assert [t[0] for t in shadow.turns] == [a["seat"] for a in m.records[-1]["actions"]]
            shadow = None


def test_a_deal_pickles_and_copies_whole() -> None:
    import copy
    import pickle

    d = hand("S3 S9", "S4 S5", "S5", "S6 S7").deal
    d.apply(p("S3"))
    d.apply(PASS)
    for other in (pickle.loads(pickle.dumps(d)), copy.deepcopy(d)):
        assert _state(other) == _state(d) and other.turn_count == 2
        other.apply(p("S5"))
        assert d.to_act == 3 and other.to_act == 4


def test_an_illegal_action_changes_nothing() -> None:
    d = Deal({1: parse_cards("S3 S9"), 2: parse_cards("S4"), 3: parse_cards("S5"),
              4: parse_cards("S6")}, "2", 1)
    before = _state(d)
    for action, why in ((PASS, "must play"), (p("SA"), "does not hold"),
                        (Card("S3"), "not an action"), (p("S3", "5"), "level")):
        with pytest.raises(ValueError, match=why):
            d.apply(action)  # type: ignore[arg-type]
        assert _state(d) == before
    d.apply(p("S9"))
    for _ in (2, 3, 4):
        d.apply(PASS)
    d.apply(p("S3"))
    d.apply(p("S4"))
    d.apply(p("S5"))
    assert d.over and d.finish_order == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="over"):
        d.apply(PASS)
    assert d.legal_actions() == []


# -- Deal.sample ---------------------------------------------------------------------------------

def _positions(rules: str, seed: int, every: int) -> Iterator[tuple[Match, int]]:
    """Positions of a greedy match from hand 2 on (tribute and returns), every ``every``th
    decision, for the seat to act and one other."""
    m = Match(rules, seed=seed)
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    step = 0
    while m.hand_number <= 4 and m.to_act is not None:
        seat = m.to_act
        if m.phase == "play" and m.hand_number >= 2 and step % every == 0:
            yield m, seat
            yield m, seat % 4 + 1
        m.apply(bots[seat].act(m.observation(seat)))
        step += 1


def _known(obs: Observation, hands: dict[int, list[Card]]) -> None:
    """What the seat knows for certain holds in ``hands`` (the real ones or a sample)."""
    played: dict[int, Counter[Card]] = {s: Counter() for s in (1, 2, 3, 4)}
    for e in obs.history:
        if e.kind == "play" and e.play is not None:
            played[e.seat].update(e.play.cards)
    for g in obs.tribute.gifts:
        if g.receiver != obs.seat:  # a gift stays with its receiver until it plays a copy
            assert hands[g.receiver].count(g.card) >= 1 - played[g.receiver][g.card]
        if g.giver != obs.seat:  # a giver held nothing stronger, the level's hearts aside
            top = g.card.strength(obs.level)
            above = [c for c in hands[g.giver] + list(played[g.giver].elements())
                     if not c.is_wild(obs.level) and c.strength(obs.level) > top]
            assert len(above) <= (0 if obs.seat in (g.giver, g.receiver) else 1)
    for r in obs.tribute.returns:
        if r.giver == obs.seat:  # the card this seat returned
            assert hands[r.receiver].count(r.card) >= 1 - played[r.receiver][r.card]


@pytest.mark.parametrize("rules", ["site", "huaian"])
def test_a_sampled_deal_fits_everything_the_seat_has_seen(rules: str) -> None:
    checked = 0
    for m, seat in _positions(rules, 9, 7):
        obs = m.observation(seat)
        truth = m.current_deal
        assert truth is not None
        _known(obs, truth.hands)  # the rule holds for the real cards
        rng = random.Random(checked)
        d = Deal.sample(obs, rng)
        again = Deal.sample(obs, random.Random(checked))
        assert d.hands == again.hands  # the same rng state, the same deal
        assert Counter(d.held(seat)) == Counter(obs.hand)
        assert {s: d.count(s) for s in (1, 2, 3, 4)} == obs.counts
        hidden = Counter(c for s in (1, 2, 3, 4) if s != seat for c in d.held(s))
        real = Counter(c for s in (1, 2, 3, 4) if s != seat for c in truth.held(s))
        assert hidden == real  # the union of the hidden cards
        assert (d.table, d.passed, d.finish_order, d.to_act, d.level) == (
            truth.table, truth.passed, truth.finish_order, truth.to_act, truth.level)
        _known(obs, d.hands)
        while not d.over:  # and it plays on under the rules
            d.apply(d.legal_actions()[0])
        checked += 1
    assert checked >= 20


def test_sampling_keeps_a_gift_with_its_receiver_and_caps_its_giver() -> None:
    """Over many samples the constraints bind (they are not met by luck): the giver never
    holds two cards above its gift, the receiver always holds the gift."""
    for m, seat in _positions("site", 4, 5):
        obs = m.observation(seat)
        gifts = [g for g in obs.tribute.gifts if seat not in (g.giver, g.receiver)]
        if not gifts or len(obs.history) > 12:
            continue
        g = gifts[0]
        top = g.card.strength(obs.level)
        for i in range(30):
            d = Deal.sample(obs, random.Random(i))
            assert g.card in d.held(g.receiver)
            above = [c for c in d.held(g.giver)
                     if not c.is_wild(obs.level) and c.strength(obs.level) > top]
            assert len(above) <= 1
        return
    raise AssertionError("no position with a gift between two other seats")


def test_the_dealer_finds_a_deal_wherever_one_fits() -> None:
    """``place_unseen`` honours every bound at once (known cards, caps, a giver's gift and
    spare, the big jokers after an exemption), places each card only where the cards still to
    come fit (Hall's condition), and says None only when no deal fits."""
    none = GiftBounds({}, {}, ())
    # Seat 2 (cap: a four) can only take S3 and S4, seat 3 (a giver of a ten) no ace or king:
    # the aces and kings must all go to seat 4, and only one deal of the high cards fits.
    pool = Counter(parse_cards("S3 S4 SA HA SK HK D5 D6"))
    bounds = GiftBounds({3: 10}, {3: 0}, ())
    for i in range(200):
        hands = place_unseen(pool, {2: 2, 3: 2, 4: 4}, {}, bounds, "2", random.Random(i),
                            caps={2: 4})
        assert hands is not None
        assert sorted(hands[2]) == sorted(parse_cards("S3 S4"))
        assert sorted(hands[4]) == sorted(parse_cards("SA HA SK HK"))
        assert sorted(hands[3]) == sorted(parse_cards("D5 D6"))
    # With a spare card above the gift, one high card may go to seat 3, and does at times.
    spare = GiftBounds({3: 10}, {3: 1}, ())
    seen = Counter(sum(c.rank in "AK" for c in h[3]) for h in (
        place_unseen(pool, {2: 2, 3: 2, 4: 4}, {}, spare, "2", random.Random(i), caps={2: 4})
        for i in range(200)) if h is not None)
    assert set(seen) == {0, 1} and sum(seen.values()) == 200
    # Bounds that do not nest (seat 2 up to a nine with one spare card, seat 4 up to a three,
    # seat 3 capped at a king): a card-by-card deal in proportion to the room dead-ends at
    # times (the ace with nowhere left to go); the dealer never does.
    pool = Counter(parse_cards("H2 H2 S4 SA"))
    bounds = GiftBounds({2: 9, 4: 3}, {2: 1, 4: 0}, ())
    for i in range(60):
        hands = place_unseen(pool, {2: 2, 3: 1, 4: 1}, {}, bounds, "2", random.Random(i),
                            caps={3: 13})
        assert hands is not None
        assert (sorted(hands[2]), hands[3], hands[4]) == (
            sorted(parse_cards("H2 SA")), parse_cards("S4"), parse_cards("H2"))
    # Known cards go first; the big jokers after an exemption go to the givers.
    pool = Counter(parse_cards("BJ BJ S3 S4 S5 S6"))
    hands = place_unseen(pool, {2: 2, 3: 2, 4: 2}, {3: Counter(parse_cards("S6"))},
                        GiftBounds({}, {}, (2, 4)), "2", random.Random(0))
    assert hands is not None and parse_cards("S6")[0] in hands[3]
    assert sum(c.rank == "BJ" for s in (2, 4) for c in hands[s]) == 2
    # No deal fits: None (the caller decides); cards beyond the room are left out.
    assert place_unseen(Counter(parse_cards("SA HA")), {2: 1, 3: 1}, {}, none, "2",
                       random.Random(0), caps={2: 4, 3: 4}) is None
    # ... also when one card only fits nowhere, with room to spare for it by the counts.
    pool = Counter(parse_cards("SA S3 S4 S5 S6 S7"))
    assert place_unseen(pool, {2: 2, 3: 2, 4: 2}, {}, none, "2", random.Random(0),
                       caps={2: 10, 3: 10, 4: 10}) is None
    hands = place_unseen(Counter(parse_cards("S3 S4 S5")), {2: 1, 3: 1}, {}, none, "2",
                        random.Random(0))
    assert hands is not None and len(hands[2]) == len(hands[3]) == 1 and 0 not in hands


def test_sampling_refuses_a_position_without_play() -> None:
    m = Match("site", seed=21)
    bots = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    while m.phase != "return":
        m.apply(bots[m.to_act].act(m.observation(m.to_act)))  # type: ignore[index]
    with pytest.raises(ValueError, match="not on"):
        Deal.sample(m.observation(1), random.Random(0))


def test_play_out_plays_legal_actions_to_the_end_from_its_seed() -> None:
    """``play_out`` plays a clone to the end by random legal actions: replayed through
    ``apply`` on another clone the turns are accepted and end the same way; the same seed
    plays the same turns; the deal it was cloned from does not change."""
    rng = random.Random(8)
    for i in range(6):
        base = Deal(shuffled_hands(rng), RANKS[i], 1 + i % 4)
        for _ in range(5 + i):  # into the hand a little
            acts = base.legal_actions()
            base.apply(acts[rng.randrange(len(acts))])
        before = _state(base)
        first, second = base.clone(), base.clone()
        first.play_out(random.Random(i))
        second.play_out(random.Random(i))
        assert first.over and sorted(first.finish_order) == [1, 2, 3, 4]
        assert first.turns == second.turns and first.finish_order == second.finish_order
        replay = base.clone()
        for seat, play in first.turns[base.turn_count:]:
            replay.check_turn(seat)
            replay.apply(PASS if play is None else play)
        assert _state(replay) == _state(first)
        assert _state(base) == before


def test_a_play_offered_before_the_hand_changed_is_checked_again() -> None:
    """Plays the deal listed for a seat are trusted only while that seat's hand is the one
    they were listed from: offered again after the seat played, they are refused."""
    d = hand("S3 S4 S9", "S5 S6", "S7 S8", "ST SJ").deal
    offered = [a for a in d.legal_actions() if isinstance(a, Reading) and a.kind == "single"]
    three = next(a for a in offered if a.rank == "3")
    d.apply(three)
    for _ in range(3):
        d.apply(PASS)
    assert d.to_act == 1
    with pytest.raises(ValueError, match="does not hold"):
        d.apply(three)
    nine = next(a for a in offered if a.rank == "9")
    d.apply(nine)  # still held: read again, and taken
    assert d.count(1) == 1


def test_every_distinct_play_is_listed_by_the_deal_as_legal_plays_lists_it() -> None:
    """``legal_actions(every=True)`` is ``legal_plays(..., every=True)`` against the table, and
    PASS when following, at every decision of seeded random hands; each listed play is taken."""
    rng = random.Random(7)
    for _ in range(20):
        d = Deal(shuffled_hands(rng), "5", 1)
        while not d.over:
            seat = d.to_act
            assert seat is not None
            table = d.table.play if d.table is not None else None
            every = d.legal_actions(every=True)
            expected: list[Move] = list(plays_of(d.held(seat), "5", table, every=True))
            if table is not None:
                expected.append(PASS)
            assert every == expected
            assert [a for a in d.legal_actions()] == (
                list(plays_of(d.held(seat), "5", table)) + ([PASS] if table is not None else []))
            d.apply(every[rng.randrange(len(every))])
