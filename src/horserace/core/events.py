"""Events say what happened; each decides who may see it, and nobody sees by default."""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from horserace.core.words import counted

# The seat number an event's JSON (a record, the table page) gives for "no seat", such as a
# horse nobody bought. In memory that seat is None; the records have always said -1.
NO_SEAT = -1

WORDS: dict[str, Callable[[Any], str]] = {
    "chips": lambda amount: counted(amount, "chip"),
    "dollars": lambda amount: f"${amount}",
}


def add_words(**words: Callable[[Any], str]) -> None:
    """Let event texts say `{field:name}` for a family's own way of naming a value."""
    for name, word in words.items():
        if WORDS.setdefault(name, word) is not word:
            raise ValueError(f"the event word {name!r} is already taken")


class _Sentence(string.Formatter):
    """Fills an event's `says`: `{seat:seat}` is a seat's name, `{winners:winners}` the
    winners with their verb, `{amount:chips}` any word of WORDS; other specs format as usual."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "seat":
            return seat_name(self.names, value)
        if format_spec == "winners":
            verb = "share the win" if len(value) > 1 else "wins"
            return " and ".join(seat_name(self.names, s) for s in value) + " " + verb
        word = WORDS.get(format_spec)
        return format(value, format_spec) if word is None else word(value)


class _Attributes(Mapping[str, Any]):
    """An event's fields and properties by name, for its `says`."""

    def __init__(self, event: Event) -> None:
        self.event = event

    def __getitem__(self, name: str) -> Any:
        return getattr(self.event, name)

    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 0


@dataclass(frozen=True)
class Event:
    """Base of every event. Subclasses that are public say so by inheriting PublicEvent."""

    kind: ClassVar[str] = "event"
    says: ClassVar[str] = ""  # what `describe` says, its fields named as in str.format
    _json_fields: ClassVar[tuple[str, ...]]

    def visible_to(self, seat: int | None) -> bool:
        """Deny by default: a seat (None = spectator) sees an event only if it is opened up."""
        return False

    def redacted(self) -> Event | None:
        """What others see in place of this event (None: nothing at all)."""
        return None

    def describe(self, names: Sequence[str]) -> str:
        """The event in words, with `names` for the seats (the class's `says` filled in)."""
        if not self.says:
            return self.kind
        return _Sentence(names).vformat(self.says, (), _Attributes(self))

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
