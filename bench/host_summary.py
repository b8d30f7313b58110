"""One table row per pairing (and mode) from the parts of `bench/host_arena.sh` runs.

    python bench/host_summary.py DIR [DIR ...]

Each DIR is a run's output folder (its ``result.json``); parts of one pairing (the same players,
bot and mode, disjoint boards from ``--first``) are added up: hands won out of hands played with
a Wilson 95% interval, in match mode also the matches won (final victories), net levels per
hand (the parts' hand-weighted mean), time per decision of each side (decision-weighted mean,
the largest p95 of the parts) and the outside programs' refusals and replacements. The bot's
name is the part of the folder's name that starts with ``ai`` (``ai2-search-1``).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from guandan.arena import wilson


def main() -> int:
    runs: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for d in sys.argv[1:]:
        j = json.loads((Path(d) / "result.json").read_text())
        bot = next((t for t in Path(d).name.split("-") if t.startswith("ai")), Path(d).name)
        runs[(j["players"][0], bot, j["mode"])].append(j)
    print("| ours vs two copies of | mode | boards | hands won by ours (95% CI) "
          "| matches won by ours (95% CI) | net levels per hand "
          "| ours: ms per decision, mean / p95 | bot: mean / p95 | refused, replaced |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (ours, bot, mode), parts in sorted(runs.items()):
        hands = sum(p["hands"] for p in parts)
        won = sum(round(p["a_hand_win_rate"] * p["hands"]) for p in parts)
        lo, hi = wilson(won, hands)
        net = sum(p["net_levels_per_hand"] * p["hands"] for p in parts) / hands
        sets = ", ".join(f"{p['first_deal_set']}-{p['first_deal_set'] + p['deal_sets'] - 1}"
                         for p in sorted(parts, key=lambda p: p["first_deal_set"]))

        def timing(side: str, parts: list[dict[str, Any]] = parts) -> str:
            ts = [p["timing"][side] for p in parts]
            n = sum(t["decisions"] for t in ts)
            mean = sum(t["mean_ms"] * t["decisions"] for t in ts) / n
            return f"{mean:.1f} / {max(t['p95_ms'] for t in ts):.1f}"

        refused = sum(p["outside"]["refused"] for p in parts)
        replaced = sum(p["outside"]["hands_with_replacement"] for p in parts)
        matches = "-"
        if mode == "match":
            m = sum(p["matches"] for p in parts)
            v = sum(p["a_final_victories"] for p in parts)
            mlo, mhi = wilson(v, m)
            matches = f"{100 * v / m:.2f}% [{100 * mlo:.2f}, {100 * mhi:.2f}] ({v}/{m})"
        print(f"| {ours} vs {bot} | {mode} | {sets} | {100 * won / hands:.2f}% [{100 * lo:.2f}, "
              f"{100 * hi:.2f}] ({won}/{hands}) | {matches} | {net:+.3f} | {timing(ours)} | "
              f"{timing('outside')} | {refused}, {replaced} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
