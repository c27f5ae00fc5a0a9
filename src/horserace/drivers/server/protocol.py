"""The WebSocket protocol and the lobby's request bodies, as pydantic models.

Every message a client sends is validated against `ClientMessage` before anything reads it;
what the server sends is built from the models at the bottom, so the shapes documented in
docs/server.md are the shapes on the wire. Every update carries the table's version.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

MAX_NAME = 30
MAX_TITLE = 80
MAX_OPTIONS_DEPTH = 4
PRINTABLE_ASCII = r"^[\x20-\x7e]+$"  # every action text of every family is plain ASCII


def display_text(text: str, limit: int) -> str:
    """Names and titles as people type them: trimmed, printable (no newlines or control
    characters), at most `limit` characters. (A name left empty is refused by the table, in
    words the page shows.)"""
    trimmed = text.strip()
    if len(trimmed) > limit:
        raise ValueError(f"must be at most {limit} characters")
    if not trimmed.isprintable():
        raise ValueError("must be printable text on one line")
    return trimmed


def _name(text: str) -> str:
    return display_text(text, MAX_NAME)


def _title(text: str) -> str:
    return display_text(text, MAX_TITLE)


def _plain_options(options: dict[str, Any]) -> dict[str, Any]:
    """Table options are short JSON: finite numbers, text, booleans, shallow lists."""

    def check(value: Any, depth: int) -> None:
        if depth > MAX_OPTIONS_DEPTH:
            raise ValueError("options are nested too deeply")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("numbers must be finite")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**9:
            raise ValueError("numbers must be within +-10^9")
        if isinstance(value, str) and len(value) > 200:
            raise ValueError("text options are at most 200 characters")
        if isinstance(value, dict):
            for key, item in value.items():
                check(key, depth + 1)
                check(item, depth + 1)
        if isinstance(value, list):
            if len(value) > 64:
                raise ValueError("lists in options hold at most 64 items")
            for item in value:
                check(item, depth + 1)

    if len(options) > 64:
        raise ValueError("at most 64 options")
    check(options, 0)
    return options


NAME = Annotated[str, Field(min_length=1, max_length=MAX_NAME * 4), AfterValidator(_name)]
TITLE = Annotated[str, Field(max_length=80), AfterValidator(_title)]
REQUEST_ID = Annotated[str, Field(min_length=1, max_length=64, pattern=PRINTABLE_ASCII)]
MAX_VERSION = 2**53  # a whole number every JavaScript client holds exactly
AUTH_TOKEN = Annotated[str, Field(min_length=1, max_length=128)]
CHAT_LENGTH = 200
Pace = Literal["instant", "quick", "natural"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Inbound(_Strict):
    """What clients send, with strict types: `"1"` or `true` is no version, and NaN and the
    infinities are no number."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


# --- client -> server --------------------------------------------------------------------------
class Hello(_Inbound):
    """First message on a connection: a seat token (or none, to watch) and the last version
    the client saw, so it is sent what it missed."""

    type: Literal["hello"]
    token: AUTH_TOKEN | None = None
    host_token: AUTH_TOKEN | None = None
    since: int | None = Field(default=None, ge=0, le=MAX_VERSION)


class Act(_Inbound):
    """An action in its canonical text form, made at `version`; `request_id` makes a resend
    recognisable as a duplicate."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200, pattern=PRINTABLE_ASCII)
    version: int = Field(ge=0, le=MAX_VERSION)
    request_id: REQUEST_ID


class Sync(_Inbound):
    """Ask again for the full view and whatever happened after `since`."""

    type: Literal["sync"]
    since: int | None = Field(default=None, ge=0, le=MAX_VERSION)


class Undo(_Inbound):
    """Companion mode, host only: take back the last action made at `version`."""

    type: Literal["undo"]
    version: int = Field(ge=0, le=MAX_VERSION)


class Ping(_Inbound):
    type: Literal["ping"]


class Skip(_Strict):
    """A table of bots alone: play the rest of this race (or round) without the bots' pause."""

    type: Literal["skip"]


