"""Tribute and return: seed 000 §18-§22, §24 and the presets' return and equal-gift rules."""

import pytest

from guandan.cards import Card, parse_cards
from guandan.tribute import (
    TributeExchange,
    default_return,
    gift_card,
    givers,
    is_exempt,
    plan_tribute,
    returnable_cards,
)

FILLER = "S3 D4 C5 S6"


def hands(**by_seat: str) -> dict[int, list[Card]]:
    """Small hands: seats not named hold a few low cards."""
    return {s: parse_cards(by_seat.get(f"s{s}", FILLER)) for s in (1, 2, 3, 4)}


def flows(plan_gifts: object) -> list[tuple[int, int, str]]:
    return [(g.giver, g.receiver, g.card.notation) for g in plan_gifts]  # type: ignore[attr-defined]


# -- who gives (§18, §19) ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ([1, 2, 3, 4], (4,)),   # partner 3rd: single, 4th gives
        ([1, 2, 4, 3], (3,)),   # partner 4th gives to the 1st all the same
        ([2, 1, 4, 3], (3,)),
        ([1, 3, 2, 4], (2, 4)),  # 1-2: 3rd and 4th give
        ([4, 2, 3, 1], (3, 1)),
    ],
)
def test_givers(order: list[int], expected: tuple[int, ...]) -> None:
    assert givers(order) == expected


@pytest.mark.parametrize("bad", [[1, 2, 3], [1, 1, 2, 3], [0, 1, 2, 3], [1, 2, 3, 5]])
def test_bad_finish_order(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="finish order"):
        givers(bad)


def test_partner_4th_gives_to_1st_not_exempt() -> None:
    plan = plan_tribute([1, 2, 4, 3], hands(s3="S3 SA S4"), "2", "site")
    assert plan.kind == "single"
    assert flows(plan.gifts) == [(3, 1, "SA")]
    assert plan.leader == 3


# -- the gift (§18) ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("cards", "level", "gift"),
    [
        ("S3 SA BJ LJ", "2", "BJ"),
        ("S3 SA LJ", "2", "LJ"),
        ("SA S7 H7", "7", "S7"),      # the level rank beats A; the wild heart is never given
        ("SA H7 H7", "7", "SA"),
        ("SK SA", "7", "SA"),
        ("SQ DK", "K", "DK"),
    ],
)
def test_gift_is_the_strongest_non_wild_card(cards: str, level: str, gift: str) -> None:
    assert gift_card(parse_cards(cards), level).notation == gift


def test_gift_uses_the_current_level() -> None:
    # §24 ex. 1: the hand after 1,2,3,4 at level 2 is played at 4; H4 is wild then, H2 is not.
    assert gift_card(parse_cards("H4 H2 SA"), "4").notation == "SA"
    assert gift_card(parse_cards("H4 S4 SA"), "4").notation == "S4"
    assert gift_card(parse_cards("H2 S2 SA"), "2").notation == "S2"
    assert gift_card(parse_cards("H2 SA"), "2").notation == "SA"


def test_only_wilds_cannot_give() -> None:
    with pytest.raises(ValueError, match="wild"):
        gift_card(parse_cards("H7 H7"), "7")


# -- double tribute assignment (§19, §22, §24) ------------------------------------------------

def test_seed_19_equal_gifts_site() -> None:
    # 1st is seat 1, 2nd seat 3; seats 2 and 4 both give an A: 2→1, 4→3.
    plan = plan_tribute([1, 3, 2, 4], hands(s2="S3 SA", s4="S4 DA"), "2", "site")
    assert plan.kind == "double"
    assert flows(plan.gifts) == [(2, 1, "SA"), (4, 3, "DA")]
    assert plan.leader == 2


@pytest.mark.parametrize("rules", ["national", "huaian", "nanjing"])
def test_equal_gifts_other_presets_seat_before_first(rules: str) -> None:
    plan = plan_tribute([1, 3, 2, 4], hands(s2="S3 SA", s4="S4 DA"), "2", rules)
    assert flows(plan.gifts) == [(4, 1, "DA"), (2, 3, "SA")]
    assert plan.leader == 4


@pytest.mark.parametrize(("rules", "to_first"), [("site", 3), ("national", 1), ("nanjing", 1)])
def test_equal_gifts_first_is_seat_2(rules: str, to_first: int) -> None:
    # 1st seat 2, 2nd seat 4; givers 1 and 3. From seat 2 in play order seat 3 comes first;
    # the seat right before seat 2 is seat 1.
    plan = plan_tribute([2, 4, 3, 1], hands(s1="SK", s3="DK"), "2", rules)
    other = 4 - to_first
    assert [(g.giver, g.receiver) for g in plan.gifts] == [(to_first, 2), (other, 4)]
    assert plan.leader == to_first


