"""Table set-up the lobby decides: seats, settings, and the typed refusals a table gives."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from horserace.core.errors import ConfigError, HorseraceError
from horserace.server.protocol import ErrorCode
from horserace.server.storage import BOT, OPEN, OVER, PLAYING, WAITING, SeatRow

Status = Literal["waiting", "playing", "over"]


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "turn_seconds": self.turn_seconds,
            "companion": self.companion,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        return cls(
            title=str(data.get("title", "")),
            turn_seconds=float(data.get("turn_seconds", 60.0)),
            companion=bool(data.get("companion", False)),
        )


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


def new_seats(
    players: int, kinds: Sequence[str] | None, default_bot: str, check: Callable[[str], str]
) -> list[SeatRow]:
    """Seat rows from the lobby's list ("open" or a bot kind per seat; all open if none)."""
    given = list(kinds) if kinds is not None else ["open"] * players
    if len(given) != players:
        raise ConfigError(f"this table has {players} seats; {len(given)} were described")
    seats: list[SeatRow] = []
    for seat, kind in enumerate(given):
        if kind == OPEN:
            seats.append(SeatRow(seat=seat, kind=OPEN, bot=default_bot))
        else:
            seats.append(SeatRow(seat=seat, kind=BOT, name=f"{check(kind)} bot", bot=kind))
    return seats


def now() -> float:
    return time.time()
