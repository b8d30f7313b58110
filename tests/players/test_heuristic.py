"""The heuristic player's behaviours, in constructed positions."""

from __future__ import annotations

import pytest

from guandan.cards import Card, parse_cards
from guandan.match import PASS, Event
from guandan.players import make_player
from guandan.players.describe import play_names
from guandan.players.heuristic import RACE, HeuristicPlayer
from guandan.players.tracker import Tracker
from guandan.readings import Reading

from .positions import position, reading, return_position


def act(obs_hand: str, **kw: object) -> tuple[object, HeuristicPlayer]:
    p = HeuristicPlayer()
    obs = position(obs_hand, **kw)  # type: ignore[arg-type]
    action = p.act(obs)
    assert action in obs.legal_actions
    return action, p


def named(action: object, p: HeuristicPlayer) -> None:
    """The reason names the play it made (or says it passes)."""
    if isinstance(action, Reading):
        ko, en = play_names(action)
        assert en in p.reason.en and ko in p.reason.ko, (p.reason, en, ko)
    else:
        assert "pass" in p.reason.en.lower() and "패스" in p.reason.ko


def test_partner_winning_play_is_not_overtaken() -> None:
    a, p = act("S9 SK D3 D4 C7 C8 SQ", table=(3, "S8"))
    assert a is PASS
    assert "Partner" in p.reason.en
    named(a, p)


def test_partner_play_overtaken_to_go_out() -> None:
    a, p = act("SK", table=(3, "S8"))
    assert isinstance(a, Reading) and a.rank == "K"
    named(a, p)


def test_bomb_kept_on_an_ordinary_trick() -> None:
    a, p = act("S9 D9 H9 C9 S3 D5 C7 SJ DQ", table=(2, "SA"))
    assert a is PASS
    assert "bomb" in p.reason.en
    named(a, p)


def test_bomb_stops_an_opponent_about_to_go_out() -> None:
    a, p = act("S9 D9 H9 C9 S3 D5 C7 SJ DQ", table=(2, "SA"), counts={2: 1})
    assert isinstance(a, Reading) and a.kind == "bomb"
    named(a, p)


def test_opponent_with_one_card_gets_no_low_single_lead() -> None:
    a, p = act("S3 D6 D6 C9 C9 C9 SJ SJ", counts={2: 1})
    assert isinstance(a, Reading) and a.kind != "single"
    named(a, p)


def test_only_singles_left_lead_the_strongest_into_a_one_card_opponent() -> None:
    a, p = act("S3 D6 C9 SJ", counts={4: 1})
    assert isinstance(a, Reading) and a.kind == "single" and a.rank == "J"
    named(a, p)


def test_opponent_with_one_card_is_stopped_when_following() -> None:
    # Seat 4 holds one card: beat the single from seat 2 even though it breaks a pair.
    a, p = act("S3 D6 DK SK C9 C9 C9 S4 D4", table=(2, "SQ"), counts={4: 1})
    assert isinstance(a, Reading) and a.rank == "K"
    named(a, p)


def test_partner_nearly_out_gets_a_low_single() -> None:
    a, p = act("S3 D6 D6 C9 C9 C9 SJ SJ SA", counts={3: 1})
    assert isinstance(a, Reading) and a.kind == "single" and a.rank == "3"
    assert "Partner" in p.reason.en
    named(a, p)


def test_partner_single_blocked_when_next_opponent_could_go_out() -> None:
    a, p = act("S3 D6 SA C9 C9 C9", table=(3, "S5"), counts={2: 1})
    assert isinstance(a, Reading) and a.kind == "single" and a.rank == "A"
    named(a, p)


def test_goes_out_when_the_hand_is_one_play() -> None:
    a, p = act("S9 D9 C9 SJ HJ")
    assert isinstance(a, Reading) and a.kind == "full_house" and len(a.cards) == 5
    assert "out" in p.reason.en
    named(a, p)


def test_cashes_the_sure_winner_before_going_out() -> None:
    # No pair beats a pair of big jokers: lead it, then go out with the 3s.
    a, p = act("BJ BJ S3 D3")
    assert isinstance(a, Reading) and a.rank == "BJ"
    named(a, p)


def test_leads_the_weakest_part_of_the_split() -> None:
    a, p = act("S3 S4 D5 C6 S7 S9 D9 C9 SK DK SA")
    # Split: straight 3-7, full house 999KK, single A: the straight or full house goes first,
    # never the A.
    assert isinstance(a, Reading) and a.kind in ("straight", "full_house")
    named(a, p)


def test_follows_with_a_play_the_hand_holds_anyway() -> None:
    a, p = act("S3 S4 D5 C6 S7 SJ DJ SA", table=(2, "S9 D9"))
    assert isinstance(a, Reading) and a.kind == "pair" and a.rank == "J"
    named(a, p)


def test_passes_rather_than_break_a_straight_early() -> None:
    # Only the K of the straight 9-K beats the Q; breaking the straight costs four singles.
    obs_hand = "S9 ST SJ SQ DK S3 D3 D5 C5 S5"
    a, p = act(obs_hand, table=(2, "HQ"))
    assert a is PASS
    assert "break" in p.reason.en
    named(a, p)


