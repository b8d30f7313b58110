"""The client's view of a protocol server: observations from messages, choices as indices."""

from __future__ import annotations

from typing import Any

from guandan.host.client import SeatView, choose
from guandan.match import PASS
from guandan.players import make_player
from guandan.readings import Reading

HAND = ["S3", "H3", "D3", "S9", "H9", "C9", "D9", "SK", "SB", "HR", "HR", "H2"]


def _begin(view: SeatView) -> None:
    view.notify({"type": "notify", "stage": "beginning", "myPos": 2, "handCards": HAND,
                 "curRank": "2", "selfRank": "2", "oppoRank": "5"})


def _act(action_list: list[list[Any]], greater_pos: int = -1,
         greater: list[Any] | None = None) -> dict[str, Any]:
    rests = [27, 25 if greater_pos == 1 else 27, len(HAND), 27]
    return {"type": "act", "stage": "play", "handCards": HAND,
            "publicInfo": [{"rest": n, "playArea": None} for n in rests],
            "selfRank": "2", "oppoRank": "5", "curRank": "2", "curPos": -1, "curAction": None,
            "greaterPos": greater_pos, "greaterAction": greater, "actionList": action_list,
            "indexRange": len(action_list) - 1}


def test_the_observation_holds_what_the_messages_said() -> None:
    view = SeatView()
    _begin(view)
    view.notify({"type": "notify", "stage": "play", "curPos": 1,
                 "curAction": ["Pair", "8", ["S8", "D8"]], "greaterPos": 1,
                 "greaterAction": ["Pair", "8", ["S8", "D8"]]})
    msg = _act([["PASS", "PASS", "PASS"], ["Pair", "9", ["S9", "H9"]],
                ["Pair", "K", ["SK", "H2"]], ["Pair", "R", ["HR", "HR"]]],
               greater_pos=1, greater=["Pair", "8", ["S8", "D8"]])
    obs, index = view.observation(msg)
    assert obs.seat == 3 and obs.level == "2"
    assert obs.team_levels == {"13": "2", "24": "5"}
    assert obs.counts[2] == 25 and obs.counts[3] == 12
    assert obs.table is not None and obs.table.seat == 2 and obs.table.play.rank == "8"
    assert [e.kind for e in obs.history] == ["play"] and obs.trick == obs.history
    kinds = {(a.kind, a.rank) for a in obs.legal_actions if isinstance(a, Reading)}
    assert kinds == {("pair", "9"), ("pair", "K"), ("pair", "BJ")}
    assert PASS in obs.legal_actions and index[id(PASS)] == 0


def test_a_play_our_rules_refuse_is_never_chosen() -> None:
    view = SeatView()
    _begin(view)
    # a server that lets jokers be a full house's pair: we can only pass
    msg = _act([["PASS", "PASS", "PASS"],
                ["ThreeWithTwo", "9", ["S9", "H9", "C9", "HR", "HR"]]],
               greater_pos=1, greater=["ThreeWithTwo", "8", ["S8", "D8", "C8", "S4", "D4"]])
    for name in ("greedy", "heuristic", "search"):
        assert choose(view, make_player(name), msg) == 0


def test_the_chosen_play_is_the_entry_with_its_cards() -> None:
    view = SeatView()
    _begin(view)
    entries = [["Single", "3", ["S3"]], ["Single", "3", ["H3"]], ["Single", "3", ["D3"]],
               ["Single", "9", ["S9"]], ["Single", "K", ["SK"]]]
    msg = _act(entries)
    obs, index = view.observation(msg)
    for action in obs.legal_actions:
        assert isinstance(action, Reading)
        entry = entries[index[id(action)]]
        assert entry[1] == action.rank
        assert sorted(entry[2]) == sorted(c.notation for c in action.cards)


def test_a_return_and_a_tribute_the_server_asks_for() -> None:
    view = SeatView()
    _begin(view)
    back = {**_act([["back", "back", ["S3"]], ["back", "back", ["H3"]]]), "stage": "back"}
    i = choose(view, make_player("heuristic"), back)
    assert i in (0, 1)
    tribute = {**_act([["tribute", "tribute", ["HR"]], ["tribute", "tribute", ["SB"]]]),
               "stage": "tribute"}
    assert choose(view, make_player("greedy"), tribute) == 0  # the big joker, as our rules give


def test_levels_written_as_numbers() -> None:
    view = SeatView()
    view.notify({"type": "notify", "stage": "beginning", "myPos": 0, "handCards": HAND,
                 "curRank": 10, "selfRank": 10, "oppoRank": 14})
    assert view.level == "T" and view.team_levels == {"13": "T", "24": "A"}


class _Chooser:
    """A player that plays given cards (a play ``legal_plays`` may not list as its own)."""

    def __init__(self, cards: list[str]) -> None:
        self.cards = cards

    def act(self, obs: Any) -> Any:
        from guandan.cards import parse_cards
        from guandan.readings import classify
        return classify(parse_cards(" ".join(self.cards)), obs.level)[0]


def test_a_play_of_other_cards_than_the_representative_is_found_by_its_cards() -> None:
    view = SeatView()
    _begin(view)
    entries = [["ThreeWithTwo", "9", ["S9", "H9", "C9", "S3", "H3"]],
               ["ThreeWithTwo", "9", ["S9", "H9", "C9", "HR", "HR"]],
               ["ThreeWithTwo", "9", ["S9", "H9", "C9", "S3", "D3"]]]
    msg = _act(entries)
    assert choose(view, _Chooser(["S9", "H9", "C9", "S3", "D3"]), msg) == 2  # type: ignore[arg-type]
