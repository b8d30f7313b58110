"""The ``guandan`` command: ``serve``, ``simulate``, ``validate``, ``arena``.

``simulate`` and ``validate`` live here. ``serve`` and ``arena`` belong to their modules and are
imported only when used: each is a row of :data:`LAZY_COMMANDS`, ``(module, function, help)``,
and the function is called with the arguments after the subcommand as a list of strings
(``serve_main(["--port", "9000"])``); it parses them itself and returns the exit code.
To add a command, add a row (lazy) or a ``_add_<name>`` function below (built in).
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from guandan.players import REGISTRY
from guandan.presets import PRESETS
from guandan.records import validate_lines
from guandan.simulate import player_seed, simulate, simulate_on

__all__ = ["main", "player_seed", "simulate"]  # simulate's two are guandan.simulate's

#: name -> (module, function, help). guandan.web.server.serve_main and guandan.arena.arena_main
#: take ``list[str]`` (the arguments after the subcommand) and return an exit code.
LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "serve": ("guandan.web.server", "serve_main",
              "the web game: serve [--host H] [--port P] [--data-dir D]"),
    "arena": ("guandan.arena", "arena_main",
              "duplicate matches between players, with statistics (see arena --help)"),
    "train": ("guandan.env.train", "train_main",
              "train a policy on batched tables (numpy; see train --help)"),
    "host": ("guandan.host.server", "host_main",
             "serve the Guandan AI competition's protocol to outside programs (host --help)"),
    "connect": ("guandan.host.client", "connect_main",
                "play one seat on a server of that protocol: connect URL --player NAME"),
}


def _simulate_main(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",")]
    unknown = [b for b in bots if b not in REGISTRY]
    if len(bots) != 4 or unknown:
        print(f"guandan simulate: --bots needs four player names from "
              f"{', '.join(sorted(REGISTRY))} (got {args.bots!r})", file=sys.stderr)
        return 2
    pool: Executor | None = None
    if args.ray is not None:
        from guandan.raypool import ray_pool

        made = ray_pool(args.ray or None)
        if isinstance(made, str):
            print(f"guandan simulate: {made}", file=sys.stderr)
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


BUILT_IN: tuple[Callable[[Any], None], ...] = (_add_simulate, _add_validate)


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
