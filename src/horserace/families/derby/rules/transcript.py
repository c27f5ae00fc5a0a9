"""Play typed actions in order, whoever's turn it is: a transcript of a real table.

Seats' choices and dice alike are the short texts a person types (`silk 3`, `horse 7`,
`wager 2`, `odds 4`, `d20 12`, `mud shoe`, `accel 2`), so a whole race can be written down
and re-run: the scenario tests do exactly that.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.families.derby.rules.model import DerbyPhase, DerbyState
from horserace.families.derby.rules.race import with_positions
from horserace.families.derby.rules.rules import DerbyRules


def play_texts(
    rules: DerbyRules, state: DerbyState, texts: Iterable[str]
) -> tuple[DerbyState, list[Event]]:
    """Apply each text for whoever acts; the first illegal one raises (naming its index)."""
    events: list[Event] = []
    for text in texts:
        state, produced = rules.apply(state, rules.parse_action(state, text))
        events += produced
    return state, events


def setup_texts(horses: Sequence[int], odds: Sequence[int], wagers: Sequence[int]) -> list[str]:
    """Seat i takes silk i + 1 and `horses[i]`, rolls `odds[i]` and wagers `wagers[i]`
    (seats in seat order, as in the first race)."""
    texts: list[str] = []
    for seat, horse in enumerate(horses):
        texts += [f"silk {seat + 1}", f"horse {horse}"]
    texts += [f"odds {value}" for value in odds]
    texts += [f"wager {amount}" for amount in wagers]
    return texts


def place_horses(
    state: DerbyState, positions: dict[int, int], stuck: Iterable[int] = ()
) -> DerbyState:
    """A running race with horses moved to given spaces (and some stuck in the mud)."""
    if state.phase is not DerbyPhase.RACE or state.race is None:
        raise IllegalAction("horses can be placed only once the race has started")
    race = with_positions(state.race, positions, frozenset(stuck))
    return replace(state, race=race)
