"""The `horserace` command. Each subcommand is imported only when it runs (or its own --help is
asked for), so `horserace --help` and the light commands start without the engines, the server
or numpy: the list below carries what the top-level help prints."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer
from typer import _click as click  # typer carries its own click
from typer.core import TyperCommand, TyperGroup

from horserace import __version__
from horserace.core.errors import HorseraceError
from horserace.families import families
from horserace.terminal.errors import INTERRUPTED, USAGE_ERROR, say_error

HELP = "Pure-luck horse-race games: watch or play a race, see the exact odds, simulate, replay."
PLAY_HELP = "Play or watch a game: bots, seats at the keyboard, or the books of a real board."
SIMULATE_HELP = "Play many games between bots and report the figures with 95% confidence intervals."
DESIGN_HELP = "Design boards from the exact odds."
ODDS_HELP = "Exact odds: of the dice board when no subcommand is given; `odds cards` for the cards."


def _registered(register: Callable[[typer.Typer], None], name: str) -> click.Command:
    """The command `name` that `register(app)` adds to an app."""
    holder = typer.Typer()
    register(holder)
    command = typer.main.get_command(holder)
    if isinstance(command, TyperGroup):
        found = command.get_command(click.Context(command), name)
        assert found is not None, f"nothing registers the command {name!r}"
        return found
    return command


def _module(name: str) -> Any:
    return importlib.import_module(f"horserace.cli.{name}")


def _play() -> click.Command:
    group = typer.Typer(name="play", help=PLAY_HELP, no_args_is_help=True, add_completion=False)
    _module("play").register(group)
    return typer.main.get_command(group)


def _simulate() -> click.Command:
    group = typer.Typer(
        name="simulate", help=SIMULATE_HELP, no_args_is_help=True, add_completion=False
    )
    _module("simulate_cmd").register(group)
    _module("race_cmd").register(group)
    return typer.main.get_command(group)


def _odds() -> click.Command:
    """`odds FAMILY` for each family that has odds at the terminal; the first of them also runs
    when no family is named (the dice board's, so `horserace odds --scratched 5` works)."""
    group = typer.Typer(name="odds", help=ODDS_HELP, add_completion=False)
    commands = [(fam.name, fam.terminal().odds_command) for fam in families()]
    found = [(name, command) for name, command in commands if command is not None]
    for name, command in found:
        group.command(name)(command)
    if found:
        group.callback(invoke_without_command=True)(found[0][1])
    return typer.main.get_command(group)


def _no_default() -> None:
    """A group's own step before its subcommand: nothing."""


def _design() -> click.Command:
    group = typer.Typer(name="design", help=DESIGN_HELP, no_args_is_help=True, add_completion=False)
    group.callback()(_no_default)  # a group even when one family designs: `design board`
    for fam in families():
        command = fam.terminal().design_command
        if command is not None:
            group.command(fam.name)(command)
    return typer.main.get_command(group)


def _single(module: str, name: str) -> Callable[[], click.Command]:
    return lambda: _registered(_module(module).register, name)


# name -> (the line `horserace --help` shows, how to build the command), in the help's order
COMMANDS: dict[str, tuple[str, Callable[[], click.Command]]] = {
    "play": (PLAY_HELP, _play),
    "simulate": (SIMULATE_HELP, _simulate),
    "odds": (ODDS_HELP, _odds),
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
    "design": (DESIGN_HELP, _design),
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


class LazyGroup(TyperGroup):
    """Builds a subcommand the first time it is asked for; while the top-level help is being
    written it hands out stand-ins that carry only the help line."""

    _listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        help_line, build = entry
        if self._listing:
            return TyperCommand(cmd_name, help=help_line, short_help=help_line)
        built: dict[str, click.Command] = self.__dict__.setdefault("_built", {})
        if cmd_name not in built:
            built[cmd_name] = build()
        return built[cmd_name]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx: click.Context) -> Any:
        """Ctrl-C that no command handles itself (a game and a simulation do) ends the
        command with one line instead of silence."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _say_interrupted()
            raise typer.Exit(INTERRUPTED) from None

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Every mistake on the command line ends the same way: one line `error: ...` on
        stderr and exit code 2, click's own usage errors included, never a traceback."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:  # the help is already printed
            sys.exit(error.exit_code)
        except click.exceptions.UsageError as error:
            hint = f"; see: {error.ctx.command_path} --help" if error.ctx is not None else ""
            say_error(_sentence(error.format_message()) + hint)
            sys.exit(USAGE_ERROR)
        except click.ClickException as error:
            say_error(_sentence(error.format_message()))
            sys.exit(error.exit_code)
        except typer.Abort:  # Ctrl-C or the input closed at a prompt
            _say_interrupted()
            sys.exit(INTERRUPTED)
        except HorseraceError as error:  # a check a command should have made before running
            say_error(str(error))
            sys.exit(USAGE_ERROR)
        sys.exit(code if isinstance(code, int) else 0)


def _say_interrupted() -> None:
    """Not a mistake, so not `error:`: one line, as a stopped game or simulation says it."""
    typer.echo("interrupted", err=True)


def _sentence(message: str) -> str:
    """click's 'No such option: --x.' in the project's style: 'no such option: --x'."""
    message = " ".join(message.split()).rstrip(".")
    message = re.sub(r"(: )([A-Z])(?=[a-z])", lambda found: found[1] + found[2].lower(), message)
    return message[:1].lower() + message[1:]


app = typer.Typer(
    name="horserace",
    cls=LazyGroup,
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
