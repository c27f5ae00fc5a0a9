"""`horserace play derby` and `horserace simulate derby`.

Play: bots (the EV bot by default), seats at the keyboard, or companion mode (the dice of a real
table typed in). The game runs through the engine's one play loop; this module supplies the
agents, the chance source and a screen that observes every step: animated on a terminal, plain
lines and a board per race when piped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text

from horserace.bots import bot_kinds_of
from horserace.bots.derby_bots import make_derby_bot, wager_value
from horserace.cli.common import check_play_options, seat_names, user_errors
from horserace.cli.derby_render import (
    Announcer,
    DerbyInfo,
    News,
    render_table,
    report_tables,
    silk_table,
    standings_table,
    to_plain,
)
from horserace.core.actions import Action
from horserace.core.chance import ChanceSource, SeededChance, TypedChance
from horserace.core.events import seat_name
from horserace.core.rng import BOT_STREAM, derive_seed, fresh_seed
from horserace.core.types import CHANCE
from horserace.engine import Agent, Game, Step, play
from horserace.odds.derby import LIVE_SAMPLES, PlaceOdds, table_odds
from horserace.rules.derby.model import DerbyConfig, DerbyState, DerbyView, Phase, Wager
from horserace.rules.derby.rules import DerbyRules
from horserace.rules.derby.track import Track, load_track, packaged_track
from horserace.rules.registry import get_preset
from horserace.simulate.derby_sim import DerbyReport, simulate_derby

DEFAULT_SPEED = 0.4
NEWS_KEPT = 40
PLAIN_WIDTH = 80
INTERRUPTED = 130
RECORD_FAILED = 1


def register_play(play_app: typer.Typer) -> None:
    """`horserace play derby`."""
    play_app.command("derby")(play_derby)


def register_simulate(simulate_app: typer.Typer) -> None:
    """`horserace simulate derby`."""
    simulate_app.command("derby")(simulate_derby_command)


def simulate_derby_command(
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")] = 200,
    players: Annotated[int, typer.Option("--players", help="Seats (2-20).")] = 8,
    races: Annotated[int, typer.Option("--races", help="Races per game.")] = 3,
    money: Annotated[int, typer.Option("--money", help="Starting dollars.")] = 8,
    scratches: Annotated[int, typer.Option("--scratches", help="Scratches per race (0-2).")] = 0,
    all_horses: Annotated[
        bool, typer.Option("--all-horses", help="All 20 horses run; unowned ones for the house.")
    ] = False,
    track: Annotated[
        str | None, typer.Option("--track", metavar="FILE|NAME", help="Track file or name.")
    ] = None,
    bots: Annotated[
        str, typer.Option("--bots", help="Bot kinds by seat, cycling, e.g. ev,random.")
    ] = "ev,random",
    paired: Annotated[
        int,
        typer.Option("--paired", help="Paired races for the mud/accelerator effect (0 = none)."),
    ] = 20_000,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (drawn if omitted).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes to use.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Bots play many games; Win/Place/Show by horse, turns per race, money by seat, and how
    often mud and accelerators change the winner (the same races re-run on a paved track)."""
    with user_errors():
        options: dict[str, Any] = {
            "players": players,
            "races": races,
            "starting_money": money,
            "scratches": scratches,
            "all_horses": all_horses,
        }
        chosen = track_option(track)
        if chosen is not None:
            options["track"] = chosen
        kinds = bot_kinds_of(bots, "derby")
        table_seed = fresh_seed() if seed is None else seed
        report = _simulate(options, games, table_seed, kinds, workers, paired, not as_json)
    if as_json:
        typer.echo(json.dumps(report.to_json()))
        return
    console = Console(highlight=False)
    if seed is None:
        console.print(f"seed {table_seed} (drawn; pass --seed to repeat this run)")
    for table in report_tables(report):
        console.print(table)


def _simulate(
    options: dict[str, Any],
    games: int,
    seed: int,
    bots: tuple[str, ...],
    workers: int,
    paired: int,
    show: bool,
) -> DerbyReport:
    """Simulate behind a progress bar on stderr, shown only on a terminal."""
    console = Console(stderr=True)
    if not (show and console.is_terminal):
        return simulate_derby(options, games, seed, bots=bots, workers=workers, paired=paired)
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=games)
        return simulate_derby(
            options,
            games,
            seed,
            bots=bots,
            workers=workers,
            paired=paired,
            progress=lambda done: bar.update(task, completed=done),
        )


