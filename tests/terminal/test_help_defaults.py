"""`--help` names every option's default: each option of every command and subcommand (each
preset's `play` and `simulate`, `odds`, `design`, `replay`, `rules`, `sweep`, `serve`, `verify`)
shows `[default: ...]` in its help, or `[required]`; an option with no value of its own says in
words what happens without it (a flag left out is off)."""

from __future__ import annotations

import io
from collections.abc import Iterator

from rich.console import Console
from typer import _click as click  # typer carries its own click
from typer import rich_utils
from typer.core import TyperGroup, TyperOption

from horserace.drivers.cli.app import COMMANDS


def commands(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[str, click.Command]]:
    """`command` and, for a group, every subcommand under it, each with the words that run it."""
    yield " ".join(path), command
    if isinstance(command, TyperGroup):
        context = click.Context(command)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            assert sub is not None
            yield from commands(sub, (*path, name))


def option_help(option: TyperOption, context: click.Context) -> str:
    """The option's help as `--help` draws it (its words, then its default)."""
    drawn = rich_utils._get_parameter_help(param=option, ctx=context, markup_mode="rich")
    buffer = io.StringIO()
    Console(file=buffer, width=1000, color_system=None).print(drawn)
    return " ".join(buffer.getvalue().split())


def test_every_option_of_every_command_names_its_default() -> None:
    walked: dict[str, list[str]] = {}
    silent: list[str] = []
    for name, (_, build) in COMMANDS.items():
        for path, command in commands(build(), (name,)):
            context = click.Context(command, info_name=path)
            for option in command.params:
                if not isinstance(option, TyperOption) or option.name == "help":
                    continue
                walked.setdefault(path, []).append(option.opts[0])
                shown = option_help(option, context)
                if "[default: " not in shown and "[required]" not in shown:
                    silent.append(f"{path} {option.opts[0]}: {shown}")
    assert not silent, "\n".join(silent)
    # the walk reached every kind of command, its options included
    for path, flag in [
        ("play classic", "--seed"),
        ("play derby", "--resume"),
        ("simulate calcutta", "--games"),
        ("odds", "--scratched"),
        ("odds cards", "--max-states"),
        ("design board", "--max-rolls"),
        ("replay", "--speed"),
        ("rules", "--markdown"),
        ("sweep", "--grid"),
        ("serve", "--trusted-proxies"),
        ("verify", "--key"),
    ]:
        assert flag in walked.get(path, []), (path, sorted(walked))


def test_a_default_said_in_words() -> None:
    """An option whose value is None says what that means, not that it is None."""
    command = COMMANDS["replay"][1]()
    context = click.Context(command, info_name="replay")
    speed = next(p for p in command.params if p.name == "speed")
    assert isinstance(speed, TyperOption)
    assert "[default: (the game's own pace, as play has it)]" in option_help(speed, context)


def test_speed_and_record_say_what_they_do() -> None:
    """`--speed` waits between steps on the full screen only: printed lines (`--plain`,
    `--no-animation`, a pipe) never wait, and its help says so rather than promise a pause;
    `--record`'s default names the state directory as it is found, XDG_STATE_HOME first."""
    play = COMMANDS["play"][1]()
    assert isinstance(play, TyperGroup)
    context = click.Context(play)
    classic = play.get_command(context, "classic")
    assert classic is not None
    speed = next(p for p in classic.params if p.opts[0] == "--speed")
    assert isinstance(speed, TyperOption)
    words = option_help(speed, click.Context(classic))
    assert "on the full screen" in words and "never wait" in words, words
    record = next(p for p in classic.params if p.opts[0] == "--record")
    assert isinstance(record, TyperOption)  # where an unfinished game is kept, said whole
    kept = option_help(record, click.Context(classic))
    assert "a file in $XDG_STATE_HOME/horserace, else in ~/.local/state/horserace" in kept


def test_a_seed_and_a_picture_are_no_presets_own() -> None:
    """No preset holds a seed or a picture: every command's `--seed` left out is a fresh seed,
    printed, and its `--plot` left out draws nothing (simulate said 'the preset's' of both);
    the card race's simulate says its bots, blind unless at a Calcutta, as its default."""
    wrong = []
    for name, (_, build) in COMMANDS.items():
        for path, command in commands(build(), (name,)):
            context = click.Context(command, info_name=path)
            for option in command.params:
                if isinstance(option, TyperOption) and option.opts[0] in ("--seed", "--plot"):
                    shown = option_help(option, context)
                    if "the preset's" in shown:
                        wrong.append(f"{path} {option.opts[0]}: {shown}")
    assert not wrong, "\n".join(wrong)
    command = COMMANDS["simulate"][1]()
    assert isinstance(command, TyperGroup)
    basic = command.get_command(click.Context(command), "basic")
    assert basic is not None
    bots = next(p for p in basic.params if p.opts[0] == "--bots")
    assert isinstance(bots, TyperOption)
    shown = option_help(bots, click.Context(basic))
    assert "[default: (blind; value,favourite,random at a Calcutta)]" in shown, shown
