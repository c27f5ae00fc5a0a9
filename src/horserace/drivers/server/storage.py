"""What the server keeps, and the interface every database behind it offers.

A table is stored as its record: preset, config, seed and every action in order (chance
included), each with the events it produced and the version it made. Replaying the actions
through the engine rebuilds the state exactly, so no state snapshot has to be trusted; the
events stored beside each action let the replay check itself. Each action is written in one
transaction before anybody is told of it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

WAITING: Final = "waiting"
PLAYING: Final = "playing"
OVER: Final = "over"
STATUSES = (WAITING, PLAYING, OVER)
OPEN: Final = "open"
HUMAN: Final = "human"
BOT: Final = "bot"


@dataclass(frozen=True)
class SeatRow:
    """One seat: open (waiting for a person), a person's (token hash kept), or a bot's."""

    seat: int
    kind: str
    name: str = ""
    bot: str = "random"  # the bot's kind; for a person's seat, the stand-in when they are away
    token_hash: str | None = None


@dataclass(frozen=True)
class TableRow:
    id: str
    preset: str
    config: dict[str, Any]  # as `rules.config_to_dict` gives it
    seed: int
    chance: str  # "fair": drawn by server.fair.FairChance; "typed": entered by the host
    # (companion); "seeded": the Mersenne Twister of tables made by older servers
    settings: dict[str, Any]  # title, turn timer, ... (see table.TableSettings)
    host_hash: str
    created: float
    status: str = WAITING
    version: int = 0
    seats: tuple[SeatRow, ...] = ()


@dataclass(frozen=True)
class StoredStep:
    """One applied action: `step` is its place in the record, `version` the table version it
    made; `request_id` is the client's id for a person's action (duplicates are refused)."""

    step: int
    version: int
    actor: str
    action: str
    events: tuple[dict[str, Any], ...] = field(default=())
    request_id: str | None = None


@dataclass(frozen=True)
class Page:
    """One page of the lobby: newest first; `before` is the (created, id) to continue after."""

    statuses: tuple[str, ...] = STATUSES
    preset: str | None = None
    open_only: bool = False  # only tables with a seat still open
    limit: int = 50
    before: tuple[float, str] | None = None


def action_values(table_id: str, step: StoredStep) -> tuple[Any, ...]:
    """An action's row in the `actions` table, in column order (events as sorted JSON)."""
    events = json.dumps(list(step.events), sort_keys=True)
    return (table_id, step.step, step.version, step.actor, step.action, events, step.request_id)


class Storage(Protocol):
    """Every method is one transaction; a method that returns has made its change durable."""

    def create_table(self, table: TableRow) -> None: ...

    def load_table(self, table_id: str) -> TableRow | None: ...

    def list_tables(self, statuses: Sequence[str] = STATUSES) -> list[TableRow]: ...

    def page_tables(self, page: Page) -> list[TableRow]:
        """The lobby's page: bounded by `page.limit`, whatever the number of tables."""

    def save_seats(self, table_id: str, seats: Sequence[SeatRow]) -> None: ...

    def set_status(self, table_id: str, status: str) -> None: ...

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None: ...

    def append_step(self, table_id: str, step: StoredStep, status: str) -> None:
        """Add the action and move the table to `step.version` and `status`, atomically."""

    def append_steps(self, batch: Sequence[tuple[str, StoredStep, str]]) -> None:
        """Several `append_step`s (of different tables) in one transaction."""

    def truncate(self, table_id: str, keep: int, version: int) -> None:
        """Companion undo: keep only the first `keep` actions; the table moves on to
        `version` (versions only grow, so a client's stale version is always noticed)."""

    def load_steps(self, table_id: str) -> list[StoredStep]: ...

    def save_published(self, table_id: str, record: str, checked: dict[str, Any]) -> None:
        """A finished table's published record and what its check found (kept so neither
        is worked out again: a long table's replay takes seconds)."""

    def load_published(self, table_id: str) -> tuple[str, dict[str, Any]] | None: ...

    def close(self) -> None: ...
