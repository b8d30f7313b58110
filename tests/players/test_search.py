"""The search player: its candidates, its sampling and its budget (the play-outs are in
test_playout.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from guandan.cards import Card, parse_cards
from guandan.match import Event, Match
from guandan.players.describe import REASON_CODES
from guandan.players.heuristic import HeuristicPlayer, view_of
from guandan.players.leads import lead_bar
from guandan.players.playout import (
    abstract_hand,
    abstract_reading,
    lead_rank,
)
from guandan.players.search import (
    Candidate,
    Evidence,
    SearchPlayer,
    beats_a_pass,
    departure,
    holds_above,
)
from guandan.players.tracker import Tracker

from .positions import position, reading


def test_sample_limit_and_time_budget() -> None:
    m = Match(seed=4)
    obs = m.observation(1)
    p = SearchPlayer(seed=0, samples=5, budget_ms=None, endgame_cards=27)
    assert p.act(obs) in obs.legal_actions
    assert p.last_samples <= 5
    # The budget is over at once.
    q = SearchPlayer(seed=0, samples=500, budget_ms=0.001, endgame_cards=27)
    assert q.act(obs) in obs.legal_actions
    assert q.last_samples == 2  # it always looks at two samples before checking the clock


def test_search_goes_out_without_searching() -> None:
    p = SearchPlayer(seed=0, samples=8, budget_ms=None)
    obs = position("S9 D9", table=(2, "S5 D5"))
    a = p.act(obs)
    assert a in obs.legal_actions and p.last_samples == 0
    assert "out" in p.reason.en


def test_search_reason_reports_the_sampling() -> None:
    p = SearchPlayer(seed=0, samples=8, budget_ms=None)
    obs = position("S3 D6 SK DK C9 C9 C9 S4 D4", table=(2, "SQ"), counts={2: 9, 3: 5, 4: 6})
    a = p.act(obs)
    assert a in obs.legal_actions
    assert p.last_samples >= 1
    assert "sampled deals" in p.reason.en and "표본" in p.reason.ko


def test_heuristic_alone_before_the_endgame() -> None:
    m = Match(seed=4)
    obs = m.observation(1)
    p = SearchPlayer(seed=0, samples=5, budget_ms=None, endgame_cards=12)
    assert p.act(obs) in obs.legal_actions and p.last_samples == 0
    # By default it searches from the first lead.
    q = SearchPlayer(seed=0, samples=5, budget_ms=None)
    assert q.act(obs) in obs.legal_actions and q.last_samples >= 1


def _scored(values: list[float], weights: list[float] | None = None) -> Candidate:
    c = Candidate(None, [])
    for i, x in enumerate(values):
        c.add(x, x > 0, 1.0 if weights is None else weights[i])
    return c


def test_trailing_candidates_are_dropped() -> None:
    """A candidate far behind the heuristic's choice gets no more samples."""
    p = SearchPlayer(seed=0, samples=8, budget_ms=None)
    h = _scored([1.0, -1.0] * 4)
    bad = _scored([-1.0] * 8)  # never better, often worse
    close = _scored([-1.0, 1.0] * 4)  # as good on average, undecided
    assert not p._settled([h, bad, close])
    assert bad.dropped and not close.dropped
    assert p._settled([h, bad])


def test_weighted_edge_counts_each_sample_by_its_weight() -> None:
    h = _scored([0.0] * 8)
    c = _scored([1.0] * 4 + [-1.0] * 4, weights=[1.0] * 4 + [0.25] * 4)
    m, _ = c.edge_over(h)
    assert abs(m - 0.6) < 1e-9  # (4 - 1) / 5
    assert abs(c.win_share - 80.0) < 1e-9
    # The same mean and spread with uneven weights: fewer effective samples, a wider error.
    values = [1.0, -1.0] * 4
    m_even, se_even = _scored(values).edge_over(h)
    m_uneven, se_uneven = _scored(values, [1.0] * 4 + [0.25] * 4).edge_over(h)
    assert m_even == m_uneven == 0.0
    assert abs(se_even - (1 / 7) ** 0.5) < 1e-9  # the plain standard error
    assert se_uneven > se_even


