"""`horserace play PRESET`: one command for every preset of every family. Watch bots, play seats
at the keyboard, or keep the books of a real table (companion mode: the dice typed in).

The options every table shares are declared here; a family adds its own (its terminal's
`options`, a function whose parameters are those options) and draws the game with its own
screen. The game runs through the engine's one play loop (cli/table.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from horserace.core.chance import ChanceSource, SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import fresh_seed
from horserace.core.words import counted
from horserace.drivers.bots import bot_kinds_of
from horserace.drivers.cli.common import check_play_options, seat_names
from horserace.drivers.cli.resume import Resumable, catch_up, read_resumable
from horserace.drivers.cli.table import run_table, seat_agents
from horserace.engine import Game
from horserace.families import family_of_preset, preset_specs
from horserace.families.presets import get_preset
from horserace.terminal.errors import user_errors
from horserace.terminal.options import Opt, declared, with_options
from horserace.terminal.session import table_console
from horserace.terminal.table import TableSetup

# The options of every table (what `play` offers for every preset).
common_options = declared(
    Opt("--players N", int | None, None, "Seats at the table."),
    Opt("--seed N", int | None, None, "Table seed.", shown="a fresh one, printed"),
    Opt(
        "--bots KINDS",
        str | None,
        None,
        "Bot kinds by seat, cycling, e.g. ev,random.",
        shown="the game's own",
    ),
    Opt(
        "--speed SECONDS",
        float | None,
        None,
        "Seconds between steps on the full screen; 0 = no pause (printed lines, --plain,"
        " --no-animation or piped, never wait).",
        shown="the game's pace",
    ),
    Opt("--no-animation", bool, False, "Print lines and a board now and then instead."),
    Opt(
        "--plain",
        bool,
        False,
        "Line by line, no colour or redrawing: for screen readers, pipes and logs"
        " (a pipe gets it anyway).",
    ),
    Opt(
        "--record FILE",
        Path | None,
        None,
        "Write the game record to this file (as the game is played).",
        shown="a file in $XDG_STATE_HOME/horserace, else in ~/.local/state/horserace, while"
        " the game is unfinished",
    ),
    Opt(
        "--human SEAT",
        list[int] | None,
        None,
        "Seat (1-based) played at the keyboard; repeatable.",
        shown="none: bots play every seat",
    ),
    Opt("--companion", bool, False, "Keep the books of a real table: type the dice in."),
    Opt(
        "--names NAMES",
        str | None,
        None,
        'Comma-separated names, e.g. "Ann,Bob".',
        shown="P1, P2, ...",
    ),
    Opt(
        "--auto-continue SECONDS",
        float | None,
        None,
        "Where only bots play, go on after each race's result this many seconds (a demo).",
        shown="none: each result stays until Enter",
    ),
    Opt(
        "--resume FILE",
        Path | None,
        None,
        "Go on with a stopped game from its record (the table comes from the record;"
        " the record goes on in the same file unless --record names another).",
        shown="none: a new game",
    ),
    Opt(
        "--theme THEME",
        str,
        "auto",
        "The full screen's colours: auto, light or dark; auto asks the terminal for its"
        " background colour (else reads COLORFGBG, else dark).",
    ),
)


def register(play_app: typer.Typer) -> None:
    """`horserace play NAME` for every preset the families register."""
    for name, (fam, spec) in preset_specs().items():

        def run(common: dict[str, Any], own: dict[str, Any], preset: str = name) -> None:
            play_preset(preset, common, own)

        command = with_options(run, common_options, fam.terminal().options)
        command.__doc__ = spec.summary
        play_app.command(name, help=spec.summary)(command)


def play_preset(preset_name: str, common: dict[str, Any], own: dict[str, Any]) -> None:
    """Check the options, then play the table to its end (or Ctrl-C)."""
    fam = family_of_preset(preset_name)
    terminal = fam.terminal()
    preset = get_preset(preset_name)
    resumed: Resumable | None = None
    with user_errors():
        if common["resume"] is not None:
            resumed = read_resumable(
                common["resume"], preset_name, preset.rules, common, own, terminal.options
            )
            config, seed, companion = resumed.config, resumed.seed, resumed.companion
        else:
            options = terminal.table_options(preset_name, common["players"], own)
            config = preset.table_config(options)
            seed = fresh_seed() if common["seed"] is None else common["seed"]
            companion = common["companion"]
        seats = preset.rules.players(config)
        speed = terminal.speed if common["speed"] is None else common["speed"]
        humans = common["human"] or _recorded(resumed, "humans")
        check_play_options(seats, humans, common["seed"], speed, common["theme"], common["record"])
        if (common["auto_continue"] or 0) < 0:
            raise ConfigError(
                f"--auto-continue must be 0 or more seconds, not {common['auto_continue']:g}"
            )
        if companion and not terminal.companion:
            raise ConfigError(
                f"{preset_name} has no companion mode: its cards cannot be typed in yet"
            )
        if companion and humans:
            raise ConfigError(
                "--companion keeps the books of people at a real table: leave out --human"
            )
        if (humans or companion) and stdin_closed():
            raise ConfigError(
                "stdin is closed, so nobody can answer at the keyboard:"
                " play on a terminal, or pipe the answers in"
            )
        bots = common["bots"] or ",".join(_recorded(resumed, "bots") or [])
        kinds = bot_kinds_of(bots or terminal.default_bots, fam.name)
        names = seat_names(seats, common["names"] or ",".join(_recorded(resumed, "names") or []))
    setup = TableSetup(
        preset=preset_name,
        rules=preset.rules,
        config=config,
        seed=seed,
        names=names,
        humans=frozenset(seat - 1 for seat in humans or []),
        bots=tuple(kinds[seat % len(kinds)] for seat in range(seats)),
        companion=companion,
        speed=speed,
        auto_continue=common["auto_continue"],
    )
    console, plain = table_console(terminal.width, plain=common["plain"] or stdin_closed())
    animated = not (plain or common["no_animation"])
    screen = terminal.screen(setup, console, plain, animated)
    agents = seat_agents(fam.name, setup, lambda seat: terminal.keyboard(seat, screen))
    chance: ChanceSource = (
        terminal.companion_chance(screen) if setup.companion else SeededChance(seed)
    )
    console.print(Text(terminal.header(setup), style="bold"), soft_wrap=True)
    record = common["record"]
    if resumed is not None:
        with user_errors():
            game = catch_up(resumed, agents, chance, setup.humans)
        record = record or resumed.path
        console.print(
            f"resumed from {resumed.path} after {counted(len(game.steps), 'step')}", soft_wrap=True
        )
    else:
        mode = "typed" if setup.companion else "seeded"
        game = Game(preset_name, preset.rules, config, seed=seed, chance_mode=mode)
        if not setup.companion:
            console.print(f"seed {seed} (re-run with --seed {seed})", soft_wrap=True)
    if not (plain or animated):  # lines on a terminal (the full screen shows its own keys)
        console.print("Ctrl-C stops the game; its record is kept to resume it", style="dim")
    game.seating = {
        "names": setup.names,
        "bots": list(setup.bots),
        "humans": sorted(seat + 1 for seat in setup.humans),
    }
    code = run_table(
        game,
        agents,
        chance,
        screen,
        record,
        lambda result: terminal.finish(screen, result),
        theme=common["theme"],
        odds=fam.shown_odds,
    )
    if code:
        raise typer.Exit(code)


def stdin_closed() -> bool:
    """Whether the command was started with no input at all (`<&-`): no keys to read, so no
    person can answer and the full screen cannot run (a game of bots is printed instead)."""
    stream = sys.stdin
    return stream is None or bool(stream.closed)


def _recorded(resumed: Resumable | None, key: str) -> Any:
    """What a resumed game's record says of its seats (None for a new game or an old record)."""
    return None if resumed is None else resumed.seats(key)
