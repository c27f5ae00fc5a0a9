"""Actions are small frozen values whose canonical text form is how records and people name them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable


@runtime_checkable
class Action(Protocol):
    """Anything with a canonical text form; each family defines its own frozen dataclasses."""

    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Said:
    """An action whose text is one fixed word ('roll', 'pay', 'pass', 'done'): a subclass sets
    `word`."""

    word: ClassVar[str]

    @property
    def text(self) -> str:
        return self.word