def track_option(value: str | None) -> Track | None:
    """A track file, or the name of a packaged track ('derby', 'sprint')."""
    if value is None:
        return None
    path = Path(value)
    if path.suffix == ".toml" or path.exists():
        return load_track(path)
    return packaged_track(value)


@dataclass(frozen=True)
class Setup:
    config: DerbyConfig
    seed: int
    names: list[str]
    humans: frozenset[int]
    bots: tuple[str, ...]
    companion: bool
    animate: bool
    speed: float
    record: Path | None


def play_derby(
    players: Annotated[int, typer.Option("--players", metavar="N", help="Seats (2-20).")] = 8,
    races: Annotated[int, typer.Option("--races", metavar="N", help="Races to run.")] = 3,
    money: Annotated[int, typer.Option("--money", metavar="N", help="Starting dollars.")] = 8,
    scratches: Annotated[
        int, typer.Option("--scratches", metavar="0|1|2", help="Horses scratched per race.")
    ] = 0,
    all_horses: Annotated[
        bool, typer.Option("--all-horses", help="All 20 horses run; unowned ones for the house.")
    ] = False,
    track: Annotated[
        str | None,
        typer.Option("--track", metavar="FILE|NAME", help="A track file (TOML) or 'sprint'."),
    ] = None,
    bots: Annotated[
        str, typer.Option("--bots", metavar="KINDS", help="Bot kinds by seat: ev, random.")
    ] = "ev",
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Table seed (drawn if omitted).")
    ] = None,
    speed: Annotated[
        float, typer.Option("--speed", metavar="SECONDS", help="Seconds per turn; 0 = no pause.")
    ] = DEFAULT_SPEED,
    no_animation: Annotated[
        bool, typer.Option("--no-animation", help="Print lines and a board per race instead.")
    ] = False,
    record: Annotated[
        Path | None, typer.Option("--record", metavar="FILE", help="Write the game record here.")
    ] = None,
    human: Annotated[
        list[int] | None,
        typer.Option("--human", metavar="SEAT", help="Seat (1-based) at the keyboard; repeatable."),
    ] = None,
    companion: Annotated[
        bool, typer.Option("--companion", help="Keep the books of a real table: type the dice.")
    ] = False,
    names: Annotated[
        str | None, typer.Option("--names", metavar="NAMES", help='e.g. "Ann,Bob,Cy".')
    ] = None,
) -> None:
    """Derby Challenge: pick silks and horses, roll odds, wager, and watch the race."""
    with user_errors():
        options: dict[str, Any] = {
            "players": players,
            "races": races,
            "starting_money": money,
            "scratches": scratches,
            "all_horses": all_horses,
        }
        chosen = track_option(track)
        if chosen is not None:
            options["track"] = chosen
        config = get_preset("derby").config(options)
        check_play_options(players, human, seed, speed, record)
        kinds = bot_kinds_of(bots, "derby")
    setup = Setup(
        config=config,
        seed=fresh_seed() if seed is None else seed,
        names=seat_names(players, names),
        humans=frozenset(seat - 1 for seat in human or []),
        bots=kinds,
        companion=companion,
        animate=not no_animation,
        speed=speed,
        record=record,
    )
    code = run(setup)
    if code:
        raise typer.Exit(code)


# --- the screen ----------------------------------------------------------------------------------


