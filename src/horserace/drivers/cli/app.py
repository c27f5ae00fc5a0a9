"""The `horserace` command. Each subcommand is imported only when it runs (or its own --help is
asked for), so `horserace --help` and the light commands start without the engines, the server
or numpy: the list below carries what the top-level help prints."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import typer
from typer import _click as click  # typer carries its own click
from typer.core import TyperGroup

from horserace import __version__
from horserace.families import families
from horserace.terminal.commands import LazyGroup

HELP = "Pure-luck horse-race games: watch or play a race, see the exact odds, simulate, replay."
PLAY_HELP = "Play or watch a game: bots, seats at the keyboard, or the books of a real board."
SIMULATE_HELP = "Play many games between bots and report the figures with 95% confidence intervals."
DESIGN_HELP = "Design boards from the exact odds."
ODDS_HELP = "Exact odds: of the dice board when no subcommand is given; `odds cards` for the cards."


def _registered(register: Callable[[typer.Typer], None], name: str) -> click.Command:
    """The command `name` that `register(app)` adds to an app."""
    holder = typer.Typer(add_completion=False)
    register(holder)
    command = typer.main.get_command(holder)
    if isinstance(command, TyperGroup):
        found = command.get_command(click.Context(command), name)
        assert found is not None, f"nothing registers the command {name!r}"
        return found
    return command


def _module(name: str) -> Any:
    return importlib.import_module(f"horserace.drivers.cli.{name}")


def _group(
    name: str, help: str, fill: Callable[[typer.Typer], None], bare: bool = False
) -> click.Command:
    """A command group (`play`, `simulate`, `odds`, `design`) whose subcommands `fill` adds;
    `bare`: the group runs a command of its own when none is named, else it shows its help."""
    group = typer.Typer(name=name, help=help, no_args_is_help=not bare, add_completion=False)
    fill(group)
    return typer.main.get_command(group)


def _simulations(group: typer.Typer) -> None:
    _module("simulate_cmd").register(group)


def _odds(group: typer.Typer) -> None:
    """`odds FAMILY` for each family that has odds at the terminal; the first of them also runs
    when no family is named (the dice board's, so `horserace odds --scratched 5` works)."""
    commands = [(fam.name, fam.terminal().odds_command) for fam in families()]
    found = [(name, command) for name, command in commands if command is not None]
    for name, command in found:
        group.command(name)(command)
    if found:
        group.callback(invoke_without_command=True)(found[0][1])


def _no_default() -> None:
    """A group's own step before its subcommand: nothing."""


def _designs(group: typer.Typer) -> None:
    group.callback()(_no_default)  # a group even when one family designs: `design board`
    for fam in families():
        command = fam.terminal().design_command
        if command is not None:
            group.command(fam.name)(command)


def _single(module: str, name: str) -> Callable[[], click.Command]:
    return lambda: _registered(_module(module).register, name)


# name -> (the line `horserace --help` shows, how to build the command), in the help's order
COMMANDS: dict[str, tuple[str, Callable[[], click.Command]]] = {
    "play": (PLAY_HELP, lambda: _group("play", PLAY_HELP, _module("play").register)),
    "simulate": (SIMULATE_HELP, lambda: _group("simulate", SIMULATE_HELP, _simulations)),
    "odds": (ODDS_HELP, lambda: _group("odds", ODDS_HELP, _odds, bare=True)),
    "replay": (
        "Re-run a game record, check every event and the dice against the seed, then show"
        " the game.",
        _single("replay_cmd", "replay"),
    ),
    "rules": (
        "Print the rules of a preset as implemented, with every table option that changes them.",
        _single("rules_cmd", "rules"),
    ),
    "sweep": (
        "Simulate every point of a grid of table options and gather one table (CSV and JSON),"
        " on local processes or a Dask cluster.",
        _single("sweep_cmd", "sweep"),
    ),
    "design": (DESIGN_HELP, lambda: _group("design", DESIGN_HELP, _designs)),
    "serve": (
        "Serve the lobby and the tables: open http://HOST:PORT/ in a browser.",
        _single("serve_cmd", "serve"),
    ),
    "verify": (
        "Check a record the server published: its signature, its hash chain, the table and seed"
        " it names, its options, every action and event, every roll of the dice and the"
        " standings.",
        _single("serve_cmd", "verify"),
    ),
}


class Horserace(LazyGroup):
    lazy_commands = COMMANDS


app = typer.Typer(
    name="horserace",
    cls=Horserace,
    help=HELP,
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


def main() -> None:
    app()
