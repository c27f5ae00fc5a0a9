"""The fair-board designer: integer lane lengths searched for an objective, every figure exact.

A board is scored from the odds module alone (never by sampling): each horse's chance to win a
round, scratch phase included, the expected race length, and the chance of each horse given
each set of scratched horses. The objectives are in OBJECTIVES; each scores a board by the mean
squared distance of the chances from an equal share (printed as its root, in points).

The search (`design`) descends from several starts: the start board and, for a bound on the
race length, the start scaled to meet it, with the mirrored moves of `descent` (pairs of
lanes, trades between pairs, every lane at once), and from the start with single moves, as a
plain descent would. The best board found is then descended with single moves until no single
lane one slot longer or shorter scores better, which is what `is_local_optimum` checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from horserace.components.board import HORSES, MAX_SLOTS
from horserace.components.dice import two_dice_sum_probabilities
from horserace.core.errors import ConfigError
from horserace.families.board.odds.descent import (
    Lanes,
    descend,
    mirrored_moves,
    moved,
    single_moves,
)
from horserace.families.board.odds.race import race_odds, scratch_set_chances

OBJECTIVES = {
    "equal": "every horse the same chance to win a round",
    "equal-per-scratch": "every running horse the same chance within each set of scratched"
    " horses, averaged over the sets by their chances",
    "short": "equal, among boards whose expected race lasts at most --max-rolls rolls",
}
SCRATCH_ROLLS = 4
MAX_RACES_KEPT = 20_000  # races an Evaluator remembers (some 20 MB), then it starts afresh
_WAYS = {h: int(p * 36) for h, p in two_dice_sum_probabilities().items()}  # of 36
_BY_WAYS = {w: tuple(h for h in HORSES if _WAYS[h] == w) for w in set(_WAYS.values())}


@dataclass(frozen=True)
class BoardFigures:
    """The exact figures of one board (slots per lane, horses 2..12)."""

    slots: tuple[int, ...]
    win: dict[int, float]  # chance to win a round, scratch phase included
    expected_rolls: float  # race rolls per round
    spread: float  # the mean over the horses of (chance - 1/11)^2
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
    races: dict[tuple[tuple[int, int], ...], tuple[list[float], float, float]] = field(
        default_factory=dict
    )  # by field: (dice ways, lane) per runner

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise ConfigError(
                f"--objective must be one of {', '.join(OBJECTIVES)}, not {self.objective!r}"
            )
        bounded = self.max_rolls is not None
        if self.objective == "short" and not bounded:
            raise ConfigError("the short objective needs a bound: --max-rolls N")
        if self.objective != "short" and bounded:
            raise ConfigError("--max-rolls bounds the short objective only (--objective short)")
        if self.max_rolls is not None and not (0 < self.max_rolls < math.inf):
            raise ConfigError(
                f"--max-rolls must be a number of rolls above 0, not {self.max_rolls:g}"
            )
        self.sets = scratch_set_chances(SCRATCH_ROLLS, reroll_repeats=self.reroll_repeats)
        self._sets = [  # (chance, the horses left running) per scratched set
            (chance, tuple(h for h in HORSES if h not in scratched))
            for scratched, chance in self.sets.items()
        ]

    def figures(self, slots: tuple[int, ...]) -> BoardFigures:
        known = self.seen.get(slots)
        if known is not None:
            return known
        lanes = dict(zip(HORSES, slots, strict=True))
        # Horses with the same dice chance and lane are interchangeable (h and 14 - h on a
        # mirrored board): a race depends on its field, the (ways, lane) of each runner.
        entry = {h: (_WAYS[h], lanes[h]) for h in HORSES}
        order = {h: (*entry[h], h) for h in HORSES}
        win = dict.fromkeys(HORSES, 0.0)
        rolls = per_scratch = 0.0
        for chance, field_of_all in self._sets:
            running = sorted(field_of_all, key=order.__getitem__)
            wins, expected, square = self._race(tuple(entry[h] for h in running))
            per_scratch += chance * square
            rolls += chance * expected
            for horse, p in zip(running, wins, strict=True):
                win[horse] += chance * p
        spread = sum((p - 1 / len(HORSES)) ** 2 for p in win.values()) / len(HORSES)
        figures = BoardFigures(slots, win, rolls, spread, per_scratch)
        self.seen[slots] = figures
        return figures

    def _race(self, field: tuple[tuple[int, int], ...]) -> tuple[list[float], float, float]:
        """The race of this field (each runner's dice ways of 36 and lane, sorted): each one's
        chance (in this order), the expected rolls and the mean square of the chances' distance
        from fair. Remembered: a board the search tries next differs from the last in a lane or
        two, so every scratched set that takes those horses out runs a race already worked out,
        and so does a set leaving the same field of other horses (a horse and its mirror)."""
        known = self.races.get(field)
        if known is None:
            if len(self.races) >= MAX_RACES_KEPT:
                self.races.clear()
            runners = _runners(field)
            odds = race_odds({h: lane + 1 for h, (_, lane) in zip(runners, field, strict=True)})
            wins = [odds.win[h] for h in runners]
            fair = 1 / len(field)
            square = sum((p - fair) ** 2 for p in wins) / len(field)
            known = self.races[field] = (wins, odds.expected_rolls, square)
        return known

    def score(self, slots: tuple[int, ...]) -> tuple[float, float]:
        """Lower is better; compared as a pair (only `short` uses the first part: how far
        the expected race runs over the bound)."""
        figures = self.figures(slots)
        if self.objective == "equal-per-scratch":
            return (0.0, figures.spread_per_scratch)
        over = 0.0
        if self.objective == "short" and self.max_rolls is not None:
            over = max(0.0, figures.expected_rolls - self.max_rolls)
        return (over, figures.spread)

    def measure(self, figures: BoardFigures) -> float:
        """The objective's figure, readable: the root of its mean square (a chance)."""
        square = figures.spread_per_scratch if self.objective == "equal-per-scratch" else None
        return math.sqrt(figures.spread if square is None else square)

    def within_bound(self, figures: BoardFigures) -> bool:
        return self.max_rolls is None or figures.expected_rolls <= self.max_rolls


def _runners(field: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Horses to race a field as: for each entry the lower-numbered horse with its dice ways
    not yet taken (h, then 14 - h), so a field is raced alike whichever horses make it up."""
    taken: set[int] = set()
    runners = []
    for ways, _ in field:
        horse = next(h for h in _BY_WAYS[ways] if h not in taken)
        taken.add(horse)
        runners.append(horse)
    return tuple(runners)


def neighbours(slots: tuple[int, ...], low: int, high: int) -> list[tuple[int, ...]]:
    """Every board with one lane one slot longer or shorter, within [low, high]: the boards
    the search's last descent (single moves) compares."""
    found = (moved(slots, move, low, high) for move in single_moves(len(slots)))
    return [board for board in found if board is not None]


def is_local_optimum(evaluator: Evaluator, slots: tuple[int, ...], low: int, high: int) -> bool:
    best = evaluator.score(slots)
    return all(evaluator.score(other) >= best for other in neighbours(slots, low, high))


def scaled(slots: Lanes, factor: float, low: int, high: int) -> Lanes:
    """The board's shape, every lane times `factor` (rounded, kept within [low, high])."""
    return tuple(min(high, max(low, round(n * factor))) for n in slots)


def symmetric(slots: Lanes) -> Lanes:
    """Each lane and its mirror (horses h and 14 - h: equal dice chances) at their mean,
    rounded up."""
    return tuple((n + m + 1) // 2 for n, m in zip(slots, reversed(slots), strict=True))


def _starts(evaluator: Evaluator, start: Lanes, low: int, high: int) -> list[Lanes]:
    """The start, made symmetric, and that shape scaled so its shortest lane has each length
    from `low` while its longest fits; with a bound, only those within it, and the shape
    scaled to the last board within the bound and the first over it (by bisection: a race
    only lasts longer as its lanes grow)."""
    shape = symmetric(start)
    shortest, longest = min(shape), max(shape)
    tiers = [s / shortest for s in range(low, high + 1) if longest * s / shortest <= high]
    found = [start, shape, *(scaled(shape, factor, low, high) for factor in tiers)]
    if evaluator.max_rolls is not None:
        found = [s for s in found if evaluator.within_bound(evaluator.figures(s))]
        within, over = low / longest, high / shortest  # all lanes low, all lanes high
        if not evaluator.within_bound(evaluator.figures(scaled(shape, over, low, high))):
            for _ in range(12):
                middle = (within + over) / 2
                if evaluator.within_bound(evaluator.figures(scaled(shape, middle, low, high))):
                    within = middle
                else:
                    over = middle
            found += [scaled(shape, within, low, high), scaled(shape, over, low, high)]
    return list(dict.fromkeys(found))


def shortest_race(evaluator: Evaluator, low: int) -> float:
    """The shortest expected race any board allows: every lane `low` slots (a race only lasts
    longer as a lane grows)."""
    return evaluator.figures((low,) * len(HORSES)).expected_rolls


def design(
    evaluator: Evaluator,
    start: tuple[int, ...],
    *,
    low: int = 1,
    high: int = MAX_SLOTS,
    progress: Callable[[BoardFigures], None] | None = None,
) -> BoardFigures:
    """The best board of the descents from several starts, made locally optimal (module doc)."""
    if not 1 <= low <= high <= MAX_SLOTS:
        raise ConfigError(
            f"--shortest {low} --longest {high}: lanes need 1 <= shortest <= longest"
            f" <= {MAX_SLOTS} slots"
        )
    start = tuple(min(high, max(low, n)) for n in start)  # into the bounds the user set
    if evaluator.max_rolls is not None and shortest_race(evaluator, low) > evaluator.max_rolls:
        raise ConfigError(
            f"--max-rolls {evaluator.max_rolls:g} cannot be met: the shortest race, every lane"
            f" {low} slot{'s' if low > 1 else ''}, lasts {shortest_race(evaluator, low):.2f}"
            " rolls on average"
        )

    def step(lanes: Lanes) -> None:
        if progress is not None:
            progress(evaluator.figures(lanes))

    mirrored, single = mirrored_moves(len(start)), single_moves(len(start))
    starts = _starts(evaluator, start, low, high)
    ends = [descend(evaluator.score, s, mirrored, low, high, step) for s in starts]
    ends.append(descend(evaluator.score, start, single, low, high, step))
    best = min(ends, key=evaluator.score)
    return evaluator.figures(descend(evaluator.score, best, single, low, high, step))
