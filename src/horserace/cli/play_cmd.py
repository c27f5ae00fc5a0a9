"""`horserace play`: a Classic table in the terminal, watched live, played at the keyboard, or kept
as the bookkeeper of a real board (companion mode: the dice and cards are typed in).

The game runs through the engine's one play loop; this module only supplies the agents, the
chance source and a screen that observes every step.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.live import Live
from rich.text import Text

from horserace.bots import make_bot
from horserace.cli.board_render import (
    BoardInfo,
    News,
    finish_view,
    lane_odds,
    money_text,
    render_board,
    standings_table,
    step_news,
    to_plain,
)
from horserace.cli.common import seat_names, user_errors
from horserace.components.board import load_board
from horserace.core.actions import Action
from horserace.core.chance import ChanceSource, SeededChance, TypedChance
from horserace.core.errors import ConfigError
from horserace.core.events import redact, seat_name
from horserace.core.rng import BOT_STREAM, derive_seed, fresh_seed
from horserace.core.rules import Rules
from horserace.core.types import CHANCE
from horserace.engine import Agent, Game, Step, play
from horserace.rules.board import events as ev
from horserace.rules.board.model import BoardState, BoardView, Phase
from horserace.rules.board.rules import BoardRules
from horserace.rules.registry import get_preset

DEFAULT_SPEED = 0.35
INTERRUPTED = 130
RECORD_FAILED = 1
PLAIN_WIDTH = 80
NEWS_KEPT = 40
DEFAULT_NEWS_LINES = 5
DEAL_PAUSE = 2  # times --speed, once the deal is complete
FINISH_PAUSE = 8  # times --speed, with the winner in its finish slot


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
        for seat in human or []:
            if not 1 <= seat <= seats:
                raise ConfigError(f"--human {seat}: seats are numbered 1 to {seats}")
        if seed is not None and seed < 0:
            raise ConfigError(f"--seed must be 0 or more, not {seed}")
        if speed < 0:
            raise ConfigError(f"--speed must be 0 or more, not {speed}")
        if record is not None and not record.parent.is_dir():
            raise ConfigError(f"--record {record}: no such directory {record.parent}")
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


HOUSE_RULES: dict[str, dict[str, Any]] = {
    "robertson": {"robertson": True},
    "perry": {"trade_window": "after-scratch"},
    "schellenberg": {"market": True},
    "husted": {"husted": True, "open_hands": False, "ante": 1},
}


def house_options(text: str | None) -> dict[str, Any]:
    """'--house robertson' -> the options it switches on; unknown names are errors."""
    options: dict[str, Any] = {}
    for word in (text or "").split(","):
        name = word.strip().lower()
        if not name:
            continue
        if name not in HOUSE_RULES:
            raise ConfigError(f"unknown house rule {name!r}; known: {', '.join(HOUSE_RULES)}")
        options.update(HOUSE_RULES[name])
    return options


def _table(preset_name: str, options: dict[str, Any], board: Path | None) -> tuple[BoardRules, Any]:
    """The preset's rules and a validated config (a ConfigError names the first bad option)."""
    preset = get_preset(preset_name)
    if not isinstance(preset.rules, BoardRules):
        raise ConfigError(f"{preset_name!r} is not a dice board game")
    if board is not None:
        options["board"] = load_board(board)
    return preset.rules, preset.config(options)


# --- the screen ---------------------------------------------------------------------------------


@dataclass
class Screen:
    """Prints what happens: a line per announcement, a board at each round's end and before every
    question put to a person. Subclassed by LiveScreen for the animated board."""

    console: Console
    rules: Rules[Any, Any]
    names: list[str]
    humans: frozenset[int]
    plain: bool
    viewer: int | None = None
    game: Game | None = None
    news: list[News] = field(default_factory=list)
    last_dice: tuple[int, int] | None = None

    def render(
        self, view: BoardView, with_odds: bool = True, with_news: bool = True
    ) -> RenderableType:
        odds = lane_odds(view) if with_odds else None
        info = BoardInfo(
            names=self.names,
            odds=odds,
            news=self.news if with_news else (),
            last_dice=self.last_dice,
            humans=self.humans,
            title=self.game.preset if self.game is not None else "classic",
        )
        return render_board(view, info, news_lines=self.news_lines(len(view.chips)))

    def news_lines(self, players: int) -> int:
        """As many announcements as fit under the board (lanes 12 lines, players 1 + n)."""
        if self.plain:
            return DEFAULT_NEWS_LINES
        spare = self.console.size.height - 2 - 12 - (players + 1) - 2
        return max(2, min(DEFAULT_NEWS_LINES, spare))

    def show(self, renderable: RenderableType) -> None:
        if self.plain:
            self.console.print(to_plain(renderable, PLAIN_WIDTH), end="", markup=False)
        else:
            self.console.print(renderable)

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style), soft_wrap=True)

    def current_view(self) -> BoardView:
        assert self.game is not None
        view: BoardView = self.rules.view(self.game.state, self.viewer)
        return view

    def start(self, game: Game) -> None:
        self.game = game
        view = self.current_view()
        dealt = int(game.state.to_deal)
        dealer = seat_name(self.names, view.dealer)
        stub = view.undealt - dealt
        self.announce(
            News(f"Round 1: {dealer} deals {dealt} cards ({stub} left in the stub)", "round")
        )

    def announce(self, item: News) -> None:
        """News the engine has no event for (the first deal), kept and printed like the rest."""
        self.news.append(item)
        self.console.print(item.styled(), soft_wrap=True)

    def learn(self, step: Step) -> list[News]:
        """Keep the dice and the news from a step, as the viewer may see them."""
        events = redact(step.events, self.viewer)
        for event in events:
            if isinstance(event, ev.DiceRolled):
                self.last_dice = event.dice
        items = step_news(events, self.names)
        self.news.extend(items)
        del self.news[:-NEWS_KEPT]
        return items

    def observe(self, step: Step) -> None:
        for item in self.learn(step):
            self.console.print(item.styled(), soft_wrap=True)
        if _race_won(step):
            self.show(self.render(self._finish(step), with_news=False))

    def _finish(self, step: Step) -> BoardView:
        before = self.rules.view(step.before, self.viewer)
        after = self.rules.view(step.after, self.viewer)
        return finish_view(before, after, step.events)

    def before_prompt(self, view: BoardView | None) -> None:
        if view is not None:
            self.show(self.render(view, with_news=False))

    def after_prompt(self) -> None:
        """Nothing to restore when printing line by line."""

    def prompt(self, text: str, default: str | None = None) -> str:
        answer = typer.prompt(text, default=default) if default is not None else typer.prompt(text)
        return str(answer)

    def close(self) -> None:
        """Nothing to tear down when printing line by line."""


