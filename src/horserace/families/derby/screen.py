"""What a person sees and types at a Derby table: the screen (news lines and a board as each race
starts and ends, or a live board redrawn die by die), the questions put to a seat at the
keyboard, and the dice of a real table typed in."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rich.console import RenderableType

from horserace.core.actions import Action
from horserace.core.chance import TypedChance
from horserace.core.events import seat_name
from horserace.core.types import CHANCE
from horserace.engine import Step
from horserace.families.derby.compact import compact_table
from horserace.families.derby.render import Announcer, DerbyInfo, render_table
from horserace.families.derby.rules.model import DerbyPhase, DerbyState, DerbyView
from horserace.families.derby.sampled_odds import LIVE_SAMPLES, PlaceOdds, table_odds
from horserace.terminal.screen import Fitted, TableScreen

DEFAULT_SPEED = 0.4


@dataclass
class DerbyScreen(TableScreen):
    """Prints the news line by line and the board when a race starts and ends, and before every
    question put to a person; animated, it redraws one board after every die."""

    odds: PlaceOdds | None = None
    odds_key: tuple[Any, ...] = ()
    announce: Announcer | None = None

    def view(self, state: DerbyState | None = None) -> DerbyView:
        if state is None:
            assert self.game is not None
            state = self.game.state
        view: DerbyView = self.rules.view(state, None)
        return view

    def current_odds(self, state: DerbyState) -> PlaceOdds | None:
        """Recomputed when the table changes between turns (never mid-turn: a die at a time
        would be six kernel runs a turn for little news)."""
        race = state.race
        mid_turn = state.phase is DerbyPhase.RACE and race is not None and bool(race.dice)
        if mid_turn:
            return self.odds
        key: tuple[Any, ...] = (state.phase, state.race_number, state.horses, state.scratched)
        if race is not None and state.phase is not DerbyPhase.SELECT:
            key += (race.positions, race.stuck, race.blocks, race.turn)
        if key != self.odds_key:
            self.odds_key = key
            self.odds = live_odds(state)
        return self.odds

    def render(self, state: DerbyState | None = None) -> RenderableType:
        state = state if state is not None else (self.game.state if self.game else None)
        assert state is not None
        info = DerbyInfo(
            names=self.names,
            odds=self.current_odds(state),
            news=self.news,
            humans=self.humans,
            news_lines=0 if self.plain or self.display is not None else 4,
        )
        view = self.view(state)
        if self.display is None:
            return render_table(view, info)
        return Fitted(render_table(view, info), compact_table(view, info))

    def current(self) -> RenderableType:
        return self.render()

    def observe(self, step: Step) -> None:
        if self.announce is None:
            self.announce = Announcer(self.names)
        items = self.keep(self.announce(step.events))
        kinds = {event.kind for event in step.events}
        if "race-finished" in kinds:
            if not self.animated:
                self.print_news(items)
            self.result(self.render(step.after), items, "The race is over")
            return
        if not self.animated:
            self.print_news(items)
            if "race-started" in kinds:
                self.show(self.render(step.after))
            return
        after: DerbyState = step.after
        self.draw(self.render(after))
        race = after.race
        if step.actor is CHANCE and after.phase is DerbyPhase.RACE and race is not None:
            self.pause(0.1 if race.dice else 1)
        else:
            self.pause(0.25)

    def prompt_board(self, seen: Any) -> RenderableType:
        return self.render(seen)

    def ends_race(self, step: Step) -> bool:
        return any(event.kind == "race-finished" for event in step.events)


@lru_cache(maxsize=64)
def live_odds(state: DerbyState) -> PlaceOdds | None:
    """A table's odds, kept a while: a replay stepping back and forth asks for the same ones."""
    race = state.race
    return table_odds(state, samples=LIVE_SAMPLES, seed=race.turn if race else 0)


# --- people --------------------------------------------------------------------------------------


class CompanionChance:
    """The dice of a real table, typed in: each die asked for by name, the board shown before
    each turn's first die."""

    def __init__(self, screen: TableScreen) -> None:
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
        if state.phase is DerbyPhase.ODDS:
            seat = state.seat_to_act
            self._context = f"odds die of {seat_name(names, seat)} (horse {state.horses[seat]})"
        elif state.phase is DerbyPhase.SCRATCH:
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
