"""Build hook: the AI's hot modules are compiled to C with mypyc (part of mypy).

The search plays by the clock, so its strength follows how many sampled deals it can weigh
in its budget; compiled, it weighs about half as many again (bench/ai_figures.md, stop 20).
The same files stay plain, type-checked Python: ``GUANDAN_PURE=1 pip install -e .`` skips the
compiling, and everything else in ``pyproject.toml`` describes the package.

An editable install puts the compiled modules beside their sources, where Python imports
them first: after editing one of ``COMPILED``, install again (``guandan.players`` warns when
a compiled module is older than its source).
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules a search decision spends its time in (relative to this file).
COMPILED = [
    "guandan/players/decompose.py",
    "guandan/players/heuristic.py",
    "guandan/players/search.py",
    "guandan/players/tracker.py",
]

ext_modules = []
if os.environ.get("GUANDAN_PURE", "") not in ("1", "true", "yes"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3", group_name="guandan_ai")

setup(ext_modules=ext_modules)
