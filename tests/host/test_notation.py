"""The protocol's notation against ours: cards, kinds, ranks, and every physical choice."""

import itertools
from collections import Counter

import pytest

from guandan.cards import parse_card, parse_cards
from guandan.host.notation import (
    card_from_wire,
    card_to_wire,
    cards_to_wire,
    expand,
    play_from_wire,
    play_to_wire,
    variants,
    wire_rank_to_ours,
)
from guandan.match import Match
from guandan.plays import legal_plays
from guandan.readings import Reading, classify, read_as


def test_cards_jokers_and_ten() -> None:
    assert card_to_wire(parse_card("BJ")) == "HR"
    assert card_to_wire(parse_card("LJ")) == "SB"
    assert card_to_wire(parse_card("SJ")) == "SJ"  # the jack of spades stays itself
    assert card_to_wire(parse_card("DT")) == "DT"
    assert card_from_wire("HR") == parse_card("BJ")
    assert card_from_wire("SB") == parse_card("LJ")
    for bad in ("BJ", "LJ", "H10", "X2", 7, "S"):
        with pytest.raises(ValueError):
            card_from_wire(bad)


def test_hand_order_puts_the_level_above_the_ace() -> None:
    cards = parse_cards("BJ S7 H7 SA D3 C3 LJ S3")
    assert cards_to_wire(cards, "7") == ["S3", "C3", "D3", "SA", "S7", "H7", "SB", "HR"]


@pytest.mark.parametrize(("wire", "level", "kind", "rank"), [
    (["Single", "B", ["SB"]], "2", "single", "LJ"),
    (["Pair", "R", ["HR", "HR"]], "2", "pair", "BJ"),
    (["Trips", "9", ["S9", "H9", "D9"]], "2", "triple", "9"),
    (["ThreeWithTwo", "J", ["S4", "H4", "SJ", "SJ", "CJ"]], "2", "full_house", "J"),
    (["Straight", "A", ["H2", "S2", "H3", "S4", "C5"]], "2", "straight", "5"),
    (["Straight", "T", ["ST", "HJ", "CQ", "DK", "SA"]], "7", "straight", "A"),
    # ai2's own example: 22 33 44 with the wild H2 at level 2
    (["ThreePair", "2", ["S2", "D2", "H3", "H2", "S4", "C4"]], "2", "tube", "4"),
    (["ThreePair", "A", ["SA", "DA", "S2", "D2", "S3", "H3"]], "9", "tube", "3"),
    (["TwoTrips", "A", ["SA", "DA", "CA", "S2", "D2", "H2"]], "9", "plate", "2"),
    (["TwoTrips", "K", ["SK", "DK", "CK", "SA", "DA", "HA"]], "9", "plate", "A"),
    (["Bomb", "6", ["S6", "H6", "C6", "D6", "D6"]], "2", "bomb", "6"),
    (["StraightFlush", "9", ["S9", "ST", "SJ", "SQ", "SK"]], "2", "straight_flush", "K"),
    (["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], "2", "joker_bomb", None),
])
def test_plays_both_ways(wire: list[object], level: str, kind: str, rank: str | None) -> None:
    play = play_from_wire(wire, level)
    assert play is not None
    assert (play.kind, play.rank) == (kind, rank)
    back = play_to_wire(play)
    assert back[:2] == wire[:2]
    assert Counter(back[2]) == Counter(wire[2])


def test_pass_and_refusals() -> None:
    assert play_from_wire(["PASS", "PASS", "PASS"], "2") is None
    # a joker pair in a full house: the protocol can say it, our rules refuse it
    with pytest.raises(ValueError, match="cannot be played"):
        play_from_wire(["ThreeWithTwo", "9", ["S9", "H9", "D9", "HR", "HR"]], "2")
    for bad in (["Single", "2"], "PASS", ["Foo", "2", ["S2"]], ["Single", "Z", ["S2"]]):
        with pytest.raises(ValueError):
            play_from_wire(bad, "2")
    assert wire_rank_to_ours("StraightFlush", "T") == "A"


def _brute_force(hand: list[Reading] | list, level: str, table: Reading | None) -> set:
    """Every sub-multiset of ``hand`` and every reading of it that may be played."""
    out = set()
    counts = Counter(hand)
    items = sorted(counts.items())
    for take in itertools.product(*(range(n + 1) for _, n in items)):
        cards = [c for (c, _), k in zip(items, take, strict=True) for _ in range(k)]
        for r in classify(cards, level):
            if table is None or _beats(r, table):
                out.add(r.signature())
    return out


def _beats(a: Reading, b: Reading) -> bool:
    from guandan.readings import beats

    return beats(a, b)


@pytest.mark.parametrize("text, level", [
    ("S9 D9 C9 H2 S3 D3 H3", "2"),
    ("H7 H7 S5 S6 S8 S9 D6 C8", "7"),
    ("SA S2 S3 D4 H4 S5 C5 H5", "5"),
    ("SK SK DK SA HA CA HQ SQ", "Q"),
])
def test_expand_finds_every_physical_choice(text: str, level: str) -> None:
    hand = parse_cards(text)
    expected = _brute_force(hand, level, None)
    got = [v.signature() for v in expand(legal_plays(hand, level), hand)]
    assert len(got) == len(set(got))
    assert set(got) == expected


def test_expand_on_a_table_and_on_real_deals() -> None:
    hand = parse_cards("S9 D9 C9 H2 S3 D3 H3 SJ DJ")
    table = read_as(parse_cards("S8 D8 C8 S4 D4"), "2", "full_house", "8")
    assert {v.signature() for v in expand(legal_plays(hand, "2", table), hand)} == \
        _brute_force(hand, "2", table)
    for seed in range(3):
        obs = Match("site", seed=seed).observation(1)
        plays = [a for a in obs.legal_actions if isinstance(a, Reading)]
        for v in expand(plays, obs.hand):
            assert read_as(v.cards, v.level, v.kind, v.rank) == v
            assert not Counter(v.cards) - Counter(obs.hand)


def test_variants_of_a_straight_flush_keep_its_suit() -> None:
    hand = parse_cards("S5 S6 S7 S8 S9 D5 D9 H2")
    sf = read_as(parse_cards("S5 S6 S7 S8 S9"), "2", "straight_flush", "9")
    suits = {frozenset(c.suit for c in v.cards if not c.is_wild("2")) for v in variants(sf, hand)}
    assert suits == {frozenset({"S"})}
