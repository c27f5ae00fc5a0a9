"""Derby Challenge at the terminal: its own options (shared by `play` and `simulate`), the header,
the screen, the keyboard and typed-in dice, and the final standings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from horserace.core.chance import ChanceSource
from horserace.core.errors import ConfigError
from horserace.core.rules import Result
from horserace.core.words import counted
from horserace.engine import Agent
from horserace.families.derby.choices import DerbyAsker
from horserace.families.derby.render import standings_table
from horserace.families.derby.rules.track import DerbyTrack, load_track, packaged_track
from horserace.families.derby.screen import DEFAULT_SPEED, CompanionChance, DerbyScreen
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.options import Opt, declared
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup, TableTerminal

# Derby Challenge's own options (what `play` offers beside every table's).
derby_options = declared(
    Opt("--races N", int, 3, "Races to run."),
    Opt("--money N", int, 8, "Starting dollars."),
    Opt("--scratches 0|1|2", int, 0, "Horses scratched per race."),
    Opt("--all-horses", bool, False, "All 20 horses run; unowned ones for the house."),
    Opt("--track FILE|NAME", str | None, None, "A track file (TOML) or 'sprint'."),
)


def track_option(value: str | None) -> DerbyTrack | None:
    """A track file, or the name of a packaged track ('derby', 'sprint')."""
    if value is None:
        return None
    path = Path(value)
    if path.suffix == ".toml" or path.exists():
        return load_track(path)
    return packaged_track(value)


def table_options(players: int | None, given: Mapping[str, Any]) -> dict[str, Any]:
    if given["money"] is not None and given["money"] < 1:
        raise ConfigError(f"--money must be at least 1, not {given['money']}")
    options: dict[str, Any] = {
        "races": given["races"],
        "starting_money": given["money"],
        "scratches": given["scratches"],
        "all_horses": given["all_horses"],
    }
    if players is not None:
        options["players"] = players
    chosen = track_option(given["track"])
    if chosen is not None:
        options["track"] = chosen
    return options


class DerbyTerminal(TableTerminal):
    default_bots = "ev"
    speed = DEFAULT_SPEED
    companion = True
    screen_type = DerbyScreen
    options = staticmethod(derby_options)

    def table_options(
        self, preset: str, players: int | None, given: Mapping[str, Any]
    ) -> dict[str, Any]:
        return table_options(players, given)

    def header(self, setup: TableSetup) -> str:
        config = setup.config
        extras = [counted(config.scratches, "scratch", "scratches")] if config.scratches else []
        extras += ["house horses"] if config.all_horses else []
        return (
            f"derby: {config.players} players, {counted(config.races, 'race')},"
            f" ${config.starting_money} each, track {config.track.name}"
            + "".join(f", {e}" for e in extras)
        )

    def keyboard(self, seat: int, screen: TableScreen) -> Agent:
        return KeyboardAgent(seat, screen, DerbyAsker(screen))

    def companion_chance(self, screen: TableScreen) -> ChanceSource:
        return CompanionChance(screen)

    def finish(self, screen: TableScreen, result: Result) -> None:
        screen.show(standings_table(result, screen.names))
        screen.say(f"left in the pot (the bank's): ${result.unclaimed}")


TABLE_TERMINAL = DerbyTerminal()
