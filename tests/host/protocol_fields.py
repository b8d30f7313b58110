"""The competition's messages field by field, to check ours against.

What each message holds is what the competition's example clients document
(``../shared/compbots/example-clients/state.py``, one docstring per ``(type, stage)``) and what
its server sent, as clients of several teams recorded it: an ``act`` that asks for a lead names
nobody (``curPos`` and ``greaterPos`` -1, ``curAction`` and ``greaterAction`` ``[null, null,
null]``; ai6's ``Myfunc1014.py`` keeps two such messages, the hand's first lead and a lead
after passes). Where the docstrings contradict themselves (``antiNums`` in one example,
``antiNum`` in the fields' list and in the server), the server's spelling is taken.

``Checker().check(msg)`` lists what is wrong with one message, in the order a client gets
them (it follows ``myPos`` and which seat is out, to tell a lead's kind).
"""

from __future__ import annotations

import re
from typing import Any

CARD = re.compile(r"^(?:[SHCD][2-9TJQKA]|SB|HR)$")
RANKS = frozenset("23456789TJQKA")
KINDS = frozenset({"Single", "Pair", "Trips", "ThreeWithTwo", "Straight", "ThreePair",
                   "TwoTrips", "Bomb", "StraightFlush"})
PASS = ["PASS", "PASS", "PASS"]
NO_ACTION = [None, None, None]

ACT = {"type", "stage", "handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos",
       "curAction", "greaterPos", "greaterAction", "actionList", "indexRange"}
#: Every message's fields, by (type, stage): (the fields it must have, those it may add).
FIELDS: dict[tuple[str, str], tuple[set[str], set[str]]] = {
    ("notify", "beginning"): ({"type", "stage", "handCards", "myPos"},
                              {"curRank", "selfRank", "oppoRank"}),
    ("notify", "play"): ({"type", "stage", "curPos", "curAction", "greaterPos",
                          "greaterAction"}, set()),
    ("notify", "tribute"): ({"type", "stage", "result"}, set()),
    ("notify", "anti-tribute"): ({"type", "stage", "antiNum", "antiPos"}, set()),
    ("notify", "back"): ({"type", "stage", "result"}, set()),
    ("notify", "episodeOver"): ({"type", "stage", "order", "curRank", "restCards"}, set()),
    ("notify", "gameOver"): ({"type", "stage", "curTimes", "settingTimes"}, set()),
    ("notify", "gameResult"): ({"type", "stage", "victoryNum", "draws"}, set()),
    ("act", "play"): (ACT, {"error"}),  # ``error``: ours, on a question asked again
    ("act", "back"): (ACT, {"error"}),
}


def is_pos(x: object) -> bool:
    return type(x) is int and 0 <= x <= 3


def is_cards(x: object) -> bool:
    return isinstance(x, list) and all(isinstance(c, str) and CARD.match(c) for c in x)


def is_play(x: object) -> bool:
    """``[kind, rank, cards]`` of a play (not a pass)."""
    return (isinstance(x, list) and len(x) == 3 and x[0] in KINDS
            and (x[1] in RANKS or x[1] in ("B", "R", "JOKER")) and is_cards(x[2]) and bool(x[2]))


def is_action(x: object) -> bool:
    return x == PASS or is_play(x)