def test_wild_used_to_save_a_play() -> None:
    # At level 2, H2 fills the straight 3-7 (one play instead of five singles).
    a, p = act("S3 S4 C6 S7 H2")
    assert isinstance(a, Reading) and a.kind == "straight" and len(a.cards) == 5
    named(a, p)


@pytest.mark.parametrize(("hand", "allowed", "expected"), [
    # 3-7 is a straight; the lone 9 is the card the split needs least.
    ("S3 D4 C5 S6 D7 S9 SK DK SA", "S3 D4 C5 S6 D7 S9", "S9"),
    # The pair of 5s stays; the lone 4 goes.
    ("S4 S5 D5 SQ SQ DK", "S4 S5 D5", "S4"),
])
def test_tribute_return_keeps_the_split(hand: str, allowed: str, expected: str) -> None:
    p = HeuristicPlayer()
    obs = return_position(hand, "2", allowed)
    card = p.act(obs)
    assert isinstance(card, Card) and card == parse_cards(expected)[0]
    assert expected in p.reason.en and expected in p.reason.ko


def test_tribute_return_names_the_play_it_keeps() -> None:
    # The lowest card, S3, starts the straight 3-7: the lone 9 goes back, and the reason says
    # the straight needs the lower card.
    p = HeuristicPlayer()
    card = p.act(return_position("S3 D4 C5 S6 D7 S9 SK DK SA", "2", "S3 D4 C5 S6 D7 S9",
                                 giver=2))
    assert card == parse_cards("S9")[0]
    assert p.reason.code == "return_keeps_play"
    assert p.reason.params["play"] == {"cards": ["S3", "D4", "C5", "S6", "D7"],
                                       "kind": "straight", "rank": "7"}


@pytest.mark.parametrize("player", ["heuristic", "search"])
def test_tribute_return_to_partner_gives_the_highest_spare_card(player: str) -> None:
    # Both lone cards cost the split one play; an opponent gets the 3, the partner (seat 3,
    # the 4th who gave to this seat, the 1st) the 10.
    hand, allowed = "S3 DT SQ HQ DK CK SA HA BJ", "S3 DT"
    p = make_player(player)
    assert p.act(return_position(hand, "2", allowed, giver=2)) == parse_cards("S3")[0]
    assert p.reason.code == "return_least_needed"
    card = p.act(return_position(hand, "2", allowed, giver=3))
    assert card == parse_cards("DT")[0]
    assert p.reason.code == "return_to_partner" and "DT" in p.reason.en and "DT" in p.reason.ko


def test_no_block_over_partner_when_the_next_opponent_showed_it_cannot_beat() -> None:
    # Partner (seat 3) leads a 9 holding one card; seat 2, next after seat 1 and holding one
    # card, passed on partner's 8 when pressed: it holds no single above the 8, so seat 1
    # lets partner's 9 stand instead of blocking it with a high single.
    history = [Event("play", 3, play=reading("S8", "2")), Event("pass", 4), Event("pass", 1),
               Event("pass", 2), Event("play", 3, play=reading("S9", "2"), lead=True),
               Event("pass", 4)]
    obs = position("S4 SA DK", counts={2: 1, 3: 1, 4: 10}, history=history, table=(3, "S9"))
    p = HeuristicPlayer()
    assert p.act(obs) is PASS and p.reason.code == "pass_partner_winning"
    blind = HeuristicPlayer(read_passes=False)  # without reading the pass: block
    a = blind.act(obs)
    assert isinstance(a, Reading) and blind.reason.code == "block_for_partner"


def test_a_bomb_no_unseen_bomb_beats_takes_the_lead_to_finish() -> None:
    # Calm, an opponent's pair of 9s: only the joker bomb beats it. Nothing unseen can beat a
    # joker bomb, and three plays then take the hand out: bomb now (bomb timing), even where a
    # bomb otherwise needs two plays to finish (``bomb_finish=2``, as against opponents who
    # bomb readily). Without the timing that bomb waits.
    hand = "BJ BJ LJ LJ S3 D7 C7 H7 SK"
    obs = position(hand, table=(2, "S9 D9"), counts={2: 20, 3: 20, 4: 20})
    p = HeuristicPlayer(bomb_finish=2)
    a = p.act(obs)
    assert isinstance(a, Reading) and a.kind == "joker_bomb"
    assert p.reason.code == "bomb_sure" and p.reason.params["n"] == 3
    assert HeuristicPlayer(bomb_timing=False, bomb_finish=2).act(obs) is PASS


