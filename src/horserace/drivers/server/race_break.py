"""The results between two races at a table of the natural pace (table_breaks.py shows
them): which race ended, what was said of its end, and who is still looking."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

BREAK_SECONDS = 30.0  # the results stay this long unless everyone taps "Next race" first


@dataclass
class RaceBreak:
    """The results between two races: which race ended, what was said of its end, and the
    seats still looking at them."""

    race: int
    lines: list[str]
    waiting: set[int]
    ends: float  # time.monotonic() when the next race starts anyway
    key: tuple[str, int] = ("race", 0)
    timer: asyncio.Task[None] | None = field(default=None, repr=False)

    def data(self) -> dict[str, Any]:
        return {
            "race": self.race,
            "lines": self.lines,
            "waiting": sorted(self.waiting),
            "seconds": max(0, round(self.ends - time.monotonic())),
        }
