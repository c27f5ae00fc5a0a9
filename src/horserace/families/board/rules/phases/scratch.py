"""The scratch phase: each roll puts a horse on a scratch line; holders of its cards discard
them and owe the line's value per card. What a repeat roll does is the table's rule: `move`
(Classic: the horse moves to the new line and its former holders pay again), `chain`
(Advanced: only the roller pays the horse's position) or `reroll` (Northwoods)."""

from __future__ import annotations

from dataclasses import dataclass

from horserace.components.cards import with_count
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.config import SCRATCH_LINES, BoardConfig
from horserace.families.board.rules.records import Penalty
from horserace.families.board.rules.seats import next_seat, seats_from
from horserace.families.board.rules.tx import Tx


def scratch_value(config: BoardConfig, line: int) -> int:
    return config.scratch_values[line - 1] * config.penalty_unit


@dataclass(frozen=True, slots=True)
class ScratchRoll:
    """What a scratch roll did, for the flow to decide what comes next."""

    debts: tuple[Penalty, ...]
    counted: bool  # False: a repeat that is rolled again by the same seat
    new_line: bool  # a horse went onto a line (a trading window may open)
    done: bool  # the scratch phase is over


def roll(tx: Tx, roller: int, horse: int) -> ScratchRoll:
    rule = tx.config.repeat_scratch
    earlier = tx.race.line_of(horse)
    if earlier and rule == "reroll":
        tx.emit(ev.RepeatRerolled(roller, horse))
        return ScratchRoll((), counted=False, new_line=False, done=False)
    if earlier and rule == "move":
        debts = _rescratch(tx, roller, horse, earlier, tx.race.scratch_rolls + 1)
    elif earlier:  # chain: only the roller pays the horse's position
        reason = f"rolled scratched horse {horse} on line {earlier}"
        debts = (Penalty(roller, scratch_value(tx.config, earlier), reason),)
    else:
        scratched = sum(1 for h in tx.race.lines if h)
        line = tx.race.scratch_rolls + 1 if rule == "move" else scratched + 1
        debts = _first_scratch(tx, roller, horse, line)
    rolls = tx.race.scratch_rolls + 1
    tx.race = tx.race._replace(scratch_rolls=rolls)
    scratched = sum(1 for h in tx.race.lines if h)
    done = rolls == SCRATCH_LINES if rule == "move" else scratched == SCRATCH_LINES
    return ScratchRoll(debts, counted=True, new_line=rule == "move" or not earlier, done=done)


def _first_scratch(tx: Tx, roller: int, horse: int, line: int) -> tuple[Penalty, ...]:
    """Every holder discards the horse's cards and owes the line's value per card."""
    tx.emit(ev.HorseScratched(horse, line, None))
    lines = list(tx.race.lines)
    lines[line - 1] = horse
    tx.race = tx.race._replace(lines=tuple(lines))
    debts: list[Penalty] = []
    value = scratch_value(tx.config, line)
    cards = tx.cards
    hands, given_up = list(cards.hands), list(cards.given_up)
    discarded = 0
    for seat in seats_from(tx.seats.out, roller):
        held = hands[seat][horse]
        if not held:
            continue
        hands[seat] = with_count(hands[seat], horse, -held)
        given_up[seat] = with_count(given_up[seat], horse, held)
        discarded += held
        tx.emit(ev.CardsDiscarded(seat, horse, held))
        debts.append(Penalty(seat, value * held, f"{held} × {horse} at scratch line {line}"))
    if discarded:
        discards = with_count(cards.discards, horse, discarded)
        tx.cards = cards._replace(hands=tuple(hands), given_up=tuple(given_up), discards=discards)
    return tuple(debts)


def _rescratch(tx: Tx, roller: int, horse: int, earlier: int, line: int) -> tuple[Penalty, ...]:
    """The horse moves down to the new line and its former holders pay that line again."""
    lines = list(tx.race.lines)
    lines[earlier - 1], lines[line - 1] = 0, horse
    tx.race = tx.race._replace(lines=tuple(lines))
    tx.emit(ev.HorseScratched(horse, line, earlier))
    value = scratch_value(tx.config, line)
    debts: list[Penalty] = []
    for seat in seats_from(tx.seats.out, roller):
        held = tx.cards.given_up[seat][horse]
        if held:
            reason = f"held {held} × {horse}, now on scratch line {line}"
            debts.append(Penalty(seat, value * held, reason))
    return tuple(debts)


def first_race_roller(tx: Tx, last_scratcher: int) -> int:
    out = tx.seats.out
    rule = tx.config.race_starts
    if rule == "after-last-scratch":
        return next_seat(out, last_scratcher)
    if rule == "last-scratcher":
        return last_scratcher
    return next_seat(out, tx.dealer)
