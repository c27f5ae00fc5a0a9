"""Actions are small frozen values whose canonical text form is how records and people name them."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Action(Protocol):
    """Anything with a canonical text form; each family defines its own frozen dataclasses."""

    @property
    def text(self) -> str: ...
