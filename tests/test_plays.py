"""legal_plays against a slow brute force, plus hand-written cases (docs/api.md, docs/rules.md).

The brute force enumerates sub-multisets of the hand and classifies each: every reading of
every subset is a play (seed §4: the engine finds the readings of the cards a player picks).
``legal_plays`` must give the same set of (kind, rank, size), wild readings included, and on
a table exactly those that beat it (seed §12).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guandan.cards import RANKS, SUITS, Card, full_deck, parse_cards, shuffled_hands
from guandan.plays import legal_plays
from guandan.readings import Reading, beats, classify

Sig = tuple[str, str | None, int]
EveryKey = tuple[str, str | None, tuple[tuple[str, int], ...], int, str]
#: Natural ranks with A at both ends, for sequence windows (A2345 … TJQKA).
NATURAL = ("A", *RANKS)
DISTINCT = sorted(set(full_deck()), key=lambda c: c.index)


def sig(r: Reading) -> Sig:
    return (r.kind, r.rank, len(r.cards))


def sub_multisets(cards: Sequence[Card], sizes: range = range(1, 11)) -> Iterator[list[Card]]:
    """Every sub-multiset of ``cards`` whose size is in ``sizes``, once each."""
    items = sorted(Counter(cards).items(), key=lambda kv: kv[0].index)
    for choice in product(*(range(n + 1) for _, n in items)):
        if sum(choice) in sizes:
            yield [c for (c, _), k in zip(items, choice, strict=True) for _ in range(k)]


def brute_all(cards: Iterable[Card], level: str) -> list[Reading]:
    """Every reading of every sub-multiset of ``cards`` (exhaustive: use on small hands)."""
    return [r for sub in sub_multisets(list(cards)) for r in classify(sub, level)]


def brute_readings(cards: Iterable[Card], level: str) -> dict[Sig, Reading]:
    """``brute_all``, one reading per kind, rank and size."""
    return {sig(r): r for r in reversed(brute_all(cards, level))}


def every_key(r: Reading) -> EveryKey:
    """What makes two plays distinct with ``every=True`` (docs/api.md): kind, rank, the natural
    ranks with their counts, the number of wilds (a level heart is always one) and, for a
    straight flush, the suit."""
    wild = [c for c in r.cards if c.is_wild(r.level)]
    naturals = Counter(c.rank for c in r.cards if not c.is_wild(r.level))
    suit = ""
    if r.kind == "straight_flush":
        (suit,) = {c.suit for c in r.cards if not c.is_wild(r.level)}
    return (r.kind, r.rank, tuple(sorted(naturals.items())), len(wild), suit)


def windowed_readings(hand: Sequence[Card], level: str) -> dict[Sig, Reading]:
    return {sig(r): r for r in reversed(windowed_all(hand, level))}


def windowed_all(hand: Sequence[Card], level: str) -> list[Reading]:
    """Every reading ``brute_readings`` finds (some more than once), for hands of any size.

    Every combination lies inside one of these groups, so enumerating the sub-multisets of
    each group finds them all: the jokers; the cards of 1, 2, 3 or 5 consecutive natural
    ranks plus the wilds (same-rank kinds, plates, tubes, straights and straight flushes);
    the cards of any two ranks plus the wilds (full houses).
    """
    wilds = [c for c in hand if c.is_wild(level)]
    by_rank = {r: [c for c in hand if c.rank == r and not c.is_wild(level)] for r in RANKS}
    any_size, five, six = range(1, 11), range(5, 6), range(6, 7)
    groups: list[tuple[list[Card], range]] = [([c for c in hand if c.is_joker], any_size)]
    for length, sizes in ((1, any_size), (2, six), (3, six), (5, five)):
        for i in range(len(NATURAL) - length + 1):
            ranks = set(NATURAL[i : i + length])
            groups.append((wilds + [c for r in sorted(ranks) for c in by_rank[r]], sizes))
    for r1, r2 in combinations(RANKS, 2):
        groups.append((wilds + by_rank[r1] + by_rank[r2], five))
    return [r for group, sizes in groups for sub in sub_multisets(group, sizes)
            for r in classify(sub, level)]


def check_plays(hand: Sequence[Card], level: str, plays: list[Reading],
                table: Reading | None = None) -> None:
    """What every list of plays must satisfy (docs/api.md), whatever the oracle says."""
    have = Counter(hand)
    seen: set[tuple[str, str | None, tuple[int, ...]]] = set()
    for p in plays:
        assert not Counter(p.cards) - have, f"{p} uses cards not in the hand"
        assert p.level == level
        assert (p.kind, p.rank) in [(r.kind, r.rank) for r in classify(p.cards, level)], (
            f"{p} is not a reading of its own cards"
        )
        key = (p.kind, p.rank, tuple(sorted(c.index for c in p.cards)))
        assert key not in seen, f"{p} listed twice"
        seen.add(key)
        if table is not None:
            assert beats(p, table), f"{p} does not beat {table}"


def describe(hand: Sequence[Card], level: str, got: set[Sig], want: set[Sig]) -> str:
    text = " ".join(c.notation for c in hand)
    return (f"hand {text!r} level {level}: missing {sorted(want - got, key=str)}, "
            f"extra {sorted(got - want, key=str)}")


# --- strategies -----------------------------------------------------------------------------


@st.composite
def small_hands(draw: st.DrawFn, max_size: int = 9, narrow: bool | None = None
                ) -> tuple[list[Card], str]:
    """A hand of at most ``max_size`` cards from two decks and a level.

    Half the time (always when ``narrow``) the cards come from a few consecutive ranks and
    suits (plus the wilds and the jokers) so that sequences, bombs, straight flushes and wild
    readings are common.
    """
    level = draw(st.sampled_from(RANKS))
    deck = full_deck()
    if narrow if narrow is not None else draw(st.booleans()):
        start = draw(st.integers(0, len(NATURAL) - 1))
        width = draw(st.integers(1, 6))
        ranks = set(NATURAL[start : start + width])
        suits = set(draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True)))
        pool = [c for c in deck
                if c.is_joker or c.is_wild(level) or (c.rank in ranks and c.suit in suits)]
    else:
        pool = deck
    picks = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=max_size))
    return [pool[i] for i in sorted(picks)], level


@st.composite
def small_hands_and_table(draw: st.DrawFn) -> tuple[list[Card], str, Reading]:
    hand, level = draw(small_hands())
    other, _ = draw(small_hands(max_size=8).filter(lambda hl: len(hl[0]) > 0))
    table_readings = brute_readings(other, level)
    chosen = draw(st.sampled_from(sorted(table_readings, key=str)))
    return hand, level, table_readings[chosen]


FAST = settings(derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# --- brute force: empty table ---------------------------------------------------------------


@settings(FAST, max_examples=400)
@given(small_hands())
def test_empty_table_matches_brute_force(hand_level: tuple[list[Card], str]) -> None:
    """On an empty table every (kind, rank, size) any subset of the hand reads as is listed."""
    hand, level = hand_level
    plays = legal_plays(hand, level)
    check_plays(hand, level, plays)
    got = {sig(p) for p in plays}
    want = set(brute_readings(hand, level))
    assert got == want, describe(hand, level, got, want)


@settings(FAST, max_examples=300)
@given(small_hands_and_table())
def test_following_matches_brute_force(case: tuple[list[Card], str, Reading]) -> None:
    """On a table, exactly the subsets' readings that beat it (seed §12)."""
    hand, level, table = case
    plays = legal_plays(hand, level, table)
    check_plays(hand, level, plays, table)
    got = {sig(p) for p in plays}
    want = {s for s, r in brute_readings(hand, level).items() if beats(r, table)}
    assert got == want, describe(hand, level, got, want) + f" on table {table}"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_windowed_oracle_agrees_with_brute_force(seed: int) -> None:
    """The oracle used on big hands finds exactly what the exhaustive one finds."""
    rng = random.Random(seed)
    for _ in range(40):
        level = rng.choice(RANKS)
        hand = rng.sample(full_deck(), 9)
        assert windowed_readings(hand, level).keys() == brute_readings(hand, level).keys()


