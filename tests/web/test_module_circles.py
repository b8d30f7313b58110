"""No import circle in the web game: among the page's ES modules (static and dynamic
``import … from "./x.js"`` / ``import("./x.js")``) and among ``guandan.web``'s Python modules.
Every import runs downward, so a module can be read knowing only those below it."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "guandan" / "web"
STATIC = WEB / "static"

#: ``import { a } from "./x.js"``, ``import "./x.js"``, ``import("./x.js")`` (any quotes),
#: a static import's names possibly over several lines.
JS_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']\./([\w.-]+\.js)["']""")


def js_imports(source: str) -> set[str]:
    return set(JS_IMPORT.findall(source))


def circle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first again at the end), or
    None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start)
        if found:
            return found
    return None


def test_the_import_pattern_reads_every_form() -> None:
    src = ('import { a,\n  b } from "./one.js";\nimport "./two.js";\n'
           "const p = import('./three.js');\nimport x from './four.js';\n")
    assert js_imports(src) == {"one.js", "two.js", "three.js", "four.js"}
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_circle_among_the_pages_modules() -> None:
    graph = {p.name: js_imports(p.read_text("utf-8")) for p in STATIC.glob("*.js")}
    for name, imported in graph.items():
        assert imported <= set(graph), f"{name} imports a module that is not there"
    assert "pages.js" in graph["app.js"]  # the pattern reads this page's imports
    assert circle(graph) is None, " → ".join(circle(graph) or [])


def python_imports(path: Path, package: str, modules: Mapping[str, Path]) -> set[str]:
    """The modules a module imports (type-only and in-function imports included: a circle
    through ``TYPE_CHECKING`` or a late import is still a circle); ``from package import
    module`` imports the module."""
    tree = ast.parse(path.read_text("utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, up ``level - 1``
                parts = package.split(".")
                base = ".".join([*parts[:len(parts) - node.level + 1], *base.split(".")])
                base = base.rstrip(".")
            named = {f"{base}.{a.name}" for a in node.names}
            out.update(named & set(modules) or {base})
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_no_circle_among_the_web_packages_modules() -> None:
    modules: dict[str, Path] = {}
    for path in WEB.rglob("*.py"):
        parts = path.relative_to(WEB.parent.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        graph[name] = {m for m in python_imports(path, package, modules)
                       if m in modules and m != name}
    assert "guandan.web.routers.games" in graph["guandan.web.server"]
    assert circle(graph) is None, " → ".join(circle(graph) or [])
