"""The pace of a watched game: the play loop's thread waits here between bots' moves, and the keys
make it faster, slower, pause it or skip to the next decision without the play loop knowing."""

from __future__ import annotations

import math
import threading
import time

FASTEST = 1 / 16
SLOWEST = 16.0


class Stopped(Exception):
    """The person quit: the play loop, waiting here, leaves the game."""


class Pacer:
    """Thread-safe waits scaled by `factor`. `skipping` ends every wait until the next decision,
    `paused` holds every wait, `release` ends the one wait under way (Enter on a result), `stop`
    makes every wait raise `Stopped`."""

    def __init__(self) -> None:
        self.factor = 1.0
        self.skipping = False
        self.paused = False
        self.stopped = False
        self._released = False
        self._changed = threading.Condition()

    def wait(self, seconds: float, *, skippable: bool = True) -> None:
        """Wait `seconds` times the factor (`math.inf`: until released), or less on a key."""
        start = time.monotonic()
        with self._changed:
            self._released = False
            while True:
                self.check()
                if self._released:
                    return
                left = start + seconds * self.factor - time.monotonic()
                if not self.paused and ((skippable and self.skipping) or left <= 0):
                    return
                timeout = None if self.paused or math.isinf(left) else left
                self._changed.wait(timeout)

    def check(self) -> None:
        if self.stopped:
            raise Stopped

    def change(self, *, factor: float | None = None, skip: bool | None = None) -> None:
        with self._changed:
            if factor is not None:
                self.factor = min(SLOWEST, max(FASTEST, factor))
            if skip is not None:
                self.skipping = skip
            self._changed.notify_all()

    def toggle_pause(self) -> bool:
        with self._changed:
            self.paused = not self.paused
            self._changed.notify_all()
            return self.paused

    def release(self) -> None:
        with self._changed:
            self._released = True
            self._changed.notify_all()

    def stop(self) -> None:
        with self._changed:
            self.stopped = True
            self._changed.notify_all()