@settings(FAST, max_examples=150)
@given(small_hands(max_size=16, narrow=True))
@example((parse_cards("S9 S9 D9 D9 C9 C9 H9 H9 H2 H2 ST DT CT S8 D8 C8"), "2"))
@example((parse_cards("S7 D7 C7 S7 H7 H7 S8 S8 C6 C6 S5 S9 D9 C9 D8 C8"), "7"))
def test_rich_hand_matches_oracle(hand_level: tuple[list[Card], str]) -> None:
    """Up to 16 cards from a few ranks and suits: big bombs, several sequences, both wilds."""
    hand, level = hand_level
    plays = legal_plays(hand, level)
    check_plays(hand, level, plays)
    oracle = windowed_readings(hand, level)
    got = {sig(p) for p in plays}
    assert got == set(oracle), describe(hand, level, got, set(oracle))
    for table in sorted(oracle.values(), key=lambda r: str(sig(r)))[::5]:
        plays = legal_plays(hand, level, table)
        check_plays(hand, level, plays, table)
        got = {sig(p) for p in plays}
        want = {s for s, r in oracle.items() if beats(r, table)}
        assert got == want, describe(hand, level, got, want) + f" on table {table}"


# --- brute force on whole 27-card hands -----------------------------------------------------


@settings(FAST, max_examples=30)
@given(st.integers(0, 10**6), st.sampled_from(RANKS), st.integers(1, 4))
def test_dealt_hand_matches_oracle(seed: int, level: str, seat: int) -> None:
    hand = shuffled_hands(random.Random(seed))[seat]
    plays = legal_plays(hand, level)
    check_plays(hand, level, plays)
    oracle = windowed_readings(hand, level)
    got = {sig(p) for p in plays}
    assert got == set(oracle), describe(hand, level, got, set(oracle))
    # following: pick tables among the oracle's readings
    rng = random.Random(seed)
    for table in rng.sample(sorted(oracle.values(), key=lambda r: str(sig(r))), 8):
        plays = legal_plays(hand, level, table)
        check_plays(hand, level, plays, table)
        got = {sig(p) for p in plays}
        want = {s for s, r in oracle.items() if beats(r, table)}
        assert got == want, describe(hand, level, got, want) + f" on table {table}"


