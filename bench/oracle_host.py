"""The search that sees every hand against outside programs (a diagnostic, not a player).

    .venv/bin/python bench/oracle_host.py arena ARGUMENTS...

Runs ``guandan arena ARGUMENTS`` with one more player, ``oracle``: the search of
``bench/oracle_search.py`` with the real deal in place of every sampled one (the same
candidates, play-outs, scoring and keep test). Against the competition's bots through the
protocol it bounds what better reading of the hidden cards could give the search there, e.g.
``MODE=hand bash bench/host_arena.sh ai2 oracle 23460 150``. The oracle's
play-outs are deterministic, so two copies of the real deal stand for any number of samples.
"""

from __future__ import annotations

import sys
from oracle_search import OracleSearch  # bench/oracle_search.py, beside this script

from guandan.cli import main
from guandan.players import REGISTRY


class HostOracle(OracleSearch):  # type: ignore[misc]
    """The oracle as the arena builds a player: a seed, and no clock."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed=seed, budget_ms=None, samples=2)


REGISTRY["oracle"] = "__main__:HostOracle"

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
