"""The ``guandan`` command: ``serve``, ``simulate``, ``validate``, ``arena``, ``train``,
``host``, ``connect``.

``simulate``, ``validate`` and ``arena`` are parsed here (the arena's play is
:mod:`guandan.arena`, imported when the command runs). ``serve``, ``train``, ``host`` and
``connect`` belong to their modules and are imported only when used: each is a row of
:data:`LAZY_COMMANDS`, ``(module, function, help)``,
and the function is called with the arguments after the subcommand as a list of strings
(``serve_main(["--port", "9000"])``); it parses them itself and returns the exit code.
To add a command, add a row (lazy) or a ``_add_<name>`` function below (built in).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any

from guandan.players import REGISTRY
from guandan.presets import PRESETS
from guandan.records import validate_lines
from guandan.simulate import player_seed, simulate, simulate_on

__all__ = ["main", "player_seed", "simulate"]  # simulate's two are guandan.simulate's

#: name -> (module, function, help). guandan.web.server.serve_main and the others
#: take ``list[str]`` (the arguments after the subcommand) and return an exit code.
LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "serve": ("guandan.web.server", "serve_main",
              "the web game: serve [--host H] [--port P] [--data-dir D]"),
    "train": ("guandan.env.train", "train_main",
              "train a policy on batched tables (numpy; see train --help)"),
    "host": ("guandan.host.server", "host_main",
             "serve the Guandan AI competition's protocol to outside programs (host --help)"),
    "connect": ("guandan.host.client", "connect_main",
                "play one seat on a server of that protocol: connect URL --player NAME"),
}


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Everything written to standard output (file descriptor 1, so a library's own C++ writes
    too) goes to standard error meanwhile: Ray's driver prints cluster messages (a task retried
    after its worker was lost) on stdout, where ``--json`` must print only the report."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _ray_pool(command: str, address: str) -> Any:
    """The Ray pool for ``--ray [ADDRESS]`` (``""``: a local cluster), or None once the reason
    it cannot be had (Ray not installed, no cluster) is printed."""
    from guandan.raypool import ray_pool

    made = ray_pool(address or None)
    if isinstance(made, str):
        print(f"guandan {command}: {made}", file=sys.stderr)
        return None
    return made


def _simulate_main(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",")]
    unknown = [b for b in bots if b not in REGISTRY]
    if len(bots) != 4 or unknown:
        print(f"guandan simulate: --bots needs four player names from "
              f"{', '.join(sorted(REGISTRY))} (got {args.bots!r})", file=sys.stderr)
        return 2
    pool: Executor | None = None
    if args.ray is not None:
        made = _ray_pool("simulate", args.ray)
        if made is None:
            return 2
        pool, workers = made, made.workers
    elif args.workers > 1:
        pool = ProcessPoolExecutor(max_workers=args.workers,
                                   mp_context=multiprocessing.get_context("spawn"))
        workers = args.workers
    bar: Any = None
    if sys.stderr.isatty():
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=args.hands, unit="hand", file=sys.stderr)
    with Path(args.out).open("w", encoding="utf-8") as out:
        def write(record: dict[str, Any]) -> None:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")

        if pool is not None:
            simulate_on(pool, workers, args.rules, args.hands, args.seed, bots, write,
                        None if bar is None else bar.update)
        else:
            for record in simulate(args.rules, args.hands, args.seed, bots):
                write(record)
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()
    print(f"wrote {args.hands} hands to {args.out}")
    return 0


def _validate_main(args: argparse.Namespace) -> int:
    try:
        with Path(args.file).open(encoding="utf-8") as f:
            report = validate_lines(f)
    except OSError as e:
        print(f"guandan validate: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"guandan validate: {args.file} is not UTF-8 text", file=sys.stderr)
        return 2
    print(f"checked {report.checked} hands: {len(report.errors)} broken")
    for error in report.errors:
        print(f"  {error}")
    return 1 if report.errors else 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _add_simulate(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play whole matches between players, write hand records")
    p.add_argument("--rules", default="site", choices=list(PRESETS), help="rule preset")
    p.add_argument("--hands", type=_positive, required=True, help="number of hands to play")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the players")
    p.add_argument("--bots", default="greedy,greedy,greedy,greedy",
                   help="four player names for seats 1-4, comma separated")
    p.add_argument("--out", required=True, help="output file (JSON Lines)")
    p.add_argument("--workers", type=_positive, default=1,
                   help="processes sharing the matches (default 1); the same records")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="share the matches among a Ray cluster's workers (ADDRESS as ray.init "
                        "takes it; none: RAY_ADDRESS or this machine's); the same records")
    p.set_defaults(run=_simulate_main)


def _add_validate(sub: Any) -> None:
    p = sub.add_parser("validate", help="replay a file of hand records and report broken ones")
    p.add_argument("file", help="JSON Lines file of guandan-hand/1 records")
    p.set_defaults(run=_validate_main)


class ProgressLines:
    """Progress for a log (stderr not a terminal, as under ``nohup``): a line each tenth of
    the hands, with the time so far.

    >>> import io
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