def test_lead_bar_is_the_weakest_calm_lead_and_skips_winners() -> None:
    level = "2"
    pair8 = reading("S8 D8", level)
    single5 = reading("S5", level)
    ace = reading("SA", level)  # leads a winner: no sign of weakness
    bomb = reading("S6 D6 C6 H6", level)
    assert lead_bar([ace]) is None and lead_bar([bomb]) is None
    assert lead_bar([single5, pair8]) == lead_bar([pair8])
    bar = lead_bar([pair8, ace, bomb])
    assert bar is not None
    # After leading the pair of 8s as its weakest play, a careful player holds no single 4.
    assert lead_rank(abstract_hand(parse_cards("C4"), level)[0]) > bar
    assert lead_rank(abstract_hand(parse_cards("C9"), level)[0]) <= bar


def _evidence_tally(hands: int, seed: int, what: str,
                    every: int = 3) -> tuple[tuple[int, int], tuple[int, int]]:
    """(failing, checked) for the real hands and for one deal the tracker draws per check, of
    the other seats' calm evidence (``what``: the lead bar, or the calm passes alone), every
    ``every`` decisions of ``hands`` hands of four heuristic players."""
    rng = random.Random(0)
    real = [0, 0]
    drawn = [0, 0]
    for n in range(hands):
        m = Match(seed=seed + n)
        players = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
        turn = 0
        while m.phase == "play" and m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            turn += 1
            if turn % every == 0:
                t = Tracker.from_observation(obs)
                for s in t.others():
                    if what == "leads":
                        ev = Evidence.of(t, s, passes=False)
                    else:  # the passes alone, without the lead bar
                        passed = tuple(abstract_reading(r) for r in t.calm_passes[s])
                        ev = Evidence(passed=passed) if passed else None
                    if ev is None:
                        continue
                    for hand, count in ((m.hands[s], real), (t.sample(rng)[s], drawn)):
                        count[0] += ev.fails(abstract_hand(hand, obs.level))
                        count[1] += 1
            m.apply(players[seat].act(obs))
    return (real[0], real[1]), (drawn[0], drawn[1])


def test_calm_leads_tell_real_hands_from_uniform_samples() -> None:
    """Between heuristic players, the real hands seldom hold a play weaker than one their seat
    led calmly; uniform samples often do. This is what the search's redraws rest on (measured
    on more hands in docs/ai-notebook.md, "Reading the other seats")."""
    (real_fail, real_n), (drawn_fail, drawn_n) = _evidence_tally(6, 200, "leads")
    assert real_n == drawn_n > 300
    assert real_fail / real_n < 0.15  # 7.9% (32 of 405) on these six hands
    assert drawn_fail / drawn_n > 0.45  # 57.8%
    # Calm passes: a real hand seldom holds a play of its split that beats one.
    (real_fail, real_n), (drawn_fail, drawn_n) = _evidence_tally(6, 200, "passes")
    assert real_n == drawn_n > 100
    assert real_fail / real_n < 0.08  # 1.8% (3 of 167)
    assert drawn_fail / drawn_n > 0.12  # 16.2%


def test_a_calm_pass_rules_out_plays_of_the_split_that_beat_it() -> None:
    level = "2"
    split = abstract_hand(parse_cards("S5 S6 S7 S8 D9 SJ DJ HQ"), level)
    assert [(p.kind, p.key) for p in split] == [("straight", 9), ("pair", 11), ("single", 12)]
    passed = [abstract_reading(reading("ST DT", level))]
    assert beats_a_pass(split, passed)  # the pair of jacks would have beaten the pair of 10s
    assert not beats_a_pass(split, [abstract_reading(reading("SK", level))])
    assert beats_a_pass(split, [abstract_reading(reading("S3 D4 S5 S6 S7", level))])
    # Bombs and the big joker are kept back for other reasons; full houses are left out.
    assert not beats_a_pass(abstract_hand(parse_cards("S9 D9 C9 H9"), level),
                            [abstract_reading(reading("SK", level))])
    assert not beats_a_pass(abstract_hand(parse_cards("BJ"), level),
                            [abstract_reading(reading("SA", level))])
    assert beats_a_pass(abstract_hand(parse_cards("LJ"), level),
                        [abstract_reading(reading("SA", level))])
    assert not beats_a_pass(abstract_hand(parse_cards("SK DK CK S4 D4"), level),
                            [abstract_reading(reading("SQ DQ CQ S3 D3", level))])
    ev = Evidence(passed=tuple(passed))
    assert ev.fails(split) and not Evidence().fails(split)


