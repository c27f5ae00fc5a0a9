"""`horserace replay`: re-run a record through the rules and say whether every step checks out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from horserace.cli.common import seat_names, user_errors
from horserace.core.errors import HorseraceError
from horserace.core.record import read_record
from horserace.engine import Step, replay
from horserace.families.presets import get_preset

TAMPERED = 1


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        record_file: Path = typer.Argument(..., help="A game record written by `play --record`."),
        events: bool = typer.Option(
            False, "--events", help="Print every public event as it replays."
        ),
    ) -> None:
        """Re-run a game record, check every event and the dice against the seed, print the result.

        Exit code 0: the record is genuine; 1: it does not replay (the first bad step is named);
        2: the file cannot be read as a record.
        """
        console = Console(highlight=False)
        with user_errors():
            record = read_record(record_file)
        names = seat_names(_players(record.preset, record.config))

        def print_public(step: Step) -> None:
            for event in step.events:
                if event.visible_to(None):
                    console.print(event.describe(names), markup=False)

        report = replay(record, get_preset, observe=print_public if events else None)
        game = report.game
        if not report.ok:
            console.print(
                f"[bold red]record does not replay[/] after {report.steps_checked} steps:"
            )
            for problem in report.problems:
                console.print(f"  {problem}", markup=False)
            raise typer.Exit(TAMPERED)
        assert game is not None
        seeded = record.chance == "seeded" and record.seed is not None
        console.print(
            f"[green]verified[/]: {report.steps_checked} steps of {record.preset},"
            " every event matches" + ("; every chance outcome matches the seed" if seeded else "")
        )
        if not game.over:
            console.print("the game in this record is not finished")
            return
        result = game.rules.result(game.state)
        table = Table("place", "seat", "chips", title="Final standings")
        for standing in result.standings:
            table.add_row(str(standing.place), names[standing.seat], str(standing.chips))
        console.print(table)
        console.print(f"left in the pot: {result.unclaimed}")


def _players(preset_name: str, config: dict[str, Any]) -> int:
    """Seat count for naming; 0 when the header is bad (replay then reports why)."""
    try:
        rules = get_preset(preset_name).rules
        return int(rules.players(rules.make_config(config)))
    except HorseraceError:
        return 0
