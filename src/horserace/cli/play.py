"""`horserace play PRESET`: one command for every preset of every family. Watch bots, play seats
at the keyboard, or keep the books of a real table (companion mode: the dice typed in).

The options every table shares are declared here; a family adds its own (its terminal's
`options`, a function whose parameters are those options) and draws the game with its own
screen. The game runs through the engine's one play loop (cli/table.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from horserace.bots import bot_kinds_of
from horserace.cli.common import check_play_options, seat_names, user_errors, with_options
from horserace.cli.table import run_table, seat_agents, table_console
from horserace.core.chance import ChanceSource, SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import fresh_seed
from horserace.engine import Game
from horserace.families import family_of_preset, preset_specs
from horserace.families.presets import get_preset
from horserace.terminal.table import TableSetup


def common_options(
    players: Annotated[
        int | None, typer.Option("--players", metavar="N", help="Seats at the table.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Table seed; a fresh one is drawn and printed."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", metavar="KINDS", help="Bot kinds by seat, cycling, e.g. ev,random."),
    ] = None,
    speed: Annotated[
        float | None,
        typer.Option("--speed", metavar="SECONDS", help="Seconds between steps; 0 = no pause."),
    ] = None,
    no_animation: Annotated[
        bool, typer.Option("--no-animation", help="Print lines and a board now and then instead.")
    ] = False,
    record: Annotated[
        Path | None,
        typer.Option("--record", metavar="FILE", help="Write the game record to this file."),
    ] = None,
    human: Annotated[
        list[int] | None,
        typer.Option(
            "--human", metavar="SEAT", help="Seat (1-based) played at the keyboard; repeatable."
        ),
    ] = None,
    companion: Annotated[
        bool,
        typer.Option("--companion", help="Keep the books of a real table: type the dice in."),
    ] = False,
    names: Annotated[
        str | None,
        typer.Option("--names", metavar="NAMES", help='Comma-separated names, e.g. "Ann,Bob".'),
    ] = None,
) -> None:
    """The options of every table (the signature is what `play` offers for every preset)."""


def register(play_app: typer.Typer) -> None:
    """`horserace play NAME` for every preset the families register."""
    for name, (fam, spec) in preset_specs().items():

        def run(common: dict[str, Any], own: dict[str, Any], preset: str = name) -> None:
            play_preset(preset, common, own)

        command = with_options(run, common_options, fam.terminal().options)
        command.__doc__ = spec.summary
        play_app.command(name, help=spec.summary)(command)


def play_preset(preset_name: str, common: dict[str, Any], own: dict[str, Any]) -> None:
    """Check the options, then play the table to its end (or Ctrl-C)."""
    fam = family_of_preset(preset_name)
    terminal = fam.terminal()
    preset = get_preset(preset_name)
    with user_errors():
        options = terminal.table_options(preset_name, common["players"], own)
        config = terminal.config(preset_name, preset.defaults, preset.rules, options)
        seats = preset.rules.players(config)
        speed = terminal.speed if common["speed"] is None else common["speed"]
        check_play_options(seats, common["human"], common["seed"], speed, common["record"])
        if common["companion"] and not terminal.companion:
            raise ConfigError(
                f"{preset_name} has no companion mode: its cards cannot be typed in yet"
            )
        kinds = bot_kinds_of(common["bots"] or terminal.default_bots, fam.name)
    seed = fresh_seed() if common["seed"] is None else common["seed"]
    setup = TableSetup(
        preset=preset_name,
        rules=preset.rules,
        config=config,
        seed=seed,
        names=seat_names(seats, common["names"]),
        humans=frozenset(seat - 1 for seat in common["human"] or []),
        bots=tuple(kinds[seat % len(kinds)] for seat in range(seats)),
        companion=common["companion"],
        speed=speed,
    )
    console, plain = table_console(terminal.width)
    animated = not (plain or common["no_animation"] or setup.companion)
    screen = terminal.screen(setup, console, plain, animated)
    mode = "typed" if setup.companion else "seeded"
    game = Game(preset_name, preset.rules, config, seed=seed, chance_mode=mode)
    agents = seat_agents(fam.name, setup, lambda seat: terminal.keyboard(seat, screen))
    chance: ChanceSource = (
        terminal.companion_chance(screen) if setup.companion else SeededChance(seed)
    )
    console.print(Text(terminal.header(setup), style="bold"), soft_wrap=True)
    if not setup.companion:
        console.print(f"seed {seed} (re-run with --seed {seed})", soft_wrap=True)
    code = run_table(
        game,
        agents,
        chance,
        screen,
        common["record"],
        lambda result: terminal.finish(screen, result),
    )
    if code:
        raise typer.Exit(code)