def test_deals_failing_a_lead_bar_are_drawn_again() -> None:
    # Seat 2 led a pair of 8s calmly, so it holds no weaker play: no 4 among its two cards.
    t = Tracker(seat=1, level="2", hand=parse_cards("S3"), counts={1: 1, 2: 2, 3: 2, 4: 2},
                unseen=Counter(parse_cards("S4 D4 SQ DQ HK CK")))
    bars = {2: Evidence(bar=lead_bar([reading("S8 D8", "2")]))}
    assert bars[2].bar is not None

    def failing_share(p: SearchPlayer) -> tuple[float, set[float]]:
        rng = random.Random(5)
        fails = 0
        weights: set[float] = set()
        for _ in range(300):
            _, others, w = p._draw(t, rng, bars)
            assert sorted(others) == [2, 3, 4]
            fails += any(part.key == 4 for part in others[2])
            weights.add(w)
        return fails / 300, weights

    uniform, w_uniform = failing_share(SearchPlayer(lead_eps=1.0))
    assert 0.5 < uniform < 0.7 and w_uniform == {1.0}  # 9 of 15 deals give seat 2 a 4
    redrawn, _ = failing_share(SearchPlayer(lead_eps=0.1, lead_tries=8))
    assert redrawn < 0.25  # about 0.13: 0.6 x 0.1 / (0.6 x 0.1 + 0.4)
    weighed, w_weighed = failing_share(SearchPlayer(lead_eps=0.1, lead_tries=0))
    assert 0.5 < weighed < 0.7 and w_weighed == {1.0, 0.1}  # kept, but weighed down


def test_lead_weight_must_keep_some_deals() -> None:
    with pytest.raises(ValueError, match="lead_eps"):
        SearchPlayer(lead_eps=0.0)
    with pytest.raises(ValueError, match="replay_draws"):
        SearchPlayer(replay_draws=0)
    with pytest.raises(ValueError, match="replay_eps"):
        SearchPlayer(replay_draws=4, replay_eps=0.0)


def test_reading_the_passes_is_a_setting() -> None:
    # Seat 3 passed calmly on seat 2's 9: with read_passes, a deal giving it a bare 10 or
    # better single is drawn again; by default only the leads are read.
    history = [Event("play", 2, play=reading("S9", "2")), Event("pass", 3)]
    obs = position("S3 S4 S6 S7 D7 C9 DT SJ DQ HA", counts={2: 20, 3: 20, 4: 20},
                   history=history, table=(2, "S9"), seat=4)
    t = Tracker.from_observation(obs)
    on = Evidence.of(t, 3, passes=True)
    assert on is not None and [q.key for q in on.passed] == [9]
    assert Evidence.of(t, 3, passes=False) is None
    assert not SearchPlayer().read_passes and SearchPlayer(read_passes=True).read_passes
    m = Match(seed=4)
    p = SearchPlayer(samples=4, budget_ms=None, read_passes=True)
    for _ in range(60):
        seat = m.to_act
        assert seat is not None
        a = p.act(m.observation(seat))
        assert a in m.observation(seat).legal_actions
        m.apply(a)


def test_following_weighs_the_highest_plain_play_too() -> None:
    # Following seat 2's 5, the heuristic plays the cheapest single; the search also weighs
    # passing, its smallest bomb and its highest plain play (the ace), by setting.
    obs = position("S3 D6 SK HA C9 C9 C9 C9 S4 D4", table=(2, "S5"), counts={2: 9, 3: 5, 4: 6})
    p = SearchPlayer(seed=0, samples=4, budget_ms=None)
    v = view_of(obs)
    h_play, _ = p.core.choose(v)
    assert h_play is not None and h_play.key < 14
    listed = [c.action for c in p.candidates(v, h_play)]
    assert None in listed
    assert any(a is not None and a.power for a in listed)
    top = [a for a in listed if a is not None and not a.power and a is not h_play]
    assert [a.key for a in top] == [14]
    off = SearchPlayer(seed=0, samples=4, budget_ms=None, follow_top=False)
    assert all(a is None or a.power or a is h_play for a in
               (c.action for c in off.candidates(v, h_play)))


