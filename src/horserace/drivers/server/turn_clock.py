"""A person's turn clock, and the pause before an answer made for them.

Whose turn it is, and when anybody moves, must say nothing of the cards a seat holds
(RULINGS 1b). So every person's turn runs on the same clock whatever they hold: when it runs
out a bot plays that one turn for them, and the log says so in the same words for everyone.
A person may ask the table to "answer for me" when they have one legal answer; the table
then waits a pause drawn like a person's (from the seat's own stream, split from the table
seed), the same whatever the seat holds, so nobody can time it."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

ANSWER_SECONDS = 1.6  # the median pause before an answer made for a person
ANSWER_SPREAD = 0.45  # its log-normal spread: most pauses fall between 0.9 and 3 s
ANSWER_BOUNDS = (0.45, 4.0)  # no pause shorter or longer than these times the median


@dataclass
class TurnClock:
    """The clock of one person's turn: the table's `version` and the `seat` to move, the
    `deadline` shown to everyone (seconds since the epoch)."""

    version: int
    seat: int
    deadline: float

    @classmethod
    def start(cls, version: int, seat: int, seconds: float) -> TurnClock:
        return cls(version, seat, time.time() + seconds)

    def left(self) -> float:
        return max(0.0, self.deadline - time.time())


@dataclass
class AnswerPauses:
    """Each seat's pauses before an answer made for it: one generator per seat, seeded from
    the table's seed and the seat (never the process's shared random state), so the pauses
    of one seat are independent of every other's and of what anybody holds."""

    table_seed: int
    median: float = ANSWER_SECONDS
    _streams: dict[int, Any] = field(default_factory=dict)  # seat -> numpy Generator

    def next(self, seat: int) -> float:
        stream = self._streams.get(seat)
        if stream is None:
            import numpy as np  # the command line that reads the limits does without numpy

            from horserace.core.rng import ANSWER_STREAM, derive_seed

            stream = np.random.default_rng(derive_seed(self.table_seed, ANSWER_STREAM, seat))
            self._streams[seat] = stream
        factor = math.exp(ANSWER_SPREAD * float(stream.standard_normal()))
        low, high = ANSWER_BOUNDS
        return self.median * min(high, max(low, factor))
