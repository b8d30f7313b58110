"""The order of leads and what the other seats' calm leads say (guandan.players.leads), and
how the heuristic and the search's play-outs answer a seat that leads otherwise."""

from __future__ import annotations

from guandan.cards import parse_cards
from guandan.deal import Deal
from guandan.match import Event
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.leads import careless, lead_bar, lead_order
from guandan.players.playout import Rollout, abstract_hand
from guandan.players.search import SearchPlayer
from guandan.players.tracker import Tracker

from .positions import position, reading

# Seat 1's hand: a low single and a low straight, about as weak as each other.
HAND = "S3 D5 C6 S7 D8 C9 SK DK"


def careless_history(first: str, then: str) -> list[Event]:
    """Seat 2 leads ``first`` and wins the trick, then leads ``then``, which seat 1 beats
    with a king; everyone else passes, so that seat 1 leads next, everyone calm."""
    return [
        Event("play", 2, play=reading(first, "2"), lead=True),
        Event("pass", 3), Event("pass", 4), Event("pass", 1),
        Event("play", 2, play=reading(then, "2"), lead=True),
        Event("pass", 3), Event("pass", 4),
        Event("play", 1, play=reading("HK", "2")),
        Event("pass", 2), Event("pass", 3), Event("pass", 4),
    ]


def test_lead_order_ranks_weakness_then_length() -> None:
    assert lead_order(1.15, 1) > lead_order(1.0, 5)  # the weakest first: the single 3
    assert lead_order(1.0, 5, 0.1) > lead_order(1.15, 1, 0.1)  # long plays first
    assert lead_order(1.0, 2) > lead_order(1.0, 1)  # equal weakness: the longer


def test_a_seat_that_leads_a_weaker_play_after_a_stronger_one_is_careless() -> None:
    # A careful player leads its weakest play first: a single 5 then a pair of 8s fits it; a
    # pair of 8s then a single 5 does not (an outside program's style), and says nothing.
    pair8, single5 = reading("S8 D8", "2"), reading("S5", "2")
    assert lead_bar([single5, pair8]) is not None and not careless([single5, pair8])
    assert lead_bar([pair8, single5]) is None and careless([pair8, single5])
    # Winners say nothing either way: an ace before a low single is no careless order.
    assert not careless([reading("SA", "2"), single5])
    # By the order of long plays first, a straight before a single 3 is careful.
    straight, three = reading("S4 D5 C6 S7 D8", "2"), reading("S3", "2")
    assert careless([straight, three]) and not careless([straight, three], 0.1)


def test_the_heuristic_leads_its_long_plays_first_against_a_careless_opponent() -> None:
    counts = {2: 24, 3: 27, 4: 27}
    calm = position(HAND, counts=counts, history=careless_history("S5", "S8 D8"))
    answer = position(HAND, counts=counts, history=careless_history("S8 D8", "S5"))
    t = Tracker.from_observation(answer)
    assert [str(r.cards) for r in t.calm_leads[2]] == [str(r.cards) for r in
                                                      (reading("S8 D8", "2"), reading("S5", "2"))]
    assert careless(t.calm_leads[2])
    weakest = HeuristicPlayer().act(calm)
    assert weakest == reading("S3", "2")
    player = HeuristicPlayer()
    long_first = player.act(answer)
    assert long_first == reading("D5 C6 S7 D8 C9", "2")
    assert player.reason.code == "lead_long_first"
    # Not answering: the weakest first again.
    assert HeuristicPlayer(answer_size=None).act(answer) == weakest
    assert HeuristicPlayer(lead_size=0.1, answer_size=None).act(calm) == long_first


def test_the_search_plays_out_its_team_leading_as_the_heuristic_would() -> None:
    hands = {1: parse_cards(HAND), 2: parse_cards("S4 D4 S6 D6 SJ DJ CQ"),
             3: parse_cards("SA DA S2 D2 ST DT CT"), 4: parse_cards("CA HA C4 H4 C7 H7 H9")}
    parts = {s: abstract_hand(hands[s], "2") for s in hands}
    plain = Rollout(Deal(hands, "2", 1), {s: list(p) for s, p in parts.items()})
    assert plain.lead(1).kind == "single"
    answered = Rollout(Deal(hands, "2", 1), {s: list(p) for s, p in parts.items()},
                       styles={1: 0.1, 3: 0.1})
    assert answered.lead(1).kind == "straight"
    # The search's own choice, made as the heuristic's, answers the careless seat too.
    obs = position(HAND, counts={2: 24, 3: 27, 4: 27},
                   history=careless_history("S8 D8", "S5"))
    p = SearchPlayer(seed=0, samples=8, budget_ms=None)
    assert p.core.lead_order_of(Tracker.from_observation(obs), 1) == 0.1
    assert obs.legal_actions.count(p.act(obs)) == 1


def test_the_lead_settings_travel_with_the_player() -> None:
    import pickle

    p = HeuristicPlayer(lead_size=0.05, answer_size=None)
    copy_ = pickle.loads(pickle.dumps(p))
    assert (copy_.core.lead_size, copy_.core.answer_size) == (0.05, None)
    assert pickle.loads(pickle.dumps(HeuristicPlayer())).core.answer_size == 0.1
