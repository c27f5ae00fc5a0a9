"""The lobby: pages of tables read from storage (bounded, whatever the number of tables), and
the lobby sockets that are told of changed tables, a second's changes at a time."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from horserace.core.errors import ConfigError
from horserace.drivers.server.connection import Connection, encode
from horserace.drivers.server.fair import seed_hash
from horserace.drivers.server.seating import TableSettings
from horserace.drivers.server.storage import OPEN, OVER, PLAYING, WAITING, Page, TableRow

ROOM_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"  # no I, L or O: nothing to mistake for 1 or 0
ROOM_LENGTH = 5  # 23**5, about 6.4 million codes: a clash among waiting tables is rare
PAGE_DEFAULT = 50
PAGE_MAX = 200
PUSH_SECONDS = 1.0
FILTERS: dict[str, tuple[tuple[str, ...], bool]] = {
    "live": ((WAITING, PLAYING), False),  # the lobby page's default: every table not over
    "open": ((WAITING,), True),
    "waiting": ((WAITING,), False),
    "playing": ((PLAYING,), False),
    "finished": ((OVER,), False),
    "over": ((OVER,), False),
    "all": ((WAITING, PLAYING, OVER), False),
}


def lobby_page(
    status: str = "all", preset: str | None = None, limit: int = PAGE_DEFAULT, before: str = ""
) -> Page:
    """A page request from the lobby's query: a ConfigError names what is wrong."""
    if status not in FILTERS:
        raise ConfigError(f"status is one of {', '.join(FILTERS)}")
    if not 1 <= limit <= PAGE_MAX:
        raise ConfigError(f"limit is 1 to {PAGE_MAX}")
    statuses, open_only = FILTERS[status]
    cursor: tuple[float, str] | None = None
    if before:
        stamp, _, table_id = before.partition("~")
        try:
            cursor = (float(stamp), table_id)
        except ValueError:
            raise ConfigError("before is the cursor a previous page gave") from None
    return Page(statuses, preset or None, open_only, limit, cursor)


def room_code(table_id: str) -> str:
    """A table's short code, said aloud or typed on a phone in the lobby: five letters worked
    out from its id (the id itself is long and mixes cases and digits)."""
    number = int.from_bytes(hashlib.sha256(b"room:" + table_id.encode()).digest()[:8], "big")
    letters = []
    for _ in range(ROOM_LENGTH):
        number, index = divmod(number, len(ROOM_LETTERS))
        letters.append(ROOM_LETTERS[index])
    return "".join(letters)


def typed_code(text: str) -> str:
    """A code as a person typed it: any case, spaces and dashes left out."""
    return "".join(c for c in text.upper() if c.isalpha())


def rooms_matching(code: str, table_ids: Iterable[str]) -> list[str]:
    """The tables among `table_ids` whose room code is `code` (as typed)."""
    wanted = typed_code(code)
    return [table_id for table_id in table_ids if room_code(table_id) == wanted]


def listed(summaries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby lines a lobby shows: a private table is found by its link or code only."""
    return [summary for summary in summaries if not summary.get("private")]


def cursor_after(rows: list[dict[str, Any]], page: Page) -> str | None:
    """The cursor of the next page, or None on the last one."""
    if len(rows) < page.limit:
        return None
    last = rows[-1]
    return f"{last['created']!r}~{last['id']}"


def matches(page: Page, summary: dict[str, Any]) -> bool:
    if summary["status"] not in page.statuses:
        return False
    if page.preset is not None and summary["preset"] != page.preset:
        return False
    return not page.open_only or bool(summary["open_seats"])


def row_summary(row: TableRow) -> dict[str, Any]:
    """The lobby line of a table that is not in memory (the same fields as a live one; nobody
    is connected to it)."""
    settings = TableSettings.from_dict(row.settings)
    return {
        "id": row.id,
        "preset": row.preset,
        "title": settings.title,
        "status": row.status,
        "version": row.version,
        "players": len(row.seats),
        "open_seats": [seat.seat for seat in row.seats if seat.kind == OPEN],
        "seats": [
            {
                "seat": seat.seat,
                "name": seat.name if seat.kind != OPEN else "",
                "kind": seat.kind,
                "bot": seat.bot,
                "connected": False,
                "away": False,
            }
            for seat in row.seats
        ],
        "turn_seconds": settings.turn_seconds,
        "companion": settings.companion,
        "seed_hash": seed_hash(row.seed),
        "seed": str(row.seed) if row.status == OVER else None,
        "created": row.created,
        "config": row.config,
        "pace": settings.pace,
        "private": settings.private,
        "room": room_code(row.id),
        "race": None,
        "next_table": None,
    }


@dataclass
class _Listener:
    connection: Connection
    page: Page


class LobbyFeed:
    """Lobby sockets, each with its filter; a changed table is pushed to those it matches
    (or matched: a table that stops matching is sent once more, so the client drops it)."""

    def __init__(self, summary_of: Callable[[str], dict[str, Any] | None]) -> None:
        self.summary_of = summary_of
        self.listeners: dict[Connection, _Listener] = {}
        self.dirty: set[str] = set()
        self.sent = 0
        self._timer: asyncio.TimerHandle | None = None

    def listen(self, connection: Connection, page: Page) -> None:
        self.listeners[connection] = _Listener(connection, page)

    def leave(self, connection: Connection) -> None:
        self.listeners.pop(connection, None)

    def changed(self, table_id: str) -> None:
        if not self.listeners:
            return  # nobody to tell: a lobby that connects later reads a fresh page
        self.dirty.add(table_id)
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._timer = loop.call_later(PUSH_SECONDS, self.flush)

    def flush(self) -> None:
        self._timer = None
        changed = [self.summary_of(table_id) for table_id in sorted(self.dirty)]
        self.dirty.clear()
        found = listed(summary for summary in changed if summary is not None)
        if not found:
            return
        encoded: dict[tuple[Any, ...], str] = {}
        for listener in list(self.listeners.values()):
            page = listener.page
            key = (page.statuses, page.preset, page.open_only)
            if key not in encoded:
                tables = [
                    {**summary, "matches": matches(page, summary)}
                    for summary in found
                    if page.preset is None or summary["preset"] == page.preset
                ]
                encoded[key] = (
                    encode({"type": "tables-changed", "tables": tables}) if tables else ""
                )
            if encoded[key]:
                listener.connection.send_text(encoded[key])
            self.sent += 1

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for connection in list(self.listeners):
            connection.close()
        self.listeners.clear()
