"""Descent over boards of integer lanes: the moves the designer tries and the walk that takes
the best of them until none pays.

Two move sets. Single moves (one lane one slot longer or shorter) define local optimality, so
every search ends with them. Mirrored moves keep a board's shape: a lane and its mirror
together (horses h and 14 - h, whose dice chances are equal), and every lane from a mirrored
pair inwards (which changes only the step between that pair and the next one out, or every
lane at once); single moves cannot take those steps without scoring worse on the way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Lanes = tuple[int, ...]
Move = tuple[int, ...]  # slots added to each lane
Score = tuple[float, float]  # lower is better, compared in order


def single_moves(lanes: int) -> list[Move]:
    """Every lane one slot shorter or longer."""
    return [
        tuple(step if i == lane else 0 for i in range(lanes))
        for lane in range(lanes)
        for step in (-1, 1)
    ]


def mirrored_moves(lanes: int) -> list[Move]:
    """A lane and its mirror one slot (the middle lane alone), and every lane from a mirrored
    pair inwards one slot; each move both ways."""
    pairs = [{i, lanes - 1 - i} for i in range((lanes + 1) // 2)]
    blocks = [set().union(*pairs[k:]) for k in range(len(pairs) - 1)]  # the last is a pair
    return [
        tuple(step if i in chosen else 0 for i in range(lanes))
        for chosen in pairs + blocks
        for step in (-1, 1)
    ]


def moved(lanes: Lanes, move: Move, low: int, high: int) -> Lanes | None:
    """The board after the move, or None if a lane would leave [low, high]."""
    after = tuple(n + step for n, step in zip(lanes, move, strict=True))
    return after if all(low <= n <= high for n in after) else None


def descend(
    score: Callable[[Lanes], Score],
    start: Lanes,
    moves: Sequence[Move],
    low: int,
    high: int,
    on_step: Callable[[Lanes], None] | None = None,
) -> Lanes:
    """From `start`, take the move that scores best (lowest) and repeat it while it pays;
    stop at a board no move improves. `score` should remember boards: they come back."""
    current = start
    while True:
        best, direction = current, None
        for move in moves:
            candidate = moved(current, move, low, high)
            if candidate is not None and score(candidate) < score(best):
                best, direction = candidate, move
        if direction is None:
            return current
        current = best
        while (further := moved(current, direction, low, high)) is not None:
            if not score(further) < score(current):
                break
            current = further
        if on_step is not None:
            on_step(current)