# --- hand-written cases ---------------------------------------------------------------------


def sigs(cards: str, level: str, table: str | None = None, table_as: Sig | None = None
         ) -> set[Sig]:
    hand = parse_cards(cards)
    t = None
    if table is not None:
        readings = classify(parse_cards(table), level)
        if table_as is not None:
            readings = [r for r in readings if sig(r) == table_as]
        assert len(readings) == 1, f"table {table}: {readings}"
        t = readings[0]
    plays = legal_plays(hand, level, t)
    check_plays(hand, level, plays, t)
    return {sig(p) for p in plays}


def test_27_card_hand_count_is_stable() -> None:
    """A dealt hand: the same plays whatever the order of the cards, and a pinned count."""
    hand = shuffled_hands(random.Random(2024))[1]
    plays = legal_plays(hand, "2")
    again = legal_plays(list(reversed(hand)), "2")
    shuffled = list(hand)
    random.Random(5).shuffle(shuffled)
    assert {sig(p) for p in again} == {sig(p) for p in plays}
    assert {sig(p) for p in legal_plays(shuffled, "2")} == {sig(p) for p in plays}
    assert len({sig(p) for p in plays}) == len(windowed_readings(hand, "2"))
    assert len(plays) == len({sig(p) for p in plays})  # one play per kind, rank and size
    assert len(plays) == 42  # pinned: a change here is a change of behaviour

BIG_HAND = (
    "S9 S9 D9 D9 C9 C9 H9 H9 H2 H2 "  # eight 9s and both wilds: 9-bombs of 4 to 10 cards
    "S4 D4 C4 S4 D4 C4 "  # six 4s
    "SK DK CK HK SK "  # five Ks
    "BJ BJ LJ LJ "
    "S5 D8"
)


