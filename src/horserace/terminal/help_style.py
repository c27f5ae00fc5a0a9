"""One look for every command's --help, which typer alone draws unevenly: a flag shows a
`<bool>` as if it took a value, an option with no placeholder of its own shows its Python type
(`<float range>`, wide enough to squeeze the help beside it until defaults are cut off with an
ellipsis), and a docstring's later paragraphs keep their source line breaks, so each line of
them is wrapped again at the screen's edge into a ragged column."""

from __future__ import annotations

import inspect

from typer import _click as click  # typer carries its own click
from typer.core import TyperGroup, TyperOption

# what an option takes, named by its type where the option names nothing itself
PLACEHOLDERS = {"int": "N", "float": "NUMBER", "str": "TEXT", "path": "PATH"}


def house_style(command: click.Command) -> click.Command:
    """`command` and every subcommand it holds, with the help drawn the same way everywhere."""
    command.help = reflowed(command.help)
    context = click.Context(command)
    for param in command.params:
        if not isinstance(param, TyperOption):
            continue  # an argument keeps its name
        if param.metavar is None:  # an option's own placeholder stays
            flag = param.is_flag  # a flag takes nothing: no placeholder
            param.metavar = "" if flag else placeholder(param.display_type(context))
        param.help = with_range(param)
    help_option = command.get_help_option(context)
    if help_option is not None:
        help_option.metavar = ""
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            house_style(sub)
    return command


def with_range(option: TyperOption) -> str | None:
    """The help with the range of numbers the option takes said in words, where typer would
    put `[0<=x<=65535]` beside the placeholder (a column as wide as its widest entry)."""
    low, high = option.min, option.max
    option.min = option.max = None  # the range is still checked: the value's type holds it
    if low is None and high is None:
        return option.help
    said = f"{low:g} to {high:g}" if low is not None and high is not None else ""
    said = said or (f"at least {low:g}" if low is not None else f"at most {high:g}")
    text = (option.help or "").strip()
    end = "." if text.endswith(".") else ""
    return f"{text.removesuffix('.')} ({said}){end}".strip()


def placeholder(shown: str) -> str:
    """A placeholder in capitals for typer's `<int range>`, `<str>`... (choices stay a|b)."""
    bare = shown.strip("<>").removesuffix(" range")
    return PLACEHOLDERS.get(bare, bare)


def reflowed(text: str | None) -> str | None:
    """Each paragraph of a docstring on one line, for the help to wrap to the screen; click's
    `\\b` (a paragraph whose lines stay as written) is kept as it is."""
    if text is None:
        return None
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        paragraph if paragraph.startswith("\b") else " ".join(paragraph.split())
        for paragraph in paragraphs
    )
