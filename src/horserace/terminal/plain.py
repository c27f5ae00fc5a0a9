"""Choices as printed lines, for screen readers, pipes and CI (`--plain`): the question, one
option per line (`key: words`), the number field and the hint, then a prompt read line by line.
Works with no terminal at all; on a terminal, keys typed before the prompt are thrown away so a
stray Enter pressed while the bots moved answers nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.text import Text

from horserace.core.actions import Action
from horserace.terminal.choices import SURE_RULE, Choice, Rejection, resolve


def discard_typeahead() -> None:
    """Drop what was typed before the prompt was shown (only a terminal has such a buffer)."""
    stream = sys.stdin
    try:
        if stream is None or not stream.isatty():
            return
        import termios

        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (OSError, ValueError, ImportError, AttributeError):
        return  # not a real terminal after all (a test's stand-in, a closed stream)


class InputEnded(typer.Abort):
    """The answers piped in ran out before the game ended: not an interruption but a mistake
    of the input's (one line, exit code 2, the record kept to resume)."""


def read_line(prompt: str) -> str:
    """One line typed after `prompt`; Enter alone gives ''. Ctrl-D on a terminal ends the game
    as Ctrl-C does (typer.Abort); answers piped in that run out raise InputEnded."""
    with input_ended_said():
        return str(typer.prompt(prompt, default="", show_default=False, prompt_suffix=" "))


@contextmanager
def input_ended_said() -> Iterator[None]:
    """A prompt whose input piped in has run out raises InputEnded, not an interruption;
    Ctrl-D on a terminal stays one (typer.Abort)."""
    try:
        yield
    except typer.Abort as stop:
        if isinstance(stop.__context__, EOFError) and not _on_a_terminal():
            typer.echo()  # off the prompt's line
            raise InputEnded from None
        raise


def _on_a_terminal() -> bool:
    stream = sys.stdin
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


HELP_LINE = "type a key above (or the words of a whole move), then Enter; Ctrl-C stops the game"
HELP_LINE += " and keeps its record to resume it; " + SURE_RULE


def choice_lines(choice: Choice) -> list[str]:
    """The choice as lines: the options under their headings, then the field and the hint."""
    lines: list[str] = []
    for group, options in choice.groups():
        indent = "  "
        if group:
            lines.append(f"  {group}:")
            indent = "    "
        lines.extend(f"{indent}{option.key}: {option.words}" for option in options)
    if choice.field is not None:
        lines.append(f"  {choice.field.describe()}: type the number")
    if choice.hint:
        lines.append(f"  {choice.hint}")
    if choice.back is not None:
        lines.append("  <: back to the step before")
    return lines


def prompt_text(choice: Choice) -> str:
    """The question; Enter alone answers none (every answer is a key typed)."""
    return f"{choice.question} >"


class PlainPresenter:
    """Asks line by line; `read` reads one answer after a prompt. What it says goes to the
    console, or to `write` (a screen's answer area) and `log` (a screen's log) when given."""

    def __init__(
        self,
        console: Console,
        read: Callable[[str], str] = read_line,
        write: Callable[[Text], None] | None = None,
        log: Callable[[Text], None] | None = None,
    ) -> None:
        self.console = console
        self.read = read
        self.write = write
        self.log = log

    def say(self, text: str, style: str = "") -> None:
        line = Text(text, style=style)
        if self.write is not None:
            self.write(line)
        else:
            self.console.print(line, soft_wrap=True)

    def tell(self, lines: Sequence[str]) -> None:
        for line in lines:
            if self.log is not None:
                self.log(Text(line))
            else:
                self.say(line)

    def ask(self, choice: Choice) -> Action:
        current = choice
        shown = False
        while True:
            if not shown:
                self.tell(choice_lines(current))
                shown = True
            discard_typeahead()
            typed = self.read(prompt_text(current))
            if typed.strip() == "?":
                self.tell([*choice_lines(current), HELP_LINE])
                continue
            found = resolve(current, typed)
            if isinstance(found, Rejection):
                for line in found.lines():
                    self.say(line, "red")
            elif isinstance(found, Choice):
                current, shown = found, False
            else:
                return found