def test_27_card_hand_has_bombs_of_every_size_and_the_joker_bomb() -> None:
    """§10: 4-10 card bombs (wilds filling), size by size; the joker bomb."""
    hand = parse_cards(BIG_HAND)
    assert len(hand) == 27
    got = sigs(BIG_HAND, "2")
    assert {s for s in got if s[0] == "bomb" and s[1] == "9"} == {
        ("bomb", "9", n) for n in range(4, 11)
    }
    assert {s for s in got if s[0] == "bomb" and s[1] == "4"} == {
        ("bomb", "4", n) for n in range(4, 9)
    }
    assert {s for s in got if s[0] == "bomb" and s[1] == "K"} == {
        ("bomb", "K", n) for n in range(4, 8)
    }
    assert {s[1] for s in got if s[0] == "bomb"} == {"9", "4", "K"}  # one H2 + no 2s: no 2-bomb
    assert ("joker_bomb", None, 4) in got
    assert got == set(windowed_readings(hand, "2"))


def test_wild_readings_pair_made_with_a_wild() -> None:
    """§4/§5: a wild makes a pair of any rank."""
    got = sigs("S9 H7 SK", "7")
    assert got == {
        ("single", "9", 1), ("single", "7", 1), ("single", "K", 1),
        ("pair", "9", 2), ("pair", "K", 2),
    }
    pair9 = next(p for p in legal_plays(parse_cards("S9 H7 SK"), "7") if sig(p) == ("pair", "9", 2))
    assert Counter(pair9.cards) == Counter(parse_cards("S9 H7"))


def test_wild_readings_straight_needing_a_wild() -> None:
    """§4: 하트 7은 5,6,8,9의 빈자리를 채웁니다."""
    got = sigs("S5 D6 C8 S9 H7 DK", "7")
    assert ("straight", "9") in {(k, r) for k, r, _ in got}
    assert ("straight", "T", 5) not in got


def test_wild_readings_straight_flush_needing_a_wild_in_a_missing_suit() -> None:
    """§4/§11: the wild fills the missing club; the natural D7 cannot."""
    hand = parse_cards("C5 C6 C8 C9 D7 H7")
    plays = legal_plays(hand, "7")
    sf = [p for p in plays if p.kind == "straight_flush"]
    assert [sig(p) for p in sf] == [("straight_flush", "9", 5)]
    assert Counter(sf[0].cards) == Counter(parse_cards("C5 C6 C8 C9 H7"))
    assert ("straight", "9", 5) in {sig(p) for p in plays}
    # without the wild no straight flush
    assert not [p for p in legal_plays(parse_cards("C5 C6 C8 C9 D7"), "7")
                if p.kind == "straight_flush"]


def test_wild_readings_full_house_whose_pair_is_two_wilds() -> None:
    """§6/docs/rules.md: both wilds may stand as the pair of another rank."""
    got = sigs("S9 D9 C9 H7 H7", "7")
    assert ("full_house", "9", 5) in got
    assert ("bomb", "9", 5) in got and ("bomb", "9", 4) in got
    assert ("pair", "7", 2) in got
    house = next(p for p in legal_plays(parse_cards("S9 D9 C9 H7 H7"), "7")
                 if p.kind == "full_house")
    assert Counter(house.cards) == Counter(parse_cards("S9 D9 C9 H7 H7"))


def test_joker_plays() -> None:
    """§5/§10: joker singles, joker pairs, the joker bomb; never a BJ LJ pair."""
    assert sigs("BJ BJ LJ LJ S3", "2") == {
        ("single", "BJ", 1), ("single", "LJ", 1), ("single", "3", 1),
        ("pair", "BJ", 2), ("pair", "LJ", 2), ("joker_bomb", None, 4),
    }
    assert sigs("BJ LJ", "2") == {("single", "BJ", 1), ("single", "LJ", 1)}
    assert sigs("BJ BJ LJ H2", "2") == {
        ("single", "BJ", 1), ("single", "LJ", 1), ("single", "2", 1), ("pair", "BJ", 2),
    }


def test_empty_hand_has_no_plays() -> None:
    assert legal_plays([], "2") == []


# --- following, kind by kind (seed §12) -----------------------------------------------------


