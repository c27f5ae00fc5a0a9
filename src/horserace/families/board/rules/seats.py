"""Turn order around the table, skipping seats that are out of the game."""

from __future__ import annotations


def next_seat(out: tuple[int, ...], seat: int) -> int:
    """The next seat to the left still in the game (or `seat` if it is the only one)."""
    n = len(out)
    if not any(out):
        return (seat + 1) % n
    for offset in range(1, n + 1):
        candidate = (seat + offset) % n
        if not out[candidate]:
            return candidate
    return seat


def seats_from(out: tuple[int, ...], first: int) -> list[int]:
    """Seats still in the game, clockwise, starting at `first` (inclusive)."""
    n = len(out)
    return [(first + k) % n for k in range(n) if not out[(first + k) % n]]


def active_count(out: tuple[int, ...]) -> int:
    return sum(1 for o in out if not o)
