"""What a family gives `horserace simulate PRESET`: its own options, how a run of its games is
planned (chunks played into its tally, merged in index order) and how its figures are shown.
The drivers (`drivers/simulate/`, `drivers/cli/`) run every family's simulation the same way
and never name one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from horserace.core.chunks import Planned


@dataclass(frozen=True)
class Setup:
    """What a `simulate` command line asks of a family: the table's options, the run's own
    settings (bot kinds, engine, ...) given to `Simulation.plan`, and what only the command
    uses (a plot's file, the exact odds it prints)."""

    options: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


class Simulation(ABC):
    """A family's Monte Carlo: many seeded games between bots (or whatever `counts` names),
    tallied chunk by chunk."""

    counts = "games"  # what a run is made of: the `--games` option, the figures' word
    games_default: int | None = None  # None: `--games` must be given

    def offers_threads(self, preset: str) -> bool:
        """Whether a run of `preset` can split its chunks over threads of one process (a
        kernel's whole games): only then does its `simulate` command offer `--threads`."""
        return False

    def help(self, preset: str, summary: str) -> str:
        """The command's help line: the preset's summary unless the family says more."""
        return summary

    @abstractmethod
    def options(self) -> tuple[Callable[..., None], ...]:
        """Functions that only declare the family's own `simulate` options (their signatures
        are what the command offers besides --games, --seed, --workers and --json)."""

    @abstractmethod
    def setup(self, preset: str, given: Mapping[str, Any], *, quiet: bool) -> Setup:
        """The options given on the command line, checked (a ConfigError names the bad one)."""

    @abstractmethod
    def planner(self) -> Callable[..., Planned[Any]]:
        """`plan(preset, options, games, seed, workers, **settings)`: the run of `games` games
        seeded by `seed`, checked before anything is played (a ConfigError names what is
        wrong); the settings are those `setup` gives."""

    def plan(
        self,
        preset: str,
        options: Mapping[str, Any],
        games: int,
        seed: int,
        workers: int,
        **settings: Any,
    ) -> Planned[Any]:
        return self.planner()(preset, options, games, seed, workers, **settings)

    def to_json(self, report: Any, setup: Setup) -> dict[str, Any]:
        data: dict[str, Any] = report.to_json()
        return data

    @abstractmethod
    def show(self, console: Console, report: Any, setup: Setup, *, seed_given: bool) -> None:
        """The figures as tables at the terminal."""

    def after(self, report: Any, setup: Setup) -> None:
        """What the command does with the figures besides printing them: draws them into the
        file of `--plot`, when the family offers it (`setup.extra["plot"]`) and it was given."""
        path = setup.extra.get("plot")
        if path is not None:
            self.draw(report, setup, path)

    def draw(self, report: Any, setup: Setup, path: Path) -> None:
        """The figures as a picture; a family that offers `--plot` says how."""
        raise NotImplementedError(f"{type(self).__name__} draws no picture")
