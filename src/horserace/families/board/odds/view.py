"""Live win odds of the dice board game read from a seat's view: the public board is all they
need, so the terminal, the bots and the browser table share this one function."""

from __future__ import annotations

from functools import lru_cache

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.families.board.odds.race import race_odds, scratch_phase_odds
from horserace.families.board.rules.config import SCRATCH_LINES
from horserace.families.board.rules.state import Phase
from horserace.families.board.rules.view import BoardView


def scratch_rolls_done(view: BoardView) -> int:
    """Roll k always leaves a horse on line k (a repeat moves it there), so the highest line
    filled tells how many scratch rolls have counted."""
    return max((k + 1 for k, horse in enumerate(view.lines) if horse), default=0)


def winner_of(view: BoardView, positions: tuple[int, ...] | None = None) -> int | None:
    positions = view.positions if positions is None else positions
    for horse in HORSES:
        if positions[horse - 2] >= view.board.advances_to_finish(horse):
            return horse
    return None


@lru_cache(maxsize=8_192)  # a served race's board between two rolls, for thousands of tables
def _cached_odds(
    slots: tuple[int, ...],
    positions: tuple[int, ...],
    scratched: tuple[int, ...],
    rolls_left: int,
    reroll_repeats: bool,
) -> tuple[tuple[int, float], ...]:
    remaining = {h: slots[h - 2] + 1 - positions[h - 2] for h in HORSES if h not in scratched}
    if rolls_left:
        win = scratch_phase_odds(remaining, scratched, rolls_left, reroll_repeats=reroll_repeats)
    else:
        win = race_odds(remaining).win
    return tuple(sorted(win.items()))


def prepare_gate_odds() -> None:
    """The odds before the scratch rolls on the standard lanes, under each repeat rule: the
    dearest to work out (every set of scratched horses is raced) and asked for by every table
    at every round's start, so a server works them out before its first table."""
    gate = (0,) * len(HORSES)
    for reroll_repeats in (False, True):
        _cached_odds(DEFAULT_BOARD.slots, gate, (), SCRATCH_LINES, reroll_repeats)


def view_odds(view: BoardView, positions: tuple[int, ...] | None = None) -> dict[int, float]:
    """Each horse's chance to win the race of this round, from the view (optionally with the
    horses moved to `positions`): before and during the scratch phase the scratch rolls still
    to come are part of the chance; a decided race gives its winner 1."""
    positions = view.positions if positions is None else positions
    winner = winner_of(view, positions)
    if winner is not None:
        return {winner: 1.0}
    scratched = tuple(sorted(h for h in view.lines if h))
    # Under "reroll" and "chain" the scratch phase goes on until four horses are scratched, so
    # for the odds each roll left scratches a new horse, as a rerolled repeat does.
    reroll_repeats = view.config.repeat_scratch != "move"
    if view.phase is Phase.SCRATCH:
        done = len(scratched) if reroll_repeats else scratch_rolls_done(view)
        rolls_left = SCRATCH_LINES - done
    elif view.phase in (Phase.RACE, Phase.OVER):
        rolls_left = 0
    else:  # dealing, drafting, betting, drawing: the whole scratch phase is still to come
        rolls_left = SCRATCH_LINES
    slots = view.board.slots
    return dict(_cached_odds(slots, positions, scratched, rolls_left, reroll_repeats))
