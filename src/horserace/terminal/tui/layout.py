"""How the lines of a screen are shared between the board, the log and the choice panel: what a
player needs (the whole board, the seats, the own hand, the question) first; the log gives way
first, then the board's full drawing for its compact one, then the list of options (it scrolls
and narrows as one types), then the compact drawing for the tight one (a lane on a few cells)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

LOG_LINES = 3  # the log's rule and two lines, before the board is drawn compact
LOG_FEWEST = 2  # the log's rule and its last line, on the shortest screen
OPTIONS = 8  # options listed at once on a roomy screen
FEWEST_OPTIONS = 3  # options listed at once on the shortest screen


FULL, COMPACT, TIGHT = 0, 1, 2  # the board's forms, each taking fewer lines than the one before


@dataclass(frozen=True)
class Layout:
    """The board drawn in its `form` (FULL, COMPACT or TIGHT), in at most `board` lines (it
    scrolls past them), at most `options` options listed at once, and whether the log is shown."""

    form: int
    board: int
    options: int
    log: bool

    @property
    def compact(self) -> bool:
        return self.form != FULL


def lay_out(
    room: int,
    forms: Sequence[Callable[[], int]],
    panel: Callable[[int], int],
    *,
    beside: bool,
) -> Layout:
    """Share `room` lines (the screen less its footer) between the board and the choice panel,
    `panel(n)` lines with `n` options listed; `forms` measure the board's forms, full first
    (each measured only if the one before does not fit): a form is taken with the log, else
    without it and fewer options listed, else the next form is tried. The log takes what is
    left, below the board, or `beside` it (then it needs no lines of its own)."""
    log = 0 if beside else LOG_LINES
    asked = panel(OPTIONS)
    if forms[FULL]() + asked + log <= room:
        return Layout(FULL, room - asked - log, OPTIONS, True)
    form = FULL
    for form, measure in enumerate(forms[1:], start=COMPACT):
        lines = measure()
        if lines + panel(OPTIONS) + log <= room:
            return Layout(form, room - panel(OPTIONS) - log, OPTIONS, True)
        for options in range(OPTIONS, FEWEST_OPTIONS - 1, -1):
            asked = panel(options)
            if lines + asked <= room:
                shown = beside or room - lines - asked >= LOG_FEWEST
                board = lines if shown and not beside else room - asked
                return Layout(form, board, options, shown)
    return Layout(form, max(3, room - panel(FEWEST_OPTIONS)), FEWEST_OPTIONS, beside)
