"""What a person sees and types at a Derby table: the screen (news lines and a board as each race
starts and ends, or a live board redrawn die by die), the questions put to a seat at the
keyboard, and the dice of a real table typed in."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

from horserace.core.actions import Action
from horserace.core.events import seat_name
from horserace.core.types import CHANCE
from horserace.engine import Step
from horserace.families.derby import live_odds
from horserace.families.derby.compact import compact_table
from horserace.families.derby.render import Announcer, DerbyInfo, render_table
from horserace.families.derby.rules.model import DerbyPhase, DerbyState, DerbyView
from horserace.families.derby.sampled_odds import PlaceOdds
from horserace.terminal.screen import Fitted, TableScreen, TypedOutcomes

DEFAULT_SPEED = 0.4


@dataclass
class DerbyScreen(TableScreen):
    """Prints the news line by line and the board when a race starts and ends, and before every
    question put to a person; animated, it redraws one board after every die."""

    odds_view: DerbyView | None = None  # the position whose odds the board shows
    announce: Announcer | None = None

    def view(self, state: DerbyState | None = None) -> DerbyView:
        if state is None:
            assert self.game is not None
            state = self.game.state
        view: DerbyView = self.rules.view(state, None)
        return view

    def current_odds(self, state: DerbyState) -> PlaceOdds | None:
        """The odds of the position at the turn's start (not die by die: six kernel runs a turn
        for little news): within a tenth of a point. The full screen shows the quick estimate
        (`rough`) until they are in, then draws the board again; a printed board waits."""
        race = state.race
        mid_turn = state.phase is DerbyPhase.RACE and race is not None and bool(race.dice)
        if not mid_turn or self.odds_view is None:
            self.odds_view = self.view(state)
        if self.display is None:
            return live_odds.LIVE.precise(self.odds_view)
        return live_odds.LIVE.odds(self.odds_view, ready=self.odds_ready)

    def odds_ready(self) -> None:
        """The precise odds are in (called on the odds' thread): the board drawn again."""
        if self.display is not None and self.game is not None:
            self.display.redraw(self.current())

    def settle(self) -> None:
        """Wait until the board shows the precise odds (a test's picture is then the same every
        time), and draw it."""
        if self.odds_view is not None and self.display is not None:
            live_odds.LIVE.precise(self.odds_view)
            self.display.redraw(self.current())

    def start(self, game: Any) -> None:
        """The odds' kernel compiled (or loaded from numba's cache) while the horses are picked,
        on a thread of its own, so that the first race's board does not wait for it."""
        if self.display is not None:
            from horserace.families.derby.family import FAMILY

            threading.Thread(target=FAMILY.prepare_odds, name="derby-kernel", daemon=True).start()
        super().start(game)

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


# --- people --------------------------------------------------------------------------------------


class CompanionChance(TypedOutcomes):
    """The dice of a real table, typed in: each die asked for by name, the board shown before
    each turn's first die."""

    def choose(self, rules: Any, state: Any) -> Action:
        assert isinstance(state, DerbyState)
        names = self.screen.names
        race = state.race
        show = True
        if state.phase is DerbyPhase.ODDS:
            seat = state.seat_to_act
            context = f"odds die of {seat_name(names, seat)} (horse {state.horses[seat]})"
        elif state.phase is DerbyPhase.SCRATCH:
            context = f"scratch roll ({state.scratches_left} to go), d20"
        else:
            assert race is not None
            waiting = race.waiting_for
            if waiting == "mud":
                trying = race.mud_try
                assert trying is not None
                context = f"mud die of horse {trying.horse}, try {trying.attempt}/{trying.spaces}"
            elif waiting == "accel":
                context = f"accelerator die of horse {race.accelerating}"
            else:
                die = len(race.dice) + 1
                kind = f"single die {die}" if die <= 2 else f"zone die {die - 2}"
                context = f"turn {race.turn}, {kind} (d20)"
                show = die == 1
        return self.typed(rules, state, context, state if show else None)