def test_equal_rank_gifts_suits_never_decide() -> None:
    a = plan_tribute([1, 3, 2, 4], hands(s2="SA", s4="HA"), "2", "site")
    b = plan_tribute([1, 3, 2, 4], hands(s2="HA", s4="SA"), "2", "site")
    assert [(g.giver, g.receiver) for g in a.gifts] == [(g.giver, g.receiver) for g in b.gifts]


def test_seed_24_example_2_stronger_gift_to_first() -> None:
    # 1/3 finish 1-2; seat 2 gives BJ, seat 4 an A: 2→1, 4→3, seat 2 leads after returns.
    plan = plan_tribute([1, 3, 4, 2], hands(s2="BJ S3", s4="SA S4"), "2", "site")
    assert flows(plan.gifts) == [(2, 1, "BJ"), (4, 3, "SA")]
    assert plan.leader == 2
    plan = plan_tribute([1, 3, 4, 2], hands(s2="SA S3", s4="BJ S4"), "2", "national")
    assert flows(plan.gifts) == [(4, 1, "BJ"), (2, 3, "SA")]
    assert plan.leader == 4


def test_level_rank_gift_beats_ace_gift() -> None:
    plan = plan_tribute([1, 3, 2, 4], hands(s2="SA", s4="S9"), "9", "site")
    assert flows(plan.gifts) == [(4, 1, "S9"), (2, 3, "SA")]


# -- exemption (§21, §24) ---------------------------------------------------------------------

def test_seed_24_example_1() -> None:
    # 1,2,3,4 at level 2: 13 goes to 4; the next hand is at 4, seat 4 gives to seat 1 and leads.
    plan = plan_tribute([1, 2, 3, 4], hands(s4="H4 SA S3"), "4", "site")
    assert flows(plan.gifts) == [(4, 1, "SA")]
    assert plan.leader == 4
    # Seat 4 with both big jokers: exempt, seat 1 leads.
    plan = plan_tribute([1, 2, 3, 4], hands(s4="BJ BJ S3"), "4", "site")
    assert (plan.kind, plan.gifts, plan.leader) == ("exempt", (), 1)


def test_double_exempt_with_one_big_joker_each() -> None:
    plan = plan_tribute([3, 1, 2, 4], hands(s2="BJ S3", s4="BJ S4"), "2", "site")
    assert (plan.kind, plan.gifts, plan.leader) == ("exempt", (), 3)


@pytest.mark.parametrize(
    "kw",
    [
        {"s1": "BJ BJ", "s4": "SA"},            # the receiver's big jokers do not count
        {"s3": "BJ", "s4": "BJ SA"},            # the receiver's partner's do not either
        {"s4": "LJ LJ SA"},                     # two little jokers do not exempt
        {"s4": "BJ H2 SA"},                     # nor a wild beside one big joker
    ],
)
def test_single_not_exempt(kw: dict[str, str]) -> None:
    plan = plan_tribute([1, 2, 3, 4], hands(**kw), "2", "site")
    assert plan.kind == "single"


def test_double_not_exempt_when_receivers_hold_the_jokers() -> None:
    plan = plan_tribute([1, 3, 2, 4], hands(s1="BJ", s3="BJ", s2="SA", s4="SK"), "2", "site")
    assert plan.kind == "double"
    plan = plan_tribute([1, 3, 2, 4], hands(s1="BJ", s2="BJ SA", s4="SK"), "2", "site")
    assert plan.kind == "double"
    assert flows(plan.gifts) == [(2, 1, "BJ"), (4, 3, "SK")]


def test_is_exempt_counts_only_givers() -> None:
    h = hands(s1="BJ BJ")
    assert not is_exempt(h, (4,))
    assert is_exempt(h, (1,))


def test_first_hand_has_no_tribute_and_seat_1_leads() -> None:
    plan = plan_tribute(None, hands(), "2", "site")
    assert (plan.kind, plan.gifts, plan.leader) == ("none", (), 1)


# -- returns (§18, §20) -----------------------------------------------------------------------

def notations(cards: list[Card]) -> list[str]:
    return [c.notation for c in cards]


def test_seed_20_level_7_site() -> None:
    hand = parse_cards("S3 S7 H7 S8 ST SJ BJ")
    ok = notations(returnable_cards(hand, "7", "site", None))
    assert ok == ["S3", "S8", "ST"]   # 3, 8, 10 may go back; 7 (and its wild), J, jokers not


def test_seed_20_level_2_site_two_is_not_a_low_return() -> None:
    hand = parse_cards("S2 D2 S3 SK")
    assert notations(returnable_cards(hand, "2", "site", None)) == ["S3"]


