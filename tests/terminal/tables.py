"""Seeded tables for the full-screen tests: a preset's game with its bots (and people at the
seats asked for), the family's screen on a quiet console, and the app that plays it."""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console

from horserace.bots import bot_kinds_of
from horserace.cli.table import seat_agents
from horserace.core.chance import SeededChance
from horserace.engine import Game
from horserace.families import family_of_preset
from horserace.families.presets import get_preset
from horserace.families.texts import rules_markdown
from horserace.terminal.screen import TableScreen
from horserace.terminal.table import TableSetup
from horserace.terminal.tui.app import TableApp, TableHelp
from horserace.terminal.tui.run import table_app


def table(
    preset_name: str,
    seed: int = 7,
    humans: Iterable[int] = (),
    options: dict[str, object] | None = None,
    theme: str = "dark",
) -> tuple[TableApp, Game, TableScreen]:
    """The app playing `preset_name` at speed 0 with its default bots; `humans` are 0-based."""
    fam = family_of_preset(preset_name)
    terminal = fam.terminal()
    preset = get_preset(preset_name)
    config = terminal.config(preset_name, preset.defaults, preset.rules, options or {})
    seats = preset.rules.players(config)
    kinds = bot_kinds_of(terminal.default_bots, fam.name)
    setup = TableSetup(
        preset=preset_name,
        rules=preset.rules,
        config=config,
        seed=seed,
        names=[f"P{seat + 1}" for seat in range(seats)],
        humans=frozenset(humans),
        bots=tuple(kinds[seat % len(kinds)] for seat in range(seats)),
        companion=False,
        speed=0.0,
    )
    console = Console(file=io.StringIO(), width=80, height=24)
    screen = terminal.screen(setup, console, False, True)
    game = Game(preset_name, preset.rules, config, seed=seed, chance_mode="seeded")
    agents = seat_agents(fam.name, setup, lambda seat: terminal.keyboard(seat, screen))
    help = TableHelp(
        rules=rules_markdown(preset_name),
        odds=lambda: fam.live_odds(preset.rules.view(game.state, None)),
    )

    def finish(result: object) -> None:
        terminal.finish(screen, result)  # type: ignore[arg-type]

    app = table_app(game, agents, SeededChance(seed), screen, finish, help, theme)
    return app, game, screen
