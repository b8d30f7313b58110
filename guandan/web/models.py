"""The web API's request and response models (pydantic).

Cards travel as notation strings (``"H7"``, ``"BJ"``); seats as integers 1-4; teams as
``"13"`` / ``"24"``. The browser only ever receives its own seat's cards.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

PresetName = Literal["site", "national", "huaian", "nanjing"]
#: The page's levels of the AI (``store.DIFFICULTY_KEYS`` maps them to the players package's).
Difficulty = Literal["easy", "normal", "hard"]
Level = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGameIn(_In):
    """Start a new match. ``team_levels`` / ``level_team`` start it prepared (practice).
    ``difficulty`` chooses the player of seats 2-4 (default: the players package's
    ``DEFAULT_DIFFICULTY``, ``hard``)."""

    preset: PresetName = "site"
    difficulty: Difficulty | None = None
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    team_levels: dict[Literal["13", "24"], Level] | None = None
    level_team: Literal["13", "24"] | None = None
    a_tries: dict[Literal["13", "24"], int] | None = None
    #: Seats left to outside programs (the competition's protocol, ``guandan.web.outside``).
    outside: list[Literal[2, 3, 4]] = Field(default=[], max_length=3)


class PlayIn(_In):
    """Play the selected cards; ``kind``/``rank`` pick one reading when several are legal."""

    cards: list[str] = Field(max_length=27)
    kind: str | None = Field(default=None, max_length=20)
    rank: str | None = Field(default=None, max_length=2)


class CardsIn(_In):
    cards: list[str] = Field(max_length=27)


class ReturnIn(_In):
    card: str = Field(max_length=4)


class StepIn(_In):
    """Let the server act for the seat to act: an AI seat, or seat 1 when ``auto`` is on."""

    auto: bool = False


class PlayOut(BaseModel):
    cards: list[str]
    kind: str
    rank: str | None


class Event(BaseModel):
    """One action of this hand: a tribute gift or return, a play or a pass."""

    kind: Literal["gift", "return", "play", "pass", "exempt"]
    seat: int
    to: int | None = None
    card: str | None = None
    play: PlayOut | None = None
    finished: int | None = None  # the finish rank reached by this play, if any
    trick: int | None = None  # plays and passes: the trick of the hand they belong to (1, 2 …)
    wins: bool = False  # the play that took its trick (the trick is over)


class TableOut(BaseModel):
    seat: int
    play: PlayOut


class TributeOut(BaseModel):
    kind: str  # none | single | double | exempt
    gifts: list[Event] = []
    returns: list[Event] = []
    exempt_jokers: dict[str, int] = {}  # seat -> big jokers held, when exempt
    pending: list[int] = []  # seats that still have to return a card


class HandResult(BaseModel):
    hand: int
    level: str
    finish_order: list[int]
    winner: str
    gain: int
    team_levels_before: dict[str, str]
    team_levels_after: dict[str, str]
    a_tries_before: dict[str, int]
    a_tries_after: dict[str, int]
    why: str  # gain3 | gain2 | gain1 | a_not_passed | a_try_failed | a_reset | final
    why_ko: str = ""  # the engine's own explanation
    why_en: str = ""
    reset: str | None = None  # a team sent back to 2 after its last try at A
    a_try: int | None = None  # which try at A this was (presets with tries)
    a_tries_max: int | None = None
    final_winner: str | None = None
    last_play: TableOut | None = None  # the play that ended the hand
    first_partner: int | None = None  # the partner of the 1st: its place decides the gain


class EndedHand(BaseModel):
    """The hand just finished, shown with its result until 다시 하기: its log and every seat's
    remaining cards (once a hand is over they may be shown; nothing else of another seat's)."""

    hand: int
    level: str
    wild: str
    history: list[Event]
    remaining: dict[str, list[str]]  # seat -> the cards it still held when the hand ended
    tribute: TributeOut
    finish_order: list[int]


class OutsideSeatOut(BaseModel):
    """A seat left to an outside program: it connects to ``ws://HOST:PORT`` + ``path``."""

    seat: int
    path: str


OutsideState = Literal["waiting", "ready", "playing", "dropped", "replaced", "next_hand", "ai",
                       "unavailable"]


class OutsideSeatStatus(OutsideSeatOut):
    """What an outside seat is doing now (``GET /api/games/{id}/outside``).

    ``state``: ``waiting`` (the hand waits for its program), ``ready`` (connected, the hand not
    begun yet), ``playing``, ``dropped`` (gone: our AI takes over at its turn), ``replaced``
    (our AI plays the rest of the hand: ``reason``), ``next_hand`` (a program connected during
    the hand plays from the next one), ``ai`` (no program: our AI plays this hand), or
    ``unavailable`` (this server cannot seat outside programs: our AI plays).
    """

    connected: bool
    state: OutsideState
    reason: str | None = None  # replaced: closed | absent | silent | refused
    detail: str | None = None  # replaced: the reason in words (English)
    refused: int = 0  # answers refused (asked again) since the game was opened here
    connections: int = 0  # programs that took the seat since then


class OutsideOut(BaseModel):
    available: bool
    waiting: list[int]  # seats whose program the game waits for (nothing moves until then)
    seats: list[OutsideSeatStatus]


class GameState(BaseModel):
    id: str
    preset: PresetName
    difficulty: Difficulty
    match_number: int
    hand_number: int
    phase: str
    level: str
    wild: str
    level_team: str | None
    team_levels: dict[str, str]
    seat_teams: dict[str, str]  # seat -> its team ("1" -> "13"), from the engine's team_of
    a_tries: dict[str, int]
    a_tries_max: int | None
    counts: dict[str, int]
    hand: list[str]
    hand_groups: list[list[str]]
    table: TableOut | None
    leader: int | None
    to_act: int | None
    my_turn: bool
    can_pass: bool
    returnable: list[str]
    history: list[Event]
    trick: list[Event]
    finish_order: list[int]
    tribute: TributeOut | None
    result: HandResult | None
    results: list[HandResult]
    final_winner: str | None
    ai: str  # the player of seats 2-4
    hint_ai: str  # the player of the hint and seat 1's auto-play
    #: The game's committed changes: send it back as ``If-Match`` so that a change applies
    #: only to the game as it was seen (a retried request cannot act twice).
    version: int = 0
    ended: EndedHand | None = None  # with a result shown (or the match won): the hand it ended
    outside: list[OutsideSeatOut] = []  # seats left to outside programs


class StepOut(BaseModel):
    state: GameState
    event: Event | None
    played_by: str | None = None  # the player that decided (``state.ai`` unless it failed)


class ReadingsOut(BaseModel):
    readings: list[PlayOut]  # every reading of the cards, strongest first
    legal: list[PlayOut]  # those that may be played now, strongest first


class WhyOut(BaseModel):
    """A reason as a code and its values, which the page's catalogs put into words
    (``hint.why.<code>``); ``params`` may hold the search's figures (``samples``, ``win_share``,
    ``candidates``, ``base_share``)."""

    code: str
    params: dict[str, object] = {}


class HintOut(BaseModel):
    kind: Literal["play", "pass", "return"]
    cards: list[str]
    play: PlayOut | None
    reason: dict[str, str]
    why: WhyOut | None = None  # the same reason for the page's own words (None: text only)
    played_by: str | None = None  # the player that decided (``hint_ai`` unless it failed)


class HealthOut(BaseModel):
    """For a load balancer and an operator: the process answers, and how loaded its AI is."""

    ok: bool
    database: str
    games_in_memory: int
    ai: dict[str, object]
    #: The friends' rooms this process serves: its id as a room's driver (``owner``), the
    #: sockets open here, the rooms it drives, the pushes sent.
    rooms: dict[str, object] = {}


class ReplayOut(BaseModel):
    """A finished hand of the match, every seat's cards open, for the records page's replay.
    Only finished hands: the same the export gives."""

    hand: int
    level: str
    wild: str
    leader: int
    hands: dict[str, list[str]]  # seat -> its cards once the tribute was exchanged
    tribute: TributeOut
    steps: list[Event]  # every play and pass, with its trick
    finish_order: list[int]


class ErrorBody(BaseModel):
    code: str
    message: str
    params: dict[str, object] = {}


class ErrorOut(BaseModel):
    error: ErrorBody


class RecordsOut(BaseModel):
    """The match's finished hands. The records themselves (with every seat's deal) are only
    in the export, a file the person asks for."""

    preset: str
    match_number: int
    results: list[HandResult]
    hands: int