class NextRace(_Strict):
    """A person has seen the results between two races (natural pace): play may go on."""

    type: Literal["next-race"]


class StandIn(_Inbound):
    """A bot plays `seat` for now (`on`) or no longer: a person's own seat (they step away),
    or, from the host, the seat of a person who is not here."""

    type: Literal["stand_in"]
    seat: int = Field(ge=0, le=1_000)
    on: bool


class Chat(_Strict):
    """A short line for the table's chat, from a seat (or the host)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_LENGTH)


PLAYER_SEED = Annotated[str, Field(min_length=1, max_length=64, pattern=PRINTABLE_ASCII)]
COMMITMENT = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]  # SHA-256 of a seed, hex


class CommitSeed(_Inbound):
    """A seated player's commitment to a seed of their own, before play (replacing one given
    before): the SHA-256 of the seed's text. The seed itself follows in `reveal`."""

    type: Literal["commit"]
    commitment: COMMITMENT


class RevealSeed(_Inbound):
    """The seed committed to, once play is to start and every commitment is shown."""

    type: Literal["reveal"]
    seed: PLAYER_SEED


class AnswerForMe(_Inbound):
    """A seated person's own choice: when their seat has exactly one legal answer, the table
    makes it for them (after a person's pause, drawn alike whatever they hold), or not."""

    type: Literal["answer_for_me"]
    on: bool


AnyClientMessage = (
    Hello
    | Act
    | Sync
    | Undo
    | Ping
    | Skip
    | NextRace
    | StandIn
    | Chat
    | CommitSeed
    | RevealSeed
    | AnswerForMe
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


# --- lobby requests ------------------------------------------------------------------------------
class CreateTable(_Inbound):
    preset: str = Field(min_length=1, max_length=40)
    options: Annotated[dict[str, Any], AfterValidator(_plain_options)] = Field(default_factory=dict)
    seats: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None, max_length=20
    )  # "open" or a bot kind, per seat
    title: TITLE = ""
    turn_seconds: float = Field(default=60.0, ge=0, le=86_400)  # 0: no timer, wait for people
    companion: bool = False
    pace: Pace | None = None  # how long bots pause before a move; None: the server's default
    private: bool = False  # left out of the lobby's list: found by its link or room code
    names: list[NAME | Literal[""]] | None = Field(default=None, max_length=20)  # per seat:
    # the name of a person at a companion table's real board ("" for none)


class JoinTable(_Inbound):
    name: NAME
    seat: int | None = Field(default=None, ge=0, le=1_000)
    commitment: COMMITMENT | None = None
    """SHA-256 of the player's own seed for the dice (see `CommitSeed`)."""


# --- server -> client ----------------------------------------------------------------------------
ErrorCode = Literal[
    "bad-message",
    "unauthorized",
    "not-seated",
    "not-host",
    "duplicate",
    "stale",
    "not-your-turn",
    "invalid",
    "illegal",
    "waiting",
    "over",
    "nothing-to-undo",
    "not-companion",
    "rate-limited",
    "unavailable",
]


class SeatInfo(_Strict):
    seat: int
    name: str
    kind: Literal["open", "human", "bot"]
    bot: str
    connected: bool
    away: bool  # a person's seat played by its stand-in bot until they come back


class RevealState(_Strict):
    """The commitments, shown to everyone once they are closed, and who has revealed."""

    commitments: dict[str, str]  # seat -> SHA-256 of its seed
    revealed: list[int]