def test_site_without_low_card_returns_the_weakest_held() -> None:
    hand = parse_cards("SJ DJ SQ S7 BJ")   # at level 7: J is the weakest, 7 is strong
    assert notations(returnable_cards(hand, "7", "site", None)) == ["SJ", "DJ"]
    hand = parse_cards("SA S2 BJ")
    assert notations(returnable_cards(hand, "2", "site", None)) == ["SA"]


@pytest.mark.parametrize("rules", ["national", "nanjing"])
def test_national_nanjing_any_card_up_to_ten(rules: str) -> None:
    hand = parse_cards("S3 S7 H7 S8 ST SJ BJ")
    assert notations(returnable_cards(hand, "7", rules, None)) == ["S3", "S8", "ST", "S7", "H7"]
    hand = parse_cards("SJ SQ BJ")
    assert notations(returnable_cards(hand, "7", rules, None)) == ["SJ"]


def test_huaian_any_card() -> None:
    hand = parse_cards("S3 SA BJ H7")
    assert notations(returnable_cards(hand, "7", "huaian", None)) == ["S3", "SA", "H7", "BJ"]


def test_never_the_card_just_received() -> None:
    hand = parse_cards("S3 S5 SA")
    assert notations(returnable_cards(hand, "2", "huaian", Card("SA"))) == ["S3", "S5"]
    # the gift is low: that copy may not go back …
    assert notations(returnable_cards(hand, "2", "site", Card("S3"))) == ["S5"]
    # … but a second copy of the same card may.
    hand = parse_cards("S3 S3 S5")
    assert notations(returnable_cards(hand, "2", "site", Card("S3"))) == ["S3", "S5"]


def test_weakest_fallback_excludes_the_received_copy() -> None:
    hand = parse_cards("SJ SQ SK")
    assert notations(returnable_cards(hand, "2", "site", Card("SJ"))) == ["SQ"]


def test_default_return_is_the_weakest() -> None:
    assert default_return(parse_cards("S9 S4 SA"), "2", "site", Card("SA")) == Card("S4")


# -- the exchange -----------------------------------------------------------------------------

def exchange_double() -> TributeExchange:
    h = {1: parse_cards("S5 S6"), 2: parse_cards("BJ S3"), 3: parse_cards("S7 S8"),
         4: parse_cards("SA S4")}
    return TributeExchange(h, "2", "site", [1, 3, 4, 2])


def test_exchange_receivers_return_in_turn_1st_first() -> None:
    ex = exchange_double()
    assert [len(ex.hands[s]) for s in (1, 2, 3, 4)] == [3, 1, 3, 1]
    assert ex.to_return == 1
    assert ex.returnable(3) == []
    with pytest.raises(ValueError, match="seat 1 returns now, not seat 3"):
        ex.apply_return(3, Card("S7"))
    ex.apply_return(1, Card("S5"))
    assert ex.to_return == 3 and not ex.done
    ex.apply_return(3, Card("S7"))
    assert ex.done and ex.to_return is None
    assert [(r.giver, r.receiver, r.card.notation) for r in ex.returns] == [
        (1, 2, "S5"), (3, 4, "S7")]
    assert sorted(notations(ex.hands[2])) == ["S3", "S5"]
    assert [len(ex.hands[s]) for s in (1, 2, 3, 4)] == [2, 2, 2, 2]
    with pytest.raises(ValueError, match="no return is due"):
        ex.apply_return(1, Card("S6"))


@pytest.mark.parametrize(
    ("card", "why"),
    [("BJ", "just received"), ("SK", "does not hold"), ("S2", "does not hold")],
)
def test_refused_return_changes_nothing(card: str, why: str) -> None:
    ex = exchange_double()
    before = {s: list(c) for s, c in ex.hands.items()}
    with pytest.raises(ValueError, match=why):
        ex.apply_return(1, Card(card))
    assert ex.hands == before and ex.returns == []


def test_refused_by_preset_names_the_allowed_cards() -> None:
    h = {1: parse_cards("S5 SK"), 2: parse_cards("S3"), 3: parse_cards("S7"),
         4: parse_cards("SA S4")}
    ex = TributeExchange(h, "2", "site", [1, 2, 3, 4])
    with pytest.raises(ValueError, match="site rules allow only S5"):
        ex.apply_return(1, Card("SK"))
    ex2 = TributeExchange(h, "2", "huaian", [1, 2, 3, 4])
    ex2.apply_return(1, Card("SK"))
    assert ex2.done


def test_exempt_and_none_need_no_return() -> None:
    h = hands(s4="BJ BJ")
    assert TributeExchange(h, "2", "site", [1, 2, 3, 4]).done
    assert TributeExchange(hands(), "2", "site", None).done
