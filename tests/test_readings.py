"""Readings and their order: every example and stated rule of seed 000 §3-§12 and docs/rules.md.

Test names start with the seed section they check (``test_s7_...`` is §7). Cards use suits
``S D C`` where a heart of the level would turn into a wild by accident.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from guandan.cards import RANKS, parse_cards
from guandan.readings import Reading, beats, classify

Pair = tuple[str, str | None]

LEVELS = RANKS
#: Ranks in natural order, A low then A high, for building sequences.
NATURAL = ("A", *RANKS)


def kr(cards: str, level: str) -> list[Pair]:
    """The (kind, rank) of every reading of ``cards`` at ``level``, strongest first."""
    readings = classify(parse_cards(cards), level)
    for r in readings:  # every reading is of exactly these cards, at this level
        assert Counter(r.cards) == Counter(parse_cards(cards))
        assert r.level == level
    return [(r.kind, r.rank) for r in readings]


def read(cards: str, level: str, kind: str | None = None, rank: str | None = None) -> Reading:
    """The reading of ``cards`` with this kind (and rank); the only one when kind is None."""
    readings = classify(parse_cards(cards), level)
    if kind is None:
        assert len(readings) == 1, f"{cards} at {level}: {readings}"
        return readings[0]
    found = [r for r in readings if r.kind == kind and (rank is None or r.rank == rank)]
    assert len(found) == 1, f"{cards} at {level} as {kind} {rank}: {readings}"
    return found[0]


def assert_beats(a: Reading, b: Reading) -> None:
    """``a`` beats ``b`` and not the other way round."""
    assert beats(a, b), f"{a} should beat {b}"
    assert not beats(b, a), f"{b} should not beat {a}"


def assert_neither(a: Reading, b: Reading) -> None:
    assert not beats(a, b), f"{a} should not beat {b}"
    assert not beats(b, a), f"{b} should not beat {a}"


def strength_order(level: str) -> list[str]:
    """Ranks from weakest to strongest for singles, pairs, triples and bombs (seed §3)."""
    return [r for r in RANKS if r != level] + [level]


def seq(top: str, length: int, copies: int = 1, suits: str = "SDC") -> str:
    """A natural sequence of ``length`` ranks ending at ``top`` (A2345 for top 5), each rank
    ``copies`` times, suits cycling through ``suits``."""
    end = len(NATURAL) if top == "A" else NATURAL.index(top) + 1
    ranks = NATURAL[end - length : end]
    assert len(ranks) == length
    cards = []
    i = 0
    for r in ranks:
        for _ in range(copies):
            cards.append(suits[i % len(suits)] + r)
            i += 1
    return " ".join(cards)


def bomb(rank: str, size: int) -> str:
    """``size`` (at most 8) natural cards of ``rank``, each physical card at most twice."""
    return " ".join(f"{'SDCH'[i % 4]}{rank}" for i in range(size))


# --- §3: the current level and card strength ------------------------------------------------


def test_s3_level_7_makes_a_seven_beat_an_ace() -> None:
    """§3: 레벨 7이면 7이 A를 이깁니다."""
    assert_beats(read("S7", "7"), read("DA", "7"))
    assert_beats(read("S7 C7", "7"), read("DA CA", "7"))
    assert_beats(read("S7 C7 D7", "7"), read("DA CA SA", "7"))


def test_s3_at_level_2_an_ace_beats_a_seven() -> None:
    assert_beats(read("DA", "2"), read("S7", "2"))


@pytest.mark.parametrize("level", LEVELS)
def test_s3_single_strength_order_at_every_level(level: str) -> None:
    """§3: BJ > LJ > level rank > A > K > … > 2 for singles, each step beats the one below."""
    order = strength_order(level)
    singles = [read("C" + r, level) for r in order] + [read("LJ", level), read("BJ", level)]
    for lower, higher in pairwise(singles):
        assert_beats(higher, lower)


@pytest.mark.parametrize("level", LEVELS)
def test_s3_pair_and_triple_strength_order_at_every_level(level: str) -> None:
    order = strength_order(level)
    pairs = [read(f"S{r} C{r}", level) for r in order]
    pairs += [read("LJ LJ", level), read("BJ BJ", level)]
    for lower, higher in pairwise(pairs):
        assert_beats(higher, lower)
    triples = [read(f"S{r} C{r} D{r}", level) for r in order]
    for lower, higher in pairwise(triples):
        assert_beats(higher, lower)


@pytest.mark.parametrize("level", LEVELS)
def test_s3_suits_never_break_a_tie(level: str) -> None:
    """§3: 무늬는 동률을 가르지 않습니다."""
    rank = "9" if level != "9" else "8"
    assert_neither(read(f"S{rank}", level), read(f"C{rank}", level))
    assert_neither(read(f"S{rank} D{rank}", level), read(f"C{rank} H{rank}", level))
    assert_neither(read("BJ", level), read("BJ", level))


# --- §4: wild hearts of the level -----------------------------------------------------------


def test_s4_wild_with_two_nines_is_a_triple_of_nines() -> None:
    """§4: 레벨 7에서 하트 7은 9 두 장을 트리플로 만듭니다."""
    assert kr("H7 S9 D9", "7") == [("triple", "9")]


@pytest.mark.parametrize("gap", ["5", "6", "8", "9"])
def test_s4_wild_fills_a_gap_in_a_straight(gap: str) -> None:
    """§4: 하트 7은 5,6,8,9의 빈자리를 채웁니다 (here in a 5-9 straight, suits mixed)."""
    suits = iter("SDCSD")
    others = [next(suits) + r for r in "56789" if r != gap]
    readings = kr(" ".join([*others, "H7"]), "7")
    assert ("straight", "9") in readings
    assert all(kind == "straight" for kind, _ in readings)


def test_s4_wild_as_its_natural_self_in_a_straight() -> None:
    """§4: a wild may also be its natural self (the 7 of 5-9)."""
    assert ("straight", "9") in kr("S5 D6 H7 C8 S9", "7")


def test_s4_wild_fills_the_missing_suit_of_a_straight_flush() -> None:
    """§4: 같은 무늬 연속형에서는 필요한 무늬도 채웁니다."""
    assert ("straight_flush", "9") in kr("C5 C6 H7 C8 C9", "7")  # H7 stands for C7
    assert ("straight_flush", "9") in kr("C5 C6 C7 H7 C9", "7")  # H7 stands for C8
    assert ("straight_flush", "9") in kr("S5 S6 S7 S8 H7", "7")  # H7 stands for S9


def test_s4_wild_alone_is_a_level_single() -> None:
    """§4: 혼자 내면 레벨 카드입니다."""
    assert kr("H7", "7") == [("single", "7")]
    assert_beats(read("H7", "7"), read("SA", "7"))
    assert_neither(read("H7", "7"), read("S7", "7"))
    assert_beats(read("LJ", "7"), read("H7", "7"))


def test_s4_two_wilds_are_a_level_pair() -> None:
    """docs/rules.md: two wilds together are a level-rank pair."""
    assert kr("H7 H7", "7") == [("pair", "7")]
    assert_beats(read("H7 H7", "7"), read("SA DA", "7"))
    assert_neither(read("H7 H7", "7"), read("S7 C7", "7"))
    assert_beats(read("LJ LJ", "7"), read("H7 H7", "7"))


def test_s4_one_card_cannot_fill_two_positions() -> None:
    """§4: 한 장을 두 자리에서 쓸 수 없습니다."""
    assert kr("H7 S9", "7") == [("pair", "9")]  # not a triple
    assert kr("H7 S9 D9", "7") == [("triple", "9")]  # not a bomb
    assert kr("H7 S9 D9 C9", "7") == [("bomb", "9")]
    assert len(read("H7 S9 D9 C9", "7").cards) == 4
    assert kr("S4 D5 H7 C8 S9", "7") == []  # 6 and 7 both missing: one wild fills one
    assert kr("S9 D9 H7 SJ", "7") == []  # a triple and a pair need five cards
    assert kr("H7 H7 S9", "7") == [("triple", "9")]  # two wilds fill two positions


def test_s4_a_wild_is_never_a_joker() -> None:
    """§4: 조커는 대신하지 못합니다."""
    assert kr("H7 BJ", "7") == []
    assert kr("H7 LJ", "7") == []
    assert kr("H7 BJ BJ", "7") == []
    assert kr("H7 BJ LJ LJ", "7") == []
    assert kr("H7 H7 BJ BJ", "7") == []


@pytest.mark.parametrize("level", LEVELS)
def test_s4_wilds_at_every_level(level: str) -> None:
    """The hearts of the level are the wilds, at every level; other hearts are plain cards."""
    other = "9" if level != "9" else "8"
    assert kr(f"H{level}", level) == [("single", level)]
    assert kr(f"H{level} H{level}", level) == [("pair", level)]
    assert kr(f"H{level} S{other} D{other}", level) == [("triple", other)]
    plain = "3" if level != "3" else "4"
    assert kr(f"H{plain} S{other}", level) == []  # a plain heart is not wild


# --- §5: the normal kinds -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind", "rank"),
    [
        ("SA", "single", "A"),
        ("SA DA", "pair", "A"),
        ("SA DA CA", "triple", "A"),
        ("S9 D9 C9 SJ DJ", "full_house", "9"),
        ("S3 D4 C5 S6 D7", "straight", "7"),
        ("S3 D3 S4 D4 S5 C5", "tube", "5"),
        ("S3 D3 C3 S4 D4 C4", "plate", "4"),
    ],
)
def test_s5_seven_normal_kinds(cards: str, kind: str, rank: str) -> None:
    """§5: 보통 조합은 일곱 종류입니다 (A, AA, AAA, 999+JJ, 34567, 334455, 333444)."""
    assert kr(cards, "2") == [(kind, rank)]
    assert not read(cards, "2").is_special


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("S3 D4 C5 S6 D7", "SQ"),  # straight vs single
        ("S9 D9 C9", "SQ DQ"),  # triple vs pair
        ("SQ DQ", "S3"),  # pair vs single
        ("SK DK CK S3 D3", "S9 DT CJ SQ DK"),  # full house vs straight, both 5 cards
        ("S3 D3 C3 S4 D4 C4", "SQ DQ SK DK SA DA"),  # plate vs tube, both 6 cards
        ("SA DA CA", "S3 D3 C3 S4 D4 C4"),  # triple vs plate
        ("SA DA", "S3 D3 S4 D4 S5 C5"),  # pair vs tube
    ],
)
def test_s5_different_normal_kinds_never_beat_each_other(a: str, b: str) -> None:
    """§5: 서로 다른 보통 조합은 이길 수 없습니다."""
    assert_neither(read(a, "2"), read(b, "2"))


def test_s5_joker_pairs_and_no_mixed_joker_pair() -> None:
    """§5: 큰 조커 두 장이나 작은 조커 두 장은 페어입니다. 하나씩은 페어도 로켓도 아닙니다."""
    assert kr("BJ BJ", "2") == [("pair", "BJ")]
    assert kr("LJ LJ", "2") == [("pair", "LJ")]
    assert kr("BJ LJ", "2") == []
    assert_beats(read("BJ BJ", "2"), read("LJ LJ", "2"))
    assert_beats(read("LJ LJ", "2"), read("S2 D2", "2"))


def test_s5_pairs_and_triples_of_mixed_suits_and_wild_filled() -> None:
    """§5: 페어와 트리플은 무늬가 달라도 되며 와일드로 보통 숫자를 보충할 수 있습니다."""
    assert kr("SK HK", "2") == [("pair", "K")]
    assert kr("SK H2", "2") == [("pair", "K")]
    assert kr("SK CK H2", "2") == [("triple", "K")]
    assert kr("SK DQ", "2") == []


def test_s5_special_kinds_beat_normal_ones() -> None:
    """§5: 폭탄·스트레이트 플러시·조커 네 장은 별도 특수 조합입니다."""
    for special in ("S3 D3 C3 S3", "C3 C4 C5 C6 C7", "BJ BJ LJ LJ"):
        reading = read(special, "2")
        assert reading.is_special
        for normal in ("BJ", "BJ BJ", "SA DA CA", "S9 DT CJ SQ DK"):
            assert_beats(reading, read(normal, "2"))


# --- §6: full house -------------------------------------------------------------------------


def test_s6_999_jj_is_a_full_house_of_nines() -> None:
    assert kr("S9 D9 C9 SJ DJ", "2") == [("full_house", "9")]


def test_s6_999_33_beats_888_aa() -> None:
    """§6: 트리플만 비교하므로 999+33이 888+AA를 이깁니다."""
    assert_beats(read("S9 D9 C9 S3 D3", "2"), read("S8 D8 C8 SA DA", "2"))


def test_s6_only_the_triple_counts() -> None:
    assert_neither(read("S9 D9 C9 S3 D3", "2"), read("S9 D9 C9 SA DA", "2"))


def test_s6_level_triple_full_house_beats_ace_triple() -> None:
    assert_beats(read("S7 D7 C7 S3 D3", "7"), read("SA DA CA SK DK", "7"))


def test_s6_wild_fills_either_part_once() -> None:
    """§6: 와일드는 두 부분 중 하나를 채우되 한 장을 중복 사용하지 않습니다."""
    assert kr("S9 D9 H2 SJ DJ", "2") == [("full_house", "J"), ("full_house", "9")]
    assert kr("S9 D9 C9 SJ H2", "2") == [("full_house", "9")]
    # the pair is two wilds (the same five cards are also a 5-bomb, the stronger reading)
    assert kr("S9 D9 C9 H2 H2", "2") == [("bomb", "9"), ("full_house", "9")]
    assert kr("S9 D9 H2 SJ", "2") == []


def test_s6_joker_pair_is_not_the_pair_of_a_full_house() -> None:
    """§6: 현재 사이트는 조커 페어를 풀하우스 부속으로 허용하지 않습니다."""
    assert kr("S9 D9 C9 BJ BJ", "2") == []
    assert kr("S9 D9 C9 LJ LJ", "2") == []
    assert kr("S9 D9 H2 BJ BJ", "2") == []


@pytest.mark.parametrize(
    "cards",
    [
        "S9 D9 C9 SJ",  # triple + single
        "S9 DJ",  # two different singles
        "S9 D9 C9 C9 SJ",  # four of a kind + one
        "S9 D9 C9 C9 SJ DJ",  # four of a kind + two
        "S9 D9 C9 SJ DQ",  # triple + two singles
    ],
)
def test_s6_refused_shapes(cards: str) -> None:
    """§6: 트리플+한 장, 서로 다른 두 낱장, 포카드+한두 장도 허용하지 않습니다."""
    assert kr(cards, "2") == []


# --- §7: straights --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "rank"),
    [("S3 D4 C5 S6 D7", "7"), ("S6 D7 C8 S9 DT", "T"), ("ST DJ CQ SK DA", "A")],
)
def test_s7_examples(cards: str, rank: str) -> None:
    """§7: 34567, 6789 10, 10JQKA."""
    assert kr(cards, "2") == [("straight", rank)]


@pytest.mark.parametrize("level", LEVELS)
def test_s7_order_a2345_lowest_23456_next_tjqka_highest(level: str) -> None:
    """§7: A2345가 가장 낮고 (A는 1), 다음은 23456, 가장 높은 것은 10JQKA; natural order."""
    tops = NATURAL[4:]  # 5 … A
    straights = [read(seq(top, 5), level) for top in tops]
    assert [(s.kind, s.rank) for s in straights] == [("straight", t) for t in tops]
    assert straights[0].rank == "5" and straights[1].rank == "6" and straights[-1].rank == "A"
    for lower, higher in pairwise(straights):
        assert_beats(higher, lower)
    for i, s in enumerate(straights):
        for t in straights[i + 1 :]:
            assert beats(t, s) and not beats(s, t)


@pytest.mark.parametrize("cards", ["SJ DQ CK SA D2", "SQ DK CA S2 D3", "SK DA C2 S3 D4"])
def test_s7_no_wrap_around(cards: str) -> None:
    """§7: JQKA2처럼 끝과 처음을 이을 수 없습니다."""
    for level in ("5", "7", "9"):
        assert kr(cards, level) == []


@pytest.mark.parametrize("cards", ["S3 D4 C5 S6 D7 C8", "S9 DT CJ SQ DK CA", "SA D2 C3 S4 D5 C6"])
def test_s7_six_card_straight_refused(cards: str) -> None:
    """§7: 여섯 장 연속을 한 번에 스트레이트로 낼 수 없습니다."""
    assert kr(cards, "2") == []
    assert kr(cards, "T") == []


def test_s7_level_rank_is_not_skipped() -> None:
    """§7: 레벨 7에서도 5,6,7,8,9는 이어지며 7을 건너뛰지 않습니다."""
    assert kr("S5 D6 C7 S8 D9", "7") == [("straight", "9")]
    assert kr("S5 D6 C8 S9 DT", "7") == []  # 7 skipped: not a straight


def test_s7_higher_straight_beats_lower() -> None:
    """§7: 6,7,8,9,10은 5,6,7,8,9를 이깁니다."""
    assert_beats(read("S6 D7 C8 S9 DT", "2"), read("S5 D6 C7 S8 D9", "2"))
    assert_beats(read("S6 D7 C8 S9 DT", "7"), read("S5 D6 C7 S8 D9", "7"))


def test_s7_equal_straights_of_different_suits_tie() -> None:
    """§7: 두 보통 스트레이트의 숫자가 모두 같으면 동률입니다."""
    assert_neither(read("S5 D6 C7 S8 D9", "2"), read("D5 C6 S7 D8 C9", "2"))


@pytest.mark.parametrize("level", LEVELS)
def test_s7_same_suit_five_in_a_row_is_a_straight_flush(level: str) -> None:
    """§7: 연속된 다섯 장의 무늬까지 모두 같으면 스트레이트 플러시 (never a plain straight)."""
    for top in NATURAL[4:]:
        for suit in "SDC":
            assert kr(seq(top, 5, suits=suit), level) == [("straight_flush", top)]


def test_s7_straight_flush_above_straight_and_small_bombs_below_six() -> None:
    """§7: 보통 스트레이트와 4장·5장 폭탄보다 높지만 6장 이상 폭탄보다는 낮습니다."""
    sf = read("S3 S4 S5 S6 S7", "2")
    assert_beats(sf, read("ST DJ CQ SK DA", "2"))
    assert_beats(sf, read("SA DA CA SA", "2"))
    assert_beats(sf, read("S2 D2 C2 S2 D2", "2"))
    assert_beats(read("S3 D3 C3 S3 D3 C3", "2"), sf)


# --- §8: tubes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "rank"),
    [
        ("S3 D3 S4 D4 S5 D5", "5"),
        ("S7 D7 S8 D8 S9 D9", "9"),
        ("SA DA S2 D2 S3 D3", "3"),
        ("SQ DQ SK DK SA DA", "A"),
    ],
)
def test_s8_tube_examples(cards: str, rank: str) -> None:
    """§8: 334455, 778899, AA2233 (lowest), QQKKAA (highest)."""
    assert kr(cards, "6") == [("tube", rank)]


@pytest.mark.parametrize("level", LEVELS)
def test_s8_tube_order_natural_aa2233_lowest_qqkkaa_highest(level: str) -> None:
    tops = NATURAL[3:]  # 3 … A
    tubes = [read(seq(top, 3, copies=2), level) for top in tops]
    assert [(t.kind, t.rank) for t in tubes] == [("tube", top) for top in tops]
    for lower, higher in pairwise(tubes):
        assert_beats(higher, lower)
    assert_beats(tubes[-1], tubes[0])


@pytest.mark.parametrize(
    "cards",
    [
        "S3 D3 S4 D4",  # two pairs
        "S3 D3 S4 D4 S5 D5 S6 D6",  # four pairs
        "SK DK SA DA S2 D2",  # no wrap
        "S3 D3 S4 D4 S6 D6",  # not consecutive
        "S3 D4 C5 S6 D7 C8",  # six singles
        "S3 D3 S4 D4 S5 BJ",  # a joker cannot fill
    ],
)
def test_s8_refused(cards: str) -> None:
    """§8: 두 쌍이나 네 쌍은 연속 페어가 아닙니다; 여섯 낱장을 모아 낼 수 없습니다."""
    assert kr(cards, "9") == []


def test_s8_wild_fills_and_level_rank_in_place_and_suits_tie() -> None:
    """§8: 와일드로 보통 카드를 채울 수 있습니다.

    레벨 숫자는 건너뛰지 않고 무늬도 비교하지 않습니다.
    """
    assert kr("S3 D3 S4 D4 S5 H2", "2") == [("tube", "5")]
    assert kr("S6 D6 S7 D7 S8 D8", "7") == [("tube", "8")]
    assert kr("S6 D6 S8 D8 S9 D9", "7") == []
    assert_neither(read("S3 D3 S4 D4 S5 D5", "2"), read("C3 H3 C4 H4 C5 H5", "2"))


# --- §9: plates -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "rank"),
    [
        ("S3 D3 C3 S4 D4 C4", "4"),
        ("S7 D7 C7 S8 D8 C8", "8"),
        ("SA DA CA S2 D2 C2", "2"),
        ("SK DK CK SA DA CA", "A"),
    ],
)
def test_s9_plate_examples(cards: str, rank: str) -> None:
    """§9: 333444, 777888, AAA222 (lowest), KKKAAA (highest)."""
    assert kr(cards, "5") == [("plate", rank)]


@pytest.mark.parametrize("level", LEVELS)
def test_s9_plate_order_natural_aaa222_lowest_kkkaaa_highest(level: str) -> None:
    """§9: 레벨 숫자도 자연 순서에 포함됩니다."""
    tops = NATURAL[2:]  # 2 … A
    plates = [read(seq(top, 2, copies=3), level) for top in tops]
    assert [(p.kind, p.rank) for p in plates] == [("plate", top) for top in tops]
    for lower, higher in pairwise(plates):
        assert_beats(higher, lower)
    assert_beats(plates[-1], plates[0])


@pytest.mark.parametrize(
    "cards",
    [
        "S3 D3 C3 S4 D4 C4 S5 D5 C5",  # three triples
        "S3 D3 C3 S4 D4 C4 S5",  # single wing
        "S3 D3 C3 S4 D4 C4 S5 D5",  # pair wing
        "S3 D3 C3 S4 D4 C4 S5 D6",  # two single wings
        "S3 D3 C3 S4 D4 C4 S5 D5 S6 D6",  # two pair wings
        "S3 D3 C3 S5 D5 C5",  # not consecutive
        "SA DA CA SK DK CK S2 D2 C2",  # KKKAAA222
        "S3 D3 C3 S4 D4 BJ",  # a joker cannot fill
    ],
)
def test_s9_refused(cards: str) -> None:
    """§9: 날개를 붙이지 않으며 트리플 세 조도 한 번에 낼 수 없습니다.

    조커는 연속형에 넣지 못합니다.
    """
    assert kr(cards, "9") == []


def test_s9_wild_fills_a_plate() -> None:
    assert kr("S3 D3 C3 S4 D4 H2", "2") == [("plate", "4")]
    assert kr("S6 D6 C6 S7 D7 C7", "7") == [("plate", "7")]
    assert_beats(read("S3 D3 C3 S4 D4 H2", "2"), read("SA DA CA S2 D2 C2", "2"))


# --- §10: same-rank bombs and the joker bomb ------------------------------------------------


@pytest.mark.parametrize("level", ["2", "9", "A"])
def test_s10_bombs_of_4_to_10_cards(level: str) -> None:
    """docs/rules.md: a bomb is 4-10 cards of one rank, wilds filling."""
    rank = "9" if level != "9" else "8"
    naturals = [s + rank for s in "SDCH"] * 2
    wild = "H" + level
    for n in range(4, 9):
        assert kr(" ".join(naturals[:n]), level) == [("bomb", rank)]
    assert kr(" ".join([*naturals, wild]), level) == [("bomb", rank)]
    assert kr(" ".join([*naturals, wild, wild]), level) == [("bomb", rank)]
    ten = read(" ".join([*naturals, wild, wild]), level)
    assert ten.size == 10 and ten.kind == "bomb"
    assert kr(" ".join([*naturals, wild, wild, "S3"]), level) == []  # 11 cards


def test_s10_size_first_six_threes_beat_five_aces() -> None:
    """§10: 3 여섯 장은 A 다섯 장보다 높습니다."""
    assert_beats(read("S3 D3 C3 H3 S3 D3", "2"), read("SA DA CA HA SA", "2"))


def test_s10_level_7_four_sevens_beat_four_aces() -> None:
    """§10: 레벨 7에서 7 네 장은 A 네 장보다 높습니다."""
    assert_beats(read("S7 D7 C7 S7", "7"), read("SA DA CA HA", "7"))
    assert_beats(read("SA DA CA HA", "2"), read("S7 D7 C7 S7", "2"))


@pytest.mark.parametrize("level", LEVELS)
def test_s10_bomb_order_size_then_strength(level: str) -> None:
    order = strength_order(level)
    for size in range(4, 9):
        bombs = [read(bomb(r, size), level) for r in order]
        for lower, higher in pairwise(bombs):
            assert_beats(higher, lower)
        if size < 8:  # the weakest bomb of one more card beats the strongest of this size
            top = order[-1]
            low = order[0]
            assert_beats(read(bomb(low, size + 1), level), read(bomb(top, size), level))


def test_s10_equal_bombs_tie() -> None:
    """§10: 완전 동률은 이길 수 없습니다."""
    assert_neither(read("S9 D9 C9 H9", "2"), read("S9 D9 C9 C9", "2"))
    assert_neither(read("S9 D9 C9 H2", "2"), read("S9 D9 C9 C9", "2"))
    assert_neither(read("BJ BJ LJ LJ", "2"), read("LJ BJ LJ BJ", "2"))


def test_s10_bombs_beat_normal_combinations() -> None:
    """§10: 폭탄은 보통 조합을 이깁니다 (the weakest bomb, every normal kind)."""
    bomb = read("S3 D3 C3 S3", "2")
    for normal in (
        "BJ",
        "BJ BJ",
        "S2 D2 C2",
        "S2 D2 C2 SA DA",
        "ST DJ CQ SK DA",
        "SQ DQ SK DK SA DA",
        "SK DK CK SA DA CA",
    ):
        assert_beats(bomb, read(normal, "2"))


def test_s10_joker_bomb_is_exactly_two_big_and_two_little() -> None:
    """§10: 최강 로켓은 실제 큰 조커 두 장+작은 조커 두 장; 와일드는 조커가 되지 않습니다."""
    assert kr("BJ BJ LJ LJ", "2") == [("joker_bomb", None)]
    assert kr("LJ BJ LJ BJ", "K") == [("joker_bomb", None)]
    assert read("BJ BJ LJ LJ", "2").rank is None
    for cards in ("BJ BJ LJ", "BJ LJ LJ", "BJ LJ", "H2 BJ LJ LJ", "H2 BJ BJ LJ", "H2 H2 BJ BJ",
                  "BJ BJ LJ LJ S3"):
        assert kr(cards, "2") == [], cards


def test_s10_bomb_with_a_kicker_refused_and_jokers_never_in_a_bomb() -> None:
    """§10: 다른 낱장은 붙이지 못합니다; docs/rules.md: bombs never hold jokers."""
    assert kr("S9 D9 C9 H9 S3", "2") == []
    assert kr("S9 D9 C9 BJ", "2") == []
    assert kr("S9 D9 C9 H9 LJ", "2") == []


def test_s10_wild_fills_a_bomb() -> None:
    assert kr("S9 D9 C9 H2", "2") == [("bomb", "9")]
    assert kr("S9 D9 H2 H2", "2") == [("bomb", "9")]
    assert kr("S2 D2 H2 H2", "2") == [("bomb", "2")]


# --- §11: straight flushes and the special order --------------------------------------------


def test_s11_straight_flush_with_a_wild() -> None:
    """§11: 와일드로 완성할 수 있습니다."""
    readings = kr("C3 C4 C5 C6 H2", "2")
    assert set(readings) == {
        ("straight_flush", "7"),
        ("straight_flush", "6"),
        ("straight", "7"),
        ("straight", "6"),
    }
    assert readings[0] == ("straight_flush", "7")


def test_s11_club_34567_and_a2345() -> None:
    """§11: 클럽 34567과 낮은 A2345가 예입니다."""
    assert kr("C3 C4 C5 C6 C7", "2") == [("straight_flush", "7")]
    assert kr("CA C2 C3 C4 C5", "9") == [("straight_flush", "5")]
    assert_beats(read("C3 C4 C5 C6 C7", "9"), read("CA C2 C3 C4 C5", "9"))
    assert_beats(read("C2 C3 C4 C5 C6", "9"), read("CA C2 C3 C4 C5", "9"))


def test_s11_same_sequence_other_suit_ties() -> None:
    """§11: 무늬가 달라도 같은 연속이면 동률입니다."""
    assert_neither(read("C3 C4 C5 C6 C7", "9"), read("S3 S4 S5 S6 S7", "9"))
    assert_beats(read("ST SJ SQ SK SA", "2"), read("D9 DT DJ DQ DK", "2"))


SPECIAL_LADDER = [
    ("normal", "SQ DQ SK DK SA DA"),  # the strongest tube …
    ("normal", "BJ BJ"),  # … and the strongest pair, both beaten by every special
    ("4-bomb", "SA DA CA SA"),  # strongest 4-bomb at level 2 is 2222; A is below
    ("4-bomb", "S2 D2 C2 S2"),
    ("5-bomb", "S3 D3 C3 S3 D3"),
    ("5-bomb", "S2 D2 C2 S2 H2"),
    ("straight_flush", "CA C2 C3 C4 C5"),
    ("straight_flush", "ST SJ SQ SK SA"),
    ("6-bomb", "S3 D3 C3 S3 D3 C3"),
    ("6-bomb", "S2 D2 C2 S2 D2 C2"),
    ("7-bomb", "S3 D3 C3 H3 S3 D3 C3"),
    ("8-bomb", "S3 D3 C3 H3 S3 D3 C3 H3"),
    ("9-bomb", "S3 D3 C3 H3 S3 D3 C3 H3 H2"),
    ("10-bomb", "S3 D3 C3 H3 S3 D3 C3 H3 H2 H2"),
    ("10-bomb", "SA DA CA HA SA DA CA HA H2 H2"),
    ("joker_bomb", "BJ BJ LJ LJ"),
]


@pytest.mark.parametrize("i", range(len(SPECIAL_LADDER) - 1))
def test_s11_special_order_adjacent_steps(i: int) -> None:
    """§11: 보통<4장 폭탄<5장 폭탄<스트레이트 플러시<6장 폭탄<7장 이상 폭탄<조커 네 장."""
    (lower_name, lower), (higher_name, higher) = SPECIAL_LADDER[i], SPECIAL_LADDER[i + 1]
    a = read(higher, "2")
    b = read(lower, "2")
    if lower_name == higher_name == "normal":
        assert_neither(a, b)
    else:
        assert_beats(a, b)


def test_s11_special_order_is_total_over_the_ladder() -> None:
    readings = [(name, read(cards, "2")) for name, cards in SPECIAL_LADDER]
    for i, (name_i, ri) in enumerate(readings):
        for name_j, rj in readings[i + 1 :]:
            if name_i == name_j == "normal":
                continue
            assert_beats(rj, ri)


def test_s11_ladder_kinds_are_what_they_say() -> None:
    for name, cards in SPECIAL_LADDER:
        reading = read(cards, "2")
        if name == "normal":
            assert not reading.is_special
        elif name.endswith("-bomb"):
            assert reading.kind == "bomb" and reading.size == int(name.split("-")[0])
        else:
            assert reading.kind == name


@pytest.mark.parametrize("level", LEVELS)
def test_s11_five_same_suit_not_in_a_row_is_nothing(level: str) -> None:
    """§11: 같은 무늬 다섯 장만으로는 부족하며 Big Two의 플러시 규칙은 없습니다."""
    assert kr("S3 S5 S7 S9 SJ", level) == []
    assert kr("C2 C4 C6 C8 CT", level) == []
    assert kr("D3 D5 D7 D9 DJ", level) == []
    assert kr("D2 D4 D6 D8 DT", level) == []


# --- §12: answering a play ------------------------------------------------------------------


def test_s12_k_single_beats_q_single() -> None:
    assert_beats(read("SK", "2"), read("DQ", "2"))


def test_s12_k_pair_beats_q_pair() -> None:
    assert_beats(read("SK DK", "2"), read("SQ DQ", "2"))


def test_s12_straight_cannot_beat_a_q_single() -> None:
    assert_neither(read("ST DJ CQ SK DA", "2"), read("SQ", "2"))


def test_s12_higher_triple_cannot_beat_a_pair() -> None:
    assert_neither(read("SA DA CA", "2"), read("S3 D3", "2"))


def test_s12_full_house_and_straight_do_not_beat_each_other() -> None:
    assert_neither(read("SA DA CA SK DK", "2"), read("S3 D4 C5 S6 D7", "2"))
    assert_neither(read("S3 D3 C3 S4 D4", "2"), read("ST DJ CQ SK DA", "2"))


def test_s12_tube_and_plate_do_not_beat_each_other() -> None:
    assert_neither(read("SQ DQ SK DK SA DA", "2"), read("S3 D3 C3 S4 D4 C4", "2"))
    assert_neither(read("SK DK CK SA DA CA", "2"), read("S3 D3 S4 D4 S5 D5", "2"))


def test_s12_equal_never_beats() -> None:
    """§12: 동률은 불가."""
    assert_neither(read("SK", "2"), read("DK", "2"))
    assert_neither(read("S3 D4 C5 S6 D7", "2"), read("D3 C4 S5 D6 C7", "2"))
    assert_neither(read("S3 D3 C3 S4 D4 C4", "2"), read("D3 C3 S3 D4 C4 S4", "2"))


# --- docs/rules.md: the table of kinds and their ranks -------------------------------------------


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S9 D9 C9 SJ DJ", "2", ("full_house", "9")),
        ("SA D2 C3 S4 D5", "9", ("straight", "5")),
        ("ST DJ CQ SK DA", "9", ("straight", "A")),
        ("SA DA S2 D2 S3 D3", "9", ("tube", "3")),
        ("SA DA CA S2 D2 C2", "9", ("plate", "2")),
        ("BJ BJ LJ LJ", "9", ("joker_bomb", None)),
        ("BJ", "9", ("single", "BJ")),
        ("LJ", "9", ("single", "LJ")),
        ("BJ BJ", "9", ("pair", "BJ")),
        ("LJ LJ", "9", ("pair", "LJ")),
        ("S5 D5 C5", "9", ("triple", "5")),
        ("S5 D5 C5 S5 D5", "9", ("bomb", "5")),
        ("D3 D4 D5 D6 D7", "9", ("straight_flush", "7")),
    ],
)
def test_rules_rank_of_each_kind(cards: str, level: str, expected: Pair) -> None:
    assert kr(cards, level) == [expected]


def test_rules_s6789_h2_at_level_2_has_every_reading() -> None:
    """docs/rules.md: `S6 S7 S8 S9 H2` at level 2 is a 5-9 or 6-T straight flush, or a straight."""
    readings = kr("S6 S7 S8 S9 H2", "2")
    assert Counter(readings) == Counter(
        [("straight_flush", "T"), ("straight_flush", "9"), ("straight", "T"), ("straight", "9")]
    )
    assert readings[0] == ("straight_flush", "T")
    assert readings.index(("straight_flush", "9")) < readings.index(("straight", "T"))


@pytest.mark.parametrize("level", LEVELS)
def test_rules_natural_straight_flush_is_never_a_plain_straight(level: str) -> None:
    for suit in "SDC":
        for top in NATURAL[4:]:
            assert ("straight", top) not in kr(seq(top, 5, suits=suit), level)


def test_rules_wild_with_one_suit_reads_both_ways() -> None:
    """docs/rules.md: a wild may be any suit, so one-suit naturals and a wild are a straight too."""
    assert set(kr("HQ HK H2 HJ HA", "2")) >= {("straight", "A"), ("straight_flush", "A")}
    assert kr("HQ HK H2 HJ HA", "2")[0] == ("straight_flush", "A")


@pytest.mark.parametrize(
    "cards",
    [
        "S3 D4 C5 S6 D7 C8 S9 DT CJ SQ DK",  # 11 cards
        "S3 D3 C3 H3 S3 D3 C3 H3 H2 H2 S4",  # 11 cards
        "BJ BJ LJ LJ S3 S3 D3 D3 C3 C3 H3 H3",  # 12 cards
    ],
)
def test_rules_more_than_ten_cards_is_nothing(cards: str) -> None:
    assert kr(cards, "2") == []


@pytest.mark.parametrize("level", LEVELS)
def test_rules_three_jokers_and_mixed_joker_pair_are_nothing(level: str) -> None:
    assert kr("BJ BJ LJ", level) == []
    assert kr("BJ LJ LJ", level) == []
    assert kr("BJ LJ", level) == []
    assert kr("", level) == []


@pytest.mark.parametrize("level", LEVELS)
def test_rules_classify_lists_strongest_first_and_each_once(level: str) -> None:
    """Every multi-reading set comes out strongest first: no later reading beats an earlier one."""
    w = "H" + level
    samples = [
        f"S6 S7 S8 S9 {w}",
        f"C3 C4 C5 C6 {w}",
        f"S9 D9 {w} SJ DJ",
        f"S9 D9 C9 {w} {w}",
        f"S3 D3 S4 D4 S5 {w}",
    ]
    for cards in samples:
        readings = classify(parse_cards(cards), level)
        pairs = [(r.kind, r.rank) for r in readings]
        assert len(pairs) == len(set(pairs))
        for i, r in enumerate(readings):
            for later in readings[i + 1 :]:
                assert not beats(later, r), f"{cards} at {level}: {later} listed after {r}"



def test_readings_copy_and_pickle() -> None:
    """A reading (kept in a match, a record, a search) copies and pickles to an equal one whose
    cards are the same interned cards."""
    import copy
    import pickle

    r = read("S6 S7 S8 S9 H2", "2", "straight_flush", "T")
    for other in (copy.deepcopy(r), copy.copy(r), pickle.loads(pickle.dumps(r))):
        assert other == r
        assert (other.kind, other.rank, other.key, other.power) == ("straight_flush", "T", 10, 11)
        assert all(a is b for a, b in zip(other.cards, r.cards, strict=True))
