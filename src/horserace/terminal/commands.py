"""The command group every subcommand hangs on: each is built the first time it runs (so the
top-level help and the light commands start without what the heavy ones import), and every
mistake on the command line ends as one line `error: ...` with exit code 2."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer
from typer import _click as click  # typer carries its own click
from typer.core import TyperCommand, TyperGroup

from horserace.core.errors import HorseraceError
from horserace.terminal.errors import INTERRUPTED, USAGE_ERROR, say_error
from horserace.terminal.help_style import house_style


class LazyGroup(TyperGroup):
    """Builds a subcommand the first time it is asked for; while the top-level help is being
    written it hands out stand-ins that carry only the help line."""

    lazy_commands: dict[
        str, tuple[str, Callable[[], click.Command]]
    ]  # name -> (help line, builder)
    _listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.lazy_commands)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.lazy_commands.get(cmd_name)
        if entry is None:
            return None
        help_line, build = entry
        if self._listing:
            return TyperCommand(cmd_name, help=help_line, short_help=help_line)
        built: dict[str, click.Command] = self.__dict__.setdefault("_built", {})
        if cmd_name not in built:
            built[cmd_name] = house_style(build())
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
        house_style(self)  # its own options (its subcommands are styled as they are built)
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
