"""What a family tells `horserace play` so that one command serves every preset: its own
options, the table options they make, the header line, its screen, the question put to a person,
typed-in chance (companion mode) and the final standings."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Console

from horserace.core.errors import ConfigError

if TYPE_CHECKING:
    from horserace.core.chance import ChanceSource
    from horserace.core.rules import Result, Rules
    from horserace.engine import Agent
    from horserace.terminal.screen import TableScreen


@dataclass(frozen=True)
class TableSetup:
    """Everything the options decide, checked before the game starts."""

    preset: str
    rules: Rules[Any, Any]
    config: Any
    seed: int
    names: list[str]
    humans: frozenset[int]
    bots: tuple[str, ...]  # one kind per seat (a person's seat keeps its bot for the header)
    companion: bool
    speed: float
    auto_continue: float | None = None  # seconds a race's result stays at a table of bots only
    # (None: until Enter)

    @property
    def viewer(self) -> int | None:
        """Whose cards the screen shows: the first person at the keyboard, else nobody's."""
        return min(self.humans) if self.humans else None


class TableTerminal(ABC):
    """A family at the terminal. `options` is a function whose parameters (typer options) are the
    family's own `play` options; `table_options` turns what the user gave into table options."""

    default_bots: str
    speed: float  # the default seconds between steps on a live screen
    width: int = 80  # columns of the plain (piped) output
    companion: bool = False  # whether chance can be typed in from a real table

    options: Callable[..., None]
    odds_command: Callable[..., None] | None = (
        None  # `horserace odds FAMILY`, if the family has one
    )
    design_command: Callable[..., None] | None = None  # `horserace design FAMILY`, if any

    @abstractmethod
    def table_options(
        self, preset: str, players: int | None, given: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The table options over the preset's defaults (a ConfigError names a bad one)."""

    @abstractmethod
    def header(self, setup: TableSetup) -> str:
        """The first line printed: what is being played."""

    screen_type: type[TableScreen]

    def hides_hands(self, config: Any) -> bool:
        """Whether a seat holds cards the others may not see at this table."""
        return False

    def screen(
        self, setup: TableSetup, console: Console, plain: bool, animated: bool
    ) -> TableScreen:
        """The family's screen: printed lines (`animated` False) or a live board. People who
        share the keyboard at a table of hidden hands see no hand between their turns."""
        shared = len(setup.humans) > 1 and self.hides_hands(setup.config)
        return self.screen_type(
            console=console,
            rules=setup.rules,
            names=setup.names,
            humans=setup.humans,
            plain=plain,
            viewer=None if shared else setup.viewer,
            animated=animated,
            speed=setup.speed,
            auto_continue=setup.auto_continue,
            width=self.width,
            title=setup.preset,
            shared_keyboard=shared,
        )

    @abstractmethod
    def keyboard(self, seat: int, screen: TableScreen) -> Agent:
        """The agent that asks the person at `seat`."""

    def companion_chance(self, screen: TableScreen) -> ChanceSource:
        raise ConfigError("this game has no companion mode: its chance cannot be typed in yet")

    @abstractmethod
    def finish(self, screen: TableScreen, result: Result) -> None:
        """The final standings and what is left in the pots."""
