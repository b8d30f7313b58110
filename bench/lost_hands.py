"""How two sides of an arena run played: behaviour figures per side, and the duplicate deal sets
one side lost on both seatings' cards.

    python bench/lost_hands.py RECORDS.jsonl [--show N] [--write LOST.jsonl]

RECORDS is an arena's ``--out`` (``guandan-hand/1``, the two seatings of a deal set one after
the other). With ``outside`` in the records (``--players X,outside``), "theirs" is the outside
side; otherwise seats 2 and 4 of the first seating. For each side: how often it plays (plainly
or with a bomb) when following an opponent's play, when following its partner's, the bombs it
plays per hand and those still in its hands when the hand ends, and its leads by kind. With
``--show N`` it prints the first N deal sets lost on the cards where the same cards won for the
other side, trick by trick; with ``--write`` it writes every such deal set's two records (both
seatings, as ``guandan-hand/1`` lines that ``guandan validate`` reads) to a file. Last it counts
the deal sets won on both seatings and those the same cards won on both (each side won once,
with the same cards): a side can climb above 50% of hands only by the deal sets it wins on
both, so these bound what better play can still gain.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from guandan.cards import parse_cards
from guandan.players.decompose import decompose
from guandan.seats import partner


def theirs(rec: dict[str, Any], first: bool) -> set[int]:
    out = rec.get("outside")
    if out:
        return {int(s) for s in out}
    return {2, 4} if first else {1, 3}


def ours_lost(rec: dict[str, Any], first: bool) -> bool:
    """Was the hand won by the other side (its first player out theirs)?"""
    return bool(rec["finish_order"][0] in theirs(rec, first))


def side_stats(recs: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    stats = {"ours": Counter[str](), "theirs": Counter[str]()}
    for i, rec in enumerate(recs):
        out = theirs(rec, i % 2 == 0)
        level = rec["level"]
        hands = {int(s): list(parse_cards(" ".join(c))) for s, c in rec["deal"].items()}
        table: tuple[int, str] | None = None
        passes = 0
        for a in rec["actions"]:
            seat = a["seat"]
            side = "theirs" if seat in out else "ours"
            st = stats[side]
            active = sum(1 for s in hands if hands[s])
            if a.get("pass"):
                if table is not None:
                    st["follow_opp" if table[0] != partner(seat) else "follow_mate"] += 1
                passes += 1
                if passes >= active - 1 and table is not None:
                    table = None
                    passes = 0
                continue
            kind = a["kind"]
            bomb = kind in ("bomb", "straight_flush", "joker_bomb")
            if table is None:
                st[f"lead_{kind}"] += 1
                st["leads"] += 1
            else:
                key = "follow_opp" if table[0] != partner(seat) else "follow_mate"
                st[key] += 1
                st[key + ("_bomb" if bomb else "_play")] += 1
            if bomb:
                st["bombs_played"] += 1
            for c in parse_cards(" ".join(a["cards"])):
                hands[seat].remove(c)
            table = (seat, kind)
            passes = 0
        for s, h in hands.items():
            side = "theirs" if s in out else "ours"
            if h:
                st = stats[side]
                st["bombs_left"] += sum(1 for p in decompose(h, level).parts if p.is_bomb)
                st["cards_left"] += len(h)
        f = rec["finish_order"]
        win = "theirs" if f[0] in out else "ours"
        stats[win]["hands_won"] += 1
        stats["ours"]["hands"] += 1
        stats["theirs"]["hands"] += 1
    return stats


def show(rec: dict[str, Any], out: set[int]) -> None:
    who = {s: ("T" if s in out else "O") + str(s) for s in (1, 2, 3, 4)}
    print(f"  level {rec['level']}, finish {[who[s] for s in rec['finish_order']]}")
    for s in (1, 2, 3, 4):
        print(f"    {who[s]}: {' '.join(rec['deal'][str(s)])}")
    line: list[str] = []
    for a in rec["actions"]:
        if a.get("pass"):
            line.append(f"{who[a['seat']]}:-")
        else:
            line.append(f"{who[a['seat']]}:{''.join(c for c in a['cards'])}")
    print("    " + " ".join(line))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("records")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--write", help="write the records of the deal sets lost on both seatings")
    args = ap.parse_args()
    with open(args.records) as f:
        recs = [json.loads(x) for x in f]
    stats = side_stats(recs)
    keys = sorted(set(stats["ours"]) | set(stats["theirs"]))
    for k in keys:
        print(f"{k:24s} ours {stats['ours'][k]:6d}   theirs {stats['theirs'][k]:6d}")
    for side in ("ours", "theirs"):
        st = stats[side]
        opp = max(1, st["follow_opp"])
        print(f"{side}: plays following an opponent {st['follow_opp_play'] / opp:.2f},"
              f" bombs {st['follow_opp_bomb'] / opp:.3f};"
              f" over a partner {st['follow_mate_play'] / max(1, st['follow_mate']):.2f};"
              f" bombs played per hand {st['bombs_played'] / max(1, st['hands']):.2f},"
              f" left per hand {st['bombs_left'] / max(1, st['hands']):.2f}")
    shown = 0
    won_both = split = 0
    lost: list[dict[str, Any]] = []
    for i in range(0, len(recs) - 1, 2):
        a, b = recs[i], recs[i + 1]
        lost_a, lost_b = ours_lost(a, True), ours_lost(b, False)
        if not lost_a and not lost_b:
            won_both += 1
        elif not (lost_a and lost_b):
            split += 1  # each side won with the same cards: the cards decided
        else:
            lost += [a, b]
            if shown < args.show:
                # Both seatings lost by ours: in ``a`` ours held seats 1 and 3's cards and lost,
                # in ``b`` theirs held the same cards and won with them.
                print(f"deal set {a['match']}: ours lost on seats 1 and 3's cards, theirs won"
                      " on them")
                show(a, theirs(a, True))
                print("  the other seating (theirs on those cards):")
                show(b, theirs(b, False))
                shown += 1
    print(f"deal sets lost on both seatings: {len(lost) // 2} of {len(recs) // 2}")
    print(f"deal sets won on both seatings: {won_both}; won by the same cards on both (the"
          f" cards decided): {split}")
    if args.write:
        with open(args.write, "w") as f:
            f.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in lost)


if __name__ == "__main__":
    main()
