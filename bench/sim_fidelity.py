"""How often the search's fast policy plays what a player really played (a tuning aid).

    .venv/bin/python bench/sim_fidelity.py [HANDS] [SEED]
    .venv/bin/python bench/sim_fidelity.py --records RECORDS.jsonl

The first form plays HANDS hands (default 60) of four heuristic players and, at every decision,
asks the search's fast rollout policy (``guandan.players.playout.Rollout``, on a clone of the
match's current ``Deal``) what it would do on the same real cards. The rollouts predict the
heuristic's answers best when the two agree; the report gives the agreement per table kind, and
how often one plays where the other passes.

The second form replays an arena's hand records (``--out``; with ``outside`` seats, as
``guandan host`` and ``bench/host_arena.sh`` write them) and asks the same at every decision of
either side: how well the play-outs, which play every seat as our heuristic does, predict an
outside program. It adds each side's bomb readiness: of the times the policy keeps its bomb
because only a bomb beats an opponent's play, how often the side really bombed.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from guandan.cards import parse_cards
from guandan.deal import PASS, Deal
from guandan.match import Match
from guandan.players.heuristic import HeuristicPlayer
from guandan.players.playout import APlay, Rollout, abstract_hand, abstract_reading
from guandan.readings import Reading, read_as
from guandan.seats import SEATS, partner


class Agreement:
    """Decisions, agreements and the kinds of disagreement, per situation."""

    def __init__(self) -> None:
        self.total: Counter[str] = Counter()
        self.same: Counter[str] = Counter()
        self.wrong: Counter[tuple[str, str]] = Counter()
        #: Only a bomb beats an opponent's play and the policy keeps its bomb: times, bombed.
        self.bomb_chances = 0
        self.bombed = 0

    def add(self, kind: str, guess: APlay | None, real: APlay | None) -> None:
        self.total[kind] += 1
        if guess is None or real is None:
            if guess is None and real is None:
                self.same[kind] += 1
            elif guess is None and real is not None:
                self.wrong[(kind, "sim passes, real " + ("bombs" if real.power else "plays"))] += 1
            elif guess is not None:
                self.wrong[(kind, "sim " + ("bombs" if guess.power else "plays")
                            + ", real passes")] += 1
        elif (guess.kind, guess.size, guess.key) == (real.kind, real.size, real.key):
            self.same[kind] += 1
        else:
            self.wrong[(kind, "another play")] += 1

    def report(self, title: str) -> None:
        n = sum(self.total.values())
        print(f"{title}: the fast policy agrees on {100 * sum(self.same.values()) / n:.1f}% of "
              f"{n} decisions")
        for kind, k in self.total.most_common():
            misses = ", ".join(f"{why} {m}" for (kd, why), m in sorted(self.wrong.items())
                               if kd == kind)
            print(f"  {kind:26} {100 * self.same[kind] / k:5.1f}% of {k:5}  {misses}")
        if self.bomb_chances:
            print(f"  bomb readiness: bombed {self.bombed} of {self.bomb_chances} times "
                  f"({100 * self.bombed / self.bomb_chances:.0f}%) where only a bomb beat an "
                  f"opponent's play and the policy kept its bomb")


def situation(deal: Deal, seat: int) -> str:
    table = deal.table
    if table is None:
        return "lead"
    if table.seat == partner(seat):
        return "follow partner"
    return f"follow opponent's {table.play.kind}"


def judge(agreement: Agreement, deal: Deal, seat: int, real: APlay | None) -> None:
    """Ask the policy at ``deal`` (``seat`` to act) and count the answer against ``real``."""
    level = deal.level
    parts = {s: abstract_hand(deal.held(s), level) for s in SEATS}
    guess = Rollout(deal.clone(), parts).choose(seat)
    kind = situation(deal, seat)
    agreement.add(kind, guess, real)
    table = deal.table
    if guess is None and table is not None and table.seat != partner(seat):
        beat = [p for p in parts[seat] if p.beats(abstract_reading(table.play))]
        if beat and all(p.power for p in beat):
            agreement.bomb_chances += 1
            agreement.bombed += real is not None and real.power > 0


def self_play(hands: int, seed: int) -> int:
    agreement = Agreement()
    for n in range(hands):
        m = Match(seed=seed + n)
        players = {s: HeuristicPlayer(seed=s) for s in SEATS}
        while m.phase == "play" and m.to_act is not None:
            seat = m.to_act
            action = players[seat].act(m.observation(seat))
            deal = m.current_deal
            assert deal is not None
            judge(agreement, deal, seat,
                  abstract_reading(action) if isinstance(action, Reading) else None)
            m.apply(action)
    agreement.report(f"{hands} hands of the heuristic from seed {seed}")
    return 0


def record_turns(rec: dict[str, Any]) -> Iterator[tuple[Deal, int, Reading | None]]:
    """Every decision of one hand record without a tribute (its deal is before the tribute):
    the deal before it (one ``Deal``, played on after each), the seat and its play (None: a
    pass)."""
    level = rec["level"]
    hands = {int(s): parse_cards(" ".join(c)) for s, c in rec["deal"].items()}
    deal = Deal(hands, level, rec["leader"])
    for a in rec["actions"]:
        play = (None if a.get("pass") else
                read_as(parse_cards(" ".join(a["cards"])), level, a["kind"], a["rank"]))
        yield deal, a["seat"], play
        deal.apply(PASS if play is None else play)


def replayed(path: str) -> Iterator[tuple[Deal, int, bool, Reading | None]]:
    """Every decision of every hand record in ``path``: the deal before it, the seat, whether
    the seat is an outside one, and its play (None: a pass). Hands with a tribute are left out
    (the record's deal is before the tribute)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["tribute"]["kind"] != "none":
                continue
            outside = {int(s) for s in rec.get("outside") or ()}
            for deal, seat, play in record_turns(rec):
                yield deal, seat, seat in outside, play


def records(path: str) -> int:
    sides = {False: Agreement(), True: Agreement()}
    for deal, seat, outside, play in replayed(path):
        judge(sides[outside], deal, seat, None if play is None else abstract_reading(play))
    sides[False].report(f"{path}, our seats")
    if sides[True].total:
        sides[True].report(f"{path}, the outside seats")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", nargs="?", type=int, default=60)
    ap.add_argument("seed", nargs="?", type=int, default=100)
    ap.add_argument("--records", help="an arena's hand records to replay instead")
    args = ap.parse_args()
    return records(args.records) if args.records else self_play(args.hands, args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
