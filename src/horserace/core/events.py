"""Events say what happened; each decides who may see it, and nobody sees by default."""

from __future__ import annotations

import dataclasses
import functools
import string
from collections.abc import Callable, Iterable, Sequence
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


@functools.cache
def _sentence(says: str) -> tuple[tuple[str, str | None, str], ...]:
    """An event's `says` cut once into its text and its fields (with their specs)."""
    return tuple(
        (text, field, spec or "") for text, field, spec, _ in string.Formatter().parse(says)
    )


def _word(value: Any, spec: str, names: Sequence[str]) -> str:
    """A field of an event's sentence: `seat` is a seat's name, `winners` the winners with their
    verb, any word of WORDS (`chips`, a family's own); other specs format as str.format does."""
    if spec == "seat":
        return seat_name(names, value)
    if spec == "winners":
        verb = "share the win" if len(value) > 1 else "wins"
        return " and ".join(seat_name(names, s) for s in value) + " " + verb
    word = WORDS.get(spec)
    return format(value, spec) if word is None else word(value)


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
        parts = []
        for text, field, spec in _sentence(self.says):
            parts.append(text)
            if field is not None:
                parts.append(_word(getattr(self, field), spec, names))
        return "".join(parts)

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