@dataclass
class Screen:
    """Prints the news line by line and the board when a race starts and ends, and before every
    question put to a person. LiveScreen redraws one board in place instead."""

    console: Console
    rules: DerbyRules
    names: list[str]
    humans: frozenset[int]
    plain: bool
    game: Game | None = None
    news: list[News] = field(default_factory=list)
    odds: PlaceOdds | None = None
    odds_key: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        self.announce = Announcer(self.names)

    def view(self, state: DerbyState | None = None) -> DerbyView:
        if state is None:
            assert self.game is not None
            state = self.game.state
        return self.rules.view(state, None)

    def current_odds(self, state: DerbyState) -> PlaceOdds | None:
        """Recomputed when the table changes between turns (never mid-turn: a die at a time
        would be six kernel runs a turn for little news)."""
        race = state.race
        mid_turn = state.phase is Phase.RACE and race is not None and bool(race.dice)
        if mid_turn:
            return self.odds
        key: tuple[Any, ...] = (state.phase, state.race_number, state.horses, state.scratched)
        if race is not None and state.phase is not Phase.SELECT:
            key += (race.positions, race.stuck, race.blocks, race.turn)
        if key != self.odds_key:
            self.odds_key = key
            self.odds = table_odds(state, samples=LIVE_SAMPLES, seed=race.turn if race else 0)
        return self.odds

    def render(self, state: DerbyState | None = None) -> RenderableType:
        state = state if state is not None else (self.game.state if self.game else None)
        assert state is not None
        info = DerbyInfo(
            names=self.names,
            odds=self.current_odds(state),
            news=self.news,
            humans=self.humans,
            news_lines=self.news_lines(),
        )
        return render_table(self.view(state), info)

    def news_lines(self) -> int:
        """None when printing line by line (the news is already above the board)."""
        if self.plain or not isinstance(self, LiveScreen):
            return 0
        return max(2, min(6, self.console.size.height - 34))

    def show(self, renderable: RenderableType) -> None:
        if self.plain:
            self.console.print(to_plain(renderable, PLAIN_WIDTH), end="", markup=False)
        else:
            self.console.print(renderable)

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style), soft_wrap=True)

    def start(self, game: Game) -> None:
        self.game = game

    def learn(self, step: Step) -> list[News]:
        items = self.announce(step.events)
        self.news.extend(items)
        del self.news[:-NEWS_KEPT]
        return items

    def observe(self, step: Step) -> None:
        for item in self.learn(step):
            self.console.print(item.styled(), soft_wrap=True)
        kinds = {event.kind for event in step.events}
        if "race-started" in kinds or "race-finished" in kinds:
            self.show(self.render(step.after))

    def before_prompt(self, state: DerbyState | None) -> None:
        if state is not None:
            self.show(self.render(state))

    def after_prompt(self) -> None:
        """Nothing to restore when printing line by line."""

    def prompt(self, text: str, default: str | None = None) -> str:
        answer = typer.prompt(text, default=default) if default is not None else typer.prompt(text)
        return str(answer)

    def close(self) -> None:
        """Nothing to tear down when printing line by line."""


@dataclass
class LiveScreen(Screen):
    """Redraws the board after every step: each die as it falls, a pause at each turn's end."""

    speed: float = DEFAULT_SPEED
    live: Live | None = None

    def start(self, game: Game) -> None:
        super().start(game)
        self._open()

    def _open(self) -> None:
        self.live = Live(self.render(), console=self.console, auto_refresh=False)
        self.live.start(refresh=True)

    def observe(self, step: Step) -> None:
        self.learn(step)
        after: DerbyState = step.after
        if self.live is not None:
            self.live.update(self.render(after), refresh=True)
        race = after.race
        if "race-finished" in {event.kind for event in step.events}:
            self._pause(6)
        elif step.actor is CHANCE and after.phase is Phase.RACE and race is not None:
            self._pause(0.1 if race.dice else 1)
        else:
            self._pause(0.25)

    def _pause(self, times: float) -> None:
        if self.speed > 0:
            time.sleep(self.speed * times)

    def before_prompt(self, state: DerbyState | None) -> None:
        if state is not None and self.live is not None:
            self.live.update(self.render(state), refresh=True)
        self.close()

    def after_prompt(self) -> None:
        self.console.clear()
        self._open()

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


# --- people --------------------------------------------------------------------------------------


def match_answer(answer: str, legal: Sequence[Action]) -> Action | None:
    """'7', 'horse 7', '$2', 'wager 2': the legal action with that text or that number."""
    word = " ".join(answer.strip().lower().replace("$", "").split())
    for action in legal:
        text = action.text.lower()
        if word == text or word == text.split()[-1]:
            return action
    return None


def number_ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5, 7, 8] -> '1-3, 5, 7-8'."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