def test_holds_above_counts_wilds_and_jokers() -> None:
    assert holds_above(parse_cards("S9 H2"), "2", 2, 8)  # 9 and a wild: a pair of 9s
    assert not holds_above(parse_cards("S9 H2"), "2", 2, 9)
    assert holds_above(parse_cards("H2"), "2", 1, 14)  # a wild alone is a level single
    assert not holds_above(parse_cards("S5 D5 LJ"), "2", 2, 5)
    assert holds_above(parse_cards("LJ LJ"), "2", 2, 15)
    assert not holds_above(parse_cards("S5 D5 S5"), "2", 3, 5)


def test_deals_against_a_pressed_pass_are_drawn_again() -> None:
    # Seat 2 passed on a pair of 8s while an opponent was about to go out: deals giving it a
    # pair above 8 (here the queens or kings) or a bomb are drawn again.
    t = Tracker(seat=1, level="2", hand=parse_cards("S3"), counts={1: 1, 2: 2, 3: 2, 4: 2},
                unseen=Counter(parse_cards("S4 D4 SQ DQ HK CK")))
    ev = {2: Evidence(pressed=(abstract_reading(reading("S8 D8", "2")),))}

    def pair_share(p: SearchPlayer) -> float:
        rng = random.Random(5)
        n = 0
        for _ in range(300):
            hands, _, _ = p._draw(t, rng, ev)
            n += hands[2][0].rank == hands[2][1].rank and hands[2][0].rank in "QK"
        return n / 300

    assert 0.08 < pair_share(SearchPlayer(lead_eps=1.0)) < 0.25  # 2 of 15 deals uniformly
    assert pair_share(SearchPlayer()) < 0.05


def test_the_same_play_of_other_cards_is_weighed_where_it_matters() -> None:
    # Leading a full house of 9s: the search also weighs it with the other pair (kings), and
    # plays it out on the deal; a plain pair without a wild in hand has nothing to weigh.
    obs = position("S9 D9 C9 S3 D3 SK DK S6", counts={2: 20, 3: 20, 4: 20})
    p = SearchPlayer(samples=8, budget_ms=None, every_play=True)
    v = view_of(obs)
    house = next(r for r in v.plays if r.kind == "full_house" and r.rank == "9"
                 and any(c.rank == "3" for c in r.cards))
    others = p.other_cards(v, house)
    assert [sorted(c.rank for c in r.cards) for r in others] == [["9", "9", "9", "K", "K"]]
    cands = p.candidates(v, house)
    assert any(c.action is not None and c.action.signature() == others[0].signature()
               for c in cands)
    assert SearchPlayer(every_play=False).other_cards(v, house) == others  # the list alone
    assert not any(c.action is not None and c.action.signature() == others[0].signature()
                   for c in SearchPlayer(every_play=False).candidates(v, house))
    pair = next(r for r in v.plays if r.kind == "pair" and r.rank == "K")
    assert p.other_cards(v, pair) == []
    # A wild in hand: a pair of 5s of two natural cards or of a 5 and the wild.
    w = view_of(position("S5 D5 H2 S8 D8 C8 SJ", counts={2: 20, 3: 20, 4: 20}))
    fives = next(r for r in w.plays if r.kind == "pair" and r.rank == "5")
    alts = p.other_cards(w, fives)
    assert alts and all(r.kind == "pair" and r.rank == "5" for r in alts)
    assert {sum(c.is_wild("2") for c in r.cards) for r in [fives, *alts]} == {0, 1}


def test_a_search_play_is_legal_on_the_deal_over_many_hands() -> None:
    # Legality over seeded hands, the plays of other cards included: every action the search
    # takes is applied by the match (which refuses an illegal one).
    for seed in range(3):
        m = Match(seed=100 + seed)
        players = {s: SearchPlayer(seed=s, samples=4, budget_ms=None, every_play=True)
                   for s in (1, 2, 3, 4)}
        while m.to_act is not None and m.results == []:
            seat = m.to_act
            m.apply(players[seat].act(m.observation(seat)))


