"""The arena: two players against each other in duplicate, with statistics.

``guandan arena --players A,B --rules site --hands N --seed S [--mode match|hand] [--out FILE]
[--workers W | --ray [ADDRESS]] [--samples N] [--first N]``

Duplicate play takes the luck of the deal out of the comparison. The arena plays *deal sets*
(numbered 1, 2, …); each is played twice, once with A on seats 1 and 3 (team ``13``) and B on
seats 2 and 4, once with the teams swapped. Both seatings get exactly the same cards, because a
match's deals depend only on its seed, its match number and the hand number.

- ``--mode match`` (default): a deal set is a whole match, from hand 1 at level 2 to final
  victory (or ``--max-hands`` hands). Hand *h* of both seatings is dealt the same cards; from
  hand 2 on, levels and tribute follow each seating's own results.
- ``--mode hand``: a deal set is one hand, hand 1 of a match started at a level drawn from the
  seed (both teams at that level, no tribute, seat 1 leads).

A *duplicate hand* is one hand number of one deal set played in both seatings, so ``--hands N``
plays at least ``N`` hands in each seating, ``2N`` in all, and stops at the end of a deal set.

The report gives, for player A (B is the complement): the share of hands won, the share of
finished matches won (final victories), the average number of levels gained per hand by A's
team and by B's team and their difference, each with a 95% interval (Wilson for shares,
normal for means), and the time per decision of each player (mean, p95, max). ``--out``
writes every hand record (``guandan-hand/1``, one per line, in playing order).

``--workers W`` shares the deal sets out among ``W`` processes. A deal set's cards and players'
seeds depend only on its index, so each seating of each deal set is played on its own in a worker
and the parent merges the results in index order, stopping where the one-process loop stops: the
figures and the hand records are the same as with one worker (for players whose choices do not
depend on the clock, unlike ``search`` with its time budget), only the decision times differ.
``--ray [ADDRESS]`` does the same on a Ray cluster's workers (:mod:`guandan.raypool`).

``--first N`` starts at deal set N, so a long run can be played in parts that together play
exactly the deal sets of the whole (``--hands 1000`` then ``--hands 1000 --first 1001``). On a
terminal a progress bar shows; otherwise (a log, ``nohup``) a line each tenth of the hands.

``--players search,outside --listen PORT`` seats two outside programs, which connect to
``ws://127.0.0.1:PORT/game/NAME`` and speak the Guandan AI competition's protocol, on one side
(see :mod:`guandan.host.arena`; ``--timeout``, ``--fallback``, ``--host``).

``--samples N`` makes every player that searches draw exactly ``N`` sampled deals per decision
and ignore its clock (``make_player("search", samples=N, budget_ms=None)``). The page's search
stops at a time budget, so its strength follows the machine's speed; with ``--samples`` the
figures (not the times) are the same on any machine and with any ``--workers``.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import IO, Any

from guandan.cards import RANKS
from guandan.match import Match
from guandan.players import REGISTRY, Player, make_player, player_settings
from guandan.presets import PRESETS
from guandan.seats import team_of

_LEVEL_INDEX = {r: i for i, r in enumerate(RANKS)}


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
    deal_sets: int = 0
    timing: dict[str, Timing] = field(default_factory=dict)
    samples: int | None = None  # sampled deals per search decision, None: the clock decides
    first: int = 1  # the index of the first deal set played

    def absorb(self, part: ArenaResult) -> None:
        """Add the figures of ``part`` (later deal sets of the same run) to these."""
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
            "seed": self.seed, "samples": self.samples, "first_deal_set": self.first,
            "deal_sets": self.deal_sets,
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
        sets = f"{self.deal_sets} deal sets"
        if self.first != 1 and self.deal_sets:
            sets += f" ({self.first}-{self.first + self.deal_sets - 1})"
        lines = [
            f"arena {a} (A) vs {b} (B), rules {self.rules}, mode {self.mode}, seed {self.seed}: "
            f"{sets}, {self.hands} hands ({self.hands // 2} duplicate hands)",
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


def _levels_gained(before: str, after: str) -> int:
    return max(0, _LEVEL_INDEX[after] - _LEVEL_INDEX[before])


def _deal_set_seed(seed: int, index: int) -> tuple[int, int]:
    """Seed and match number of deal set ``index`` (the match number makes the deals differ)."""
    return seed, index


def _start(rules: str, seed: int, index: int, mode: str) -> Match:
    s, number = _deal_set_seed(seed, index)
    if mode == "hand":
        level = random.Random(f"arena-level:{seed}:{index}").choice(RANKS)
        return Match(rules, seed=s, match_number=number,
                     team_levels={"13": level, "24": level})
    return Match(rules, seed=s, match_number=number)


def play_deal_set(
    rules: str,
    seed: int,
    index: int,
    seating: dict[str, str],
    players: dict[int, Player],
    result: ArenaResult,
    mode: str,
    max_hands: int,
    out: IO[str] | None,
    relay: Any = None,
) -> int:
    """Play one deal set in one seating (``seating``: team -> player name); hands played.

    ``relay`` (a :class:`guandan.host.relay.Relay`, for outside programs) hears of every action
    and tells them; their seats' players ask it for their actions.
    """
    match = _start(rules, seed, index, mode)
    a_team = "13" if seating["13"] == result.a else "24"
    played = 0
    while match.to_act is not None:
        if relay is not None:
            relay.sync(match)
        seat = match.to_act
        player = players[seat]
        obs = match.observation(seat)
        t0 = time.perf_counter()
        action = player.act(obs)
        result.timing[seating[team_of(seat)]].times.append(time.perf_counter() - t0)
        before = len(match.records)
        match.apply(action)
        if relay is not None:
            relay.applied(match, seat, action, obs)
        if len(match.records) > before:
            played += 1
            rec = match.records[-1]
            if match.final_winner is None and (mode == "hand" or played >= max_hands):
                rec = {**rec, "stopped": True}  # the match ends here: the validator may go on
            if out is not None:
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
            res = match.results[-1]
            result.hands += 1
            if res.winner == a_team:
                result.a_hand_wins += 1
            b_team = "24" if a_team == "13" else "13"
            result.a_gain.append(_levels_gained(rec["team_levels"][a_team],
                                                rec["team_levels_after"][a_team]))
            result.b_gain.append(_levels_gained(rec["team_levels"][b_team],
                                                rec["team_levels_after"][b_team]))
            if match.final_winner is not None:
                result.matches += 1
                if match.final_winner == a_team:
                    result.a_match_wins += 1
                break
            if mode == "hand" or played >= max_hands:
                if mode == "match":
                    result.unfinished_matches += 1
                break
    return played


def _new_result(a: str, b: str, rules: str, mode: str, seed: int,
                samples: int | None, first: int = 1) -> ArenaResult:
    result = ArenaResult(a, b, rules, mode, seed, samples=samples, first=first)
    result.timing = {a: Timing()} if a == b else {a: Timing(), b: Timing()}
    return result


def _seating(a: str, b: str, flip: int) -> dict[str, str]:
    return {"13": a, "24": b} if flip == 0 else {"13": b, "24": a}


def searches(name: str) -> bool:
    """Whether the player called ``name`` searches sampled deals (takes ``--samples``)."""
    settings = player_settings(name)
    return "samples" in settings and "budget_ms" in settings


def _samples_problem(samples: int | None, a: str, b: str) -> str | None:
    """What is wrong with ``samples`` for players ``a`` and ``b``, or None."""
    if samples is None:
        return None
    if samples < 1:
        return f"samples must be at least 1, not {samples}"
    if not (searches(a) or searches(b)):
        return f"samples sets how many deals a search draws, and neither {a} nor {b} searches"
    return None


def _settings(name: str, samples: int | None) -> dict[str, Any]:
    if samples is None or not searches(name):
        return {}
    return {"samples": samples, "budget_ms": None}


def seat_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the player on ``seat`` in deal set ``index`` of a run seeded ``seed``: the
    same in both seatings and in every run, so a run in parts plays what a whole run does."""
    return seed * 1000 + index * 4 + seat


