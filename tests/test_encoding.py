"""Fixed action ids, masks and observation arrays (guandan.encoding)."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from guandan import encoding as enc
from guandan.cards import RANKS, Card, full_deck, parse_card, parse_cards
from guandan.match import PASS, Match, Observation
from guandan.plays import legal_plays
from guandan.readings import Reading, beats, classify, read_as
from guandan.seats import SEATS


def identity(play: Reading) -> tuple[object, ...]:
    """What makes a play distinct under ``every=True``, worked out here on its own."""
    wild = [c for c in play.cards if c.suit == "H" and c.rank == play.level]
    natural = Counter(c.rank for c in play.cards if c not in wild)
    suits = {c.suit for c in play.cards if c not in wild}
    return (play.kind, play.rank, tuple(sorted(natural.items())), len(wild),
            suits.pop() if play.kind == "straight_flush" else "")


def every_play_brute(hand: list[Card], level: str, table: Reading | None) -> set[int]:
    """Ids of every reading of every sub-multiset of ``hand`` that may be played on ``table``."""
    items = sorted(Counter(hand).items(), key=lambda kv: kv[0].index)
    ids = set()
    for take in itertools.product(*[range(n + 1) for _, n in items]):
        if not 0 < sum(take) <= 10:
            continue
        cards = [c for (c, _), k in zip(items, take, strict=True) for _ in range(k)]
        for r in classify(cards, level):
            if table is None or beats(r, table):
                ids.add(enc.play_id(r))
    return ids


# -- the action table -----------------------------------------------------------------------


def test_the_table_is_compact_and_ordered() -> None:
    assert enc.ACTION_SIZE == 1 + len(enc.ACTION_TABLE) + 54 == 2189
    assert enc.PASS_ID == 0
    assert enc.ACTION_RANGES["return"] == (enc.ACTION_SIZE - 54, enc.ACTION_SIZE)
    spans = sorted(enc.ACTION_RANGES.values())
    assert spans[0][0] == 0 and spans[-1][1] == enc.ACTION_SIZE
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))  # no gap, no overlap
    assert len(set(enc.ACTION_TABLE)) == len(enc.ACTION_TABLE)
    sizes = {k: b - a for k, (a, b) in enc.ACTION_RANGES.items()}
    # 13 ranks x (natural, wild) + 2 jokers; pairs 13 x 3 + 2; triples 13 x 3.
    assert (sizes["single"], sizes["pair"], sizes["triple"]) == (28, 41, 39)
    # Full houses: 13 x 12 x 5 count patterns + 13 with a pair of wilds.
    assert sizes["full_house"] == 13 * 12 * 5 + 13
    # Straights: 10 windows x (5 naturals, 4 + wild, 3 + 2 wilds) = 10 x 16; flushes x 4 suits.
    assert sizes["straight"] == 160 and sizes["straight_flush"] == 640
    assert sizes["tube"] == 12 * 10 and sizes["plate"] == 13 * 6
    assert sizes["bomb"] == 13 * (5 + 6 + 7) and sizes["joker_bomb"] == 1


def test_plays_that_differ_have_their_own_ids() -> None:
    plays = [("S9 D9 C9 SJ DJ", "2", "full_house", "9"), ("S9 D9 C9 S3 D3", "2", "full_house", "9"),
             ("S9 D9", "7", "pair", "9"), ("S9 H7", "7", "pair", "9"),
             ("S5 S6 S7 S8 S9", "2", "straight_flush", "9"),
             ("H5 H6 H7 H8 H9", "2", "straight_flush", "9"), ("H7", "7", "single", "7"),
             ("S7", "7", "single", "7"), ("S7", "8", "single", "7")]
    ids = [enc.play_id(read_as(parse_cards(c), lv, k, r)) for c, lv, k, r in plays]
    assert len(set(ids)) == 8 and ids[-1] == ids[-2]  # S7 is the same play at any level


def test_an_id_does_not_depend_on_the_copies_nor_the_level() -> None:
    a = read_as(parse_cards("S9 D9 H2"), "2", "triple", "9")
    b = read_as(parse_cards("C9 C9 HK"), "K", "triple", "9")
    assert enc.play_id(a) == enc.play_id(b)
    # A level heart played as itself still counts as a wild: not the id of a natural pair.
    assert enc.play_id(read_as(parse_cards("S7 H7"), "7", "pair", "7")) != enc.play_id(
        read_as(parse_cards("S7 D7"), "7", "pair", "7"))
    assert enc.describe_action(enc.play_id(a)) == "triple 9 (9x2 + 1 wild)"


def test_a_returned_card_is_not_its_single() -> None:
    s3 = parse_card("S3")
    assert enc.return_id(s3) != enc.play_id(classify([s3], "2")[0])
    assert enc.describe_action(enc.return_id(s3)) == "return S3"
    assert enc.describe_action(enc.PASS_ID) == "pass"
    with pytest.raises(ValueError, match="no action has id"):
        enc.describe_action(enc.ACTION_SIZE)


def test_every_play_matches_all_readings_of_all_card_sets() -> None:
    rng = random.Random(27)
    for trial in range(160):
        level = rng.choice(RANKS)
        wild = parse_card("H" + level)
        if trial % 2:  # few ranks, many copies: bombs, tubes, plates, full houses
            ranks = rng.sample(RANKS, 4)
            pool = [c for c in full_deck() if c.rank in ranks or c.is_joker]
        else:
            pool = full_deck()
        rng.shuffle(pool)
        hand = [c for c in pool[: rng.randint(4, 10)] if c is not wild]
        hand += [wild] * (trial % 3)
        table = None
        if trial % 4 == 1:
            table = rng.choice(legal_plays(full_deck()[::3], level))
        got = enc._every_play(hand, level, table)
        assert set(got) == every_play_brute(hand, level, table), (hand, level, table)
        for i in got:
            play = enc._play_of(i, hand, level)
            assert enc.play_id(play) == i
            assert not Counter(play.cards) - Counter(hand)


# -- many positions of real play -------------------------------------------------------------


def _positions(seed: int, decisions: int) -> Iterator[tuple[Match, Observation]]:
    """Positions met while choosing at random among the ids of the mask (returns included);
    each is yielded before the match moves on."""
    rng = random.Random(seed)
    match = Match(["site", "national", "huaian", "nanjing"][seed % 4], seed=seed)
    for _ in range(decisions):
        if match.to_act is None:
            match = Match(match.rules, seed=rng.randrange(10**6))
        obs = match.observation(match.to_act)
        yield match, obs
        ids = np.flatnonzero(enc.action_mask(obs))
        # Lean towards playing so that hands end and tribute comes round.
        plays = [i for i in ids if i != enc.PASS_ID]
        choice = rng.choice(plays if plays and rng.random() < 0.8 else list(ids))
        match.apply(enc.action_of(int(choice), obs))


@pytest.mark.parametrize("seed", range(8))
def test_masks_hold_every_legal_action_and_only_those(seed: int) -> None:
    by_id: dict[int, tuple[object, ...]] = {}
    returns = 0
    for match, obs in _positions(seed, 300):
        mask = enc.action_mask(obs)
        assert mask.dtype == np.bool_ and mask.shape == (enc.ACTION_SIZE,)
        for action in obs.legal_actions:  # every play of every kind and rank, PASS, returns
            assert mask[enc.action_id(action, obs)]
        ids = np.flatnonzero(mask)
        assert len(ids) >= len({(a.kind, a.rank, len(a.cards)) if isinstance(a, Reading)
                                else a for a in obs.legal_actions})
        seen: set[tuple[object, ...]] = set()
        for i in ids:
            action = enc.action_of(int(i), obs)
            if isinstance(action, Reading):
                deal = match.current_deal
                assert deal is not None
                deal.clone().apply(action)  # the engine accepts it
                key = identity(action)
                assert key not in seen  # one id per distinct play
                seen.add(key)
                assert by_id.setdefault(int(i), key) == key  # the same play in every position
                assert enc.action_id(action, obs) == i
            elif action is PASS:
                assert i == enc.PASS_ID and obs.table is not None
            else:
                assert isinstance(action, Card) and action in obs.legal_actions
                returns += 1
        other = obs.seat % 4 + 1
        assert not enc.action_mask(match.observation(other)).any()  # not to act: all False
    assert by_id


def test_an_illegal_id_or_action_is_refused() -> None:
    match = Match("site", seed=5)
    obs = match.observation(1)
    mask = enc.action_mask(obs)
    illegal = int(np.flatnonzero(~mask)[1])
    with pytest.raises(ValueError, match="not legal for seat 1"):
        enc.action_of(illegal, obs)
    with pytest.raises(ValueError, match="no action has id"):
        enc.action_of(enc.ACTION_SIZE, obs)
    with pytest.raises(ValueError, match="integer"):
        enc.action_of("3", obs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="may not pass"):
        enc.action_id(PASS, obs)
    with pytest.raises(ValueError, match="may not play"):
        enc.action_id(read_as(parse_cards("BJ BJ LJ LJ"), "2", "joker_bomb", None), obs)


# -- observations ----------------------------------------------------------------------------


def _segment(x: np.ndarray, name: str) -> np.ndarray:
    a, b = enc.OBSERVATION_OFFSETS[name]
    shape = dict(enc.OBSERVATION_LAYOUT)[name]
    return x[a:b].reshape(shape)


def _counts(cards: object) -> np.ndarray:
    out = np.zeros(54, dtype=np.float32)
    for c in cards:  # type: ignore[attr-defined]
        out[c.index] += 1
    return out


def test_the_layout_is_pinned() -> None:
    names = [n for n, _ in enc.OBSERVATION_LAYOUT]
    assert names == ["hand", "played", "unseen", "table_cards", "table_kind", "table_rank",
                     "table_seat", "trick", "cards_left", "finished", "team_levels", "level",
                     "level_team", "a_tries", "tribute_kind", "gifts", "returns", "phase",
                     "to_act"]
    assert enc.OBSERVATION_OFFSETS["hand"] == (0, 54)
    assert enc.OBSERVATION_OFFSETS["played"] == (54, 270)
    assert enc.OBSERVATION_OFFSETS["trick"] == (407, 584)
    assert enc.OBSERVATION_OFFSETS["gifts"] == (765, 889)
    assert enc.OBSERVATION_OFFSETS["to_act"] == (1015, 1019)
    assert enc.OBSERVATION_SHAPE == (1019,)


def test_golden_position() -> None:
    """A seeded position, segment by segment, from what seat 2 has seen."""
    match = Match("site", seed=11)
    for _ in range(6):  # seat 1 leads, then each seat plays its greedy-like first play
        obs = match.observation(match.to_act)
        match.apply(obs.legal_actions[0])
    obs = match.observation(2)
    x = enc.observation_array(obs)
    assert x.dtype == np.float32 and x.shape == enc.OBSERVATION_SHAPE
    assert (_segment(x, "hand") == _counts(obs.hand)).all()
    played = _segment(x, "played")
    for seat in SEATS:
        mine = [c for e in obs.history if e.seat == seat and e.play for c in e.play.cards]
        assert (played[(seat - 2) % 4] == _counts(mine)).all()
    assert _segment(x, "unseen").sum() == 108 - len(obs.hand) - sum(
        len(e.play.cards) for e in obs.history if e.play)
    assert obs.table is not None
    assert (_segment(x, "table_cards") == _counts(obs.table.play.cards)).all()
    assert _segment(x, "table_seat")[(obs.table.seat - 2) % 4] == 1
    trick = _segment(x, "trick")
    assert (trick[0, :54] == _counts(obs.trick[-1].play.cards)).all()  # type: ignore[union-attr]
    assert trick[0, 55 + (obs.trick[-1].seat - 2) % 4] == 1
    left = _segment(x, "cards_left")
    assert [int(np.argmax(left[(s - 2) % 4])) for s in SEATS] == [obs.counts[s] for s in SEATS]
    assert _segment(x, "team_levels")[:, 0].tolist() == [1, 1]  # both at 2
    assert _segment(x, "level")[0] == 1 and _segment(x, "tribute_kind")[0] == 1
    assert _segment(x, "phase").tolist() == [0, 1]
    assert _segment(x, "to_act")[(obs.to_act - 2) % 4] == 1  # type: ignore[operator]
    # Every segment is 0/1 except the card counts (0-2).
    assert set(np.unique(x)) <= {0.0, 1.0, 2.0}
    # The position itself, and the whole array: a change of layout must show here.
    assert [(e.seat, " ".join(c.notation for c in e.play.cards) if e.play else "pass")
            for e in obs.history] == [(1, "D2"), (2, "LJ"), (3, "pass"), (4, "H5 H5 D5 D5"),
                                      (1, "D6 D6 C6 H2"), (2, "S6 H6 H6 C6 H2")]
    assert int(x.sum()) == 144
    assert hashlib.sha256(x.tobytes()).hexdigest() == (
        "6b71ff2d3d5415aa672c547f813f74af0e1f1b44bdeb3761e176f2153cbad912")


def test_tribute_seen_and_relative_seats() -> None:
    match = Match("site", seed=2)
    rng = random.Random(0)
    while match.hand_number == 1 or match.phase != "return":
        obs = match.observation(match.to_act)
        match.apply(rng.choice(obs.legal_actions))
        if match.hand_number > 3:
            pytest.fail("no return came up")
    seat = match.to_act
    assert seat is not None
    obs = match.observation(seat)
    x = enc.observation_array(obs)
    gifts = _segment(x, "gifts")
    g = obs.tribute.gifts[0]
    assert gifts[0, g.card.index] == 1
    assert gifts[0, 54 + (g.giver - seat) % 4] == 1 and gifts[0, 58 + (g.receiver - seat) % 4] == 1
    assert _segment(x, "phase").tolist() == [1, 0]
    mask = enc.action_mask(obs)
    assert {enc.action_of(int(i), obs) for i in np.flatnonzero(mask)} == set(obs.legal_actions)


def _swap_hidden(match: Match, observer: int, rng: random.Random) -> Match:
    """The same match, with the cards the observer has not seen dealt anew among the others."""
    twin = Match.from_json(match.to_json())
    state = twin.current_deal
    assert state is not None
    hands = state.hands
    others = [s for s in SEATS if s != observer]
    pool = [c for s in others for c in hands[s]]
    rng.shuffle(pool)
    at = 0
    for s in others:
        n = len(hands[s])
        hands[s] = pool[at:at + n]
        at += n
    state._set_hands(hands)  # the test's own twin world: nothing public deals cards anew
    return twin


@pytest.mark.parametrize("seed", range(6))
def test_the_observation_holds_only_what_the_seat_may_know(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for k, (match, _) in enumerate(_positions(seed + 100, 200)):
        if k % 7 or match.current_deal is None:
            continue
        for seat in SEATS:
            twin = _swap_hidden(match, seat, rng)
            if twin.hands == match.hands:
                continue
            a = enc.observation_array(match.observation(seat))
            b = enc.observation_array(twin.observation(seat))
            assert (a == b).all()
            checked += 1
    assert checked > 20


def test_out_is_filled_in_place() -> None:
    out = np.ones(enc.OBSERVATION_SHAPE, dtype=np.float32)
    obs = Match("site", seed=0).observation(1)
    assert enc.observation_array(obs, out) is out
    assert (out == enc.observation_array(obs)).all()
    assert _segment(out, "hand").sum() == 27 and _segment(out, "unseen").sum() == 81
    mask = np.ones(enc.ACTION_SIZE, dtype=np.bool_)
    assert enc.action_mask(obs, mask) is mask and (mask == enc.action_mask(obs)).all()
