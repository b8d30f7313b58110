"""Build hook: the engine's core and the AI's hot modules are compiled to C with mypyc (part
of mypy).

Every simulated hand and every search spends its time generating and reading plays; compiled,
they run several times faster (bench/engine_figures.md). The search plays by the
clock, so its strength follows how many sampled deals it can weigh in its budget; compiled, it
weighs about half as many again (docs/ai-notebook.md, stop 20).
The same files stay plain, type-checked Python: ``GUANDAN_PURE=1 pip install -e .`` skips the
compiling (and takes away what an earlier install compiled in the tree), and everything else
in ``pyproject.toml`` describes the package.

An editable install puts the compiled modules beside their sources, where Python imports
them first: after editing one of ``COMPILED``, install again (``guandan.players`` warns when
a compiled module is older than its source).
"""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import setup

#: The modules a search decision and a simulated hand spend their time in (relative to this
#: file): the engine's cards, readings and legal plays, the AI's hot modules, and the batched
#: tables' step with the action ids it numbers plays by (guandan/env/tables.py,
#: bench/learn_figures.md).
COMPILED = [
    "guandan/cards.py",
    "guandan/readings.py",
    "guandan/plays.py",
    "guandan/deal.py",
    "guandan/sampling.py",
    "guandan/encoding.py",
    "guandan/env/tables.py",
    "guandan/players/decompose.py",
    "guandan/players/heuristic.py",
    "guandan/players/leads.py",
    "guandan/players/playout.py",
    "guandan/players/search.py",
    "guandan/players/tracker.py",
]

GROUP = "guandan_ai"  # the shared library the compiled modules load (guandan_ai__mypyc)
HERE = Path(__file__).resolve().parent


def _remove_built() -> None:
    """Take the compiled modules an earlier editable install left beside their sources: they
    would shadow the sources of a plain install."""
    for source in COMPILED:
        path = HERE / source
        for suffix in EXTENSION_SUFFIXES:
            path.with_name(path.stem + suffix).unlink(missing_ok=True)
    for suffix in EXTENSION_SUFFIXES:
        (HERE / f"{GROUP}__mypyc{suffix}").unlink(missing_ok=True)


ext_modules = []
if os.environ.get("GUANDAN_PURE", "") in ("1", "true", "yes"):
    _remove_built()
else:
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3", group_name=GROUP)

setup(ext_modules=ext_modules)