def play_both_seatings(rules: str, index: int, result: ArenaResult,
                       build: Callable[[str, int], Player]) -> None:
    """Deal set ``index`` in both seatings, one hand each (hand mode), into ``result``, with the
    player of each seat built by ``build(side, seat_seed(...))`` (``side``: ``result.a`` or
    ``result.b``); for scripts that build players the arena cannot name (tuning aids)."""
    for flip in (0, 1):
        seating = _seating(result.a, result.b, flip)
        players = {seat: build(seating[team_of(seat)], seat_seed(result.seed, index, seat))
                   for seat in (1, 2, 3, 4)}
        play_deal_set(rules, result.seed, index, seating, players, result, "hand", 1, None)


def _players(seating: dict[str, str], seed: int, index: int,
             samples: int | None = None) -> dict[int, Player]:
    return {seat: make_player(seating[team_of(seat)], seed=seat_seed(seed, index, seat),
                              **_settings(seating[team_of(seat)], samples))
            for seat in (1, 2, 3, 4)}


def _play_seating(
    a: str, b: str, rules: str, seed: int, index: int, flip: int, mode: str, max_hands: int,
    records: bool, samples: int | None = None,
) -> tuple[ArenaResult, str]:
    """Deal set ``index`` in seating ``flip`` on its own (in a worker process): its figures and,
    if ``records``, its hand records as JSON Lines."""
    part = _new_result(a, b, rules, mode, seed, samples)
    seating = _seating(a, b, flip)
    buf = io.StringIO() if records else None
    play_deal_set(rules, seed, index, seating, _players(seating, seed, index, samples), part,
                  mode, max_hands, buf)
    return part, buf.getvalue() if buf is not None else ""


