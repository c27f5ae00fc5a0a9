"""Events say what happened; each decides who may see it, and nobody sees by default."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

# The seat number an event's JSON (a record, the table page) gives for "no seat", such as a
# horse nobody bought. In memory that seat is None; the records have always said -1.
NO_SEAT = -1


@dataclass(frozen=True)
class Event:
    """Base of every event. Subclasses that are public say so by inheriting PublicEvent."""

    kind: ClassVar[str] = "event"
    _json_fields: ClassVar[tuple[str, ...]]

    def visible_to(self, seat: int | None) -> bool:
        """Deny by default: a seat (None = spectator) sees an event only if it is opened up."""
        return False

    def redacted(self) -> Event | None:
        """What others see in place of this event (None: nothing at all)."""
        return None

    def describe(self, names: Sequence[str]) -> str:
        return self.kind

    @classmethod
    def _field_names(cls) -> tuple[str, ...]:
        """Looked up once per event class: records serialise every event of every game."""
        names = cls.__dict__.get("_json_fields")
        if names is None:
            names = tuple(field.name for field in dataclasses.fields(cls))
            cls._json_fields = names
        return names

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        for name in self._field_names():
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class PublicEvent(Event):
    """An event every seat and every spectator sees."""

    def visible_to(self, seat: int | None) -> bool:
        return True


def redact(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events as `seat` may see them (None = a spectator)."""
    shown: list[Event] = []
    for event in events:
        if event.visible_to(seat):
            shown.append(event)
            continue
        stand_in = event.redacted()
        if stand_in is not None and stand_in.visible_to(seat):
            shown.append(stand_in)
    return shown


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
