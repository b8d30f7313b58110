"""Cards and their notation.

docs/rules.md "Notation", "Card strength" and "Wild cards"; seed 000 §1, §3 and §4.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan.cards import (
    ALL_CARDS,
    RANKS,
    SUITS,
    Card,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    shuffled_hands,
    sort_cards,
)

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# --- notation: parse and format mirror each other ------------------------------------------


def test_every_card_round_trips_through_its_notation() -> None:
    """Each of the 54 distinct cards formats to its notation and parses back to itself."""
    assert len(ALL_CARDS) == 54
    for card in ALL_CARDS:
        text = format_cards([card])
        assert parse_cards(text) == [card]
        assert parse_card(text) is card


def test_canonical_text_round_trips() -> None:
    text = "H7 S9 D9 BJ LJ ST CA D2 SJ"
    assert format_cards(parse_cards(text)) == text


@settings(derandomize=True, database=None, max_examples=60)
@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30))
def test_format_then_parse_is_identity(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def test_notation_suits_and_ranks() -> None:
    """Suits S H D C, ranks 2-9 T J Q K A: 52 suited cards and 2 jokers."""
    suited = [c for c in ALL_CARDS if not c.is_joker]
    assert {(c.suit, c.rank) for c in suited} == {(s, r) for s in SUITS for r in RANKS}
    assert SUITS == ("S", "H", "D", "C")
    assert RANKS == ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
    assert sorted(c.notation for c in ALL_CARDS if c.is_joker) == ["BJ", "LJ"]


@pytest.mark.parametrize("suit", SUITS)
def test_ten_is_accepted_and_written_as_t(suit: str) -> None:
    card = parse_card(suit + "10")
    assert card.rank == "T" and card.suit == suit
    assert format_cards([card]) == suit + "T"


@pytest.mark.parametrize("suit", SUITS)
@pytest.mark.parametrize("rank", RANKS)
def test_suit_symbols_and_lower_case_accepted(suit: str, rank: str) -> None:
    canonical = parse_card(suit + rank)
    assert parse_card(SUIT_SYMBOL[suit] + rank) is canonical
    assert parse_card((suit + rank).lower()) is canonical
    assert format_cards([parse_card(SUIT_SYMBOL[suit] + rank.lower())]) == suit + rank


def test_mixed_input_forms_write_canonical_output() -> None:
    assert format_cards(parse_cards("h7 ♠10 d10 ♣a bj lj")) == "H7 ST DT CA BJ LJ"


def test_jokers_notation() -> None:
    big, little = parse_card("BJ"), parse_card("LJ")
    assert big.is_joker and little.is_joker
    assert big.rank == "BJ" and little.rank == "LJ"
    assert big is not little
    assert parse_card("bj") is big and parse_card("lj") is little


def test_sj_is_the_jack_of_spades_not_a_joker() -> None:
    """docs/rules.md: `SJ` is the jack of spades, like every other suit + rank."""
    card = parse_card("SJ")
    assert not card.is_joker
    assert (card.suit, card.rank) == ("S", "J")
    assert format_cards([card]) == "SJ"


@pytest.mark.parametrize("token", ["S1", "X9", "J", "", "SJJ", "11", "H", "BJJ", "S0", "H11", "JK"])
def test_bad_token_raises_value_error_naming_it(token: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_card(token)
    message = str(info.value)
    assert (token if token else "''") in message


@pytest.mark.parametrize("token", ["S1", "X9", "SJJ", "11", "J"])
def test_bad_token_in_a_list_is_named(token: str) -> None:
    with pytest.raises(ValueError, match=token):
        parse_cards(f"S9 {token} D9")
    with pytest.raises(ValueError, match=token):
        parse_cards(["S9", token])


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards("  ") == []


# --- two decks and the deal (seed §1) ------------------------------------------------------


def test_full_deck_is_two_decks() -> None:
    """108 cards, every one of the 54 distinct cards exactly twice (jokers included)."""
    deck = full_deck()
    assert len(deck) == 108
    counts = Counter(deck)
    assert set(counts) == set(ALL_CARDS)
    assert all(n == 2 for n in counts.values())
    assert counts[parse_card("BJ")] == 2 and counts[parse_card("LJ")] == 2


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_deal_gives_27_each_and_uses_the_whole_deck(seed: int) -> None:
    hands = shuffled_hands(random.Random(seed))
    assert sorted(hands) == [1, 2, 3, 4]
    assert all(len(h) == 27 for h in hands.values())
    assert Counter(c for h in hands.values() for c in h) == Counter(full_deck())


def test_deal_depends_only_on_the_rng() -> None:
    assert shuffled_hands(random.Random(3)) == shuffled_hands(random.Random(3))
    assert shuffled_hands(random.Random(3)) != shuffled_hands(random.Random(4))


# --- strength (seed §3) and wilds (seed §4) -------------------------------------------------


@pytest.mark.parametrize("level", RANKS)
def test_strength_order_bj_lj_level_then_a_down_to_2(level: str) -> None:
    """Seed §3: BJ > LJ > level rank > A > K > … > 2, the level taken out of its place."""
    expected = ["BJ", "LJ", level] + [r for r in reversed(RANKS) if r != level]
    order = sorted({c.rank for c in ALL_CARDS}, key=lambda r: -parse_card(_any(r)).strength(level))
    assert order == expected
    # strictly decreasing, and suits never break a tie
    strengths = [parse_card(_any(r)).strength(level) for r in expected]
    assert strengths == sorted(set(strengths), reverse=True)
    for rank in RANKS:
        assert len({parse_card(s + rank).strength(level) for s in SUITS}) == 1


def test_level_7_seven_is_stronger_than_ace() -> None:
    """Seed §3: at level 7 a 7 beats an A; at level 2 it does not."""
    assert parse_card("S7").strength("7") > parse_card("SA").strength("7")
    assert parse_card("S7").strength("2") < parse_card("SA").strength("2")
    assert parse_card("LJ").strength("7") > parse_card("S7").strength("7")


@pytest.mark.parametrize("level", RANKS)
def test_sort_cards_weakest_first(level: str) -> None:
    ranks = [c.rank for c in sort_cards(ALL_CARDS, level)]
    expected = [r for r in RANKS if r != level] + [level, "LJ", "BJ"]
    assert ranks == [r for r in expected for _ in range(1 if r in ("LJ", "BJ") else 4)]


@pytest.mark.parametrize("level", RANKS)
def test_wild_is_the_heart_of_the_level(level: str) -> None:
    """Seed §4: the two hearts of the current level are wild, nothing else."""
    wilds = [c for c in full_deck() if c.is_wild(level)]
    assert len(wilds) == 2
    assert all(c.suit == "H" and c.rank == level for c in wilds)
    assert not parse_card("BJ").is_wild(level) and not parse_card("LJ").is_wild(level)


def _any(rank: str) -> str:
    """A notation of some card of this rank."""
    return rank if rank in ("BJ", "LJ") else "S" + rank


def test_contract_public_api_from_the_top_level_package() -> None:
    """docs/api.md: the card, reading and play functions import from `guandan` itself."""
    import guandan
    import guandan.cards
    import guandan.plays
    import guandan.readings

    assert guandan.parse_cards is guandan.cards.parse_cards
    assert guandan.format_cards is guandan.cards.format_cards
    assert guandan.classify is guandan.readings.classify
    assert guandan.beats is guandan.readings.beats
    assert guandan.legal_plays is guandan.plays.legal_plays
    hand = guandan.parse_cards("H7 S9 D9 BJ LJ")
    assert guandan.format_cards(hand) == "H7 S9 D9 BJ LJ"
    assert [(r.kind, r.rank) for r in guandan.classify(hand[:3], "7")] == [("triple", "9")]
