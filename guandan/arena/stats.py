"""The arena's figures: shares with Wilson intervals, means with normal intervals, decision
times, and ``ArenaResult``, everything one run measured (its report for people, its JSON for
tools)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share (``(0, 1)`` when ``n`` is 0).

    >>> lo, hi = wilson(97, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.915, 0.99)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, m, m
    var = sum((x - m) ** 2 for x in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, m - half, m + half


@dataclass
class Timing:
    """Decision times of one player, in seconds."""

    times: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        if not self.times:
            return {"decisions": 0, "mean_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
        ts = sorted(self.times)
        p95 = ts[min(len(ts) - 1, math.ceil(0.95 * len(ts)) - 1)]
        return {"decisions": len(ts), "mean_ms": 1e3 * sum(ts) / len(ts),
                "p95_ms": 1e3 * p95, "max_ms": 1e3 * ts[-1]}


@dataclass
class ArenaResult:
    """Everything the arena measured; ``report()`` writes it for people, ``to_json()`` for tools."""

    a: str
    b: str
    rules: str
    mode: str
    seed: int
    hands: int = 0
    a_hand_wins: int = 0
    matches: int = 0
    a_match_wins: int = 0
    unfinished_matches: int = 0
    a_gain: list[float] = field(default_factory=list)
    b_gain: list[float] = field(default_factory=list)
    boards: int = 0
    timing: dict[str, Timing] = field(default_factory=dict)
    samples: int | None = None  # sampled deals per search decision, None: the clock decides
    first: int = 1  # the index of the first board played

    def absorb(self, part: ArenaResult) -> None:
        """Add the figures of ``part`` (later boards of the same run) to these."""
        self.hands += part.hands
        self.a_hand_wins += part.a_hand_wins
        self.matches += part.matches
        self.a_match_wins += part.a_match_wins
        self.unfinished_matches += part.unfinished_matches
        self.a_gain.extend(part.a_gain)
        self.b_gain.extend(part.b_gain)
        for name, t in part.timing.items():
            self.timing.setdefault(name, Timing()).times.extend(t.times)

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.a_hand_wins, self.hands)
        mlo, mhi = wilson(self.a_match_wins, self.matches)
        ag, aglo, aghi = mean_interval(self.a_gain)
        bg, bglo, bghi = mean_interval(self.b_gain)
        net, netlo, nethi = mean_interval(
            [a - b for a, b in zip(self.a_gain, self.b_gain, strict=True)])
        return {
            "players": [self.a, self.b], "rules": self.rules, "mode": self.mode,
            "seed": self.seed, "samples": self.samples, "first_board": self.first,
            "boards": self.boards,
            # The former names of the two above, for scripts and figures saved before.
            "first_deal_set": self.first, "deal_sets": self.boards,
            "hands": self.hands,
            "a_hand_win_rate": self.a_hand_wins / self.hands if self.hands else 0.0,
            "a_hand_win_ci95": [lo, hi],
            "matches": self.matches, "a_final_victories": self.a_match_wins,
            "a_final_victory_rate": self.a_match_wins / self.matches if self.matches else 0.0,
            "a_final_victory_ci95": [mlo, mhi],
            "unfinished_matches": self.unfinished_matches,
            "a_levels_per_hand": ag, "a_levels_per_hand_ci95": [aglo, aghi],
            "b_levels_per_hand": bg, "b_levels_per_hand_ci95": [bglo, bghi],
            "net_levels_per_hand": net, "net_levels_per_hand_ci95": [netlo, nethi],
            "timing": {name: t.summary() for name, t in self.timing.items()},
        }

    def report(self) -> str:
        j = self.to_json()
        a, b = self.a, self.b
        played = f"{self.boards} boards"
        if self.first != 1 and self.boards:
            played += f" ({self.first}-{self.first + self.boards - 1})"
        lines = [
            f"arena {a} (A) vs {b} (B), rules {self.rules}, mode {self.mode}, seed {self.seed}: "
            f"{played}, {self.hands} hands ({self.hands // 2} duplicate hands)",
            f"  hands won by {a}:     {100 * j['a_hand_win_rate']:6.2f}%  "
            f"95% CI [{100 * j['a_hand_win_ci95'][0]:.2f}, {100 * j['a_hand_win_ci95'][1]:.2f}]"
            f"  ({self.a_hand_wins}/{self.hands})",
        ]
        if self.samples is not None:
            lines.insert(1, f"  searching players draw {self.samples} deals per decision "
                            f"(no clock)")
        if self.mode == "hand":
            lines.append(
                f"  final victories {a}:  {self.a_match_wins} of {self.matches} hands that ended "
                f"a match (hands at level A won 1-2 or 1-3)")
        elif self.matches:
            lines.append(
                f"  final victories {a}:  {100 * j['a_final_victory_rate']:6.2f}%  "
                f"95% CI [{100 * j['a_final_victory_ci95'][0]:.2f}, "
                f"{100 * j['a_final_victory_ci95'][1]:.2f}]  ({self.a_match_wins}/{self.matches}"
                f" matches finished, {self.unfinished_matches} stopped at the hand limit)")
        else:
            lines.append(f"  final victories {a}:  none (no match finished)")
        for name, key in ((a, "a"), (b, "b")):
            m, (lo, hi) = j[f"{key}_levels_per_hand"], j[f"{key}_levels_per_hand_ci95"]
            lines.append(f"  levels gained per hand, {name} ({key.upper()}): {m:.3f}  "
                         f"95% CI [{lo:.3f}, {hi:.3f}]")
        lines.append(f"  net levels per hand, {a} minus {b}: {j['net_levels_per_hand']:+.3f}  "
                     f"95% CI [{j['net_levels_per_hand_ci95'][0]:+.3f}, "
                     f"{j['net_levels_per_hand_ci95'][1]:+.3f}]")
        for name, t in j["timing"].items():
            lines.append(f"  time per decision, {name}: mean {t['mean_ms']:.2f} ms, "
                         f"p95 {t['p95_ms']:.2f} ms, max {t['max_ms']:.2f} ms "
                         f"({t['decisions']} decisions)")
        return "\n".join(lines)