def test_follow_single() -> None:
    assert sigs("S3 DK SA C2 LJ", "2", "SK") == {
        ("single", "A", 1), ("single", "2", 1), ("single", "LJ", 1),
    }


def test_follow_pair() -> None:
    assert sigs("S3 D3 SK DK SA H2 BJ LJ", "2", "SQ DQ") == {("pair", "K", 2), ("pair", "A", 2)}


def test_follow_full_house() -> None:
    """§6: only the triple counts; a 7 triple cannot beat an 8 triple whatever the pair."""
    assert sigs("S9 D9 C9 S4 D4 S7 D7 C7 SJ DJ CJ", "2", "S8 D8 C8 S3 D3") == {
        ("full_house", "9", 5), ("full_house", "J", 5),
    }


def test_follow_straight() -> None:
    assert sigs("S6 D7 C8 S9 DT CJ SQ S3", "2", "S5 D6 C7 S8 D9") == {
        ("straight", "T", 5), ("straight", "J", 5), ("straight", "Q", 5),
    }


def test_follow_tube() -> None:
    assert sigs("S4 D4 C5 D5 S6 D6 C7 H2", "2", "S3 D3 S4 D4 S5 D5") == {
        ("tube", "6", 6), ("tube", "7", 6),
    }


def test_follow_plate_bombs_also_beat_it() -> None:
    """§9/§10: a higher plate, and every bomb."""
    assert sigs("S4 D4 C4 S5 D5 C5 S6 D6 H2", "2", "S3 D3 C3 S4 D4 C4") == {
        ("plate", "5", 6), ("plate", "6", 6), ("bomb", "4", 4), ("bomb", "5", 4),
    }


def test_follow_bomb_size_then_rank() -> None:
    """§10: a bigger bomb, or a higher one of the same size."""
    assert sigs("ST DT CT ST S8 D8 C8 S8 D8 H2 S3", "2", "S9 D9 C9 S9") == {
        ("bomb", "T", 4), ("bomb", "T", 5), ("bomb", "8", 5), ("bomb", "8", 6),
    }


def test_follow_straight_flush() -> None:
    """§11: a higher straight flush or a bomb of six or more."""
    hand = "S6 S7 S8 S9 ST SJ D3 C3 S3 H3 D4 C4 S4 H4 D4 C4"
    assert sigs(hand, "2", "C5 C6 C7 C8 C9") == {
        ("straight_flush", "T", 5), ("straight_flush", "J", 5), ("bomb", "4", 6),
    }


def test_follow_straight_with_a_straight_flush() -> None:
    """§7: a straight flush beats any straight (and a lower straight flush too)."""
    got = sigs("C3 C4 C5 C6 C7", "2", "ST DJ CQ SK DA")
    assert got == {("straight_flush", "7", 5)}


def test_follow_joker_bomb_nothing_beats_it() -> None:
    """§10/§11: the joker bomb is the top of the special order."""
    hand = "S9 D9 C9 H9 S9 D9 C9 H9 H2 H2 C3 C4 C5 C6 C7"
    assert sigs(hand, "2", "BJ BJ LJ LJ") == set()


def test_follow_ten_bomb_only_the_joker_bomb() -> None:
    assert sigs("BJ BJ LJ LJ SA DA CA HA SA", "2", "S9 D9 C9 H9 S9 D9 C9 H9 H2 H2") == {
        ("joker_bomb", None, 4),
    }


def test_follow_level_7_sevens_beat_aces() -> None:
    """§3: at level 7 a 7 beats an A (single, pair and bomb)."""
    assert sigs("S7 D7 C7 S7 S3", "7", "SA") == {("single", "7", 1)} | {
        ("bomb", "7", 4)
    }
    assert ("pair", "7", 2) in sigs("S7 D7 S3", "7", "SA DA")


# -- representatives: which physical cards a play takes -----------------------------------


def cards_of(hand: str, level: str, kind: str, rank: str) -> list[str]:
    (play,) = [p for p in legal_plays(parse_cards(hand), level)
               if p.kind == kind and p.rank == rank]
    return [c.notation for c in play.cards]


