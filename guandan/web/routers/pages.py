"""The page (one ``index.html`` for its four addresses), its catalogs, the health check."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from guandan.web.deps import AIDep, StoreDep
from guandan.web.errors import Refusal
from guandan.web.models import HealthOut

HERE = Path(__file__).resolve().parents[1]
STATIC = HERE / "static"
CATALOGS = HERE / "catalogs"
LANGS = ("ko", "zh", "en")

router = APIRouter()


def _page() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


for _path in ("/", "/rules", "/intro", "/records"):
    router.add_api_route(_path, _page, methods=["GET"], include_in_schema=False)


@router.get("/api/catalogs/{lang}")
def catalog(lang: str) -> Response:
    if lang not in LANGS:
        raise Refusal("unknown_language", f"languages: {', '.join(LANGS)}", status=404)
    return Response((CATALOGS / f"{lang}.json").read_bytes(), media_type="application/json",
                    headers={"Cache-Control": "public, max-age=3600"})


@router.get("/api/health")
def health(store: StoreDep, ai: AIDep) -> HealthOut:
    return HealthOut(ok=True, database=type(store).__name__.removesuffix("Store").lower(),
                     games_in_memory=store.cached(), ai=ai.stats())
