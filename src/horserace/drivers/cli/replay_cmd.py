"""`horserace replay`: re-run a record through the rules and say whether every step checks out;
then, on a terminal, play it back on the full-screen table (a pipe or --plain prints the game's
log lines instead)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from horserace.core.errors import HorseraceError
from horserace.core.record import GameRecord, read_record
from horserace.core.shown_odds import ShownOdds
from horserace.core.words import counted
from horserace.drivers.cli.common import check_screen, seat_names
from horserace.engine import Game, Step, replay
from horserace.families import family_of_preset
from horserace.families.presets import get_preset
from horserace.terminal.errors import user_errors
from horserace.terminal.screen import RESULT_PAUSE, TableScreen
from horserace.terminal.session import table_console
from horserace.terminal.table import TableSetup

TAMPERED = 1


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        record_file: Path = typer.Argument(..., help="A game record written by `play --record`."),
        events: bool = typer.Option(
            False,
            "--events",
            help="Print every public event as it replays.",
            show_default="off",
        ),
        plain: bool = typer.Option(
            False,
            "--plain",
            help="Print the game's log lines instead of the full screen.",
            show_default="off: the full screen on a terminal",
        ),
        check_only: bool = typer.Option(
            False,
            "--check",
            help="Only check the record: the verdict and the final standings, no play-back.",
            show_default="off",
        ),
        speed: float | None = typer.Option(
            None,
            "--speed",
            metavar="SECONDS",
            help="Seconds between steps on the screen.",
            show_default="the game's own pace, as play has it",
        ),
        theme: str = typer.Option(
            "auto",
            "--theme",
            metavar="THEME",
            help="The full screen's colours: auto, light or dark.",
        ),
    ) -> None:
        """Re-run a game record, check every event and the dice against the seed, then show
        the game.

        On a terminal the game plays back on the full-screen table (space pauses, . steps, g goes
        to a race), else its log lines are printed. Hidden cards stay hidden: the game is shown
        as an onlooker saw it.

        Exit code 0: the record is genuine; 1: it does not replay (the first bad step is named);
        2: the file cannot be read as a record, or an option is wrong.
        """
        console = Console(highlight=False)
        with user_errors():
            check_screen(speed, theme)
            record = read_record(record_file)
        names = _names(record)
        steps: list[Step] = []

        def print_public(step: Step) -> None:
            steps.append(step)
            if events:
                for event in step.events:
                    if event.visible_to(None):
                        console.print(event.describe(names), markup=False)

        report = replay(record, get_preset, observe=print_public)
        game = report.game
        if not report.ok:
            console.print(
                f"[bold red]record does not replay[/] after {report.steps_checked} steps:"
            )
            for problem in report.problems:
                console.print(f"  {problem}", markup=False)
            raise typer.Exit(TAMPERED)
        assert game is not None
        if not check_only and not events:
            show_game(record, steps, names, plain, speed, theme)
        seeded = record.chance == "seeded" and record.seed is not None
        console.print(
            f"[green]verified[/]: {counted(report.steps_checked, 'step')} of {record.preset},"
            " every event matches" + ("; every chance outcome matches the seed" if seeded else "")
        )
        if not game.over:
            console.print(f"the game stopped at step {report.steps_checked}")
            return
        result = game.rules.result(game.state)
        table = Table("place", "seat", "chips", title="Final standings")
        for standing in result.standings:
            table.add_row(str(standing.place), names[standing.seat], str(standing.chips))
        console.print(table)
        console.print(f"left in the pot: {result.unclaimed}")


def show_game(
    record: GameRecord,
    steps: Sequence[Step],
    names: list[str],
    plain: bool,
    speed: float | None,
    theme: str,
) -> None:
    """The checked game again: on the full screen, or its log lines printed."""
    fam = family_of_preset(record.preset)
    terminal = fam.terminal()
    preset = get_preset(record.preset)
    config = preset.rules.stored_config(record.config)
    setup = TableSetup(
        preset=record.preset,
        rules=preset.rules,
        config=config,
        seed=record.seed or 0,
        names=names,
        humans=frozenset(),
        bots=tuple("-" for _ in names),
        companion=False,
        speed=terminal.speed if speed is None else speed,
    )
    # a replay is watched: each race's result stays at the replay's pace, as the bots' did
    setup = replace(setup, auto_continue=setup.speed * RESULT_PAUSE)
    console, piped = table_console(terminal.width)
    on_screen = not (plain or piped)

    def new_game() -> Game:
        return Game(record.preset, preset.rules, config, record.seed, record.chance)

    def new_screen() -> TableScreen:
        return terminal.screen(setup, console, not on_screen, on_screen)

    if not on_screen:
        screen, game = new_screen(), new_game()
        screen.speed = 0.0
        screen.start(game)
        for step in steps:
            game.state = step.after
            screen.observe(step)
        return
    from horserace.families.texts import rules_markdown
    from horserace.terminal.tui.app import TableHelp
    from horserace.terminal.tui.replay import replay_app

    def odds_now() -> ShownOdds | None:
        shown = app.playback.game
        return None if shown is None else fam.shown_odds(preset.rules.view(shown.state, None))

    help = TableHelp(rules=rules_markdown(record.preset), odds=odds_now)
    app = replay_app(steps, new_screen, new_game, terminal.finish, help, theme)
    app.run()
    if app.error is not None:
        raise app.error


def _names(record: GameRecord) -> list[str]:
    """The names the table had (from the record's seating), else Player 1, Player 2, ..."""
    seats = _players(record.preset, record.config)
    given = (record.seating or {}).get("names")
    if isinstance(given, list) and len(given) == seats:
        return [str(name) for name in given]
    return seat_names(seats)


def _players(preset_name: str, config: dict[str, Any]) -> int:
    """Seat count for naming; 0 when the header is bad (replay then reports why)."""
    try:
        rules = get_preset(preset_name).rules
        return int(rules.players(rules.stored_config(config)))
    except HorseraceError:
        return 0
