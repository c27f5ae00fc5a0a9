"""Where chance outcomes come from: a seeded generator, a script, or a person at a real board."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from horserace.core.actions import Action
from horserace.core.errors import HorseraceError, IllegalAction, InvalidAction
from horserace.core.rules import Rules


class ChanceSource(Protocol):
    """Picks the next chance action for `state`."""

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action: ...


def sample_weighted(
    rng: random.Random, outcomes: Sequence[Action], weights: Sequence[int]
) -> Action:
    """Exact integer sampling: P(outcome i) = weights[i] / sum(weights), no float rounding."""
    return outcome_at(rng.randrange(sum(weights)), outcomes, weights)


def outcome_at(pick: int, outcomes: Sequence[Action], weights: Sequence[int]) -> Action:
    """The outcome whose share of 0..sum(weights)-1 holds `pick` (outcome i has weights[i])."""
    for outcome, weight in zip(outcomes, weights, strict=True):
        if pick < weight:
            return outcome
        pick -= weight
    raise AssertionError("unreachable: pick < total")


class SeededChance:
    """Outcomes drawn from an explicit generator built from the table's seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        forced = rules.forced_chance(state)
        if forced is not None:
            return forced
        table = rules.chance_table(state)
        if table is not None:
            return table[self._rng.randrange(len(table))]
        outcomes, weights = rules.chance_weights(state)
        return sample_weighted(self._rng, outcomes, weights)


def lookup_table(outcomes: Sequence[Action], weights: Sequence[int]) -> tuple[Action, ...]:
    """Outcome i repeated weights[i] times, in order: table[pick] is what sample_weighted
    picks for the same number, without walking the weights."""
    return tuple(
        outcome for outcome, weight in zip(outcomes, weights, strict=True) for _ in range(weight)
    )


class ScriptExhausted(HorseraceError):
    """A scripted game asked for more chance outcomes than the script holds."""


class ScriptedChance:
    """Outcomes given in advance as text ("3+4", "deal 7"); each must be possible when used."""

    def __init__(self, script: Iterable[str]) -> None:
        self._script = list(script)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._script) - self._next

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        forced = rules.forced_chance(state)
        if forced is not None:
            return forced
        if self._next >= len(self._script):
            raise ScriptExhausted(f"the script ran out after {len(self._script)} outcomes")
        text = self._script[self._next]
        self._next += 1
        action = rules.parse_action(state, text)
        rules.verify(state, action)
        return action


class UndoRequested(Exception):
    """The person typing the outcomes asked to withdraw the last one (`Game.undo` does it), or
    the last `entries` of them at once, which were typed as one line (`what`: a whole hand)."""

    def __init__(self, entries: int = 1, what: str | None = None) -> None:
        super().__init__(what or "the last entry")
        self.entries = entries
        self.what = what


UNDO_WORD = "undo"


def refusal(error: Exception) -> str:
    """The line said when a typed outcome is refused: one style for every such line."""
    return f"not accepted: {error}"


class TypedChance:
    """Companion mode: a person reads the real dice (or card) and types it; retried until legal.
    Typing `undo` withdraws the last outcome typed (the driver catches UndoRequested)."""

    def __init__(self, ask: Callable[[str], str], tell: Callable[[str], None]) -> None:
        self._ask = ask
        self._tell = tell

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        forced = rules.forced_chance(state)
        if forced is not None:
            return forced
        outcomes, _ = rules.chance_weights(state)
        example = f"e.g. {outcomes[0].text}" if outcomes else ""
        if rules.reads_only_sum(state):
            example = "the sum like 7, or the dice like 3+4"
        while True:
            text = self._ask(f"what came up? ({example}, or {UNDO_WORD})")
            if text.strip().lower() == UNDO_WORD:
                raise UndoRequested
            try:
                action = rules.parse_action(state, text)
                rules.verify(state, action)
            except (InvalidAction, IllegalAction) as error:
                self._tell(refusal(error))
                continue
            return action
