"""Two runs on the same deals, hand by hand: the hands one side's result differs on.

    python bench/paired_hands.py BASE.jsonl VARIANT.jsonl

Both files are arena records (``--out``) of the same deal sets in the same order. With outside
programs (``--players X,outside``, the ``outside`` field) "ours" is the other side; otherwise
ours is side A, on seats 1 and 3 in the first seating of each deal set and 2 and 4 in the
second. Against opponents that answer a position always the same way (our players at a fixed
``--samples``, the competition's ``ai2``, ``ai3`` and ``ai6``) the two runs differ only where our
side's choice differs, so the count of hands won by one run only is a paired comparison, far
tighter than two separate intervals. Prints hands won by each and by one only, and the sign
test's z.
"""

from __future__ import annotations

import json
import sys
from math import sqrt

from lost_hands import ours_lost  # the same sides and the same reading as lost_hands


def ours_won(path: str) -> list[bool]:
    with open(path) as f:
        recs = [json.loads(line) for line in f]
    return [not ours_lost(r, i % 2 == 0) for i, r in enumerate(recs)]


def main() -> int:
    a, b = ours_won(sys.argv[1]), ours_won(sys.argv[2])
    if len(a) != len(b):
        print(f"the runs have {len(a)} and {len(b)} hands: compare runs of the same deal sets")
        return 2
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    z = (only_b - only_a) / sqrt(only_b + only_a) if only_a + only_b else 0.0
    print(f"{len(a)} hands: base won {sum(a)}, variant {sum(b)}; won by the variant only "
          f"{only_b}, by the base only {only_a}; z {z:+.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
