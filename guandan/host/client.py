"""``guandan connect URL --player NAME``: our player on one seat of a protocol server.

The server may be ``guandan host`` or any other server of the competition's protocol. The
client keeps what its seat has been told (:class:`SeatView`) and, for each ``act`` message,
builds the :class:`~guandan.match.Observation` our players read: its own cards, the levels, the
cards left per seat, the table, this hand's plays, passes and tribute. Its legal actions are our
engine's plays (one per kind, rank and size, as in our own games) that the server's
``actionList`` offers; the chosen play is answered with the index of the entry holding the same
cards (or, failing that, the same kind, rank and size). Entries our rules cannot read (a server
may allow plays that docs/rules.md does not) are never chosen.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from guandan.cards import RANK_VALUE, VALUE_RANK, Card, sort_cards
from guandan.host.notation import (
    WIRE_TO_KIND,
    card_from_wire,
    cards_from_wire,
    play_from_wire,
    wire_rank_to_ours,
)
from guandan.match import PASS, Action, Event, Observation, TableEntry, TributeView
from guandan.players import REGISTRY, Player, make_player
from guandan.plays import legal_plays
from guandan.presets import PRESETS
from guandan.readings import Reading
from guandan.seats import SEATS, team_of
from guandan.tribute import Gift, gift_card


def _seat(position: object) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= 3:
        raise ValueError(f"not a protocol position: {position!r}")
    return position + 1


def _rank(value: object) -> str | None:
    """A level as servers write it: ``"7"``, ``"T"``, or a number 2-14 (14 is A)."""
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 14:
        return VALUE_RANK[value]
    if isinstance(value, str) and value in RANK_VALUE:
        return value
    return None


def _key(play: Reading) -> tuple[str, str | None, int]:
    return play.kind, play.rank, len(play.cards)


def _wilds(play: Reading) -> int:
    return sum(c.is_wild(play.level) for c in play.cards)


class SeatView:
    """What one seat has been told by a protocol server, hand by hand."""

    def __init__(self, rules: str = "site") -> None:
        self.rules = rules
        self.seat = 0
        self.level = "2"
        self.team_levels = {"13": "2", "24": "2"}
        self.hand_number = 0
        self.match_number = 1
        self._new_hand()

    def _new_hand(self) -> None:
        self.hand: list[Card] = []
        self.counts = dict.fromkeys(SEATS, 27)
        self.history: list[Event] = []
        self.finish: list[int] = []
        self.gifts: list[Gift] = []
        self.returns: list[Gift] = []
        self.tribute_kind = "none"
        self.leader: int | None = None
        self.wire: dict[object, int] = {}

    def _levels(self, msg: dict[str, Any]) -> None:
        level = _rank(msg.get("curRank"))
        if level is not None:
            self.level = level
        own_level, other_level = _rank(msg.get("selfRank")), _rank(msg.get("oppoRank"))
        if self.seat and own_level is not None and other_level is not None:
            own = team_of(self.seat)
            other = "24" if own == "13" else "13"
            self.team_levels = {own: own_level, other: other_level}

    def _reading(self, item: object) -> Reading | None:
        """A play the server reports; read by our rules where possible, else as reported."""
        try:
            return play_from_wire(item, self.level)
        except ValueError:
            if not isinstance(item, list) or len(item) != 3 or item[0] not in WIRE_TO_KIND:
                raise
            rank = wire_rank_to_ours(item[0], str(item[1]))
            kind = "joker_bomb" if rank is None else WIRE_TO_KIND[item[0]]
            return Reading(kind, rank, cards_from_wire(item[2]), self.level)

    def notify(self, msg: dict[str, Any]) -> None:
        """Take in one ``notify`` message."""
        stage = msg.get("stage")
        if stage == "beginning":
            self._new_hand()
            self.hand_number += 1
            if "myPos" in msg:
                self.seat = _seat(msg["myPos"])
            self._levels(msg)
            self.hand = cards_from_wire(msg.get("handCards", []))
        elif stage in ("tribute", "back"):
            for giver, receiver, card in msg.get("result", []):
                gift = Gift(_seat(giver), _seat(receiver), card_from_wire(card))
                if stage == "tribute":
                    self.gifts.append(gift)
                    self.tribute_kind = "single" if len(self.gifts) == 1 else "double"
                    self.history.append(Event("gift", gift.giver, gift.receiver, gift.card))
                else:
                    self.returns.append(gift)
                    self.history.append(Event("return", gift.giver, gift.receiver, gift.card))
        elif stage == "anti-tribute":
            self.tribute_kind = "exempt"
        elif stage == "play":
            seat = _seat(msg["curPos"])
            play = self._reading(msg["curAction"])
            if play is None:
                self.history.append(Event("pass", seat))
                return
            if self.leader is None:
                self.leader = seat
            self.history.append(Event("play", seat, play=play))
            self.counts[seat] = max(0, self.counts[seat] - len(play.cards))
            if self.counts[seat] == 0 and seat not in self.finish:
                self.finish.append(seat)
        elif stage == "gameOver":
            self.match_number += 1
            self.hand_number = 0

    def observation(self, msg: dict[str, Any]) -> tuple[Observation, dict[int, int]]:
        """The observation of an ``act`` message and, for each legal action (by ``id``), the
        index of its ``actionList`` entry (``wire``: every offered play's, by its cards)."""
        self._levels(msg)
        self.wire = {}
        level = self.level
        # in our own order (the protocol sorts otherwise), so our players see what they see
        # in our games
        self.hand = sort_cards(cards_from_wire(msg.get("handCards", [])), None)
        for s, info in zip(SEATS, msg.get("publicInfo") or [], strict=False):
            if isinstance(info, dict) and isinstance(info.get("rest"), int):
                self.counts[s] = info["rest"]
        entries = msg.get("actionList") or []
        table: TableEntry | None = None
        greater = msg.get("greaterPos", -1)
        if isinstance(greater, int) and 0 <= greater <= 3 and _seat(greater) != self.seat \
                and msg.get("greaterAction"):
            play = self._reading(msg["greaterAction"])
            if play is not None:
                table = TableEntry(_seat(greater), play)
        actions: list[Action] = []
        index: dict[int, int] = {}
        stage = msg.get("stage")
        if stage in ("back", "tribute"):
            for i, entry in enumerate(entries):
                card = card_from_wire(entry[2][0])
                if card not in actions:
                    actions.append(card)
                    index[id(card)] = i
        else:
            readable: list[tuple[int, Reading]] = []
            for i, entry in enumerate(entries):
                if isinstance(entry, list) and entry and entry[0] == "PASS":
                    actions.append(PASS)
                    index[id(PASS)] = i
                    continue
                try:
                    play = play_from_wire(entry, level)
                except ValueError:
                    continue  # not a play under our rules
                if play is not None:
                    readable.append((i, play))
            # Every offered play by its cards: a player may choose a play of other cards than
            # the representative ``legal_plays`` lists (the search weighs a full house's pair).
            self.wire = {q.signature(): i for i, q in reversed(readable)}
            offered = {_key(p) for _, p in readable}
            try:
                ours = [p for p in legal_plays(self.hand, level,
                                               table.play if table is not None else None)
                        if _key(p) in offered]
            except ValueError:
                ours = []
            if not ours:  # the table is a play our rules do not know: take the server's
                by_key: dict[tuple[str, str | None, int], Reading] = {}
                for _, p in readable:
                    by_key.setdefault(_key(p), p)
                ours = list(by_key.values())
            for p in ours:
                same = [(i, q) for i, q in readable if _key(q) == _key(p)]
                exact = [i for i, q in same if q.signature() == p.signature()]
                wild = [i for i, q in same if _wilds(q) == _wilds(p)]
                index[id(p)] = (exact or wild or [same[0][0]])[0]
                actions.append(p)
        trick: tuple[Event, ...] = ()
        if table is not None:
            last = max((k for k, e in enumerate(self.history) if e.kind == "play"), default=0)
            trick = tuple(self.history[last:])
        obs = Observation(
            seat=self.seat, rules=self.rules, match_number=self.match_number,
            hand_number=max(1, self.hand_number),
            phase="return" if stage in ("back", "tribute") else "play",
            hand=tuple(self.hand), level=level, team_levels=dict(self.team_levels),
            a_tries={"13": 0, "24": 0}, counts=dict(self.counts), table=table,
            leader=self.leader or self.seat, history=tuple(self.history), trick=trick,
            finish_order=tuple(self.finish), legal_actions=tuple(actions), to_act=self.seat,
            tribute=TributeView(self.tribute_kind,  # type: ignore[arg-type]
                                tuple(self.gifts), tuple(self.returns)))
        return obs, index


def choose(view: SeatView, player: Player, msg: dict[str, Any]) -> int:
    """The ``actIndex`` our ``player`` answers to the ``act`` message ``msg``."""
    obs, index = view.observation(msg)
    if not obs.legal_actions:
        return 0
    if msg.get("stage") == "tribute":  # our rules choose the gift (docs/rules.md)
        want = gift_card(obs.hand, obs.level)
        return next((i for a, i in ((a, index[id(a)]) for a in obs.legal_actions)
                     if a == want), 0)
    action = player.act(obs)
    i = index.get(id(action))
    if i is None and isinstance(action, Reading):
        i = view.wire.get(action.signature())
    return 0 if i is None else i


def play_session(
    url: str,
    player: Player,
    *,
    rules: str = "site",
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play a seat at ``url`` until the server closes; what happened."""
    from websockets.sync.client import connect

    say = log or (lambda _text: None)
    view = SeatView(rules)
    answered = hands = 0
    result: dict[str, Any] = {}
    with connect(url, max_size=None, open_timeout=30) as ws:
        for raw in ws:
            msg = json.loads(raw)
            if not isinstance(msg, dict):
                continue
            if msg.get("type") == "act":
                if "error" in msg:
                    say(f"the server refused our last answer: {msg['error']}")
                try:
                    i = choose(view, player, msg)
                except (ValueError, KeyError, TypeError, IndexError) as e:
                    say(f"could not read the act message ({e}); answering 0")
                    i = 0
                ws.send(json.dumps({"actIndex": i}))
                answered += 1
            elif msg.get("type") == "notify":
                view.notify(msg)
                if msg.get("stage") == "episodeOver":
                    hands += 1
                    order = " ".join(str(p) for p in msg.get("order", []))
                    say(f"hand {hands} over: finish order (positions) {order}; we are "
                        f"position {view.seat - 1}")
                elif msg.get("stage") == "gameResult":
                    result = {"victoryNum": msg.get("victoryNum")}
            else:
                say(f"message: {msg}")
    return {"hands": hands, "answered": answered, **result}


def connect_main(argv: Sequence[str] | None = None) -> int:
    """``guandan connect``: play one seat at a protocol server with one of our players."""
    parser = argparse.ArgumentParser(
        prog="guandan connect",
        description="Play one seat on a server of the 1st China AI Guandan Competition's "
                    "protocol (guandan host, or the competition's own) with one of our "
                    "players.")
    parser.add_argument("url", help="ws://HOST:PORT/game/NAME")
    parser.add_argument("--player", default="search", help="our player (default search)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=None, metavar="N",
                        help="a searching player draws N deals per decision, no clock")
    parser.add_argument("--rules", default="site", choices=list(PRESETS),
                        help="the rules our player assumes (the server decides)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(list(argv) if argv is not None else sys.argv[2:])
    if args.player not in REGISTRY:
        print(f"guandan connect: --player must be one of {', '.join(sorted(REGISTRY))}",
              file=sys.stderr)
        return 2
    if not args.url.startswith(("ws://", "wss://")):
        print(f"guandan connect: the address starts with ws:// (got {args.url!r})",
              file=sys.stderr)
        return 2
    if args.samples is not None:
        try:
            player = make_player(args.player, seed=args.seed, samples=args.samples,
                                 budget_ms=None)
        except ValueError as e:
            print(f"guandan connect: {e}", file=sys.stderr)
            return 2
    else:
        player = make_player(args.player, seed=args.seed)

    def log(text: str) -> None:
        if not args.quiet:
            print(f"guandan connect: {text}", file=sys.stderr, flush=True)

    from websockets.exceptions import WebSocketException

    try:
        summary = play_session(args.url, player, rules=args.rules, log=log)
    except WebSocketException as e:
        print(f"guandan connect: {args.url}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"guandan connect: cannot reach {args.url}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(json.dumps(summary))
    return 0


__all__ = ["SeatView", "choose", "connect_main", "play_session"]