def test_single_pair_and_triple_leave_a_straight_flush_whole() -> None:
    # S2 sits in the spade straight flush 2-6; C2 and D2 are free copies of the same rank.
    hand = "S2 C2 D2 S3 S4 S5 S6 D9"
    assert cards_of(hand, "7", "single", "2") == ["C2"]
    assert sorted(cards_of(hand, "7", "pair", "2")) == ["C2", "D2"]
    assert sorted(cards_of(hand, "7", "triple", "2")) == ["C2", "D2", "S2"]
    assert sorted(cards_of(hand, "7", "straight_flush", "6")) == ["S2", "S3", "S4", "S5", "S6"]


def test_a_wild_completes_the_straight_flush_the_representative_keeps() -> None:
    # At level 7, H7 is wild: S2 S3 S4 S5 and the wild make a straight flush, so the single 2
    # is C2; a low A in a flush counts too (SA with S2-S5).
    assert cards_of("S2 C2 S3 S4 S5 H7", "7", "single", "2") == ["C2"]
    assert cards_of("SA DA S2 S3 S4 S5 D9", "7", "single", "A") == ["DA"]
    assert cards_of("SA DA ST SJ SQ SK D9", "7", "single", "A") == ["DA"]


def test_a_pair_takes_the_flush_copy_only_when_it_must() -> None:
    assert sorted(cards_of("S2 C2 S3 S4 S5 S6", "7", "pair", "2")) == ["C2", "S2"]


def test_representatives_avoid_straight_flush_cards() -> None:
    """Without wilds, a play of one rank takes a copy outside every natural straight flush
    of the hand whenever the hand has enough such copies (checked by brute force). The hands
    are 20 cards of two decks' spades and diamonds, so straight flushes are common."""
    level = "2"
    pool = [c for c in full_deck() if c.suit in ("S", "D")]
    left_whole = 0
    for seed in range(200):
        hand = random.Random(seed).sample(pool, 20)
        held = Counter((c.suit, c.rank) for c in hand)
        held_rank = Counter(c.rank for c in hand)

        def in_flush(c: Card, held: Counter[tuple[str, str]] = held) -> bool:
            return any(c.rank in window and all(held[(c.suit, r)] for r in window)
                       for window in (NATURAL[low:low + 5] for low in range(len(NATURAL) - 4)))

        for p in legal_plays(hand, level):
            if p.kind not in ("single", "pair", "triple"):
                continue
            free = sum(1 for c in hand if c.rank == p.rank and not in_flush(c))
            taken = sum(1 for c in p.cards if in_flush(c))
            assert taken == max(0, len(p.cards) - free), (seed, p)
            left_whole += free >= len(p.cards) and free < held_rank[p.rank]
    # The check is not vacuous: many plays had a copy in a straight flush and enough free ones.
    assert left_whole > 100


def test_a_whole_natural_straight_flush_is_kept_before_one_a_wild_would_complete() -> None:
    # At level 2 (H2 wild), H8-HQ is a whole straight flush; C9 CT CJ CQ would need the wild.
    hand = "H2 H8 H9 HT HJ HQ C9 CT CJ CQ D3"
    assert cards_of(hand, "2", "single", "9") == ["C9"]
    assert cards_of(hand, "2", "single", "Q") == ["CQ"]


# --- every=True: every distinct play (docs/api.md) -----------------------------------------


def every_keys(hand: Sequence[Card], level: str, table: Reading | None = None) -> set[EveryKey]:
    """The plays of ``legal_plays(every=True)`` by what makes them distinct, checking that each
    is a held reading that beats the table and that none is listed twice."""
    plays = legal_plays(hand, level, table, every=True)
    check_plays(hand, level, plays, table)
    keys = [every_key(p) for p in plays]
    assert len(keys) == len(set(keys)), f"listed twice: {Counter(keys).most_common(2)}"
    return set(keys)


def describe_every(hand: Sequence[Card], level: str, got: set[EveryKey],
                   want: set[EveryKey]) -> str:
    text = " ".join(c.notation for c in hand)
    return (f"hand {text!r} level {level}: missing {sorted(want - got, key=str)[:5]}, "
            f"extra {sorted(got - want, key=str)[:5]}")