def _run_workers(
    result: ArenaResult,
    hands: int,
    out: IO[str] | None,
    max_hands: int,
    progress: Callable[[int], None] | None,
    workers: int,
    pool: Executor | None = None,
) -> None:
    """``run_arena``'s loop over deal sets, each seating of each deal set a task for ``workers``
    processes (or for ``pool``'s ``workers``: a Ray cluster's, :mod:`guandan.raypool`); results
    are merged in index order and the run stops where the serial loop does."""
    a, b, rules, mode, seed = result.a, result.b, result.rules, result.mode, result.seed
    samples = result.samples
    window = 4 * workers  # tasks submitted and not merged yet
    pending: dict[tuple[int, int], Future[tuple[ArenaResult, str]]] = {}  # in index order
    merged = [0, 0]  # hands merged per seating
    next_index = result.first
    if pool is None:
        pool = ProcessPoolExecutor(max_workers=workers,
                                   mp_context=multiprocessing.get_context("spawn"))
    try:
        while True:
            # Merge the finished tasks at the head, in index order, and stop after a deal set
            # exactly where the serial loop stops.
            while pending:
                (index, flip), fut = next(iter(pending.items()))
                if not fut.done():
                    break
                part, text = fut.result()
                del pending[(index, flip)]
                result.absorb(part)
                if out is not None:
                    out.write(text)
                merged[flip] += part.hands
                if progress is not None:
                    progress(part.hands)
                if flip == 1:
                    result.deal_sets = index - result.first + 1
                    if min(merged) >= hands:
                        return
            # Submit the next deal sets while the serial loop may still reach them: each seating
            # of a deal set plays at least one hand, so `bound` never exceeds the hands played
            # before deal set `next_index`; once it reaches `hands`, no later deal set counts.
            while len(pending) < window:
                bound = list(merged)
                for (_, flip), fut in pending.items():
                    done = fut.done() and fut.exception() is None
                    bound[flip] += fut.result()[0].hands if done else 1
                if min(bound) >= hands:
                    break
                for flip in (0, 1):
                    pending[(next_index, flip)] = pool.submit(
                        _play_seating, a, b, rules, seed, next_index, flip, mode, max_hands,
                        out is not None, samples)
                next_index += 1
            wait([f for f in pending.values() if not f.done()], return_when=FIRST_COMPLETED)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_arena(
    a: str,
    b: str,
    rules: str = "site",
    hands: int = 100,
    seed: int = 0,
    out: IO[str] | None = None,
    mode: str = "match",
    max_hands: int = 60,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    samples: int | None = None,
    first: int = 1,
    pool: Executor | None = None,
) -> ArenaResult:
    """Play ``a`` against ``b`` in duplicate until each seating has played ``hands`` hands.

    ``progress`` is called with the number of hands just played. ``workers`` > 1 plays the deal
    sets in that many processes (players are looked up in ``REGISTRY`` as imported there), with
    the same figures and records as one worker; only the decision times differ. ``samples``
    makes the players that search draw that many deals per decision, with no clock. ``first``
    is the index of the first deal set: a long run may be played in parts (deal sets 1-1000,
    then ``first=1001``), each part playing what the whole run plays there. ``pool`` (with a
    ``workers`` count: :class:`guandan.raypool.RayPool`) plays the deal sets instead of
    ``workers`` local processes, with the same figures and records.
    """
    if mode not in ("match", "hand"):
        raise ValueError(f"mode is 'match' or 'hand', not {mode!r}")
    for name in (a, b):
        if name not in REGISTRY:
            raise ValueError(f"unknown player {name!r} (known: {', '.join(sorted(REGISTRY))})")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if first < 1:
        raise ValueError(f"deal sets are numbered from 1, so first cannot be {first}")
    problem = _samples_problem(samples, a, b)
    if problem is not None:
        raise ValueError(problem)
    result = _new_result(a, b, rules, mode, seed, samples, first)
    if pool is not None:
        _run_workers(result, hands, out, max_hands, progress, getattr(pool, "workers", 1), pool)
        return result
    if workers > 1 and hands > 0:
        _run_workers(result, hands, out, max_hands, progress, workers)
        return result
    per_seating = {0: 0, 1: 0}
    index = first - 1
    while min(per_seating.values()) < hands:
        index += 1
        for flip in (0, 1):
            seating = _seating(a, b, flip)
            players = _players(seating, seed, index, samples)
            n = play_deal_set(rules, seed, index, seating, players, result, mode, max_hands, out)
            per_seating[flip] += n
            if progress is not None:
                progress(n)
        result.deal_sets = index - first + 1
    return result