class Checker:
    """Checks the messages one client receives, in order."""

    def __init__(self) -> None:
        self.me: int | None = None
        self.rest = [27, 27, 27, 27]
        self.last_play: int | None = None  # who played last in this hand
        #: The leads asked of this client, by kind: ``first``, ``passes`` (everyone else
        #: passed), ``partner`` (the partner went out with the last play: 接风), ``next`` (the
        #: last to play went out after its partner).
        self.leads: dict[str, int] = {"first": 0, "passes": 0, "partner": 0, "next": 0}
        self.messages = 0

    def check(self, msg: Any) -> list[str]:
        self.messages += 1
        if not isinstance(msg, dict):
            return [f"not an object: {msg!r}"]
        key = (msg.get("type"), msg.get("stage"))
        if key not in FIELDS:
            return [f"unknown type and stage {key}"]
        need, may = FIELDS[key]  # type: ignore[index]
        out = []
        if need - set(msg):
            out.append(f"{key}: missing {sorted(need - set(msg))}")
        if set(msg) - need - may:
            out.append(f"{key}: fields no client expects {sorted(set(msg) - need - may)}")
        if out:
            return out
        check = getattr(self, "_" + "_".join(str(k).replace("-", "_") for k in key))
        found: list[str] = check(msg)
        return [f"{key}: {p}" for p in found]

    # -- notify --------------------------------------------------------------------------------

    def _notify_beginning(self, m: dict[str, Any]) -> list[str]:
        self.me, self.rest, self.last_play = m["myPos"], [27, 27, 27, 27], None
        out = []
        if not is_pos(m["myPos"]):
            out.append(f"myPos {m['myPos']!r}")
        if not is_cards(m["handCards"]) or len(m["handCards"]) != 27:
            out.append("handCards: not 27 cards")
        for k in ("curRank", "selfRank", "oppoRank"):
            if k in m and m[k] not in RANKS:
                out.append(f"{k} {m[k]!r}")
        return out

    def _notify_play(self, m: dict[str, Any]) -> list[str]:
        out = []
        if not is_pos(m["curPos"]) or not is_action(m["curAction"]):
            out.append(f"curPos {m['curPos']!r} curAction {m['curAction']!r}")
        if not is_pos(m["greaterPos"]) or not is_play(m["greaterAction"]):
            out.append(f"greaterPos {m['greaterPos']!r} greaterAction {m['greaterAction']!r}")
        if not out and m["curAction"] != PASS:
            if m["greaterPos"] != m["curPos"] or m["greaterAction"] != m["curAction"]:
                out.append("a play is not the greater action")
            self.rest[m["curPos"]] -= len(m["curAction"][2])
            self.last_play = m["curPos"]
        return out

    def _result(self, m: dict[str, Any]) -> list[str]:
        r = m["result"]
        if not isinstance(r, list) or not r or not all(
                isinstance(x, list) and len(x) == 3 and is_pos(x[0]) and is_pos(x[1])
                and x[0] != x[1] and is_cards([x[2]]) for x in r):
            return [f"result {r!r}"]
        return []

    _notify_tribute = _notify_back = _result

    def _notify_anti_tribute(self, m: dict[str, Any]) -> list[str]:
        pos = m["antiPos"]
        if not isinstance(pos, list) or not pos or not all(is_pos(p) for p in pos) \
                or m["antiNum"] != len(pos):
            return [f"antiNum {m['antiNum']!r} antiPos {pos!r}"]
        return []

    def _notify_episodeOver(self, m: dict[str, Any]) -> list[str]:
        out = []
        if sorted(m["order"]) != [0, 1, 2, 3]:
            out.append(f"order {m['order']!r}")
        if m["curRank"] not in RANKS:
            out.append(f"curRank {m['curRank']!r}")
        rest = m["restCards"]
        if not isinstance(rest, list) or not all(
                isinstance(x, list) and len(x) == 2 and is_pos(x[0]) and is_cards(x[1])
                for x in rest):
            out.append(f"restCards {rest!r}")
        return out

    def _notify_gameOver(self, m: dict[str, Any]) -> list[str]:
        if type(m["curTimes"]) is not int or type(m["settingTimes"]) is not int:
            return [f"curTimes {m['curTimes']!r} settingTimes {m['settingTimes']!r}"]
        return []

    def _notify_gameResult(self, m: dict[str, Any]) -> list[str]:
        out = []
        for k in ("victoryNum", "draws"):
            if not isinstance(m[k], list) or len(m[k]) != 4 or \
                    not all(type(x) is int for x in m[k]):
                out.append(f"{k} {m[k]!r}")
        return out

    # -- act -----------------------------------------------------------------------------------

    def _act(self, m: dict[str, Any]) -> list[str]:
        out = []
        if not is_cards(m["handCards"]) or not m["handCards"]:
            out.append("handCards")
        info = m["publicInfo"]
        if not isinstance(info, list) or len(info) != 4 or not all(
                isinstance(i, dict) and set(i) == {"rest", "playArea"}
                and type(i["rest"]) is int and (i["playArea"] is None or is_action(i["playArea"]))
                for i in info):
            out.append(f"publicInfo {info!r}")
        for k in ("selfRank", "oppoRank", "curRank"):
            if m[k] not in RANKS:
                out.append(f"{k} {m[k]!r}")
        actions = m["actionList"]
        if not isinstance(actions, list) or not actions or m["indexRange"] != len(actions) - 1:
            out.append(f"indexRange {m['indexRange']!r} for {len(actions)} actions")
        return out

    def _nobody(self, m: dict[str, Any]) -> list[str]:
        """A lead or a return: the server names no seat and no action."""
        got = (m["curPos"], m["curAction"], m["greaterPos"], m["greaterAction"])
        if got != (-1, NO_ACTION, -1, NO_ACTION):
            return ["asks for a lead or a return, but curPos, curAction, greaterPos, "
                    f"greaterAction are {got!r}, not (-1, {NO_ACTION}, -1, {NO_ACTION})"]
        return []

    def _act_play(self, m: dict[str, Any]) -> list[str]:
        out = self._act(m)
        actions = m["actionList"]
        if not all(is_action(a) for a in actions) or PASS in actions[1:]:
            out.append("actionList: not plays, PASS first if at all")
        if actions and actions[0] == PASS:  # a follow
            if not is_pos(m["curPos"]) or not is_action(m["curAction"]):
                out.append(f"a follow: curPos {m['curPos']!r} curAction {m['curAction']!r}")
            if not is_pos(m["greaterPos"]) or m["greaterPos"] == self.me \
                    or not is_play(m["greaterAction"]):
                out.append(f"a follow: greaterPos {m['greaterPos']!r} greaterAction "
                           f"{m['greaterAction']!r}")
            return out
        out += self._nobody(m)
        if self.last_play is None:
            self.leads["first"] += 1
        elif self.last_play == self.me:
            self.leads["passes"] += 1
        elif self.me is not None and self.last_play == (self.me + 2) % 4 \
                and self.rest[self.last_play] == 0:
            self.leads["partner"] += 1
        else:  # the last to play went out, its partner was out already: the next seat leads
            self.leads["next"] += 1
        return out

    def _act_back(self, m: dict[str, Any]) -> list[str]:
        out = self._act(m) + self._nobody(m)
        if not all(isinstance(a, list) and a[:2] == ["back", "back"] and is_cards(a[2])
                   and len(a[2]) == 1 for a in m["actionList"]):
            out.append(f"actionList {m['actionList']!r}")
        return out
