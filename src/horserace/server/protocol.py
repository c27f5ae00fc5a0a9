"""The WebSocket protocol and the lobby's request bodies, as pydantic models.

Every message a client sends is validated against `ClientMessage` before anything reads it;
what the server sends is built from the models at the bottom, so the shapes documented in
docs/server.md are the shapes on the wire. Every update carries the table's version.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

REQUEST_ID = Annotated[str, Field(min_length=1, max_length=64)]
TOKEN = Annotated[str, Field(min_length=1, max_length=128)]
CHAT_LENGTH = 200
Pace = Literal["instant", "quick", "natural"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- client -> server --------------------------------------------------------------------------
class Hello(_Strict):
    """First message on a connection: a seat token (or none, to watch) and the last version
    the client saw, so it is sent what it missed."""

    type: Literal["hello"]
    token: TOKEN | None = None
    host_token: TOKEN | None = None
    since: int | None = Field(default=None, ge=0)


class Act(_Strict):
    """An action in its canonical text form, made at `version`; `request_id` makes a resend
    recognisable as a duplicate."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0)
    request_id: REQUEST_ID


class Sync(_Strict):
    """Ask again for the full view and whatever happened after `since`."""

    type: Literal["sync"]
    since: int | None = Field(default=None, ge=0)


class Undo(_Strict):
    """Companion mode, host only: take back the last action made at `version`."""

    type: Literal["undo"]
    version: int = Field(ge=0)


class Ping(_Strict):
    type: Literal["ping"]


class Skip(_Strict):
    """A table of bots alone: play the rest of this race (or round) without the bots' pause."""

    type: Literal["skip"]


class Chat(_Strict):
    """A short line for the table's chat, from a seat (or the host)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=CHAT_LENGTH)


ClientMessage = Annotated[
    Hello | Act | Sync | Undo | Ping | Skip | Chat, Field(discriminator="type")
]
CLIENT_MESSAGE: TypeAdapter[Hello | Act | Sync | Undo | Ping | Skip | Chat] = TypeAdapter(
    ClientMessage
)


# --- lobby requests ------------------------------------------------------------------------------
class CreateTable(_Strict):
    preset: str = Field(min_length=1, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] | None = Field(default=None, max_length=20)  # "open" or a bot kind, per seat
    title: str = Field(default="", max_length=80)
    turn_seconds: float = Field(default=60.0, ge=0, le=86_400)  # 0: no timer, wait for people
    companion: bool = False
    pace: Pace | None = None  # how long bots pause before a move; None: the server's default


class JoinTable(_Strict):
    name: str = Field(min_length=1, max_length=30)
    seat: int | None = Field(default=None, ge=0)


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
]


class SeatInfo(_Strict):
    seat: int
    name: str
    kind: Literal["open", "human", "bot"]
    bot: str
    connected: bool
    away: bool  # a person's seat played by its stand-in bot until they come back


class TableState(_Strict):
    """What one connection may know now: its own view, whose turn, and its legal actions."""

    status: Literal["waiting", "playing", "over"]
    actor: int | Literal["chance", "terminal"]
    legal: list[str]
    view: dict[str, Any]
    result: dict[str, Any] | None = None
    seed: str | None = None  # revealed (decimal text) only once the game is over
    odds: dict[str, float] | None = None  # live win chance per horse, from the public board


class MissedStep(_Strict):
    version: int
    events: list[dict[str, Any]]


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


class Update(_Strict):
    """One applied action, as this connection may see it."""

    type: Literal["update"] = "update"
    version: int
    step: int
    actor: int | Literal["chance"]
    events: list[dict[str, Any]]
    state: TableState


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


class Pong(_Strict):
    type: Literal["pong"] = "pong"
    version: int
