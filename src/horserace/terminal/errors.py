"""The project's own errors at a terminal: one line `error: ...` on stderr and exit code 2,
never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console

from horserace.core.errors import HorseraceError

USAGE_ERROR = 2
INTERRUPTED = 130  # the exit code of a command that Ctrl-C ended


def say_error(message: str) -> None:
    """The one way every command reports a mistake: one line `error: message` on stderr."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"error: {message}", markup=False)


def fail(message: str) -> NoReturn:
    """Print `error: message` on stderr and leave with the usage exit code."""
    say_error(message)
    raise typer.Exit(USAGE_ERROR)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the project's own errors into one line on stderr instead of a traceback."""
    try:
        yield
    except HorseraceError as error:
        fail(str(error))
