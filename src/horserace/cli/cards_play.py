"""`horserace play basic|scarne|calcutta`: a card-race table in the terminal, watched live or
played at the keyboard. The game runs through the engine's one play loop; this module supplies
the agents and a screen (cards_render.py) that observes every step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from horserace.bots.cards_bots import make_cards_bot
from horserace.cli.cards_render import PLAIN_WIDTH, LiveScreen, Screen
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.errors import HorseraceError
from horserace.core.events import seat_name
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.core.rules import Result
from horserace.engine import Agent, Game, play
from horserace.rules.cards.actions import Bid, BookBet
from horserace.rules.cards.config import CardsConfig
from horserace.rules.cards.rules import STYLES
from horserace.rules.cards.state import CardsView
from horserace.rules.registry import get_preset

INTERRUPTED = 130
RECORD_FAILED = 1

HINTS = {
    "book": "bet STAKE SUIT (e.g. bet 5 H), or done",
    "tote": "win|place|show|board STAKE SUIT, exacta STAKE S1 S2, trifecta ..., superfecta ...,"
    " or done",
    "party": "pick SUIT (C, D, H or S)",
    "calcutta": "bid CHIPS, or pass",
}


@dataclass(frozen=True)
class PlaySetup:
    """Everything the options decide, checked before the game starts."""

    preset: str
    config: CardsConfig
    seed: int
    names: list[str]
    humans: frozenset[int]
    bots: tuple[str, ...]
    animate: bool
    speed: float
    record: Path | None


class CardsKeyboardAgent:
    """A seat played by a person: the board as that seat sees it, then a question until the
    answer names a legal action (Enter: done, or pass at the auction)."""

    def __init__(self, seat: int, screen: Screen) -> None:
        self.seat = seat
        self.screen = screen

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a person was asked to move with no legal action")
        assert isinstance(view, CardsView)
        style = STYLES[view.config.betting]
        by_text = {action.text: action for action in legal}
        self.screen.viewer = self.seat
        self.screen.before_prompt(view)
        name = seat_name(self.screen.names, self.seat)
        default = "pass" if view.config.betting == "calcutta" else "done"
        if view.config.betting == "party":
            default = legal[0].text
        try:
            while True:
                hint = self._hint(view, legal)
                answer = self.screen.prompt(f"{name}: {hint}", default)
                try:
                    action = style.parse(answer)
                except HorseraceError as error:
                    self.screen.say(f"not understood: {error}", "red")
                    continue
                chosen = by_text.get(action.text)
                if chosen is not None:
                    return chosen
                self.screen.say(f"not allowed now: {action.text}", "red")
        finally:
            self.screen.after_prompt()

    def _hint(self, view: CardsView, legal: Sequence[Action]) -> str:
        style = view.config.betting
        if style == "calcutta":
            amounts = [a.amount for a in legal if isinstance(a, Bid)]
            if amounts:
                return f"bid {min(amounts)} to {max(amounts)}, or pass"
            return "pass"
        if style == "book":
            most = {suit: 0 for suit in "CDHS"}
            for action in legal:
                if isinstance(action, BookBet):
                    letter = "CDHS"[action.suit]
                    most[letter] = max(most[letter], action.stake)
            room = ", ".join(f"{suit} {m}" for suit, m in most.items())
            return f"{HINTS[style]} (most: {room})"
        return HINTS[style]


def _agents(setup: PlaySetup, screen: Screen) -> dict[int, Agent]:
    agents: dict[int, Agent] = {}
    for seat, kind in enumerate(setup.bots):
        if seat in setup.humans:
            agents[seat] = CardsKeyboardAgent(seat, screen)
        else:
            agents[seat] = make_cards_bot(kind, derive_seed(setup.seed, BOT_STREAM, seat))
    return agents


def run_table(setup: PlaySetup) -> int:
    """Play the game to its end (or to Ctrl-C); returns the exit code."""
    probe = Console(highlight=False)
    plain = not probe.is_terminal
    console = (
        Console(color_system=None, force_terminal=False, width=PLAIN_WIDTH, highlight=False)
        if plain
        else probe
    )
    preset = get_preset(setup.preset)
    common: dict[str, Any] = {
        "console": console,
        "rules": preset.rules,
        "names": setup.names,
        "humans": setup.humans,
        "title": setup.preset,
        "plain": plain,
        "viewer": min(setup.humans) if setup.humans else None,
    }
    screen: Screen = (
        LiveScreen(**common, speed=setup.speed) if setup.animate and not plain else Screen(**common)
    )
    game = Game(setup.preset, preset.rules, setup.config, seed=setup.seed, chance_mode="seeded")
    config = setup.config
    console.print(
        Text(
            f"{setup.preset}: {config.players} players, {config.races} race(s),"
            f" {config.starting_chips} chips each, betting: {config.betting};"
            f" bots: {', '.join(k for s, k in enumerate(setup.bots) if s not in setup.humans)}",
            style="bold",
        ),
        soft_wrap=True,
    )
    console.print(f"seed {setup.seed} (re-run with --seed {setup.seed})", soft_wrap=True)
    try:
        screen.start(game)
        play(game, _agents(setup, screen), SeededChance(setup.seed), observe=screen.observe)
    except (KeyboardInterrupt, typer.Abort):
        screen.close()
        console.print(Text(f"interrupted after {len(game.steps)} steps", style="bold red"))
        _write_record(game, setup.record, console)
        return INTERRUPTED
    screen.close()
    result = preset.rules.result(game.state)
    screen.show(standings_table(result, setup.names))
    console.print(f"chips not held by a player: {result.unclaimed}", soft_wrap=True)
    return 0 if _write_record(game, setup.record, console) else RECORD_FAILED


def standings_table(result: Result, names: Sequence[str]) -> Table:
    places = [standing.place for standing in result.standings]
    table = Table(title="Final standings", box=box.SIMPLE_HEAD, title_style="bold")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("chips", justify="right")
    for standing in result.standings:
        shared = places.count(standing.place) > 1
        place = f"={standing.place}" if shared else str(standing.place)
        style = "bold green" if standing.place == 1 else ""
        table.add_row(
            place, Text(seat_name(names, standing.seat), style=style), str(standing.chips)
        )
    return table


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
    console.print(f"record of {len(game.steps)} steps written to {path}", soft_wrap=True)
    return True


__all__ = ["CardsKeyboardAgent", "PlaySetup", "run_table", "standings_table"]