def _add_arena(sub: Any) -> None:
    parser = sub.add_parser(
        "arena", help="duplicate matches between players, with statistics (see arena --help)",
        description="Two players against each other in duplicate (each deal played twice, the "
                    "teams swapped), with 95%% intervals and time per decision.")
    parser.add_argument("--players", required=True, help="A,B: two player names")
    parser.add_argument("--rules", default="site", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=200,
                        help="duplicate hands: hands played in each seating (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=1, metavar="N",
                        help="start at board N (default 1), to play a long run in parts")
    parser.add_argument("--mode", choices=("match", "hand"), default="match",
                        help="board = a whole match (default) or one hand at a drawn level")
    parser.add_argument("--max-hands", type=int, default=60,
                        help="stop a match after this many hands (match mode)")
    parser.add_argument("--out", help="write every hand record (JSON Lines) to this file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes sharing the boards (default 1); the figures are the "
                             "same as with one")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="share the boards among a Ray cluster's workers (ADDRESS as "
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
    parser.set_defaults(run=_arena_main)


def _arena_main(args: argparse.Namespace) -> int:
    """``guandan arena``: play, print the report; the exit code."""
    from guandan.arena import run_arena, samples_problem

    names = [x.strip() for x in args.players.split(",")]
    if "outside" in names or args.listen is not None:
        return _outside_arena_main(args, names)
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
        print("guandan arena: --first must be at least 1 (boards are numbered from 1)",
              file=sys.stderr)
        return 2
    problem = samples_problem(args.samples, names[0], names[1])
    if problem is not None:
        print(f"guandan arena: --{problem}", file=sys.stderr)
        return 2
    bar: Any = None
    progress: Callable[[int], None] | None = None
    if not args.no_progress and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=2 * args.hands, unit="hand", desc=f"{names[0]} vs {names[1]}")
        progress = bar.update
    elif not args.no_progress:
        progress = ProgressLines(2 * args.hands, sys.stderr)
    with contextlib.ExitStack() as quiet:
        pool: Executor | None = None
        if args.ray is not None:
            quiet.enter_context(_stdout_to_stderr())
            pool = _ray_pool("arena", args.ray)
            if pool is None:
                return 2
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


def _outside_arena_main(args: argparse.Namespace, names: list[str]) -> int:
    """``guandan arena`` when a side is ``outside``: two outside programs connect and play it
    (:mod:`guandan.host.arena`)."""
    from guandan.arena import searches
    from guandan.host.arena import OUTSIDE, outside_figures, run_outside_arena
    from guandan.host.server import Lobby

    def fail(text: str) -> int:
        print(f"guandan arena: {text}", file=sys.stderr)
        return 2

    if len(names) != 2 or names.count(OUTSIDE) != 1:
        return fail("with outside programs, --players names one of ours and 'outside' "
                    f"(e.g. search,outside), not {args.players!r}")
    ours = names[1] if names[0] == OUTSIDE else names[0]
    if ours not in REGISTRY or args.fallback not in REGISTRY:
        return fail(f"players are {', '.join(sorted(REGISTRY))} (and 'outside'); got "
                    f"{ours!r}, fallback {args.fallback!r}")
    if args.listen is None:
        return fail("'outside' needs --listen PORT: the outside programs connect there")
    if args.workers != 1:
        return fail("outside programs play in one process: leave --workers at 1")
    if args.hands < 1 or args.first < 1 or not args.timeout > 0:
        return fail("--hands and --first must be at least 1, --timeout more than 0")
    if args.samples is not None and (args.samples < 1 or not (
            searches(ours) or searches(args.fallback))):
        return fail(f"--samples sets how many deals a search draws; {ours} does not search")

    def log(text: str) -> None:
        print(f"guandan arena: {text}", file=sys.stderr, flush=True)

    lobby = Lobby([1, 2], log)
    try:
        lobby.start(args.host, args.listen)
    except OSError as e:
        return fail(f"cannot listen on {args.host}:{args.listen}: {e.strerror or e}")
    log(f"listening on ws://{args.host}:{args.listen}/game/NAME; waiting for two programs")
    out: IO[str] | None = None
    try:
        lobby.wait_full()
        log("both programs connected: playing")
        progress = None if args.no_progress else ProgressLines(2 * args.hands, sys.stderr)
        out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
        result, relay = run_outside_arena(
            names[0], names[1], lobby, rules=args.rules, hands=args.hands, seed=args.seed,
            out=out, mode=args.mode, max_hands=args.max_hands, progress=progress,
            samples=args.samples, first=args.first, timeout=args.timeout,
            fallback=args.fallback, log=log)
    except KeyboardInterrupt:
        return fail("stopped")
    finally:
        if out is not None:
            out.close()
        lobby.stop()
    figures = outside_figures(relay)
    if args.json:
        print(json.dumps(result.to_json() | {"outside": figures}, indent=2))
    else:
        print(result.report())
        print(f"  outside programs: {figures['outside_decisions']} decisions asked "
              f"(actionList of {figures['mean_action_list']:.0f} on average), "
              f"{figures['refused']} answers refused, {figures['hands_with_replacement']} "
              f"hands with a seat replaced by {args.fallback}; host "
              f"{figures['host_ms_per_outside_decision']:.2f} ms per outside decision")
    return 0


BUILT_IN: tuple[Callable[[Any], None], ...] = (_add_simulate, _add_validate, _add_arena)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guandan", description="Guandan (掼蛋, 관단)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, _, text) in LAZY_COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)
    for add in BUILT_IN:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in LAZY_COMMANDS:
        module, function, _ = LAZY_COMMANDS[args_list[0]]
        run: Callable[[list[str]], int] = getattr(importlib.import_module(module), function)
        return int(run(args_list[1:]) or 0)
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
