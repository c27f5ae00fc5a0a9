"""Table set-up the lobby decides: seats, settings, and the typed refusals a table gives."""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal, get_args

from pydantic import ValidationError

from horserace.core.errors import ConfigError, HorseraceError
from horserace.drivers.server.protocol import CHAT_LENGTH, ChatLine, ErrorCode, Pace
from horserace.drivers.server.storage import BOT, OPEN, OVER, PLAYING, WAITING, SeatRow

Status = Literal["waiting", "playing", "over"]
PACES = {"instant": 0.0, "quick": 0.25, "natural": 0.8}  # a bot's pause before it moves, seconds


class TableRefusal(HorseraceError):
    """A lobby or protocol request the table turns down; `code` is the typed reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class TableSettings:
    """Table options that are not rules: shown in the lobby, kept with the table."""

    title: str = ""
    turn_seconds: float = 60.0  # then a person's move is made by their stand-in; 0: wait
    companion: bool = False
    pace: Pace | None = None  # instant, quick or natural; None: the server's bot delay
    private: bool = False  # not listed in the lobby: found by its link or its room code

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def bot_delay(self, default: float) -> float:
        """Seconds a bot waits before its move at this table."""
        return PACES.get(self.pace, default) if self.pace else default

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        return cls(
            title=str(data.get("title", "")),
            turn_seconds=float(data.get("turn_seconds", 60.0)),
            companion=bool(data.get("companion", False)),
            pace=pace_of(data.get("pace")),
            private=bool(data.get("private", False)),
        )


def pace_of(value: object) -> Pace | None:
    paces: dict[object, Pace] = {p: p for p in get_args(Pace)}
    return paces.get(value)


def refusal_code(code: str) -> ErrorCode:
    codes: dict[str, ErrorCode] = {c: c for c in get_args(ErrorCode)}
    return codes[code]


def status_of(text: str) -> Status:
    if text == WAITING:
        return WAITING
    if text == PLAYING:
        return PLAYING
    if text == OVER:
        return OVER
    raise ConfigError(f"unknown table status {text!r}")


BOT_NAMES = (
    "Ada", "Bram", "Cleo", "Dex", "Edie", "Finn", "Gus", "Hana", "Ivo", "Juno",
    "Kit", "Lars", "Mina", "Ned", "Odile", "Pip", "Quin", "Rosa", "Sol", "Tess",
)  # fmt: skip


def bot_name(seat: int) -> str:
    """A bot's name at the table: a first name of its own (one per seat, so two bots are never
    told apart by their kind alone), marked as a bot."""
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} (bot)"


def new_seats(
    players: int,
    kinds: Sequence[str] | None,
    default_bot: str,
    check: Callable[[str], str],
    names: Sequence[str] | None = None,
) -> list[SeatRow]:
    """Seat rows from the lobby's list ("open" or a bot kind per seat; all open if none);
    `names` names the people at a companion table's board, whose open seats the host plays."""
    given = list(kinds) if kinds is not None else ["open"] * players
    if len(given) != players:
        raise ConfigError(f"this table has {players} seats; {len(given)} were described")
    named = list(names or [])
    if len(named) > players:
        raise ConfigError(f"this table has {players} seats; {len(named)} names were given")
    named += [""] * (players - len(named))
    seats: list[SeatRow] = []
    for seat, kind in enumerate(given):
        if kind == OPEN:
            seats.append(SeatRow(seat=seat, kind=OPEN, name=named[seat].strip(), bot=default_bot))
        else:
            seats.append(SeatRow(seat=seat, kind=BOT, name=bot_name(seat), bot=check(kind)))
    return seats


def now() -> float:
    return time.time()


CHAT = "chat"  # the settings' key the chat is stored under
CHAT_KEPT = 200  # lines a table keeps (and sends a newcomer)
CHAT_BURST, CHAT_WINDOW = 3, 10.0  # at most this many lines per connection in this many seconds


class ChatRoom:
    """A table's chat: short plain-text lines (the page shows them as text, never as HTML),
    a few per connection in any ten seconds."""

    def __init__(self, kept: Sequence[Any] = ()) -> None:
        self.lines: list[ChatLine] = []
        for line in kept[-CHAT_KEPT:]:  # as stored with the table; anything unreadable is left
            with contextlib.suppress(ValidationError):
                self.lines.append(ChatLine.model_validate(line))
        self._sent: weakref.WeakKeyDictionary[object, list[float]] = weakref.WeakKeyDictionary()

    def refusal(self, sender: object, at: float) -> str | None:
        recent = [t for t in self._sent.get(sender, []) if at - t < CHAT_WINDOW]
        self._sent[sender] = recent
        if len(recent) >= CHAT_BURST:
            return f"slow down: at most {CHAT_BURST} lines in {CHAT_WINDOW:.0f} seconds"
        recent.append(at)
        return None

    def add(self, seat: int | None, name: str, text: str, at: float) -> ChatLine:
        clean = "".join(c if c.isprintable() else " " for c in text).strip()
        line = ChatLine(seat=seat, name=name, text=clean[:CHAT_LENGTH], at=at)
        self.lines.append(line)
        del self.lines[:-CHAT_KEPT]
        return line