class KeyboardAgent:
    """A seat played by a person: the board, the choices, a question until the answer is legal."""

    def __init__(self, seat: int, screen: Screen) -> None:
        self.seat = seat
        self.screen = screen

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a person was asked to move with no legal action")
        assert isinstance(view, DerbyView) and self.screen.game is not None
        screen = self.screen
        screen.before_prompt(self.screen.game.state)
        try:
            question, default = self._question(view, legal)
            while True:
                chosen = match_answer(screen.prompt(question, default), legal)
                if chosen is not None:
                    return chosen
                screen.say("not a choice here; " + question, "red")
        finally:
            screen.after_prompt()

    def _question(self, view: DerbyView, legal: Sequence[Action]) -> tuple[str, str]:
        name = seat_name(self.screen.names, self.seat)
        first = legal[0].text.split()[-1]
        if isinstance(legal[0], Wager):
            value = wager_value(view, self.seat)
            best = legal[-1] if value > 0 else legal[0]
            return (
                f"{name}, wager on horse {view.horses[self.seat]} at odds"
                f" {view.odds[self.seat]} ($0-${len(legal) - 1}; each $1 is worth"
                f" {float(value):+.2f} on average)",
                best.text.split()[-1],
            )
        if legal[0].text.startswith("silk"):
            self.screen.show(silk_table([s for s in view.silks if s]))
            return f"{name}, your silk (1-24)", first
        free = number_ranges([int(a.text.split()[-1]) for a in legal])
        return f"{name}, your horse (free: {free})", first


class CompanionChance:
    """The dice of a real table, typed in: each die asked for by name, the board shown before
    each turn's first die."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self._context = ""
        self._typed = TypedChance(self._ask, lambda text: screen.say(text, "red"))

    def _ask(self, question: str) -> str:
        return self.screen.prompt(f"{self._context}: {question}")

    def choose(self, rules: Any, state: Any) -> Action:
        assert isinstance(state, DerbyState)
        names = self.screen.names
        race = state.race
        show = True
        if state.phase is Phase.ODDS:
            seat = state.seat_to_act
            self._context = f"odds die of {seat_name(names, seat)} (horse {state.horses[seat]})"
        elif state.phase is Phase.SCRATCH:
            self._context = f"scratch roll ({state.scratches_left} to go), d20"
        else:
            assert race is not None
            waiting = race.waiting_for
            if waiting == "mud":
                trying = race.mud_try
                assert trying is not None
                self._context = (
                    f"mud die of horse {trying.horse}, try {trying.attempt}/{trying.spaces}"
                )
            elif waiting == "accel":
                self._context = f"accelerator die of horse {race.accelerating}"
            else:
                die = len(race.dice) + 1
                kind = f"single die {die}" if die <= 2 else f"zone die {die - 2}"
                self._context = f"turn {race.turn}, {kind} (d20)"
                show = die == 1
        self.screen.before_prompt(state if show else None)
        try:
            return self._typed.choose(rules, state)
        finally:
            self.screen.after_prompt()


# --- running a game ------------------------------------------------------------------------------


def run(setup: Setup) -> int:
    """Play the game to its end (or to Ctrl-C); returns the exit code."""
    probe = Console(highlight=False)
    plain = not probe.is_terminal
    console = (
        Console(color_system=None, force_terminal=False, width=PLAIN_WIDTH, highlight=False)
        if plain
        else probe
    )
    rules = get_preset("derby").rules
    assert isinstance(rules, DerbyRules)
    common: dict[str, Any] = {
        "console": console,
        "rules": rules,
        "names": setup.names,
        "humans": setup.humans,
        "plain": plain,
    }
    screen: Screen
    if setup.animate and not plain and not setup.companion:
        screen = LiveScreen(**common, speed=setup.speed)
    else:
        screen = Screen(**common)
    mode = "typed" if setup.companion else "seeded"
    game = Game("derby", rules, setup.config, seed=setup.seed, chance_mode=mode)
    config = setup.config
    agents: dict[int, Agent] = {}
    for seat in range(config.players):
        if seat in setup.humans:
            agents[seat] = KeyboardAgent(seat, screen)
        else:
            kind = setup.bots[seat % len(setup.bots)]
            agents[seat] = make_derby_bot(kind, derive_seed(setup.seed, BOT_STREAM, seat))
    chance: ChanceSource = CompanionChance(screen) if setup.companion else SeededChance(setup.seed)
    extras = [f"{config.scratches} scratch(es)"] if config.scratches else []
    extras += ["house horses"] if config.all_horses else []
    console.print(
        Text(
            f"derby: {config.players} players, {config.races} race(s), ${config.starting_money}"
            f" each, track {config.track.name}" + "".join(f", {e}" for e in extras),
            style="bold",
        ),
        soft_wrap=True,
    )
    if not setup.companion:
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
    result = rules.result(game.state)
    screen.show(standings_table(result, setup.names))
    console.print(f"left in the pot (the bank's): ${result.unclaimed}", soft_wrap=True)
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
    console.print(f"record of {len(game.steps)} steps written to {path}", markup=False)
    return True
