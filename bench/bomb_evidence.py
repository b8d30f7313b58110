"""Does a calm pass say a seat holds no bomb? Read on an arena's records, with the real hands.

    .venv/bin/python bench/bomb_evidence.py RECORDS.jsonl [RECORDS.jsonl ...]

At every calm pass on an opponent's plain play (``tracker.urgency`` 0: nobody about to go out),
notes whether the passing seat really held a bomb (a bomb among the plays of its split,
``playout.abstract_hand``), split by side (the records' ``outside`` seats against ours) and by
whether the seat had already bombed while calm in that hand (``Tracker.calm_bombs``: a bomb on
an opponent's play, calm, keeping at least ``CALM_BOMB_KEPT`` cards). A seat that bombs
whenever it can never passes holding one: its calm passes then say it holds no bomb, which the
search could read in its sampled deals as it reads the calm leads.

Stop 35 (``bench/ai_figures.md``), the search at 16 sampled deals against the bots: `ai3` held
a bomb at none of its 1,978 calm passes (600 hands), whether it had bombed while calm or not;
`ai2`'s seats that had bombed while calm held one at 40% of 1,275, the others at 71% of 2,457
(600 hands); our seats at 48-88%. Read into the search's sampled deals (a deal giving such a seat a
bomb weighed 0.25), it changed 12 of 600 hands against `ai3` and none of their results.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from guandan.cards import parse_cards
from guandan.deal import PASS, Deal
from guandan.players.playout import abstract_hand
from guandan.players.tracker import CALM_BOMB_KEPT, urgency
from guandan.readings import read_as
from guandan.seats import partner


def tally(path: str, out: Counter[tuple[str, bool, bool]]) -> None:
    """Count (side, had bombed while calm, holds a bomb) over every calm pass in ``path``."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["tribute"]["kind"] != "none":
                continue  # the record's deal is before the tribute
            level = rec["level"]
            outside = {int(s) for s in rec.get("outside") or ()}
            hands = {int(s): parse_cards(" ".join(c)) for s, c in rec["deal"].items()}
            deal = Deal(hands, level, rec["leader"])
            calm_bombs: Counter[int] = Counter()
            for a in rec["actions"]:
                seat = a["seat"]
                play = (None if a.get("pass") else
                        read_as(parse_cards(" ".join(a["cards"])), level, a["kind"], a["rank"]))
                left = deal.counts()
                table = deal.table
                if table is not None and table.seat != partner(seat):
                    calm = urgency(seat, table.seat, left) == 0
                    if play is None and calm and not table.play.power:
                        side = "outside" if seat in outside else "ours"
                        holds = any(p.power for p in abstract_hand(deal.held(seat), level))
                        out[(side, calm_bombs[seat] > 0, holds)] += 1
                    elif (play is not None and play.power and calm
                          and left[seat] - len(play.cards) >= CALM_BOMB_KEPT):
                        calm_bombs[seat] += 1
                deal.apply(PASS if play is None else play)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    out: Counter[tuple[str, bool, bool]] = Counter()
    for path in sys.argv[1:]:
        tally(path, out)
    for side in ("outside", "ours"):
        for ready in (True, False):
            held, n = out[(side, ready, True)], out[(side, ready, True)] + out[(side, ready, False)]
            if n:
                what = "had bombed while calm" if ready else "had not"
                print(f"{side:7} seats that {what:21}: {n:6} calm passes, holding a bomb at "
                      f"{100 * held / n:5.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
