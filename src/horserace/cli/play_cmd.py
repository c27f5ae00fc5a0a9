"""`horserace play`: a Classic table in the terminal, watched live, played at the keyboard, or kept
as the bookkeeper of a real board (companion mode: the dice and cards are typed in).

The game runs through the engine's one play loop; this module only supplies the agents, the
chance source and a screen that observes every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from horserace.bots import make_bot
from horserace.cli.board_render import (
    money_text,
    standings_table,
)
from horserace.cli.board_screen import (
    DEFAULT_SPEED,
    PLAIN_WIDTH,
    CompanionChance,
    KeyboardAgent,
    LiveScreen,
    Screen,
)
from horserace.cli.common import check_play_options, seat_names, user_errors
from horserace.components.board import load_board
from horserace.core.chance import ChanceSource, SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import BOT_STREAM, derive_seed, fresh_seed
from horserace.engine import Agent, Game, play
from horserace.rules.board.house import house_options, with_house_rules
from horserace.rules.board.rules import BoardRules
from horserace.rules.registry import get_preset

INTERRUPTED = 130
RECORD_FAILED = 1


@dataclass(frozen=True)
class Setup:
    """Everything the options decide, checked before any game starts."""

    preset: str
    rules: BoardRules
    config: Any
    seed: int
    names: list[str]
    humans: frozenset[int]
    companion: bool
    animate: bool
    speed: float
    record: Path | None


BOARD_PRESETS = ("classic", "advanced", "northwoods")


def register(play_app: typer.Typer) -> None:
    """`horserace play classic|advanced|northwoods`: one command, read by the name it is called."""
    for name in BOARD_PRESETS:
        play_app.command(name, help=get_preset(name).summary)(play_board)


def play_board(
    ctx: typer.Context,
    players: Annotated[
        int | None, typer.Option("--players", metavar="N", help="Seats at the table (2-12).")
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", metavar="N", help="Rounds to play.")
    ] = None,
    chips: Annotated[
        int | None,
        typer.Option("--chips", metavar="N", help="Starting chips (cents in northwoods)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Table seed; a fresh one is drawn and printed."),
    ] = None,
    board: Annotated[
        Path | None,
        typer.Option(
            "--board", metavar="FILE", help="A board file (TOML) with other lane lengths."
        ),
    ] = None,
    repeat_scratch: Annotated[
        str | None,
        typer.Option(
            "--repeat-scratch",
            metavar="move|reroll|chain",
            help="A scratched horse rolled again: moves lines, is rerolled, or costs the roller.",
        ),
    ] = None,
    ante: Annotated[
        int | None,
        typer.Option("--ante", metavar="N", help="Advanced: the ante A (penalties count in A)."),
    ] = None,
    house: Annotated[
        str | None,
        typer.Option(
            "--house",
            metavar="RULES",
            help="House rules, comma-separated: robertson, perry, schellenberg, husted.",
        ),
    ] = None,
    trade_window: Annotated[
        str | None,
        typer.Option(
            "--trade-window",
            metavar="WHEN",
            help="Perry's trading: before-scratch, after-each-scratch or after-scratch.",
        ),
    ] = None,
    fixed_dealer: Annotated[
        bool, typer.Option("--fixed-dealer", help="Keep the same dealer every round.")
    ] = False,
    hidden_hands: Annotated[
        bool, typer.Option("--hidden-hands", help="Each player sees only their own cards.")
    ] = False,
    open_hands: Annotated[
        bool, typer.Option("--open-hands", help="Every hand lies face up.")
    ] = False,
    speed: Annotated[
        float,
        typer.Option(
            "--speed", metavar="SECONDS", help="Seconds between dice rolls; 0 = full speed."
        ),
    ] = DEFAULT_SPEED,
    no_animation: Annotated[
        bool, typer.Option("--no-animation", help="Print lines and a board per round instead.")
    ] = False,
    record: Annotated[
        Path | None,
        typer.Option("--record", metavar="FILE", help="Write the game record to this file."),
    ] = None,
    human: Annotated[
        list[int] | None,
        typer.Option(
            "--human", metavar="SEAT", help="Seat (1-based) played at the keyboard; repeatable."
        ),
    ] = None,
    companion: Annotated[
        bool,
        typer.Option("--companion", help="Keep score for a real board: type the dice and cards."),
    ] = False,
    names: Annotated[
        str | None,
        typer.Option("--names", metavar="NAMES", help='Comma-separated names, e.g. "Ann,Bob".'),
    ] = None,
) -> None:
    """Watch bots, play seats at the keyboard, or keep the books of a real board."""
    preset = str(ctx.info_name)
    with user_errors():
        given: dict[str, Any] = {
            "players": players,
            "rounds": rounds,
            "starting_chips": chips,
            "repeat_scratch": repeat_scratch,
            "ante": ante,
        }
        options = house_options(house)  # the house rules' defaults, under the user's options
        options.update({key: value for key, value in given.items() if value is not None})
        if trade_window is not None:
            options["trade_window"] = trade_window
        if fixed_dealer:
            options["rotate_dealer"] = False
        if hidden_hands and open_hands:
            raise ConfigError("choose --hidden-hands or --open-hands, not both")
        if hidden_hands or open_hands:
            options["open_hands"] = open_hands
        rules, config = _table(preset, options, board)
        seats = rules.players(config)
        check_play_options(seats, human, seed, speed, record)
    setup = Setup(
        preset=preset,
        rules=rules,
        config=config,
        seed=fresh_seed() if seed is None else seed,
        names=seat_names(seats, names),
        humans=frozenset(seat - 1 for seat in human or []),
        companion=companion,
        animate=not no_animation,
        speed=speed,
        record=record,
    )
    code = run(setup, announce_seed=not companion)
    if code:
        raise typer.Exit(code)


def _table(preset_name: str, options: dict[str, Any], board: Path | None) -> tuple[BoardRules, Any]:
    """The preset's rules and a validated config (a ConfigError names the first bad option)."""
    preset = get_preset(preset_name)
    if not isinstance(preset.rules, BoardRules):
        raise ConfigError(f"{preset_name!r} is not a dice board game")
    if board is not None:
        options["board"] = load_board(board)
    return preset.rules, preset.rules.make_config(with_house_rules(preset.defaults, options))


