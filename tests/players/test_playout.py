"""The play-outs: a hand as the plays of its split, and the fast policy that plays a deal out
on a real `Deal` (guandan/players/playout.py)."""

from __future__ import annotations

import random
from collections import Counter

from guandan.cards import Card, parse_cards, shuffled_hands
from guandan.deal import Deal
from guandan.players.playout import (
    APlay,
    Rollout,
    abstract_hand,
    abstract_reading,
    as_reading,
    same_rank_play,
)
from guandan.plays import legal_plays
from guandan.readings import beats, read_as


def test_abstract_beats_agrees_with_the_rules() -> None:
    rng = random.Random(3)
    for _ in range(40):
        hands = shuffled_hands(rng)
        level = rng.choice("23456789TJQKA")
        a = legal_plays(hands[1], level)
        b = legal_plays(hands[2], level)
        for x in rng.sample(a, min(25, len(a))):
            for y in rng.sample(b, min(25, len(b))):
                assert abstract_reading(x).beats(abstract_reading(y)) == beats(x, y), (x, y)


def test_abstract_hand_covers_the_hand() -> None:
    hands = shuffled_hands(random.Random(8))
    for s in (1, 2, 3, 4):
        assert sum(p.size for p in abstract_hand(hands[s], "5")) == 27


def test_the_split_plays_real_cards_and_plays_a_deal_out() -> None:
    """Each play of a split holds its own cards, which read as its kind and rank; the fast
    policy plays whole deals on them, every play checked by the deal."""
    def check(cards: list[Card], level: str) -> list[APlay]:
        parts = abstract_hand(cards, level)
        assert Counter(c for p in parts for c in p.cards) == Counter(cards)
        for p in parts:
            r = read_as(p.cards, level, p.kind, p.rank)
            assert (r.key, r.power, len(r.cards)) == (p.key, p.power, p.size)
        return parts

    # Two wilds in an A-5 straight of hearts: a natural queen is no wild to swap in.
    check(parse_cards("HA HQ HQ H4 H5 CQ"), "Q")
    # Five natural spades are a straight flush, never a straight.
    assert [p.kind for p in check(parse_cards("S3 S4 S5 S6 S7"), "9")] == ["straight_flush"]
    rng = random.Random(21)
    for _ in range(40):
        hands = shuffled_hands(rng)
        level = rng.choice("23456789TJQKA")
        parts = {s: check(hands[s], level) for s in (1, 2, 3, 4)}
        for s in (1, 2, 3, 4):
            check(rng.sample(hands[s], rng.randint(1, 26)), level)
        rollout = Rollout(Deal(hands, level, rng.choice((1, 2, 3, 4))), parts)
        rollout.run()
        assert rollout.deal.over and sorted(rollout.deal.finish_order) == [1, 2, 3, 4]


def test_a_play_out_ends_with_both_partners_out_and_scores_it() -> None:
    hands = {1: parse_cards("SA"), 2: parse_cards("S3 S4"), 3: parse_cards("H2"),
             4: parse_cards("S5")}
    rollout = Rollout(Deal(hands, "2", 1), {s: abstract_hand(hands[s], "2") for s in hands})
    rollout.run()
    # Seat 1 goes out with the ace; seat 3 beats its partner's ace with the level card, since
    # seat 4 would go out over it.
    assert rollout.deal.finish_order[:2] == [1, 3]
    assert rollout.value(1) == 3.0 and rollout.value(2) == -3.0


def _follow(mine: str, table: str, counts: int = 9) -> tuple[APlay | None, Rollout]:
    """Seat 2 follows seat 1's ``table``; the other seats hold ``counts`` cards each."""
    filler = [Card(s + r) for r in "3456789TJQ" for s in "SD"][:counts]
    hands = {1: [*filler, *parse_cards(table)], 2: parse_cards(mine), 3: filler, 4: filler}
    d = Deal(hands, "2", 1)
    d.apply(read_as(parse_cards(table), "2", *_kind_rank(table)))
    rollout = Rollout(d, {s: abstract_hand(d.held(s), "2") for s in (1, 2, 3, 4)})
    return rollout.follow(2), rollout


def _kind_rank(cards: str) -> tuple[str, str | None]:
    r = legal_plays(parse_cards(cards), "2")[-1]
    return r.kind, r.rank


def test_fast_policy_follows_a_pair_with_a_full_house_pair() -> None:
    # 9 9 9 + 6 6 against a pair of 5s: the heuristic plays the 6s and keeps the triple.
    play, rollout = _follow("S9 D9 C9 S6 D6 S4 D7 C8", "S5 D5")
    assert play is not None and (play.kind, play.key) == ("pair", 6)
    assert sorted(c.notation for c in play.cards) == ["D6", "S6"]
    rollout.play(2, play)
    assert sorted((p.kind, p.key) for p in rollout.parts[2]) == [
        ("single", 4), ("single", 7), ("single", 8), ("triple", 9)]
    assert rollout.deal.count(2) == 8 - 2


def test_fast_policy_joins_a_triple_to_a_full_house_pair() -> None:
    # K K K alone and 4 4 4 + 3 3: against a full house of 7s the Ks take the 3s along.
    play, rollout = _follow("SK DK CK S4 D4 C4 S3 D3 S9 DT", "S7 D7 C7 S6 D6")
    assert play is not None and (play.kind, play.key, play.size) == ("full_house", 13, 5)
    rollout.play(2, play)
    assert sorted((p.kind, p.key) for p in rollout.parts[2]) == [
        ("single", 9), ("single", 10), ("triple", 4)]
    assert rollout.deal.held(2) == tuple(parse_cards("S4 D4 C4 S9 DT"))


