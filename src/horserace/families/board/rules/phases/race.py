"""The race: each roll's sum moves a running horse one slot, a scratched horse costs the roller
its line value, a chip under a horse (Husted) stops it once. Robertson: four dice, paired by
the roller. The race is won the moment a horse enters its finish slot."""

from __future__ import annotations

from horserace.components.dice import FourDice
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import Pair
from horserace.families.board.rules.phases.scratch import scratch_value
from horserace.families.board.rules.records import Pairing, Penalty
from horserace.families.board.rules.state import BoardState, Race
from horserace.families.board.rules.tx import Tx


def count_roll(tx: Tx) -> None:
    """A race roll that is resolved later (paired, answered, blocked) is counted now."""
    tx.race = tx.race._replace(race_rolls=tx.race.race_rolls + 1)


def pair_legal(record: Pairing) -> tuple[Pair, ...]:
    pairs = FourDice(record.dice).pairings()  # type: ignore[arg-type]
    ordered = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
    return tuple(Pair(a, b) for a, b in sorted(ordered))


def resolve_sum(tx: Tx, horse: int, seat: int) -> Penalty | None:
    """One sum for `seat`: the penalty it owes, if the horse is scratched."""
    line = tx.race.line_of(horse)
    if line:
        reason = f"rolled scratched horse {horse} on line {line}"
        return Penalty(seat, scratch_value(tx.config, line), reason)
    blocks = tx.race.blocks
    if blocks[horse - 2]:  # Husted: a chip under the horse stops this roll
        left = blocks[horse - 2] - 1
        tx.race = tx.race._replace(blocks=(*blocks[: horse - 2], left, *blocks[horse - 1 :]))
        tx.emit(hev.HorseBlocked(horse, left))
        return None
    move_horse(tx, horse, 1, seat)
    return None


def move_horse(tx: Tx, horse: int, step: int, seat: int, counts_roll: bool = False) -> None:
    """Move a horse a slot forward or back, with its event; entering the finish wins.
    `counts_roll`: this move is a race roll's own, which is counted in the same update."""
    race = tx.race
    position = race.positions[horse - 2] + step
    finish = tx.config.board.advances_to_finish(horse)
    positions = (*race.positions[: horse - 2], position, *race.positions[horse - 1 :])
    won = step > 0 and position >= finish
    rolls = race.race_rolls + 1 if counts_roll else race.race_rolls
    tx.race = Race(
        race.lines,
        positions,
        race.blocks,
        race.scratch_rolls,
        rolls,
        horse if won else race.winner,
        seat if won else race.mover,
    )
    if step < 0:
        tx.emit(ev.HorseWentBack(horse, position))
        return
    tx.emit(ev.HorseAdvanced(horse, position, finish))
    if won:
        tx.emit(ev.RaceWon(horse, rolls, seat))


def running(state: BoardState) -> list[int]:
    return [horse for horse in range(2, 13) if not state.race.line_of(horse)]