class TableState(_Strict):
    """What one connection may know now: its own view, whose turn, and its legal actions."""

    status: Literal["waiting", "playing", "over"]
    actor: int | Literal["chance", "terminal"]
    legal: list[str]
    view: dict[str, Any]
    result: dict[str, Any] | None = None
    seed: str | None = None  # revealed (decimal text) only once the game is over
    odds: dict[str, float] | None = None  # live win chance per horse, from the public board
    odds_decimals: dict[str, int] | None = None  # per horse: 1, print to a tenth; 0, whole %
    odds_rough: bool = False  # a quick estimate (printed ~12), the precise one on its way
    reveal: RevealState | None = None  # play is to start: the players' seeds are awaited
    deadline: float | None = None  # the person to move has until then (seconds since the
    # epoch), when a bot plays the turn for them; None: no clock runs
    race_break: dict[str, Any] | None = None  # the results between races: race, lines,
    # waiting (seats still to tap "Next race"), seconds (until play goes on anyway)
    entry: dict[str, Any] | None = None  # for the one who moves: how a real board's
    # outcomes may be entered (sums: a roll counts by its sum alone; hands: each hand still
    # to get cards in the deal, in order, as [seat or null, cards]; pack: cards left by action)


class MissedStep(_Strict):
    version: int
    events: list[dict[str, Any]]
    news: list[str] = Field(default_factory=list)  # the log's lines, as in an `Update`


class ChatLine(_Strict):
    type: Literal["chat"] = "chat"
    seat: int | None  # None: the host of a companion table, who holds no seat
    name: str
    text: str
    at: float  # seconds since the epoch


class Welcome(_Strict):
    type: Literal["welcome"] = "welcome"
    table: str
    preset: str
    family: str  # the rules family (its FAMILY's name): the page draws the board it names
    money: str  # what the family calls its money where a view's config does not say
    title: str
    seat: int | None
    host: bool
    companion: bool
    version: int
    seed_hash: str
    turn_seconds: float
    seats: list[SeatInfo]
    state: TableState
    missed: list[MissedStep]  # events after the client's `since`, oldest first
    resync: bool  # true: `missed` is incomplete (an undo, or too much); trust `state` alone
    pace: Pace | None = None
    chat: list[ChatLine] = Field(default_factory=list)  # the table's recent chat, oldest first
    next_table: str | None = None  # the host started the next game with these seats there
    answer_for_me: bool = False  # this seat asked the table to make its one legal answer


class Update(_Strict):
    """One applied action, as this connection may see it."""

    type: Literal["update"] = "update"
    version: int
    step: int
    actor: int | Literal["chance"]
    events: list[dict[str, Any]]
    state: TableState
    news: list[str] = Field(default_factory=list)  # the log's lines: the family's own words


class Undone(_Strict):
    type: Literal["undone"] = "undone"
    version: int
    state: TableState


class Seats(_Strict):
    type: Literal["seats"] = "seats"
    version: int
    status: Literal["waiting", "playing", "over"]
    seats: list[SeatInfo]
    state: TableState | None = None  # sent when the status changes (the start), per viewer


class Audience(_Strict):
    """How many watch the table (no version: it changes nothing in the game)."""

    type: Literal["audience"] = "audience"
    watching: int


class Ack(_Strict):
    type: Literal["ack"] = "ack"
    request_id: str
    version: int


class ErrorReply(_Strict):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    version: int | None = None
    request_id: str | None = None


class NextTable(_Strict):
    """The host started the next game with the same seats: every page moves there."""

    type: Literal["next"] = "next"
    table: str


class Committed(_Strict):
    """A player's commitment is in (see `CommitSeed`)."""

    type: Literal["committed"] = "committed"
    seat: int
    commitment: str


class Revealed(_Strict):
    """A seat's seed was revealed and matched its commitment (the seed itself is in the
    published record)."""

    type: Literal["revealed"] = "revealed"
    seat: int


class AnsweringForYou(_Strict):
    """To a seat's own connections: whether the table makes its one legal answer for it."""

    type: Literal["answer_for_me"] = "answer_for_me"
    on: bool


class Pong(_Strict):
    type: Literal["pong"] = "pong"
    version: int
