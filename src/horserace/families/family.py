"""What a game family tells the drivers. The CLI, the server, the bots' factory and the rules
registry ask a `Family` and never name one: adding a family is one package that defines its
`FAMILY` and one line in `horserace.families.FAMILY_PACKAGES`.

A family's package must stay cheap to import (the command line lists every preset at start-up),
so everything heavy (its rules, bots and odds) is imported inside the method that needs it.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from horserace.core.rules import Rules
    from horserace.core.shown_odds import ShownOdds
    from horserace.engine import Agent, Step
    from horserace.families.simulation import Simulation
    from horserace.terminal.table import TableTerminal

_PARTS: dict[str, ModuleType | None] = {}  # "package.module" -> the module, None if there is none


@dataclass(frozen=True)
class PresetSpec:
    """A named preset as the family registers it: what `horserace play NAME` plays."""

    name: str
    summary: str
    title: str = ""  # what a newcomer calls the game ("Horse Race (cards)"); the name if blank


@dataclass(frozen=True)
class HouseRules:
    """What a lobby's form offers: the rules one by one, and the combinations allowed."""

    rules: tuple[dict[str, Any], ...]
    combinations: tuple[tuple[str, ...], ...]


class Family(ABC):
    """One rule family: its presets, its bots, its live odds, its rules."""

    name: str
    presets: tuple[PresetSpec, ...]
    bot_kinds: tuple[str, ...]
    standin_bot: str  # plays for a person who has left a table, until they come back
    money: str = "chips"  # what a table's money is called where a preset does not say
    # a race drawn at a pace people follow: seconds a table at the natural pace waits after
    # a chance step with an event of each kind (a card turned, a die of a race's turn)
    race_beats: Mapping[str, float] = MappingProxyType({})

    def house_rules(self, defaults: Mapping[str, Any], check: Any) -> HouseRules:
        """The house rules a table of a preset (its `defaults`, its config maker `check`) may
        add, each with its title, summary and options, and every combination `check` accepts;
        none unless the family has house rules."""
        return HouseRules((), ())

    def table_options(
        self, defaults: Mapping[str, Any], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A table's options as asked for, with what the family's house rules bring in (or a
        ConfigError naming the option a house rule refuses); as asked unless it has any."""
        return dict(options)

    @abstractmethod
    def rules(self) -> Rules[Any, Any]:
        """The family's rules (one object serves every preset of the family)."""

    def defaults(self, preset: str) -> Mapping[str, Any]:
        """The preset's table options over the family's own defaults."""
        return {}

    @abstractmethod
    def new_bot(self, kind: str, rng: random.Random) -> Agent:
        """A bot of `kind` (one of `bot_kinds`) drawing from `rng`."""

    def terminal(self) -> TableTerminal:
        """How the family plays at a terminal (its options, screen and keyboard): the
        `TABLE_TERMINAL` of its module `terminal`."""
        found: TableTerminal = self._required("terminal").TABLE_TERMINAL
        return found

    def live_odds(self, view: Any) -> Mapping[str, float] | None:
        """Each horse's chance to win as far as `view` shows it (public information only),
        by the horse's name as the view prints it; None when the family cannot say cheaply."""
        return None

    def shown_odds(self, view: Any) -> ShownOdds | None:
        """`live_odds` with the digits each chance may print with: a family whose odds are
        estimates says which are not sure to a tenth; exact odds print every one to a tenth."""
        from horserace.core.shown_odds import ShownOdds

        odds = self.live_odds(view)
        return None if odds is None else ShownOdds.exact(odds)

    def news(self, step: Step, names: Sequence[str], seat: int | None) -> list[str]:
        """The log lines of one step as `seat` may see it (None: a spectator): the same words
        on the terminal, the web table and a replay (the family's `news.table_news`). A family
        without its own news module says each event in its own sentence."""
        from horserace.core.events import redact

        news = self._part("news")
        if news is not None:
            return [line.text for line in news.table_news(step, names, seat)]
        return [event.describe(names) for event in redact(step.events, seat)]

    def prepare_odds(self) -> None:
        """Make `live_odds` ready to answer at once (compile or load what it runs), so that a
        server does not stall on a table's first odds; a family with nothing to prepare does
        nothing."""
        return None

    def simulation(self) -> Simulation | None:
        """How `horserace simulate PRESET` plays the family's presets (its options, tally and
        figures): the `SIMULATION` of its module `simulation`; None when it has none."""
        module = self._part("simulation")
        found: Simulation | None = None if module is None else module.SIMULATION
        return found

    def other_simulations(self) -> Mapping[str, Simulation]:
        """Simulations of something other than a preset's games, by the name `horserace
        simulate NAME` gives them (the board's `race`: races alone): the `OTHER_SIMULATIONS`
        of its module `simulation`; none when it lists none."""
        module = self._part("simulation")
        found: Mapping[str, Simulation] = getattr(module, "OTHER_SIMULATIONS", {})
        return found

    def _part(self, name: str) -> ModuleType | None:
        """The family package's module `name`, imported when first asked for; None if the
        family has no such module. By this convention a family registers its parts."""
        package = type(self).__module__.rpartition(".")[0]
        where = f"{package}.{name}"
        if where not in _PARTS:  # looked up once: a server asks for a part at every step
            found = importlib.util.find_spec(where) is not None
            _PARTS[where] = importlib.import_module(where) if found else None
        return _PARTS[where]

    def _required(self, name: str) -> ModuleType:
        module = self._part(name)
        assert module is not None, f"the {self.name} family has no module {name!r}"
        return module