@dataclass
class LiveScreen(Screen):
    """Redraws one board in place after every step, pausing `speed` seconds after each roll."""

    speed: float = DEFAULT_SPEED
    live: Live | None = None

    def start(self, game: Game) -> None:
        super().start(game)
        self._open()

    def announce(self, item: News) -> None:
        self.news.append(item)  # shown on the board, not printed above it

    def _open(self) -> None:
        self.live = Live(
            self.render(self.current_view()),
            console=self.console,
            auto_refresh=False,
        )
        self.live.start(refresh=True)

    def _draw(self, renderable: RenderableType) -> None:
        if self.live is not None:
            self.live.update(renderable, refresh=True)

    def observe(self, step: Step) -> None:
        self.learn(step)
        before: BoardState = step.before
        if step.actor is not CHANCE:
            return
        if before.phase is Phase.DEAL:
            if step.after.phase is not Phase.DEAL:
                self._draw(self.render(self.current_view()))
                self._pause(DEAL_PAUSE)
            return
        if _race_won(step):
            self._draw(self.render(self._finish(step)))
            self._pause(FINISH_PAUSE)
            if step.after.phase is not Phase.OVER:
                self._draw(self.render(self.current_view(), with_odds=False))
            return
        self._draw(self.render(self.current_view()))
        self._pause(1)

    def _pause(self, times: float) -> None:
        if self.speed > 0:
            time.sleep(self.speed * times)

    def before_prompt(self, view: BoardView | None) -> None:
        if view is not None:
            self._draw(self.render(view))
        self.close()

    def after_prompt(self) -> None:
        self.console.clear()
        self._open()

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


def _race_won(step: Step) -> bool:
    return any(isinstance(event, ev.RaceWon) for event in step.events)


# --- agents and chance ---------------------------------------------------------------------------


class KeyboardAgent:
    """A seat played by a person: shows the board as that seat sees it and asks for an action
    (Enter takes the first one), asking again until the answer names a legal action."""

    def __init__(self, seat: int, screen: Screen) -> None:
        self.seat = seat
        self.screen = screen

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a person was asked to move with no legal action")
        self.screen.viewer = self.seat
        texts = [action.text for action in legal]
        self.screen.before_prompt(view)
        try:
            name = seat_name(self.screen.names, self.seat)
            while True:
                answer = self.screen.prompt(f"{name}, your move ({_choices(texts)})", texts[0])
                chosen = _match(answer, legal)
                if chosen is not None:
                    return chosen
                self.screen.say(f"not an action here: {answer!r}; choose one of: {_choices(texts)}")
        finally:
            self.screen.after_prompt()


PROMPT_CHOICES = 12


def _choices(texts: Sequence[str]) -> str:
    """The legal moves for a prompt; a long list (a draw, a trade) is cut, not hidden: any
    legal text is still accepted."""
    if len(texts) <= PROMPT_CHOICES:
        return ", ".join(texts)
    shown = ", ".join(texts[:PROMPT_CHOICES])
    return f"{shown}, … {len(texts) - PROMPT_CHOICES} more of the same form"


def _match(answer: str, legal: Sequence[Action]) -> Action | None:
    word = answer.strip().lower()
    for number, action in enumerate(legal, start=1):
        if word in (action.text.lower(), str(number)):
            return action
    return None


class CompanionChance:
    """Chance read off a real board: before each roll the board is shown and the dice asked for;
    each dealt card is asked for with the seat it goes to."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self._context = ""
        self._left = 0
        self._deal_total = 0
        self._typed = TypedChance(self._ask, lambda text: screen.say(text, "red"))

    def _ask(self, question: str) -> str:
        return self.screen.prompt(f"{self._context}: {question}")

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        names = self.screen.names
        view = rules.view(state, self.screen.viewer)
        if state.phase is Phase.DEAL:
            if state.to_deal > self._left:  # a new deal begins: show the table once
                self._deal_total = state.to_deal
                self.screen.before_prompt(view)
            else:
                self.screen.before_prompt(None)
            self._left = state.to_deal
            number = self._deal_total - state.to_deal + 1
            who = seat_name(names, state.deal_to)
            self._context = f"card {number}/{self._deal_total} to {who}"
        else:
            self._left = 0
            self._context = f"{seat_name(names, state.roller)} rolls"
            self.screen.before_prompt(view)
        try:
            return self._typed.choose(rules, state)
        finally:
            self.screen.after_prompt()


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
