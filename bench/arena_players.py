"""``guandan`` with three more players for the arena (diagnostics and tuning, not players of
the page):

    .venv/bin/python bench/arena_players.py arena --players oracle,outside ...
    VARIANT='{"name": "search", "samples": 16, "budget_ms": null, "race": 14}' \\
        .venv/bin/python bench/arena_players.py arena --players variant,outside ...

- ``oracle``: the search of ``bench/oracle_search.py`` with the real deal in place of every
  sampled one (the same candidates, play-outs, scoring and keep test). Against the
  competition's bots it shows what reading the hidden cards better could give the search there.
  Its play-outs are deterministic, so two copies of the real deal stand for any number of them.
  The environment's ``ORACLE`` (a JSON object) gives it other settings of the search.
- ``oracle-wide``: the same, weighing every legal action (``oracle_search.py``'s ``wide``).
- ``variant``: one of our players with the settings of the environment's ``VARIANT`` (a JSON
  object, ``{"name": ..., ...settings}``, as ``bench/variant_arena.py`` takes them): the CLI
  gives no player settings but ``--samples``.

``bench/host_arena.sh`` runs this in place of ``guandan`` for these players, e.g.
``MODE=hand bash bench/host_arena.sh ai2 oracle 23460 150``.
"""

from __future__ import annotations

import json
import os
import sys

from oracle_search import OracleSearch  # bench/oracle_search.py, beside this script

from guandan.cli import main
from guandan.match import Action, Observation
from guandan.players import REGISTRY, Player, Reason, make_player


class HostOracle(OracleSearch):
    """The oracle as the arena builds a player: a seed, no clock, and the search's settings
    of the environment's ``ORACLE`` (a JSON object, e.g. ``{"keep_margin": 1.0}``)."""

    def __init__(self, seed: int = 0) -> None:
        settings = json.loads(os.environ.get("ORACLE", "{}"))
        super().__init__(seed=seed, budget_ms=None, samples=2, **settings)


class HostWideOracle(HostOracle):
    """The oracle weighing every legal action."""

    wide = True


class Variant:
    """The player and settings ``VARIANT`` names (a compiled player cannot be subclassed)."""

    def __init__(self, seed: int = 0) -> None:
        spec = json.loads(os.environ.get("VARIANT", "{}"))
        if not isinstance(spec, dict) or "name" not in spec:
            raise SystemExit("variant: set VARIANT to a JSON object with the player's name, "
                             "e.g. VARIANT='{\"name\": \"search\", \"race\": 14}'")
        self.inner: Player = make_player(spec.pop("name"), seed=seed, **spec)
        self.name = f"variant {os.environ['VARIANT']}"

    @property
    def reason(self) -> Reason:
        return self.inner.reason

    def act(self, obs: Observation) -> Action:
        return self.inner.act(obs)


REGISTRY["oracle"] = "__main__:HostOracle"
REGISTRY["oracle-wide"] = "__main__:HostWideOracle"
REGISTRY["variant"] = "__main__:Variant"

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
