"""Turn order around the table, skipping seats that are out of the game."""

from __future__ import annotations

from horserace.rules.board.model import BoardState


def next_seat(state: BoardState, seat: int) -> int:
    """The next seat to the left that is still in the game (or `seat` if it is the only one)."""
    n = state.config.players
    for offset in range(1, n + 1):
        candidate = (seat + offset) % n
        if not state.out[candidate]:
            return candidate
    return seat


def seats_from(state: BoardState, first: int) -> list[int]:
    """Seats still in the game, clockwise, starting at `first` (inclusive)."""
    n = state.config.players
    order = [(first + offset) % n for offset in range(n)]
    return [seat for seat in order if not state.out[seat]]


def active_count(state: BoardState) -> int:
    return sum(1 for out in state.out if not out)
