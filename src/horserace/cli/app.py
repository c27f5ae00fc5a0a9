"""The `horserace` command: each subcommand lives in its own module and registers itself here."""

from __future__ import annotations

import typer

from horserace import __version__
from horserace.cli import (
    cards_cmd,
    derby_cmd,
    design_cmd,
    odds_cmd,
    play_cmd,
    race_cmd,
    replay_cmd,
    rules_cmd,
    serve_cmd,
    simulate_cmd,
    sweep_cmd,
)

app = typer.Typer(
    name="horserace",
    help="Pure-luck horse-race games: watch or play a race, see the exact odds, simulate, replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(show: bool) -> None:
    if show:
        typer.echo(f"horserace {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Pure-luck horse-race games: watch or play a race, see the exact odds, simulate, replay."""


play_app = typer.Typer(
    name="play",
    help="Play or watch a game: bots, seats at the keyboard, or the books of a real board.",
    no_args_is_help=True,
)
simulate_app = typer.Typer(
    name="simulate",
    help="Play many games between bots and report the figures with 95% confidence intervals.",
    no_args_is_help=True,
)
play_cmd.register(play_app)
simulate_cmd.register(simulate_app)
race_cmd.register(simulate_app)
derby_cmd.register(play_app, simulate_app)
cards_cmd.register(play_app, simulate_app, odds_cmd.odds_app)
app.add_typer(play_app)
app.add_typer(simulate_app)
for module in (odds_cmd, replay_cmd, rules_cmd, sweep_cmd, design_cmd):
    module.register(app)
serve_cmd.register(app)


def main() -> None:
    app()