def test_a_calm_bomb_takes_the_lead_when_three_plays_then_finish() -> None:
    # Calm, an opponent's pair of 9s: only the four 8s beat it, and unseen bombs beat them.
    # Three plays (a 3, three 7s, a king) then finish the hand: bomb for the lead.
    hand = "S8 D8 C8 H8 S3 D7 C7 H7 SK"
    a, p = act(hand, table=(4, "S9 D9"), counts={2: 20, 3: 19, 4: 15})
    assert isinstance(a, Reading) and a.kind == "bomb" and a.rank == "8"
    assert p.reason.code == "bomb_to_finish" and p.reason.params["n"] == 3
    named(a, p)
    # Seat 4 bombed seat 3's single earlier, calm and keeping 17 cards: it bombs readily and
    # would bomb back, so the four 8s wait until two plays finish the hand.
    history = [Event("play", 3, play=reading("S5", "2"), lead=True),
               Event("play", 4, play=reading("S6 D6 C6 H6", "2")),
               Event("pass", 1), Event("pass", 2), Event("pass", 3),
               Event("play", 4, play=reading("S9 D9", "2"), lead=True)]
    obs = position(hand, table=(4, "S9 D9"), counts={2: 20, 3: 19, 4: 15}, history=history)
    assert Tracker.from_observation(obs).bombs_readily(1)
    p = HeuristicPlayer()
    assert p.act(obs) is PASS and p.reason.code == "pass_keep_bomb"
    assert HeuristicPlayer(bomb_finish=2).act(
        position(hand, table=(4, "S9 D9"), counts={2: 20, 3: 19, 4: 15})) is PASS


def test_a_lead_an_opponent_nearly_out_showed_it_cannot_follow_is_safe() -> None:
    # Seat 1 led a pair of 3s keeping 3 cards; seats 2 and 4 passed when pressed, so neither
    # holds a pair above the 3s. Now seat 2 holds two cards: the pair of 5s is no gift to it;
    # nobody can beat it, so seat 1 cashes it. Without reading the passes it leads the single
    # 6, which seat 2 cannot follow as a whole hand.
    history = [Event("play", 1, play=reading("S3 D3", "2")), Event("pass", 2),
               Event("pass", 3), Event("pass", 4)]
    obs = position("S5 D5 S6", counts={2: 2, 3: 15, 4: 12}, history=history)
    p = HeuristicPlayer()
    a = p.act(obs)
    assert isinstance(a, Reading) and a.kind == "pair" and p.reason.code == "lead_cash"
    blind = HeuristicPlayer(read_passes=False)
    b = blind.act(obs)
    assert isinstance(b, Reading) and b.kind == "single"
    assert blind.reason.code == "lead_hard_to_follow"


def test_the_bomb_finish_setting_travels_with_a_pickled_player() -> None:
    import pickle

    assert pickle.loads(pickle.dumps(HeuristicPlayer(bomb_finish=2))).core.bomb_finish == 2
    assert pickle.loads(pickle.dumps(HeuristicPlayer())).core.bomb_finish == 3
    assert make_player("search", bomb_finish=2).core.bomb_finish == 2


def test_a_bomb_takes_an_opponents_play_once_the_race_is_on() -> None:
    hand = "S9 D9 H9 C9 S3 D5 C7 SJ DQ"  # only the bomb beats an ace

    def race(table: tuple[int, str], counts: dict[int, int], race: int = 14,
             history: list[Event] | None = None) -> tuple[object, HeuristicPlayer]:
        p = HeuristicPlayer(race=race)
        obs = position(hand, table=table, counts=counts, history=history or [])
        return p.act(obs), p

    # An opponent down to 10 cards (calm by urgency, which waits for 6): the race is on.
    a, p = race((2, "SA"), {2: 10})
    assert isinstance(a, Reading) and a.kind == "bomb"
    assert p.reason.code == "bomb_race" and p.reason.params["n"] == 10
    named(a, p)
    # So it is when the other opponent is that low, or the partner holds 6 or fewer.
    a, p = race((2, "SA"), {4: 9})
    assert isinstance(a, Reading) and a.kind == "bomb"
    a, p = race((2, "SA"), {3: 6})
    assert isinstance(a, Reading) and a.kind == "bomb"
    # Not yet with both opponents above the setting and a partner at 7; never at 0 (the
    # default, ``RACE``); never on a partner's play.
    a, p = race((2, "SA"), {2: 15, 3: 7, 4: 15})
    assert a is PASS and p.reason.code == "pass_keep_bomb"
    assert race((2, "SA"), {2: 10, 3: 6}, race=RACE)[0] is PASS
    assert race((3, "SA"), {2: 5, 4: 5})[0] is PASS
    # Nor against an opponent seen bombing while calm: it would bomb back.
    calm_bomb = [Event("play", 3, play=reading("S3", "2"), lead=True), Event("pass", 4),
                 Event("pass", 1), Event("play", 2, play=reading("S6 D6 H6 C6", "2")),
                 Event("pass", 3), Event("pass", 4), Event("pass", 1),
                 Event("play", 2, play=reading("SA", "2"), lead=True)]
    assert race((2, "SA"), {2: 10}, history=calm_bomb)[0] is PASS


def test_the_race_setting_travels_with_a_pickled_player() -> None:
    import pickle

    assert pickle.loads(pickle.dumps(HeuristicPlayer(race=8))).core.race == 8
    assert make_player("search", race=0).core.race == 0
