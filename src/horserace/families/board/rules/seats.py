"""Turn order around the table, skipping seats that are out of the game."""

from __future__ import annotations


def next_seat(out: tuple[int | None, ...], seat: int) -> int:
    """The next seat to the left still in the game (or `seat` if it is the only one)."""
    n = len(out)
    if all(o is None for o in out):
        return (seat + 1) % n
    for offset in range(1, n + 1):
        candidate = (seat + offset) % n
        if out[candidate] is None:
            return candidate
    return seat


def seats_from(out: tuple[int | None, ...], first: int) -> list[int]:
    """Seats still in the game, clockwise, starting at `first` (inclusive)."""
    n = len(out)
    return [(first + k) % n for k in range(n) if out[(first + k) % n] is None]


def active_count(out: tuple[int | None, ...]) -> int:
    return sum(1 for o in out if o is None)
