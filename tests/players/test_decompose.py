"""Hand decomposition: every card in exactly one play, each play real, wilds saving plays."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from guandan.cards import parse_cards, shuffled_hands
from guandan.players.decompose import decompose
from guandan.plays import legal_plays


def split(hand: str, level: str = "2") -> list[tuple[str, str | None]]:
    return sorted((p.kind, p.rank) for p in decompose(parse_cards(hand), level).parts)


@pytest.mark.parametrize(("hand", "level", "parts"), [
    ("S3 D3 S4 D4 S5 D5", "2", [("tube", "5")]),
    ("S3 D3 C3 S4 D4 C4", "2", [("plate", "4")]),
    ("S9 D9 C9 SJ DJ", "2", [("full_house", "9")]),
    ("SA S2 D3 C4 S5", "7", [("straight", "5")]),
    ("ST SJ DQ CK SA", "7", [("straight", "A")]),
    ("S5 S6 S7 S8 S9", "2", [("straight_flush", "9")]),
    ("BJ BJ LJ LJ", "2", [("joker_bomb", None)]),
    ("S8 D8 C8 H8 S8", "2", [("bomb", "8")]),
    # Wilds where they save a play: a gap in a straight, a triple into a bomb.
    ("S3 S4 C6 D7 H2", "2", [("straight", "7")]),
    ("S9 D9 C9 H5", "5", [("bomb", "9")]),
    # A wild pairs a lone card rather than stay a single of its own.
    ("S9 HQ", "Q", [("pair", "9")]),
])
def test_known_splits(hand: str, level: str, parts: list[tuple[str, str | None]]) -> None:
    assert split(hand, level) == parts


def test_straight_taken_only_where_it_saves_plays() -> None:
    # 33 44 55 66 77: a tube and two pairs (3 plays), not straights (two straights = 2 plays
    # would be fine too): in any case fewer than five plays.
    d = decompose(parse_cards("S3 D3 S4 D4 S5 D5 S6 D6 S7 D7"), "2")
    assert d.plays <= 3


def test_every_card_in_exactly_one_real_play() -> None:
    rng = random.Random(4)
    for _ in range(150):
        hands = shuffled_hands(rng)
        level = rng.choice("23456789TJQKA")
        for seat in (1, 2):
            hand = hands[seat][: rng.randint(5, 27)]
            d = decompose(hand, level)
            assert sum(p.size for p in d.parts) == len(hand)
            kinds = Counter((r.kind, r.rank, len(r.cards)) for r in legal_plays(hand, level))
            for p in d.parts:
                assert (p.kind, p.rank, p.size) in kinds, (p, hand, level)
            # Fewer plays than a naive split by rank (singles, pairs, triples, bombs).
            by_rank = Counter(c.rank for c in hand)
            assert d.plays <= len(by_rank)


def test_stronger_hand_costs_less() -> None:
    weak = decompose(parse_cards("S3 D5 C7 S9 DJ"), "2")
    strong = decompose(parse_cards("S3 D5 C7 S9 BJ"), "2")
    assert strong.cost < weak.cost


def test_window_tables_say_what_counting_the_window_says() -> None:
    # The solver reads each sequence shape's wilds needed (or 99: not worth taking, or it would
    # break a bomb) from a table over the counts read in base 5; count it out directly instead.
    from guandan.players.decompose import _SHAPES, counts_code

    def counted(cnt: list[int], per: int, idxs: tuple[int, ...]) -> int:
        if any(cnt[i] >= 4 for i in idxs):
            return 99
        need = sum(max(0, per - cnt[i]) for i in idxs)
        useful = sum(1 for i in idxs if cnt[i] == per)
        return need if useful + need >= 2 else 99

    rng = random.Random(5)
    for _ in range(2000):
        cnt = [0, 0] + [rng.choice((0, 0, 1, 1, 2, 2, 3, 4, 5, 8)) for _ in range(13)]
        code = counts_code(cnt)
        for _kind, _top, per, idxs, _cost, div, mod, table in _SHAPES:
            assert table[code // div % mod] == counted(cnt, per, idxs), (cnt, idxs)


def test_bomb_is_never_broken_for_a_sequence() -> None:
    # Four sixes stay a bomb: the straight 3-7 would need one of them.
    assert ("bomb", "6") in split("S3 D4 C5 S6 D6 C6 H6 S7 D9", "2")
