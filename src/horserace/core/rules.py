"""The contract every rule family honours; drivers (engine, CLI, bots, server) speak only this."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.options import plain_options
from horserace.core.types import TERMINAL, Actor


class TableConfig(Protocol):
    """What every family's config says: how many seats the table has."""

    @property
    def players(self) -> int: ...


ConfigT = TypeVar("ConfigT", bound=TableConfig)


class TableState(Protocol):
    """What every family's state holds: the one ledger of every chip."""

    @property
    def ledger(self) -> Ledger: ...


StateT = TypeVar("StateT", bound=TableState)


@dataclass(frozen=True)
class Standing:
    """One seat's final place: most chips first, equal chips share a place (a family may rank
    seats that went out of the game below the rest: `out` is the round they went out in)."""

    seat: int
    chips: int
    place: int
    out: int | None = None  # the round the seat went out in, None if it never did


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    unclaimed: int  # chips left in pots, reported, not awarded


class Rules(ABC, Generic[ConfigT, StateT]):
    """One rule family. `apply` is pure: it never mutates its input."""

    family: str = "game"

    # --- configuration -------------------------------------------------
    @abstractmethod
    def make_config(self, options: Mapping[str, Any]) -> ConfigT:
        """Validate table options (a ConfigError names the first bad one)."""

    def stored_config(self, stored: Mapping[str, Any]) -> ConfigT:
        """The config of a game already written down (a record, a server's table row): an
        option added since it was written keeps the reading the game was played under."""
        return self.make_config({**self.options_added_later, **stored})

    options_added_later: Mapping[str, Any] = {}

    def config_to_dict(self, config: ConfigT) -> dict[str, Any]:
        """Plain data that `make_config` turns back into the same config."""
        return plain_options(config)

    def players(self, config: ConfigT) -> int:
        return config.players

    # --- the game tree ---------------------------------------------------
    @abstractmethod
    def initial_state(self, config: ConfigT) -> StateT: ...

    @abstractmethod
    def actor(self, state: StateT) -> Actor: ...

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> Sequence[Action]: ...

    @abstractmethod
    def chance_weights(self, state: StateT) -> tuple[Sequence[Action], Sequence[int]]:
        """Every chance outcome with a positive whole weight; P(outcome) = weight / sum."""

    def forced_chance(self, state: StateT) -> Action | None:
        """A chance step with one sure outcome (paying a round out), which every chance source
        plays without asking or drawing; None when chance really chooses."""
        return None

    def reads_only_sum(self, state: StateT) -> bool:
        """Whether the dice rolled at `state` (a roll called for, or chance rolling it) count
        by their sum alone: a person keeping the books of a real board then gives the sum (one
        tap, or `7`) instead of each die. Every driver asks this one question."""
        return False

    def hands_to_deal(self, state: StateT) -> list[tuple[int | None, int]]:
        """While chance deals cards one at a time: each hand still to get cards before the
        deal under way ends, in the order the deal next reaches it, with how many it gets
        (seat None: a hand of no seat's, such as a market); empty otherwise. A person keeping
        the books of a real board types a hand at once from it."""
        return []

    def chance_table(self, state: StateT) -> Sequence[Action] | None:
        """For a fixed distribution (the dice), every outcome repeated by its weight, in the
        order of chance_weights, so a seeded draw is one lookup; None to draw by weights."""
        return None

    def chance_outcomes(self, state: StateT) -> list[tuple[Action, Fraction]]:
        """Every chance outcome with its exact probability (they sum to exactly 1)."""
        outcomes, weights = self.chance_weights(state)
        total = sum(weights)
        return [(o, Fraction(w, total)) for o, w in zip(outcomes, weights, strict=True)]

    @abstractmethod
    def verify(self, state: StateT, action: Action) -> None:
        """Raise IllegalAction, with a reason a person can read, unless `action` is allowed now."""

    def refuse_out_of_turn(self, state: StateT, seat: int) -> None:
        """Raise IllegalAction naming the rule when one (not the turn order alone) keeps `seat`
        from acting now: a seat that left an auction's bidding, say. Nothing by default."""

    def can(self, state: StateT, action: Action) -> bool:
        try:
            self.verify(state, action)
        except IllegalAction:
            return False
        return True

    @abstractmethod
    def apply(self, state: StateT, action: Action) -> tuple[StateT, tuple[Event, ...]]:
        """Verify, then return the next state and the events it produced."""

    @abstractmethod
    def parse_action(self, state: StateT, text: str) -> Action:
        """The action whose text form is `text`, for whoever moves now (InvalidAction if none)."""

    # --- what leaves the core -----------------------------------------------
    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> Any:
        """What `seat` may know (None = a spectator); deny by default."""

    def ledger(self, state: StateT) -> Ledger:
        return state.ledger

    def result(self, state: StateT) -> Result:
        """Final standings; only for a terminal state (IllegalAction before the end)."""
        if self.actor(state) is not TERMINAL:
            raise IllegalAction("the game is not over yet")
        return self.standings(state)

    @abstractmethod
    def standings(self, state: StateT) -> Result:
        """The final standings of a finished game."""


def rank_standings(chips: Sequence[int], unclaimed: int) -> Result:
    """Most chips first; equal chips share the place (and a shared top is a shared win)."""
    order = sorted(range(len(chips)), key=lambda seat: (-chips[seat], seat))
    standings: list[Standing] = []
    for index, seat in enumerate(order):
        place = index + 1
        if index and chips[seat] == chips[order[index - 1]]:
            place = standings[-1].place
        standings.append(Standing(seat=seat, chips=chips[seat], place=place))
    winners = tuple(s.seat for s in standings if s.place == 1)
    return Result(standings=tuple(standings), winners=winners, unclaimed=unclaimed)