def test_fast_policy_keeps_a_joker_pair_from_a_small_single() -> None:
    # Calm, many plays left: a low single is not worth breaking the pair of big jokers.
    play, _ = _follow("BJ BJ S3 D4 S6 D7 C8 S9 DT", "D6", counts=20)
    assert play is None


def test_a_part_split_by_a_follow_keeps_its_real_rank() -> None:
    # A pair of 9s made with a wild: following a single, the natural 9 goes and the wild stays,
    # a level card now (a single 2 at level 2), as the deal reads it.
    _, rollout = _follow("S9 H2 S4 D6", "S8")
    rollout.parts[2] = [same_rank_play("pair", tuple(parse_cards("S9 H2")), "2"),
                        same_rank_play("single", tuple(parse_cards("S4")), "2"),
                        same_rank_play("single", tuple(parse_cards("D6")), "2")]
    play = rollout.follow(2)
    assert play is not None and play.cards == tuple(parse_cards("S9")) and play.key == 9
    rollout.play(2, play)
    left = [p for p in rollout.parts[2] if p.cards == tuple(parse_cards("H2"))]
    assert len(left) == 1 and left[0].key == 15 and as_reading(left[0], "2").rank == "2"
    assert rollout.deal.held(2) == tuple(parse_cards("H2 S4 D6"))


def bombs_after_lead(hands: dict[int, list[Card]], lead: str, rank: str,
                     finish: dict[int, int] | None = None,
                     race: dict[int, int] | None = None) -> bool:
    """Seat 1 leads the single ``lead``: does seat 2's play-out policy answer with a bomb?"""
    parts = {s: abstract_hand(hands[s], "2") for s in hands}
    deal = Deal(hands, "2", 1)
    deal.apply(read_as(parse_cards(lead), "2", "single", rank))
    choice = Rollout(deal, {s: list(p) for s, p in parts.items()}, finish=finish,
                     race=race).choose(2)
    return choice is not None and choice.power > 0


def test_play_outs_bomb_for_the_lead_as_the_heuristic_would() -> None:
    # Seat 1 leads a 9 into seat 2, whose only play above it is four 5s; after them three plays
    # finish its hand (a 4, three 7s, an 8). Calm, the play-outs bomb, as the heuristic does
    # (``BOMB_FINISH``), unless seat 2 has seen an opponent bomb readily (``finish`` 2).
    hands = {1: parse_cards("S9 S3 D4 C6 S8 DT SJ DQ HK SA"),
             2: parse_cards("S5 D5 C5 H5 S4 C7 H7 D7 D8"),
             3: parse_cards("S2 D2 C3 H3 C4 H4 C8 H8 C9 H9"),
             4: parse_cards("ST CT HT SQ CQ HQ SK CK DK CJ")}
    for finish, expected in ((None, True), ({2: 2}, False)):
        assert bombs_after_lead(hands, "S9", "9", finish=finish) is expected


def test_replayed_turns_tell_real_hands_from_drawn_ones() -> None:
    """Between heuristic players, replaying a hand from its first lead with the real cards, the
    fast policy plays most of the other seats' turns as they did; with cards drawn at random
    for them (as the search samples them) it misses far more. This is what the search's
    replayed draws (``SearchPlayer(replay_draws=...)``) rest on."""
    from guandan.match import Match
    from guandan.players.heuristic import HeuristicPlayer
    from guandan.players.playout import hand_turns, replay_misses, start_hands
    from guandan.players.tracker import Tracker

    rng = random.Random(4)
    real_misses = drawn_misses = turns_seen = 0
    for seed in range(6):
        m = Match(seed=seed)
        bots = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
        while m.phase != "play" or len(m.observation(1).history) < 40 or m.to_act != 1:
            seat = m.to_act
            assert seat is not None
            m.apply(bots[seat].act(m.observation(seat)))
        obs = m.observation(1)
        turns = hand_turns(obs.history)
        seats = [2, 3, 4]
        turns_seen += sum(1 for s, _ in turns if s in seats)
        real = start_hands(m.hands, turns)
        real_misses += sum(replay_misses(real, obs.level, turns, seats).values())
        tracker = Tracker.from_observation(obs)
        for _ in range(5):
            start = start_hands(tracker.sample(rng), turns)
            drawn_misses += sum(replay_misses(start, obs.level, turns, seats).values()) / 5
    assert turns_seen > 150  # 180
    assert real_misses / turns_seen < 0.15  # 17 misses (9.4%)
    assert drawn_misses > 2 * real_misses  # 69.8 a drawn deal (39%)


def test_play_outs_bomb_in_the_race_as_the_heuristic_would() -> None:
    # Seat 1 leads its ace into seat 2 (nine cards left), whose only play above it is four 5s, with
    # many plays left after them: calm, no bomb; once seat 1 is within ``race`` cards (the
    # heuristic's race, ``tracker.race_on``), the bomb.
    hands = {1: parse_cards("SA S3 D4 C6 S8 DT SJ DQ HK S9"),
             2: parse_cards("S5 D5 C5 H5 S3 C4 D6 C7 D8 S9 CT CJ"),
             3: parse_cards("S2 D2 C3 H3 C4 H4 C8 H8 C9 H9"),
             4: parse_cards("ST CT HT SQ CQ HQ SK CK DK CJ")}
    for race, expected in ((None, False), ({2: 8}, False), ({2: 9}, True), ({4: 14}, False)):
        assert bombs_after_lead(hands, "SA", "A", race=race) is expected, race
