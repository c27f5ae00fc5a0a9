"""What a person sees and types at a dice-board table: the screen (printed lines or a live,
redrawn board), the question put to a seat at the keyboard, and dice typed in from a real board."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType

from horserace.components.cards import total
from horserace.core.actions import Action
from horserace.core.chance import UndoRequested
from horserace.core.events import redact, seat_name
from horserace.core.rules import Rules
from horserace.core.types import CHANCE
from horserace.engine import Game, Step
from horserace.families.board.news import Takers, round_news
from horserace.families.board.render import (
    BoardInfo,
    News,
    finish_view,
    lane_odds,
    render_board,
    render_compact,
    step_news,
)
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.records import MARKET
from horserace.families.board.rules.state import BoardState, Phase
from horserace.families.board.rules.view import BoardView
from horserace.terminal.screen import Fitted, TableScreen, TypedOutcomes

DEFAULT_SPEED = 0.35
DEFAULT_NEWS_LINES = 5
DEAL_PAUSE = 2  # times --speed, once the deal is complete


@dataclass
class BoardScreen(TableScreen):
    """A line per announcement and a board at each race's end and before every question; or,
    animated, one board on the full screen redrawn after every roll."""

    last_dice: tuple[int, int] | None = None
    unit: str = "chips"  # the table's money: chips, or cents shown as dollars

    def render(self, view: BoardView, with_news: bool = True) -> RenderableType:
        info = BoardInfo(
            names=self.names,
            odds=lane_odds(view),
            news=self.news if with_news and self.display is None else (),
            last_dice=self.last_dice,
            humans=self.humans,
            title=self.title,
        )
        board = render_board(view, info, news_lines=self.news_lines(len(view.chips)))
        if self.display is None:
            return board
        return Fitted(board, render_compact(view, info))

    def news_lines(self, players: int) -> int:
        """As many announcements as fit under the board (lanes 12 lines, players 1 + n)."""
        if self.plain:
            return DEFAULT_NEWS_LINES
        spare = self.console.size.height - 2 - 12 - (players + 1) - 2
        return max(2, min(DEFAULT_NEWS_LINES, spare))

    def start(self, game: Game) -> None:
        self.game = game
        view: BoardView = self.current_view()
        self.unit = view.config.money
        if game.steps:  # a resumed game: its first deal is long past, nothing to announce
            if self.animated:
                self.open()
            return
        stub = view.undealt - view.to_deal
        first = round_news(view.round, view.dealer, view.to_deal, stub, self.names, view)
        self.keep(first)  # news the engine has no event for
        if self.animated:
            self.open()  # shown on the board, not printed above it
        else:
            self.print_news(first)

    def learn(self, step: Step) -> list[News]:
        """Keep the dice and the news from a step, as the viewer may see them."""
        events = redact(step.events, self.news_viewer)
        for event in events:
            if isinstance(event, ev.DiceRolled):
                self.last_dice = event.dice
        return self.keep(step_news(events, self.names, self.unit, Takers.of(step.after)))

    def observe(self, step: Step) -> None:
        items = self.learn(step)
        if not self.animated:
            self.print_news(items)
        if _race_won(step):
            self.result(self.render(self._finish(step), with_news=False), items, "The race is run")
            return
        if not self.animated:
            return
        before: BoardState = step.before
        if step.actor is not CHANCE:
            return
        if before.phase is Phase.DEAL:
            if step.after.phase is not Phase.DEAL:
                self.draw(self.current())
                self.pause(DEAL_PAUSE)
            return
        self.draw(self.current())
        self.pause(1)

    def _finish(self, step: Step) -> BoardView:
        before = self.rules.view(step.before, self.viewer)
        after = self.rules.view(step.after, self.viewer)
        return finish_view(before, after, step.events)

    def prompt_board(self, seen: Any) -> RenderableType:
        return self.render(seen, with_news=self.animated)

    def ends_race(self, step: Step) -> bool:
        return _race_won(step)


def _race_won(step: Step) -> bool:
    return any(isinstance(event, ev.RaceWon) for event in step.events)


# --- dice typed in from a real board ----------------------------------------------------------


class CompanionChance(TypedOutcomes):
    """Chance read off a real board: before each roll the board is shown and the dice asked for;
    each dealt card is asked for with the seat it goes to, numbered within its deal (also when
    the game was resumed, or an entry undone, in the middle of one)."""

    def __init__(self, screen: TableScreen) -> None:
        super().__init__(screen)
        self._dealing = False  # whether the last question was a card of the deal under way

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        forced = rules.forced_chance(state)
        if forced is not None:  # paying out or the next round: nothing to type
            self._dealing = False
            return forced
        names = self.screen.names
        view: BoardView = rules.view(state, self.screen.viewer)
        if view.phase is not Phase.DEAL:
            self._dealing = False
            return self.typed(rules, state, f"{seat_name(names, view.roller)} rolls", view)
        dealt = cards_dealt(state)
        # the table shown once a deal: as it begins, or as the typing takes it up again
        seen = view if dealt == 0 or not self._dealing else None
        self._dealing = True
        seat = view.deal_to
        who = "the market" if seat is None or seat is MARKET else seat_name(names, seat)
        context = f"card {dealt + 1}/{dealt + view.to_deal} to {who}"
        try:
            return self.typed(rules, state, context, seen)
        except UndoRequested:
            self._dealing = False
            raise


def cards_dealt(state: BoardState) -> int:
    """The cards dealt so far in this round: in the hands, the draft packets and the market."""
    cards = state.cards
    return sum(total(hand) for hand in (*cards.hands, *cards.packets)) + total(cards.market)
