"""What a person sees and types at a board-game table: the screen (printed lines or a live,
redrawn board), a seat played at the keyboard, and dice typed in from a real board."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import typer
from rich.console import Console, RenderableType
from rich.live import Live
from rich.text import Text

from horserace.cli.board_render import (
    BoardInfo,
    News,
    finish_view,
    lane_odds,
    render_board,
    step_news,
    to_plain,
)
from horserace.core.actions import Action
from horserace.core.chance import TypedChance
from horserace.core.errors import InvalidAction
from horserace.core.events import redact, seat_name
from horserace.core.rules import Rules
from horserace.core.types import CHANCE
from horserace.engine import Game, Step
from horserace.rules.board import events as ev
from horserace.rules.board.actions import Offer, parse_seat_action
from horserace.rules.board.state import BoardState, Phase
from horserace.rules.board.view import BoardView

DEFAULT_SPEED = 0.35
PLAIN_WIDTH = 80
NEWS_KEPT = 40
DEFAULT_NEWS_LINES = 5
DEAL_PAUSE = 2  # times --speed, once the deal is complete
FINISH_PAUSE = 8  # times --speed, with the winner in its finish slot


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
    unit: str = "chips"  # the table's money: chips, or cents shown as dollars

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
        self.unit = view.config.money
        dealt = view.to_deal
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
        items = step_news(events, self.names, self.unit)
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
                chosen = _match(answer, legal) or _free_offer(answer, self.seat, view, legal)
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


def _free_offer(answer: str, seat: int, view: BoardView, legal: Sequence[Action]) -> Offer | None:
    """Perry's window lists the everyday offers, but any exchange may be offered
    (`offer 3: 6 9 for 7 K`): checked here against what the seat can see."""
    if not answer.strip().lower().startswith("offer"):
        return None
    if not any(isinstance(action, Offer) for action in legal):
        return None
    try:
        offer = parse_seat_action(answer, seat)
    except InvalidAction:
        return None
    if not isinstance(offer, Offer) or offer.target == seat:
        return None
    if not 0 <= offer.target < len(view.out) or view.out[offer.target]:
        return None
    own, theirs = view.hands[seat], view.hands[offer.target]
    if own is None or any(offer.give.count(r) > own[r] for r in set(offer.give)):
        return None
    if theirs is not None and any(offer.take.count(r) > theirs[r] for r in set(offer.take)):
        return None
    return offer


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
        forced = rules.forced_chance(state)
        if forced is not None:  # paying out or the next round: nothing to type
            return forced
        names = self.screen.names
        view: BoardView = rules.view(state, self.screen.viewer)
        if view.phase is Phase.DEAL:
            if view.to_deal > self._left:  # a new deal begins: show the table once
                self._deal_total = view.to_deal
                self.screen.before_prompt(view)
            else:
                self.screen.before_prompt(None)
            self._left = view.to_deal
            number = self._deal_total - view.to_deal + 1
            who = seat_name(names, view.deal_to) if view.deal_to < len(names) else "the market"
            self._context = f"card {number}/{self._deal_total} to {who}"
        else:
            self._left = 0
            self._context = f"{seat_name(names, view.roller)} rolls"
            self.screen.before_prompt(view)
        try:
            return self._typed.choose(rules, state)
        finally:
            self.screen.after_prompt()
