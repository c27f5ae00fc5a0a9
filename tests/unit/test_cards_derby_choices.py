"""The card race's and the Derby's questions: the Calcutta bid field (+1/+5/+10 over the
standing bid, a limit that is named) and a pass that says it leaves the bidding on that horse;
the book's stake named by its limit; a Derby wager keyed by its amount; Enter alone answers
none of them."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.drivers.bots import make_bot
from horserace.engine import Game, play
from horserace.families.cards.choices import CardsAsker
from horserace.families.cards.rules.actions import DONE, NO_BID, Bid, BookBet
from horserace.families.derby.choices import DerbyAsker
from horserace.families.derby.rules.model import ChooseHorse, Wager
from horserace.families.presets import get_preset
from horserace.terminal.choices import Choice, Rejection, resolve
from horserace.terminal.keyboard import KeyboardAgent
from horserace.terminal.plain import PlainPresenter
from horserace.terminal.screen import TableScreen


class Reached(Exception):
    def __init__(self, view: Any, legal: Sequence[Action]) -> None:
        self.view, self.legal = view, legal


class Probe:
    def __init__(self, bot: Any, wanted: Callable[[Sequence[Action]], bool]) -> None:
        self.bot, self.wanted = bot, wanted

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if self.wanted(legal):
            raise Reached(view, legal)
        action: Action = self.bot.choose(view, legal)
        return action


def table(preset: str, options: dict[str, Any], family: str, kind: str) -> tuple[Game, Any]:
    chosen = get_preset(preset)
    game = Game(preset, chosen.rules, chosen.config(options), seed=3, chance_mode="seeded")
    seats = chosen.rules.players(game.config)
    bots = {s: make_bot(kind, 100 + s, family) for s in range(seats)}
    return game, bots


def reach(game: Game, bots: dict[int, Any], seat: int, wanted: Any) -> tuple[Any, Any]:
    agents = dict(bots)
    agents[seat] = Probe(bots[seat], wanted)
    try:
        play(game, agents, SeededChance(9))
    except Reached as reached:
        return reached.view, reached.legal
    raise AssertionError("never asked")


def screen_for(game: Game) -> TableScreen:
    names = [f"P{s + 1}" for s in range(game.rules.players(game.config))]
    return TableScreen(
        console=Console(file=io.StringIO(), width=100),
        rules=game.rules,
        names=names,
        humans=frozenset({1}),
        plain=True,
        game=game,
    )


def test_the_calcutta_bid_field_and_a_pass_that_leaves_the_bidding() -> None:
    game, bots = table("calcutta", {"players": 3}, "cards", "value")
    view, legal = reach(game, bots, 1, lambda legal: Bid(1) in legal)
    asker = CardsAsker(screen_for(game))
    choice = asker.choice(view, legal, 1)
    assert isinstance(resolve(choice, ""), Rejection) and choice.field is not None
    assert resolve(choice, "+5") == Bid(choice.field.base + 5)
    assert resolve(choice, "7") == Bid(7)
    most = choice.field.maximum
    over = resolve(choice, str(most + 1))
    assert isinstance(over, Rejection) and f"at most {most} chips" in over.rule
    assert "+1 = " in choice.field.describe() and "+10 = " in choice.field.describe()
    assert resolve(choice, "p") == NO_BID  # pass: leaves the bidding on this horse
    assert "leave the bidding on" in choice.options[0].words
    view, legal = reach(
        *table("calcutta", {"players": 3, "pass_leaves": False}, "cards", "value"),
        1,
        lambda legal: Bid(1) in legal,
    )
    lenient = asker.choice(view, legal, 1)
    assert "until somebody bids again" in lenient.options[0].words
    out = io.StringIO()
    presenter = PlainPresenter(Console(file=out), read=lambda prompt: "never asked")
    agent = KeyboardAgent(1, screen_for(game), asker, presenter)
    cannot = [NO_BID]  # nothing left to bid: passed at once, and said
    assert agent.choose(view, cannot) == NO_BID
    assert "P2: pass on" in out.getvalue() and "(the only move)" in out.getvalue()


def test_the_book_asks_the_horse_then_a_stake_within_its_limit() -> None:
    game, bots = table("basic", {"players": 3}, "cards", "value")
    view, legal = reach(game, bots, 1, lambda legal: any(isinstance(a, BookBet) for a in legal))
    choice = CardsAsker(screen_for(game)).choice(view, legal, 1)
    assert isinstance(resolve(choice, ""), Rejection)  # no bet is typed too: `done`
    assert resolve(choice, "done") == DONE
    stake = resolve(choice, "H")
    assert isinstance(stake, Choice) and stake.field is not None
    most = max(a.stake for a in legal if isinstance(a, BookBet) and a.suit == 2)
    assert resolve(stake, "1") == BookBet(1, 2)
    over = resolve(stake, str(most + 1))
    assert isinstance(over, Rejection) and f"at most {most} chips" in over.rule
    typed = resolve(choice, f"bet {most + 1} H")  # the whole bet typed: the rules say why not
    assert isinstance(typed, Rejection) and typed.rule


def test_a_derby_horse_is_its_number_and_a_wager_has_no_default() -> None:
    game, bots = table("derby", {"players": 3, "races": 1}, "derby", "random")
    view, legal = reach(game, bots, 0, lambda legal: isinstance(legal[0], ChooseHorse))
    choice = DerbyAsker(screen_for(game)).choice(view, legal, 0)
    number = legal[-1].horse
    assert resolve(choice, str(number)) == ChooseHorse(number)
    assert resolve(choice, f"horse {number}") == ChooseHorse(number)
    assert isinstance(resolve(choice, ""), Rejection)  # Enter alone picks no horse
    game, bots = table("derby", {"players": 3, "races": 1}, "derby", "random")
    view, legal = reach(game, bots, 0, lambda legal: isinstance(legal[0], Wager))
    choice = DerbyAsker(screen_for(game)).choice(view, legal, 0)
    assert isinstance(resolve(choice, ""), Rejection)
    assert resolve(choice, "$1") == Wager(1) and resolve(choice, "0") == Wager(0)
    money = view.money[0]  # a wager over a quarter of it is asked again; y places it
    big = max(a.amount for a in legal if isinstance(a, Wager))
    assert 4 * big > money
    sure = resolve(choice, str(big))
    assert isinstance(sure, Choice) and "over a quarter: sure?" in sure.question
    assert resolve(sure, "y") == Wager(big) and resolve(sure, "n") is choice
