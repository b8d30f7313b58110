"""No import circles in the package: every import runs one way.

Every ``import`` in ``guandan/`` counts, wherever it stands: at the top, under
``TYPE_CHECKING`` and inside functions (a lazy import still ties two modules together). An
import names a module (``guandan.deal``), or a name of a module, which counts as the module
(``from guandan.players import search`` names ``guandan.players.search``, and ``from
guandan.deal import Deal`` names ``guandan.deal``). The packages an imported module sits in are
not counted: their ``__init__`` only gathers names for the outside.
"""

from __future__ import annotations

import ast
from pathlib import Path

import guandan

ROOT = Path(guandan.__file__).resolve().parent

#: Circles known in ``guandan/web/``, which is being reshaped on its own branch: each is
#: listed as its modules, sorted. Nothing outside ``web/`` may be listed here.
KNOWN_WEB_CIRCLES: set[tuple[str, ...]] = set()


def module_names() -> dict[str, Path]:
    """Every module of the package, by its dotted name."""
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = ["guandan", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else source)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = module_names()
    return {name: imports_of(name, path, set(paths)) for name, path in paths.items()}


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(tuple(sorted(group)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def test_the_graph_is_read() -> None:
    graph = import_graph()
    assert "guandan.deal" in graph["guandan.match"]  # at the top
    assert "guandan.match" in graph["guandan.players.base"]  # under TYPE_CHECKING
    assert "guandan.players" in graph["guandan"]  # inside a function
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]


def test_no_import_circles() -> None:
    found = set(circles(import_graph()))
    assert all(m.startswith("guandan.web.") for c in KNOWN_WEB_CIRCLES for m in c)
    assert found - KNOWN_WEB_CIRCLES == set(), f"import circles: {sorted(found)}"
