"""Playing: a new game, its state, the person's actions, the AI's steps and hints.

Every change runs in ``ChangeGame`` (or ``deps.changing``): the game as committed, locked,
changed, committed, and only then answered; a refused request changes nothing. The AI thinks
outside any lock (``AIPool.decide``), on the game as it was read; its action is then applied
only if the game is still at that version (else 409 ``changed``: step again).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from guandan.match import PASS, Match
from guandan.readings import Reading
from guandan.web import checks, shown
from guandan.web.deps import AIDep, ChangeGame, ExpectDep, OutsideDep, ReadGame, StoreDep
from guandan.web.errors import Refusal
from guandan.web.locks import changing, held, reading
from guandan.web.models import (
    CardsIn,
    Event,
    GameState,
    HintOut,
    NewGameIn,
    PlayIn,
    ReadingsOut,
    ReturnIn,
    StepIn,
    StepOut,
)
from guandan.web.results import pending_result
from guandan.web.store import DEFAULT_LEVEL, Changed, Game, new_id
from guandan.web.store.game import HUMAN

router = APIRouter(prefix="/api/games")


def new_match(preset: str, seed: int | None, team_levels: dict[str, str] | None = None,
              level_team: str | None = None, match_number: int = 1,
              a_tries: dict[str, int] | None = None) -> Match:
    kwargs: dict[str, Any] = {"match_number": match_number}
    if a_tries is not None:
        kwargs["a_tries"] = {"13": 0, "24": 0} | a_tries
    if team_levels is not None:
        kwargs["team_levels"] = dict(team_levels)
    if level_team is not None:
        kwargs["level_team"] = level_team
    return Match(preset, seed=secrets.randbits(48) if seed is None else seed, **kwargs)


@router.post("", status_code=201)
async def create_game(body: NewGameIn, request: Request, store: StoreDep,
                      outside: OutsideDep) -> GameState:
    seats = outside.check_new(list(body.outside))
    if body.seed is not None and not request.app.state.allow_seed:
        raise Refusal("seed_not_allowed", "this server deals its own cards: a new game "
                      "cannot choose its seed (start the server with --allow-seed)",
                      status=403)
    try:
        match = new_match(body.preset, body.seed,
                          {str(k): str(v) for k, v in body.team_levels.items()}
                          if body.team_levels else None,
                          body.level_team,
                          a_tries={str(k): v for k, v in body.a_tries.items()}
                          if body.a_tries else None)
    except (ValueError, TypeError) as e:
        raise Refusal("bad_request", str(e), status=422) from None
    game = Game(id=new_id(), preset=body.preset, match=match,
                difficulty=body.difficulty or DEFAULT_LEVEL, outside=seats)
    client = request.client.host if request.client else ""
    game = await run_in_threadpool(store.create, game, client)
    outside.session(game)  # its addresses answer from now on
    return shown.game_state(game, HUMAN)


@router.get("/{game_id}")
async def get_game(game: ReadGame) -> GameState:
    return shown.game_state(game, HUMAN)


@router.delete("/{game_id}", status_code=204)
async def delete_game(game_id: str, store: StoreDep, outside: OutsideDep) -> Response:
    async with held(store, game_id):  # an AI step finishing now cannot save the game again
        await run_in_threadpool(store.delete, game_id, False)
    await outside.close(game_id, "the game was deleted")
    return Response(status_code=204)


@router.post("/{game_id}/play")
async def play(game: ChangeGame, body: PlayIn, outside: OutsideDep,
               later: BackgroundTasks) -> GameState:
    obs = checks.check_turn(game, HUMAN, "play")
    outside.gate(game, later)
    cards = checks.parse_input_cards(body.cards)
    reading_ = checks.choose_play(obs, cards, body.kind, body.rank)
    checks.apply_action(game.match, reading_)
    return shown.game_state(game, HUMAN)


@router.post("/{game_id}/pass")
async def pass_turn(game: ChangeGame, outside: OutsideDep,
                    later: BackgroundTasks) -> GameState:
    obs = checks.check_turn(game, HUMAN, "play")
    outside.gate(game, later)
    checks.check_pass(obs)
    checks.apply_action(game.match, PASS)
    return shown.game_state(game, HUMAN)


@router.post("/{game_id}/return")
async def return_card(game: ChangeGame, body: ReturnIn, outside: OutsideDep,
                      later: BackgroundTasks) -> GameState:
    obs = checks.check_turn(game, HUMAN, "return")
    outside.gate(game, later)
    card = checks.check_return(obs, body.card)
    checks.apply_action(game.match, card)
    return shown.game_state(game, HUMAN)


@router.post("/{game_id}/readings")
async def readings(game: ReadGame, body: CardsIn) -> ReadingsOut:
    obs = game.match.observation(HUMAN)
    cards = checks.parse_input_cards(body.cards)
    checks.check_held(obs, cards)
    all_, legal = checks.readings_of(obs, cards)
    return ReadingsOut(readings=[shown.play_out(r) for r in all_],
                       legal=[shown.play_out(r) for r in legal])


@router.post("/{game_id}/hint")
async def hint(game_id: str, store: StoreDep, ai: AIDep) -> HintOut:
    """The AI's choice for seat 1 with its reason; nothing is played."""
    async with reading(store, game_id) as game:
        if game.match.to_act != HUMAN or pending_result(game) is not None:
            raise Refusal("not_your_turn", "a hint is given on your turn",
                          seat=game.match.to_act)
        obs = game.match.observation(HUMAN)
        name = game.player_name(HUMAN)
    d = await ai.decide(name, HUMAN, obs)
    return shown.hint_out(d.action, d.reason, d.played_by)


