"""One deal's play (``Deal``): seed 000 §13-§15 and the 接风 rule of seed 004."""

import pytest

from guandan.cards import Card, parse_cards
from guandan.deal import PASS, Deal, Move
from guandan.readings import Reading, classify, read_as


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
