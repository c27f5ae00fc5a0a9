"""The fair-board designer: integer lane lengths searched for an objective, every figure exact.

A board is scored from the odds module alone (never by sampling): each horse's chance to win a
round, scratch phase included, the expected race length, and the chance of each horse given
each set of scratched horses. Objectives:

- `equal`: every horse the same chance to win a round (the spread of the chances, sum of
  squared differences from 1/11, is minimised);
- `equal-per-scratch`: the same, within each scratched set (its spread among the running
  horses), averaged over the sets with their chances;
- `short`: `equal`, among boards whose expected race length is at most `max_rolls` (boards
  over the bound are worse than any under it, the less over the better).

The search is a descent on single lanes: from the start, a lane keeps moving one slot at a time
while that improves the score; it stops when no single lane one slot longer or shorter scores
better, which is what `is_local_optimum` checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from horserace.components.board import HORSES, MAX_SLOTS
from horserace.core.errors import ConfigError
from horserace.families.board.odds.race import race_odds, scratch_set_chances

OBJECTIVES = ("equal", "equal-per-scratch", "short")
SCRATCH_ROLLS = 4


@dataclass(frozen=True)
class BoardFigures:
    """The exact figures of one board (slots per lane, horses 2..12)."""

    slots: tuple[int, ...]
    win: dict[int, float]  # chance to win a round, scratch phase included
    expected_rolls: float  # race rolls per round
    spread: float  # sum of (chance - 1/11)^2 over the horses
    spread_per_scratch: float  # the same within each scratched set, averaged over the sets

    @property
    def gap(self) -> float:
        """The largest gap between two horses' chances to win a round."""
        return max(self.win.values()) - min(self.win.values())


@dataclass
class Evaluator:
    """Scores boards, remembering each board it has seen (the search revisits them)."""

    objective: str = "equal"
    reroll_repeats: bool = False
    max_rolls: float | None = None
    seen: dict[tuple[int, ...], BoardFigures] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise ConfigError(f"objective must be one of {', '.join(OBJECTIVES)}")
        if self.objective == "short" and (self.max_rolls is None or self.max_rolls <= 0):
            raise ConfigError("the short objective needs a bound: --max-rolls N (above 0)")
        self.sets = scratch_set_chances(SCRATCH_ROLLS, reroll_repeats=self.reroll_repeats)

    def figures(self, slots: tuple[int, ...]) -> BoardFigures:
        known = self.seen.get(slots)
        if known is not None:
            return known
        win = dict.fromkeys(HORSES, 0.0)
        rolls = per_scratch = 0.0
        for scratched, chance in self.sets.items():
            running = {h: n + 1 for h, n in zip(HORSES, slots, strict=True) if h not in scratched}
            odds = race_odds(running)
            fair = 1 / len(running)
            per_scratch += chance * sum((p - fair) ** 2 for p in odds.win.values())
            rolls += chance * odds.expected_rolls
            for horse, p in odds.win.items():
                win[horse] += chance * p
        spread = sum((p - 1 / len(HORSES)) ** 2 for p in win.values())
        figures = BoardFigures(slots, win, rolls, spread, per_scratch)
        self.seen[slots] = figures
        return figures

    def score(self, slots: tuple[int, ...]) -> tuple[float, float]:
        """Lower is better; compared as a pair (only `short` uses the first part)."""
        figures = self.figures(slots)
        if self.objective == "equal-per-scratch":
            return (0.0, figures.spread_per_scratch)
        over = 0.0
        if self.objective == "short" and self.max_rolls is not None:
            over = max(0.0, figures.expected_rolls - self.max_rolls)
        return (over, figures.spread)


def neighbours(slots: tuple[int, ...], low: int, high: int) -> list[tuple[int, ...]]:
    """Every board with one lane one slot longer or shorter, within [low, high]."""
    found = []
    for lane in range(len(slots)):
        for step in (-1, 1):
            value = slots[lane] + step
            if low <= value <= high:
                found.append((*slots[:lane], value, *slots[lane + 1 :]))
    return found


def is_local_optimum(evaluator: Evaluator, slots: tuple[int, ...], low: int, high: int) -> bool:
    best = evaluator.score(slots)
    return all(evaluator.score(other) >= best for other in neighbours(slots, low, high))


def design(
    evaluator: Evaluator,
    start: tuple[int, ...],
    *,
    low: int = 1,
    high: int = MAX_SLOTS,
    progress: Callable[[int, BoardFigures], None] | None = None,
) -> BoardFigures:
    """Descend from `start` one lane at a time to a board no single-slot change improves."""
    if not 1 <= low <= high <= MAX_SLOTS:
        raise ConfigError(f"lane bounds must satisfy 1 <= shortest <= longest <= {MAX_SLOTS}")
    if any(not low <= n <= high for n in start):
        raise ConfigError(f"the starting board has a lane outside {low}..{high} slots")
    current = start
    steps = 0
    while True:
        best = current
        for candidate in neighbours(current, low, high):
            if evaluator.score(candidate) < evaluator.score(best):
                best = candidate
        if best == current:
            return evaluator.figures(current)
        lane = next(i for i, (a, b) in enumerate(zip(best, current, strict=True)) if a != b)
        step = best[lane] - current[lane]
        current = best
        while low <= current[lane] + step <= high:  # keep going while it pays
            further = (*current[:lane], current[lane] + step, *current[lane + 1 :])
            if evaluator.score(further) >= evaluator.score(current):
                break
            current = further
        steps += 1
        if progress is not None:
            progress(steps, evaluator.figures(current))