@settings(FAST, max_examples=400)
@given(small_hands())
def test_every_matches_brute_force(hand_level: tuple[list[Card], str]) -> None:
    """Every distinct play any subset of the hand reads as is listed, once."""
    hand, level = hand_level
    got = every_keys(hand, level)
    want = {every_key(r) for r in brute_all(hand, level)}
    assert got == want, describe_every(hand, level, got, want)


@settings(FAST, max_examples=300)
@given(small_hands_and_table())
def test_every_following_matches_brute_force(case: tuple[list[Card], str, Reading]) -> None:
    hand, level, table = case
    got = every_keys(hand, level, table)
    want = {every_key(r) for r in brute_all(hand, level) if beats(r, table)}
    assert got == want, describe_every(hand, level, got, want) + f" on table {table}"


@settings(FAST, max_examples=100)
@given(small_hands(max_size=16, narrow=True))
@example((parse_cards("S9 S9 D9 D9 C9 C9 H9 H9 H2 H2 ST DT CT S8 D8 C8"), "2"))
@example((parse_cards("S5 S6 S7 S8 S9 H5 H6 H8 H9 HT H7 H7 D6 D7 C8"), "7"))
def test_every_rich_hand_matches_oracle(hand_level: tuple[list[Card], str]) -> None:
    """Up to 16 cards from a few ranks and suits, on an empty table and on tables."""
    hand, level = hand_level
    readings = windowed_all(hand, level)
    got = every_keys(hand, level)
    want = {every_key(r) for r in readings}
    assert got == want, describe_every(hand, level, got, want)
    # The default lists exactly one play of each kind, rank and size that every=True lists.
    assert {sig(p) for p in legal_plays(hand, level)} == {sig(r) for r in readings}
    for table in sorted({sig(r): r for r in readings}.values(), key=lambda r: str(sig(r)))[::7]:
        got = every_keys(hand, level, table)
        want = {every_key(r) for r in readings if beats(r, table)}
        assert got == want, describe_every(hand, level, got, want) + f" on table {table}"


@settings(FAST, max_examples=8)
@given(st.integers(0, 10**6), st.sampled_from(RANKS))
def test_every_on_a_dealt_hand_matches_oracle(seed: int, level: str) -> None:
    hand = shuffled_hands(random.Random(seed))[1]
    got = every_keys(hand, level)
    want = {every_key(r) for r in windowed_all(hand, level)}
    assert got == want, describe_every(hand, level, got, want)


def plays_of(cards: str, level: str, kind: str, rank: str) -> list[str]:
    """The plays of ``every=True`` of this kind and rank, each as its cards sorted."""
    return sorted(" ".join(sorted(c.notation for c in p.cards))
                  for p in legal_plays(parse_cards(cards), level, every=True)
                  if p.kind == kind and p.rank == rank)


def test_every_full_house_lists_each_pair() -> None:
    """docs/api.md: 999+JJ and 999+33 are two plays; the default lists one full house 9."""
    hand = "S9 D9 C9 SJ DJ S3 D3 S5"
    assert plays_of(hand, "2", "full_house", "9") == ["C9 D3 D9 S3 S9", "C9 D9 DJ S9 SJ"]
    assert len([p for p in legal_plays(parse_cards(hand), "2") if p.kind == "full_house"
                and p.rank == "9"]) == 1


def test_every_pair_with_and_without_a_wild() -> None:
    """docs/api.md: 99 and 9+wild are two pairs; the level heart is a wild even as a 7."""
    assert plays_of("S9 D9 H7", "7", "pair", "9") == ["D9 S9", "H7 S9"]
    assert plays_of("S7 H7 H7", "7", "pair", "7") == ["H7 H7", "H7 S7"]
    assert plays_of("S7 H7 H7", "7", "single", "7") == ["H7", "S7"]
    # The default: one pair of 9s, the natural one.
    assert [" ".join(c.notation for c in p.cards) for p in legal_plays(parse_cards("S9 D9 H7"), "7")
            if p.kind == "pair" and p.rank == "9"] == ["S9 D9"]