# --- running a game ------------------------------------------------------------------------------


def run(setup: Setup, *, announce_seed: bool = True) -> int:
    """Play the game to its end (or to Ctrl-C); returns the exit code."""
    probe = Console(highlight=False)
    plain = not probe.is_terminal
    if plain:
        console = Console(
            color_system=None, force_terminal=False, width=PLAIN_WIDTH, highlight=False, emoji=False
        )
    else:
        console = probe
    common: dict[str, Any] = {
        "console": console,
        "rules": setup.rules,
        "names": setup.names,
        "humans": setup.humans,
        "plain": plain,
        "viewer": min(setup.humans) if setup.humans else None,
    }
    screen: Screen
    if setup.animate and not plain and not setup.companion:
        screen = LiveScreen(**common, speed=setup.speed)
    else:
        screen = Screen(**common)
    mode = "typed" if setup.companion else "seeded"
    game = Game(setup.preset, setup.rules, setup.config, seed=setup.seed, chance_mode=mode)
    seats = setup.rules.players(setup.config)
    agents: dict[int, Agent] = {
        seat: KeyboardAgent(seat, screen)
        if seat in setup.humans
        else make_bot("random", derive_seed(setup.seed, BOT_STREAM, seat))
        for seat in range(seats)
    }
    chance: ChanceSource = CompanionChance(screen) if setup.companion else SeededChance(setup.seed)
    config = setup.config
    console.print(
        Text(
            f"{setup.preset}: {seats} players, {_plural(config.rounds, 'round')},"
            f" {config.starting_chips} {'cents' if config.money == 'cents' else 'chips'} each,"
            f" board {config.board.name}",
            style="bold",
        ),
        soft_wrap=True,
    )
    if announce_seed:
        console.print(f"seed {setup.seed} (re-run with --seed {setup.seed})", soft_wrap=True)
    try:
        screen.start(game)
        play(game, agents, chance, observe=screen.observe)
    except (KeyboardInterrupt, typer.Abort):
        screen.close()
        console.print(Text(f"interrupted after {len(game.steps)} steps", style="bold red"))
        _write_record(game, setup.record, console)
        return INTERRUPTED
    screen.close()
    result = setup.rules.result(game.state)
    unit = setup.config.money
    screen.show(standings_table(result, setup.names, unit))
    left = money_text(unit, result.unclaimed)
    console.print(
        f"{'money' if unit == 'cents' else 'chips'} left in the pot: {left}", soft_wrap=True
    )
    return 0 if _write_record(game, setup.record, console) else RECORD_FAILED


def _write_record(game: Game, path: Path | None, console: Console) -> bool:
    if path is None:
        return True
    try:
        game.record().write(path)
    except OSError as error:
        Console(stderr=True, highlight=False).print(
            f"error: cannot write the record to {path}: {error.strerror}", markup=False
        )
        return False
    console.print(
        f"record of {len(game.steps)} steps written to {path}", soft_wrap=True, markup=False
    )
    return True


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