def test_each_departure_from_the_heuristic_has_its_own_hint() -> None:
    r = lambda cards: reading(cards, "2")  # noqa: E731
    house33, houseKK = r("S9 D9 C9 S3 D3"), r("S9 D9 C9 SK DK")
    five, ace, bomb = r("S5"), r("SA"), r("S6 D6 H6 C6")
    assert departure(None, ace, five) == ("search_pass", {"other": ace})
    assert departure(houseKK, house33, None) == (
        "search_cards", {"play": houseKK, "cards": ["S9", "D9", "C9", "SK", "DK"]})
    assert departure(ace, five, None) == ("search_lead", {"play": ace, "other": five})
    assert departure(bomb, ace, r("S4")) == ("search_bomb", {"play": bomb, "table": r("S4")})
    assert departure(ace, None, r("S4")) == ("search_take", {"play": ace, "table": r("S4")})
    assert departure(ace, five, r("S4")) == ("search_follow",
                                             {"play": ace, "table": r("S4"), "other": five})
    for code in ("search_pass", "search_cards", "search_lead", "search_bomb", "search_take",
                 "search_follow"):
        assert code in REASON_CODES


@pytest.mark.parametrize("seed", [5, 9])
def test_two_worlds_differing_only_in_hidden_cards_decide_the_same(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    # World A is the match's first hand; world B swaps a card between seats 2 and 4 that neither
    # plays before seat 1 decides. Seat 1 sees the same, so every player decides the same. In
    # match 9's position the searches sample deals (in match 5's seat 1 can only pass).
    import guandan.match as match_module
    from guandan.players.heuristic import HeuristicPlayer

    world_a = match_module.dealt_hands(seed, 1, 1)
    m = Match(seed=seed)
    bots = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
    actions = []
    while len(actions) < 40 or m.to_act != 1:
        seat = m.to_act
        assert seat is not None
        a = bots[seat].act(m.observation(seat))
        actions.append(a)
        m.apply(a)
    left = m.hands
    x = next(c for c in left[2] if c not in left[4])
    y = next(c for c in left[4] if c not in left[2] and c != x)
    world_b = {s: list(h) for s, h in world_a.items()}
    world_b[2][world_b[2].index(x)] = y
    world_b[4][world_b[4].index(y)] = x
    monkeypatch.setattr(match_module, "dealt_hands", lambda *args: {s: list(h) for s, h in
                                                                 world_b.items()})
    m2 = Match(seed=seed)
    for a in actions:
        m2.apply(a)
    assert m2.hands[2] != m.hands[2] and m2.hands[1] == m.hands[1]
    obs_a, obs_b = m.observation(1), m2.observation(1)
    assert obs_a == obs_b
    for make in (lambda: HeuristicPlayer(seed=1),
                 lambda: SearchPlayer(seed=1, samples=8, budget_ms=None),
                 lambda: SearchPlayer(seed=1, samples=8, budget_ms=None, replay_draws=4)):
        pa, pb = make(), make()
        assert pa.act(obs_a) == pb.act(obs_b)
        assert pa.reason == pb.reason
        if seed == 9 and isinstance(pa, SearchPlayer):
            assert pa.last_samples == pb.last_samples == 8


def test_replayed_draws_favour_deals_the_other_seats_played_as_they_did() -> None:
    # Between heuristic players, the deals the search draws with ``replay_draws`` make fewer
    # of the other seats' turns unlike the fast policy's than plain draws do.
    from guandan.players.heuristic import HeuristicPlayer
    from guandan.players.playout import hand_turns, replay_misses, start_hands
    from guandan.players.tracker import Tracker

    m = Match(seed=9)
    bots = {s: HeuristicPlayer(seed=s) for s in (1, 2, 3, 4)}
    while len(m.observation(1).history) < 40 or m.to_act != 1:
        seat = m.to_act
        assert seat is not None
        m.apply(bots[seat].act(m.observation(seat)))
    obs = m.observation(1)
    turns = hand_turns(obs.history)
    tracker = Tracker.from_observation(obs)
    seats = tracker.others()

    def misses(hands: dict[int, list[Card]]) -> int:
        return sum(replay_misses(start_hands(hands, turns), obs.level, turns, seats).values())

    p = SearchPlayer(seed=1, samples=8, budget_ms=None, replay_draws=8)
    finish = {s: 3 for s in (1, 2, 3, 4)}
    rng = random.Random(2)
    plain = [misses(p._draw(tracker, rng, {})[0]) for _ in range(30)]
    chosen = [misses(p._draw_replayed(tracker, rng, {}, turns, None, finish)[0])
              for _ in range(30)]
    real = misses({s: list(h) for s, h in m.hands.items()})
    assert sum(chosen) / 30 < sum(plain) / 30 - 1  # 11.4 misses a deal, against 13.8
    assert real <= min(plain)  # the real cards: 3 misses; the fewest of a plain draw: 10
