"""Which of the AI's modules run compiled, and whether one is older than its source.

``setup.py`` compiles the modules a search decision spends its time in with mypyc. An editable
install leaves each compiled module (``search.cpython-311-x86_64-linux-gnu.so``) beside its
source, and Python imports it first, so an edited source does nothing until the package is
installed again; ``guandan.players`` warns when that is so.

>>> sorted(compiled_modules()) in ([], ["decompose", "heuristic", "leads", "playout", "search",
...                                    "tracker"])
True
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

_HERE = Path(__file__).resolve().parent
#: The engine's folder (``guandan``): its cards, readings and plays are compiled too.
ENGINE = _HERE.parent


def compiled_modules(folder: Path = _HERE) -> dict[str, Path]:
    """Module name -> compiled file, for the modules in ``folder`` (``guandan.players``) that
    were built with mypyc: those with a compiled file beside their source."""
    out: dict[str, Path] = {}
    for suffix in EXTENSION_SUFFIXES:
        for path in sorted(folder.glob(f"*{suffix}")):
            stem = path.name[: -len(suffix)]
            if (folder / f"{stem}.py").exists():
                out[stem] = path
    return out


def stale_modules(folder: Path = _HERE) -> list[str]:
    """Compiled modules whose source was changed after they were built. Only an editable
    install can be stale: an installed copy (under ``site-packages``) is never edited in place,
    and pip may give its sources a later time than their compiled modules."""
    if {"site-packages", "dist-packages"} & set(folder.parts):
        return []
    return [stem for stem, path in compiled_modules(folder).items()
            if (folder / f"{stem}.py").stat().st_mtime > path.stat().st_mtime]
