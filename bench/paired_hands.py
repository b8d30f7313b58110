"""Duplicate results read in pairs: one run's boards by seating, or two runs hand by hand.

    python bench/paired_hands.py RECORDS.jsonl [--write LOST.jsonl]
    python bench/paired_hands.py BASE.jsonl VARIANT.jsonl

Files are arena records (``--out``, ``guandan-hand/1``: the two seatings of each board one
after the other). With outside programs (``--players X,outside``, the ``outside`` field) "ours"
is the other side; otherwise ours is side A, on seats 1 and 3 in the first seating of each deal
set and 2 and 4 in the second.

One file: the boards ours won on both seatings, those it lost on both, and those the cards
decided (each side won once, with the same cards). A side climbs above 50% of hands only by the
boards it wins on both seatings, so these bound what better play can still gain. ``--write``
writes the two records of every board lost on both seatings (``guandan validate`` reads them).

Two files (the same boards in the same order): the hands won by each run and by one run
only, and the sign test's z. Against opponents that answer a position always the same way (our
players at a fixed ``--samples``, the competition's ``ai2``, ``ai3`` and ``ai6``) two runs differ
only where our side's choice differs, so this paired count is far tighter than two separate
intervals.
"""

from __future__ import annotations

import argparse
import json
from math import sqrt
from typing import Any


def theirs(rec: dict[str, Any], first: bool) -> set[int]:
    """The other side's seats in a record (``first``: the first seating of its board)."""
    out = rec.get("outside")
    if out:
        return {int(s) for s in out}
    return {2, 4} if first else {1, 3}


def ours_lost(rec: dict[str, Any], first: bool) -> bool:
    """Was the hand won by the other side (its first player out theirs)?"""
    return bool(rec["finish_order"][0] in theirs(rec, first))


def read(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def by_deal_set(recs: list[dict[str, Any]], write: str | None) -> None:
    won_both = split = 0
    lost: list[dict[str, Any]] = []
    for i in range(0, len(recs) - 1, 2):
        a, b = recs[i], recs[i + 1]
        lost_a, lost_b = ours_lost(a, True), ours_lost(b, False)
        if not lost_a and not lost_b:
            won_both += 1
        elif not (lost_a and lost_b):
            split += 1  # each side won once, with the same cards: the cards decided
        else:
            lost += [a, b]
    sets = len(recs) // 2
    won = sum(not ours_lost(r, i % 2 == 0) for i, r in enumerate(recs))
    print(f"{len(recs)} hands, ours won {won}; of {sets} boards: won on both seatings "
          f"{won_both}, lost on both {len(lost) // 2}, decided by the cards {split}")
    if write:
        with open(write, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in lost)


def compare(base: list[dict[str, Any]], variant: list[dict[str, Any]]) -> int:
    a = [not ours_lost(r, i % 2 == 0) for i, r in enumerate(base)]
    b = [not ours_lost(r, i % 2 == 0) for i, r in enumerate(variant)]
    if len(a) != len(b):
        print(f"the runs have {len(a)} and {len(b)} hands: compare runs of the same boards")
        return 2
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    z = (only_b - only_a) / sqrt(only_b + only_a) if only_a + only_b else 0.0
    print(f"{len(a)} hands: base won {sum(a)}, variant {sum(b)}; won by the variant only "
          f"{only_b}, by the base only {only_a}; z {z:+.2f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records")
    ap.add_argument("variant", nargs="?", help="a second run of the same boards")
    ap.add_argument("--write", help="write the records of the boards lost on both seatings")
    args = ap.parse_args()
    if args.variant:
        return compare(read(args.records), read(args.variant))
    by_deal_set(read(args.records), args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
