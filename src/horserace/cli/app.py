"""The `horserace` command: each subcommand lives in its own module and registers itself here."""

from __future__ import annotations

import typer

from horserace import __version__
from horserace.cli import odds_cmd, play_cmd, replay_cmd, rules_cmd, simulate_cmd

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


for module in (play_cmd, odds_cmd, simulate_cmd, replay_cmd, rules_cmd):
    module.register(app)


def main() -> None:
    app()
