"""What a person sees and types at a dice-board table: the screen (printed lines or a live,
redrawn board), the question put to a seat at the keyboard, and dice typed in from a real board."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.console import RenderableType

from horserace.components.cards import add_counts, counts_from_ranks, rank_text, total
from horserace.core.actions import Action
from horserace.core.chance import UNDO_WORD, UndoRequested, refusal
from horserace.core.errors import InvalidAction
from horserace.core.events import redact, seat_name
from horserace.core.rules import Rules
from horserace.core.types import CHANCE
from horserace.core.words import counted
from horserace.engine import Game, Step
from horserace.families.board.hand_entry import (
    REST,
    Hand,
    next_hand,
    read_hand,
    still_to_deal,
    the_rest,
)
from horserace.families.board.news import Takers, round_news
from horserace.families.board.render import (
    BoardInfo,
    News,
    finish_view,
    lane_odds,
    render_board,
    render_compact,
    render_tight,
    step_news,
)
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.actions import Deal
from horserace.families.board.rules.records import MARKET
from horserace.families.board.rules.state import BoardState, Phase
from horserace.families.board.rules.view import BoardView
from horserace.families.board.settlement import money_table
from horserace.terminal.screen import Fitted, TableScreen, TypedOutcomes

DEFAULT_SPEED = 0.35
DEFAULT_NEWS_LINES = 5
DEAL_PAUSE = 2  # times --speed, once the deal is complete


@dataclass
class BoardScreen(TableScreen):
    """A line per announcement and a board at each race's end and before every question; or,
    animated, one board on the full screen redrawn after every roll."""

    last_dice: tuple[int, ...] | None = None  # two dice, or Robertson's four
    unit: str = "chips"  # the table's money: chips, or cents shown as dollars
    began: tuple[int, ...] = ()  # each seat's money as the round began
    won: tuple[BoardView, list[News]] | None = None  # the race as it ended, until it is paid

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
        return Fitted(board, render_compact(view, info), render_tight(view, info))

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
        self.began = view.chips
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
            if isinstance(event, ev.DiceRolled | ev.FourDiceRolled):  # the old ones go
                self.last_dice = event.dice
        return self.keep(step_news(events, self.names, self.unit, Takers.of(step.after)))

    def observe(self, step: Step) -> None:
        items = self.learn(step)
        if not self.animated:
            self.print_news(items)
        if any(isinstance(event, ev.RoundStarted) for event in step.events):
            self.began = self.rules.view(step.after, self.viewer).chips
        if _race_won(step):
            self.won = (self._finish(step), items)
            self.draw(self.render(self.won[0], with_news=False))
            return
        if self.won is not None:  # the payout: the race, the pots and the money in one block
            self.settled(step, self.won[0], [*self.won[1], *items])
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

    def settled(self, step: Step, ended: BoardView, lines: list[News]) -> None:
        """The race's result held over the board as it ended, with the payout's lines and
        each seat's money (`settlement.money_table`)."""
        self.won = None
        after: BoardView = self.rules.view(step.after, self.viewer)
        board = replace(ended, chips=after.chips, pot=after.pot, jockey=after.jockey)
        events = redact(step.events, self.news_viewer)
        table = money_table(self.names, self.began, after.chips, events, self.unit)
        self.result(self.render(board, with_news=False), lines, "The race is run", table)

    def _finish(self, step: Step) -> BoardView:
        before = self.rules.view(step.before, self.viewer)
        after = self.rules.view(step.after, self.viewer)
        return finish_view(before, after, step.events)

    def prompt_board(self, seen: Any) -> RenderableType:
        return self.render(seen, with_news=self.animated)

    def ends_race(self, step: Step) -> bool:
        """The race ends as it is paid (the step after the crossing): a replay going to the
        next race starts after the payout."""
        return any(isinstance(event, ev.PotShared) for event in step.events)


def _race_won(step: Step) -> bool:
    return any(isinstance(event, ev.RaceWon) for event in step.events)


# --- dice typed in from a real board ----------------------------------------------------------