class ProgressLines:
    """Progress for a log (stderr not a terminal, as under ``nohup``): a line each tenth of
    the hands, with the time so far.

    >>> buf = io.StringIO()
    >>> p = ProgressLines(20, buf, clock=iter(range(0, 1000, 60)).__next__)
    >>> for _ in range(5):
    ...     p(1)
    >>> p(4)
    >>> print(buf.getvalue(), end="")
    arena: 2 of 20 hands (10%), 1.0 min
    arena: 4 of 20 hands (20%), 2.0 min
    arena: 9 of 20 hands (45%), 3.0 min
    """

    def __init__(self, total: int, stream: IO[str],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = max(1, total)
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.shown = 0  # tenths shown

    def __call__(self, n: int) -> None:
        self.done += n
        tenths = 10 * self.done // self.total
        if tenths > self.shown:
            self.shown = tenths
            minutes = (self.clock() - self.start) / 60
            self.stream.write(f"arena: {self.done} of {self.total} hands "
                              f"({100 * self.done // self.total}%), {minutes:.1f} min\n")
            self.stream.flush()


def _port(text: str) -> int:
    from guandan.host.server import port_number

    return port_number(text)


def arena_main(argv: Sequence[str] | None = None) -> int:
    """``guandan arena``: parse the arguments, play, print the report; the exit code."""
    parser = argparse.ArgumentParser(
        prog="guandan arena",
        description="Two players against each other in duplicate (each deal played twice, the "
                    "teams swapped), with 95%% intervals and time per decision.")
    parser.add_argument("--players", required=True, help="A,B: two player names")
    parser.add_argument("--rules", default="site", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=200,
                        help="duplicate hands: hands played in each seating (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=1, metavar="N",
                        help="start at deal set N (default 1), to play a long run in parts")
    parser.add_argument("--mode", choices=("match", "hand"), default="match",
                        help="deal set = a whole match (default) or one hand at a drawn level")
    parser.add_argument("--max-hands", type=int, default=60,
                        help="stop a match after this many hands (match mode)")
    parser.add_argument("--out", help="write every hand record (JSON Lines) to this file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes sharing the deal sets (default 1); the figures are the "
                             "same as with one")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="share the deal sets among a Ray cluster's workers (ADDRESS as "
                             "ray.init takes it; none: RAY_ADDRESS or this machine's); the "
                             "figures are the same as with one process")
    parser.add_argument("--samples", type=int, default=None, metavar="N",
                        help="players that search draw N deals per decision and ignore the "
                             "clock, so the figures repeat on any machine (default: the "
                             "page's time budget)")
    parser.add_argument("--listen", type=_port, default=None, metavar="PORT",
                        help="with the player name 'outside': two outside programs connect to "
                             "ws://HOST:PORT/game/NAME (the competition's protocol) and play "
                             "that side")
    parser.add_argument("--host", default="127.0.0.1",
                        help="interface --listen listens on (default 127.0.0.1)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds an outside program has for each answer (default 10)")
    parser.add_argument("--fallback", default="heuristic",
                        help="our player for an outside seat whose program fails (default "
                             "heuristic)")
    args = parser.parse_args(list(sys.argv[2:] if argv is None else argv))
    names = [x.strip() for x in args.players.split(",")]
    if "outside" in names or args.listen is not None:
        from guandan.host.arena import outside_arena_main

        return outside_arena_main(args, names)
    if len(names) != 2 or any(n not in REGISTRY for n in names):
        print(f"guandan arena: --players needs two names from {', '.join(sorted(REGISTRY))} "
              f"(got {args.players!r})", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("guandan arena: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("guandan arena: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.first < 1:
        print("guandan arena: --first must be at least 1 (deal sets are numbered from 1)",
              file=sys.stderr)
        return 2
    problem = _samples_problem(args.samples, names[0], names[1])
    if problem is not None:
        print(f"guandan arena: --{problem}", file=sys.stderr)
        return 2
    bar: Any = None
    progress: Callable[[int], None] | None = None
    if not args.no_progress and sys.stderr.isatty():
        from tqdm import tqdm  # type: ignore[import-untyped]
        bar = tqdm(total=2 * args.hands, unit="hand", desc=f"{names[0]} vs {names[1]}")
        progress = bar.update
    elif not args.no_progress:
        progress = ProgressLines(2 * args.hands, sys.stderr)
    pool: Executor | None = None
    if args.ray is not None:
        from guandan.raypool import ray_pool

        made = ray_pool(args.ray or None)
        if isinstance(made, str):
            print(f"guandan arena: {made}", file=sys.stderr)
            return 2
        pool = made
    out: IO[str] | None = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    try:
        result = run_arena(names[0], names[1], args.rules, args.hands, args.seed, out=out,
                           mode=args.mode, max_hands=args.max_hands, progress=progress,
                           workers=args.workers, samples=args.samples, first=args.first,
                           pool=pool)
    finally:
        if out is not None:
            out.close()
        if bar is not None:
            bar.close()
        if pool is not None:
            pool.shutdown()
    print(json.dumps(result.to_json(), indent=2) if args.json else result.report())
    return 0