def test_every_straight_flush_in_each_suit() -> None:
    """docs/api.md: 5-9 of spades and 5-9 of hearts are two straight flushes; a wild standing
    in for each natural of a whole straight flush is another play each time."""
    hand = "S5 S6 S7 S8 S9 H5 H6 H7 H8 H9"
    assert plays_of(hand, "2", "straight_flush", "9") == [
        "H5 H6 H7 H8 H9", "S5 S6 S7 S8 S9"]
    with_wild = plays_of("S5 S6 S7 S8 S9 H2", "2", "straight_flush", "9")
    assert with_wild == sorted(["S5 S6 S7 S8 S9"] + [
        " ".join(sorted({"S5", "S6", "S7", "S8", "S9", "H2"} - {out}))
        for out in ("S5", "S6", "S7", "S8", "S9")])


def test_every_straight_with_a_wild_for_a_natural() -> None:
    """A natural straight flush is never a plain straight; a wild in another suit makes one."""
    assert plays_of("S5 S6 S7 S8 S9", "2", "straight", "9") == []
    got = plays_of("S5 S6 S7 S8 S9 H2", "2", "straight", "9")
    assert len(got) == 5 and all("H2" in p for p in got)
    assert len(plays_of("S5 D6 S7 S8 S9 H2", "2", "straight", "9")) == 6


def test_every_bomb_counts_its_wilds() -> None:
    """Four 9s and both wilds: a bomb of each size with each number of wilds it may use."""
    bombs = [p for p in legal_plays(parse_cards("S9 D9 C9 S9 H2 H2"), "2", every=True)
             if p.kind == "bomb"]
    assert sorted((len(p.cards), sum(c.is_wild("2") for c in p.cards)) for p in bombs) == [
        (4, 0), (4, 1), (4, 2), (5, 1), (5, 2), (6, 2)]


def test_every_lists_more_than_the_default_on_a_dealt_hand() -> None:
    """The same kinds, ranks and sizes as the default, with more plays behind them."""
    hand = shuffled_hands(random.Random(2024))[1]
    every = legal_plays(hand, "2", every=True)
    default = legal_plays(hand, "2")
    assert {sig(p) for p in every} == {sig(p) for p in default}
    assert len(every) > len(default)


def test_what_legal_plays_keeps_changes_no_result() -> None:
    """legal_plays keeps the hands it analysed lately: asked again (another table, a returned
    list changed by the caller, the other mode) it gives what a fresh analysis gives."""
    import guandan.plays

    rng = random.Random(11)
    for _ in range(20):
        hands = shuffled_hands(rng)
        level = rng.choice(RANKS)
        tables: list[Reading | None] = [None, *rng.sample(legal_plays(hands[2], level), 6)]

        def shown(plays: list[Reading]) -> list[tuple[str, str | None, str]]:
            return [(p.kind, p.rank, " ".join(c.notation for c in p.cards)) for p in plays]

        again = []
        for every in (False, True, False):
            for t in tables:
                plays = legal_plays(hands[1], level, t, every=every)
                again.append(shown(plays))
                plays.clear()  # the caller's list: changing it changes nothing kept
        fresh = []
        for every in (False, True, False):
            for t in tables:
                guandan.plays.forget_analysed()
                fresh.append(shown(legal_plays(hands[1], level, t, every=every)))
        assert again == fresh


def test_following_lists_what_filtering_every_play_by_the_table_lists() -> None:
    """Following generates only the plays above the table (and keeps them for the hand): the
    same plays, in the same order, as the whole list filtered by ``beats``, whichever order
    the tables come in."""
    import guandan.plays

    rng = random.Random(231)
    for _ in range(12):
        hands = shuffled_hands(rng)
        level = rng.choice(RANKS)
        tables = legal_plays(hands[2], level) + legal_plays(hands[3], level)
        for order in (tables, tables[::-1]):
            guandan.plays.forget_analysed()
            for every in (False, True):
                whole = legal_plays(hands[1], level, every=every)
                for t in order:
                    following = legal_plays(hands[1], level, t, every=every)
                    assert following == [p for p in whole if beats(p, t)]
                    assert [p.cards for p in following] == [
                        p.cards for p in whole if beats(p, t)]