class CompanionChance(TypedOutcomes):
    """Chance read off a real board: before each roll the board is shown and the dice asked for
    (the sum alone will do where only the sum counts); each hand of a deal is typed in one line
    ('3 4 5 J'), its cards then dealt one at a time as the deal goes round the table (each a
    step of the record, written as it is dealt), the hands typed but not yet dealt shown on the
    board. An undo in the middle of a deal takes back the last line typed, whole."""

    def __init__(self, screen: TableScreen) -> None:
        super().__init__(screen)
        self._held: dict[Hand, list[int]] = {}  # ranks typed in but not dealt yet, by hand
        self._lines: list[_Line] = []  # the lines typed in this deal, the last one last

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        forced = rules.forced_chance(state)
        hand = None if forced is not None else next_hand(state)
        if hand is None:  # a roll, or paying out and the next round (nothing to type)
            self._held, self._lines = {}, []
            if forced is not None:
                return forced
            view: BoardView = rules.view(state, self.screen.viewer)
            return self.typed(
                rules, state, f"{seat_name(self.screen.names, view.roller)} rolls", view
            )
        held = self._held.get(hand)
        if held:
            return Deal(held.pop(0))
        return self._typed_hand(rules, state, hand)

    def _typed_hand(self, rules: Rules[Any, Any], state: BoardState, hand: Hand) -> Action:
        """Ask for the cards `hand` still gets, in one line, until the line is right."""
        if not any(self._held.values()):  # every line typed is dealt: undo goes card by card
            self._lines = []
        who = "the market" if hand is MARKET else seat_name(self.screen.names, hand)
        owed = still_to_deal(state)[hand]
        dealt = cards_dealt(state)
        remaining = sum(still_to_deal(state).values())
        context = (
            f"{who}'s hand, {counted(owed, 'card')} (card {dealt + 1}/{dealt + remaining} next)"
        )
        view: BoardView = rules.view(state, self.screen.viewer)
        self.screen.before_prompt(self._as_entered(view))
        rest = f" or {REST}" if len(the_rest(state, self._held)) == owed else ""
        try:
            while True:
                text = self.screen.prompt(
                    f"{context}: type them in one line (e.g. 3 4 5 J{rest}), or {UNDO_WORD}"
                )
                if text.strip().lower() == UNDO_WORD:
                    self._undo(dealt)
                try:
                    ranks = read_hand(state, hand, who, text, self._held)
                except InvalidAction as error:
                    self.screen.say(refusal(error), "red")
                    continue
                break
        finally:
            self.screen.after_prompt()
        # a hidden hand stays hidden on the screen: its cards are named only where it is shown
        shown = view.hands[hand] is not None if isinstance(hand, int) else view.market is not None
        entered = " ".join(rank_text(rank) for rank in ranks) if shown else ""
        before = {each: list(cards) for each, cards in self._held.items()}
        self._lines.append(
            _Line(dealt, before, f"{who}'s hand ({entered})" if shown else f"{who}'s hand")
        )
        self._held[hand] = list(ranks[1:])
        if len(ranks) > 1 and shown:
            self.screen.say(f"{who}'s hand as entered: {entered}")
        return Deal(ranks[0])

    def _undo(self, dealt: int) -> None:
        """Take back the last line typed in this deal (its cards dealt since, and the cards of
        the others dealt after them), else the last outcome typed, as before."""
        if not self._lines:
            self._held = {}
            raise UndoRequested
        line = self._lines.pop()
        self._held = line.held
        raise UndoRequested(dealt - line.dealt, line.what)

    def _as_entered(self, view: BoardView) -> BoardView:
        """The board with the hands as they were typed in, the cards still to be dealt too."""
        hands = list(view.hands)
        sizes = list(view.hand_sizes)
        market = view.market
        for hand, ranks in self._held.items():
            extra = counts_from_ranks(ranks)
            if hand is MARKET:
                market = None if market is None else add_counts(market, extra)
                continue
            seen = hands[hand]
            hands[hand] = None if seen is None else add_counts(seen, extra)
            sizes[hand] += len(ranks)
        return replace(view, hands=tuple(hands), hand_sizes=tuple(sizes), market=market)


@dataclass(frozen=True)
class _Line:
    """A line of cards typed in: the cards dealt before it, what was held then, and its words."""

    dealt: int
    held: dict[Hand, list[int]]
    what: str


def cards_dealt(state: BoardState) -> int:
    """The cards dealt so far in this round: in the hands, the draft packets and the market."""
    cards = state.cards
    return sum(total(hand) for hand in (*cards.hands, *cards.packets)) + total(cards.market)