@router.post("/{game_id}/step")
async def step(game_id: str, store: StoreDep, ai: AIDep, expect: ExpectDep,
               outside: OutsideDep, body: StepIn | None = None) -> StepOut:
    """One action by the seat to act: an AI seat, or seat 1 when auto-play is on."""
    auto = body.auto if body is not None else False
    async with reading(store, game_id) as game:
        if expect is not None and game.version != expect:
            raise Changed(f"the game is at version {game.version}, not {expect}")
        if pending_result(game) is not None:
            raise Refusal("result_pending", "the result of the hand is shown: continue first")
        seat = game.match.to_act
        if seat is None:
            raise Refusal("match_over", "the match is over: start a new one")
        if seat == HUMAN and not auto:
            raise Refusal("your_turn", "it is your turn")
        outside.check_ready(game)
        obs = game.match.observation(seat)
        version = game.version
        name = game.player_name(seat)
        asks = outside.asks(game, seat)  # an outside program's seat: the game as it is
    notes: dict[str, Any] | None = None
    if asks is not None and outside.shared:
        # Several processes: the process that holds the seat's program asks it and commits
        # its action; this one waits for it (our AI plays if no process holds the program).
        hand = game.match.hand_number
        if await outside.wait_program(game, seat):
            async with reading(store, game_id) as game:
                state = shown.game_state(game, HUMAN)
                replaced = game.outside_notes.get(hand, {}).get("replaced", [])
            by = name if any(r["seat"] == seat for r in replaced) else "outside"
            return StepOut(state=state, event=state.history[-1] if state.history else None,
                           played_by=by)
        asks, notes = None, outside.absent(seat)
    if asks is not None:  # its program answers (or our AI, once it is replaced)
        d, notes = await outside.decide(game_id, asks, seat, obs, name, ai)
    else:
        d = await ai.decide(name, seat, obs)  # no lock held: the game stays readable
    async with changing(store, game_id, expect=version) as game:
        m = game.match
        hand_before = m.hand_number
        if notes is not None:
            outside.note(game, notes)
        elif seat in game.outside:
            outside.unavailable_note(game, seat)
        checks.apply_action(m, d.action)
        state = shown.game_state(game, HUMAN)
    outside.later(game)
    event = None
    if m.hand_number == hand_before and state.history:
        event = state.history[-1]
    elif isinstance(d.action, Reading):
        event = Event(kind="play", seat=seat, play=shown.play_out(d.action))
    return StepOut(state=state, event=event, played_by=d.played_by)


@router.post("/{game_id}/next")
async def next_hand(game: ChangeGame, outside: OutsideDep) -> GameState:
    """다시 하기: past the shown result, on to the next hand (after a final victory, a new
    match under the same preset)."""
    pending = pending_result(game)
    if pending is None and game.match.to_act is not None:
        raise Refusal("no_result", "the hand is not over")
    if pending is not None:
        game.seen_results = len(game.match.results)
    if game.match.to_act is None:
        game.match = new_match(game.preset, None, match_number=game.match_number + 1)
        game.match_number += 1
        game.seen_results = 0
        game.outside_notes = {}
    outside.later(game)
    return shown.game_state(game, HUMAN)
