"""The web game: a FastAPI server over the engine's ``Match`` and a page with no build step.

``create_app(data_dir)`` builds the application; ``serve_main(args)`` runs ``guandan serve``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

    from fastapi import FastAPI


def create_app(data_dir: Any = None, ai: str | None = None) -> FastAPI:
    from guandan.web.server import create_app as _create

    return _create(data_dir, ai=ai)


def serve_main(args: argparse.Namespace | list[str] | None = None) -> int:
    from guandan.web.server import serve_main as _serve

    return _serve(args)


__all__ = ["create_app", "serve_main"]
