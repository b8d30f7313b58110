"""A match's results, and its finished hands as ``guandan-hand/1`` JSON Lines."""

from __future__ import annotations

import json
import time

from fastapi import APIRouter
from fastapi.responses import Response

from guandan.web import shown
from guandan.web.deps import ReadGame
from guandan.web.models import RecordsOut, ReplayOut
from guandan.web.results import hand_results

router = APIRouter(prefix="/api/games/{game_id}")


@router.get("/records")
async def records(game: ReadGame) -> RecordsOut:
    return RecordsOut(preset=game.preset, match_number=game.match_number,
                      results=hand_results(game), hands=len(game.match.records))


@router.get("/replay/{hand}")
async def replay(game: ReadGame, hand: int) -> ReplayOut:
    """A finished hand of the match, every seat's cards open (as in the export)."""
    return shown.hand_replay(game, hand)


@router.get("/export")
async def export(game: ReadGame) -> Response:
    lines = [json.dumps(r, ensure_ascii=False) for r in game.records()]
    name = f"guandan-match{game.match_number}-{time.strftime('%Y%m%d')}.jsonl"
    return Response("\n".join(lines) + ("\n" if lines else ""),
                    media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
