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
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from guandan.match import Match
from guandan.players import REGISTRY, make_player
from guandan.presets import PRESETS
from guandan.records import validate_lines

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


def player_seed(seed: int, seat: int) -> int:
    """The seed of the player at ``seat`` in a simulation run with ``seed``."""
    return seed * 4 + seat


def simulate(rules: str, hands: int, seed: int, bots: Sequence[str]) -> Iterator[dict[str, Any]]:
    """Hand records of whole matches played by ``bots`` (seat 1 first), ``hands`` of them.

    A match that reaches final victory is followed by a new one (match number + 1).

    >>> recs = list(simulate("site", 2, seed=0, bots=["greedy"] * 4))
    >>> [(r["match"], r["hand"]) for r in recs]
    [(1, 1), (1, 2)]
    """
    if len(bots) != 4:
        raise ValueError(f"name four players, one per seat, not {len(bots)}")
    players = {seat: make_player(name, seed=player_seed(seed, seat))
               for seat, name in zip((1, 2, 3, 4), bots, strict=True)}
    match_number = 1
    match = Match(rules, seed=seed, match_number=match_number)
    written = 0
    while written < hands:
        seat = match.to_act
        if seat is None:
            match_number += 1
            match = Match(rules, seed=seed, match_number=match_number)
            continue
        before = len(match.records)
        match.apply(players[seat].act(match.observation(seat)))
        if len(match.records) > before:
            written += 1
            yield match.records[-1]


def _simulate_main(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",")]
    unknown = [b for b in bots if b not in REGISTRY]
    if len(bots) != 4 or unknown:
        print(f"guandan simulate: --bots needs four player names from "
              f"{', '.join(sorted(REGISTRY))} (got {args.bots!r})", file=sys.stderr)
        return 2
    records = simulate(args.rules, args.hands, args.seed, bots)
    bar: Any = None
    if sys.stderr.isatty():
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=args.hands, unit="hand", file=sys.stderr)
    with Path(args.out).open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
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
