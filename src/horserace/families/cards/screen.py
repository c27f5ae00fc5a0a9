"""What a person sees and types at a card-race table: the screen (printed lines, or a live board
redrawn after every card), the question put to a seat at the keyboard, the final standings."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.console import RenderableType

from horserace.engine import Step
from horserace.families.cards.news import table_news
from horserace.families.cards.render import BoardInfo, board_odds, render_board
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.state import CardsPhase, CardsState, CardsView
from horserace.terminal.screen import Fitted, TableScreen
from horserace.terminal.standings import standings_table

__all__ = ["CardsScreen", "standings_table"]


@dataclass
class CardsScreen(TableScreen):
    """A line per step and the board after each race and before a person is asked anything;
    or, animated, one board redrawn after every step, pausing after each card turned."""

    def render(self, view: CardsView) -> RenderableType:
        odds, note = board_odds(view)
        news = () if self.plain or self.display is not None else self.news  # in the log already
        info = BoardInfo(self.names, self.title, odds, note, news, self.humans)
        if self.display is None:
            return render_board(view, info)
        return Fitted(render_board(view, info), render_board(view, info, compact=True))

    def observe(self, step: Step) -> None:
        items = self.keep(table_news(step, self.names, self.news_viewer))
        race_over = self.ends_race(step)
        if not self.animated:
            self.print_news(items)  # the course's cards too: the log the full screen keeps
        if race_over:
            self.result(self.render(self._race_end(step)), items, "The race is over")
            return
        if not self.animated:
            return
        self.draw(self.current())
        before: CardsState = step.before
        if before.phase is CardsPhase.RACE:
            self.pause(1)
        elif before.phase is CardsPhase.COURSE:
            self.pause(0.3)
        else:
            self.pause(0.5)

    def _race_end(self, step: Step) -> CardsView:
        """The board as the race ended: `after` may already be the next race."""
        before: CardsView = self.rules.view(step.before, self.viewer)
        after: CardsView = self.rules.view(step.after, self.viewer)
        track = before.track
        for event in step.events:
            if isinstance(event, (ev.HorseMoved, ev.HorseFellBack)):
                positions = list(track.positions)
                positions[event.suit] = event.position
                track = replace(track, positions=tuple(positions))
            if isinstance(event, ev.JokerTurned):
                moved = tuple(p + (s in event.moved) for s, p in enumerate(track.positions))
                track = replace(track, positions=moved)
            if isinstance(event, ev.HorseFinished) and event.suit not in track.finished:
                track = replace(track, finished=(*track.finished, event.suit))
        turned = [e.card for e in step.events if isinstance(e, ev.CardTurned)]
        return replace(
            before,
            track=track,
            turned=before.turned + tuple(turned),
            chips=after.chips,
            table=after.table,
            bank=after.bank,
            phase=CardsPhase.OVER if after.phase is CardsPhase.OVER else before.phase,
            actor=None,
        )

    def prompt_board(self, seen: Any) -> RenderableType:
        return self.render(seen)

    def ends_race(self, step: Step) -> bool:
        return any(isinstance(event, ev.RaceOver) for event in step.events)
