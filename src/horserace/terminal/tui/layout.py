"""How the lines of a screen are shared between the board, the log and the choice panel: what a
player needs (the whole board, the seats, the own hand, the question) first; the log gives way
first, then the board's full drawing for its compact one, then the list of options (it scrolls
and narrows as one types)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

LOG_LINES = 3  # the log's rule and two lines, before the board is drawn compact
LOG_FEWEST = 2  # the log's rule and its last line, on the shortest screen
OPTIONS = 8  # options listed at once on a roomy screen
FEWEST_OPTIONS = 3  # options listed at once on the shortest screen


@dataclass(frozen=True)
class Layout:
    """The board drawn `compact` or in full, in at most `board` lines (it scrolls past them),
    at most `options` options listed at once, and whether the log is shown."""

    compact: bool
    board: int
    options: int
    log: bool


def lay_out(
    room: int,
    full: Callable[[], int],
    compact: Callable[[], int],
    panel: Callable[[int], int],
    *,
    beside: bool,
) -> Layout:
    """Share `room` lines (the screen less its footer) between a board of `full()` lines (or
    `compact()` ones, measured only if the full one does not fit) and the choice panel,
    `panel(n)` lines with `n` options listed; the log takes what is left, below the board, or
    `beside` it (then it needs no lines of its own)."""
    log = 0 if beside else LOG_LINES
    asked = panel(OPTIONS)
    if full() + asked + log <= room:
        return Layout(False, room - asked - log, OPTIONS, True)
    lines = compact()
    if lines + asked + log <= room:
        return Layout(True, room - asked - log, OPTIONS, True)
    for options in range(OPTIONS, FEWEST_OPTIONS - 1, -1):
        asked = panel(options)
        if lines + asked <= room:
            log = beside or room - lines - asked >= LOG_FEWEST
            return Layout(True, lines if log and not beside else room - asked, options, log)
    return Layout(True, max(3, room - panel(FEWEST_OPTIONS)), FEWEST_OPTIONS, beside)
