"""The dice-board game's questions: a card typed by its name at the draft, Perry's trade asked
in steps with no list of a hundred offers, a trade answered only by a key, a free-typed offer
the rules take, a refused action that says the rule, and Schellenberg's buy in two steps."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console

from horserace.components.cards import counts
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.engine import Game, play
from horserace.families.board.choices import BoardAsker, card_key, card_words
from horserace.families.board.rules.actions import ACCEPT, DECLINE, Buy, Keep, Offer, Pass
from horserace.families.board.rules.state import Phase
from horserace.terminal.choices import Choice, Rejection, resolve
from horserace.terminal.screen import TableScreen
from tests.board_positions import arrange
from tests.helpers import bots_for, new_game


class Reached(Exception):
    def __init__(self, view: Any, legal: Sequence[Action]) -> None:
        self.view, self.legal = view, legal


class Probe:
    """A seat's bot until `wanted` holds for its legal actions; then the game stops there."""

    def __init__(self, bot: Any, wanted: Callable[[Sequence[Action]], bool]) -> None:
        self.bot, self.wanted = bot, wanted

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if self.wanted(legal):
            raise Reached(view, legal)
        action: Action = self.bot.choose(view, legal)
        return action


def asker_for(game: Game) -> BoardAsker:
    names = [f"P{seat + 1}" for seat in range(game.config.players)]
    screen = TableScreen(
        console=Console(file=io.StringIO()),
        rules=game.rules,
        names=names,
        humans=frozenset({0}),
        plain=True,
        game=game,
    )
    return BoardAsker(screen)


def reach(game: Game, wanted: Callable[[Sequence[Action]], bool]) -> tuple[Any, Sequence[Action]]:
    agents: dict[int, Any] = dict(bots_for(game.config.players, 5))
    agents[0] = Probe(agents[0], wanted)
    try:
        play(game, agents, SeededChance(11))
    except Reached as reached:
        return reached.view, reached.legal
    raise AssertionError("the game never asked that")


def test_typing_3_at_the_advanced_draft_keeps_the_card_3() -> None:
    game = Game("advanced", *_preset("advanced", {"players": 4}), seed=None, chance_mode="seeded")
    view, legal = reach(game, lambda legal: Keep(3) in legal and len(legal) >= 3)
    choice = asker_for(game).choice(view, legal, 0)
    assert resolve(choice, "3") == Keep(3)
    assert all(option.key != "1" or option.action == Keep(1) for option in choice.options)
    assert next(o for o in choice.options if o.action == Keep(3)).words == "keep 3"


def _preset(name: str, options: dict[str, Any]) -> tuple[Any, Any]:
    from horserace.families.presets import get_preset

    preset = get_preset(name)
    return preset.rules, preset.config(options)


def _trading_game() -> tuple[Game, BoardAsker]:
    game = new_game({"players": 3, "trade_window": "before-scratch"})
    hands = (counts({6: 1, 9: 2}), counts({7: 1, 8: 1}), counts({4: 1}))
    game.state = arrange(game.state, phase=Phase.SCRATCH, traders=(0, 1, 2), hands=hands)
    return game, asker_for(game)


def test_a_perry_trade_is_asked_in_steps_give_ask_partner() -> None:
    game, asker = _trading_game()
    legal = game.rules.legal_actions(game.state, 0)
    view = game.rules.view(game.state, 0)
    choice = asker.choice(view, legal, 0)
    assert [o.key for o in choice.options] == ["p", "o"]  # no list of every offer
    assert resolve(choice, "p") == Pass()
    give = resolve(choice, "o")
    assert isinstance(give, Choice) and "step 1 of 3" in give.question
    take = resolve(give, "9 9")
    assert isinstance(take, Choice) and "you give 9 9" in take.question
    assert resolve(take, "7") == Offer(0, 1, (9, 9), (7,))  # open hands: only P2 holds a 7
    partner = resolve(take, "none")
    assert isinstance(partner, Choice) and "step 3 of 3" in partner.question
    assert [o.key for o in partner.options] == ["2", "3"]
    assert resolve(partner, "3") == Offer(0, 2, (9, 9), ())
    assert resolve(partner, "<") == take
    held = resolve(give, "5")
    assert isinstance(held, Rejection) and held.rule == "you can only offer cards you hold"


def test_a_whole_offer_typed_out_is_taken_when_the_rules_take_it() -> None:
    game, asker = _trading_game()
    legal = game.rules.legal_actions(game.state, 0)
    choice = asker.choice(game.rules.view(game.state, 0), legal, 0)
    typed = resolve(choice, "offer 2: 6 9 9 for 7 8")
    assert typed == Offer(0, 1, (6, 9, 9), (7, 8)) and typed not in legal
    refused = resolve(choice, "offer 1: 6 for 4")
    assert isinstance(refused, Rejection) and "not a partner you can trade with" in refused.rule
    assert typed is not None and not isinstance(typed, Choice | Rejection)
    game.act(0, typed)
    assert game.actor == 1


def test_a_stray_enter_does_not_accept_a_trade() -> None:
    game, asker = _trading_game()
    game.act(0, Offer(0, 1, (6,), (7,)))
    legal = game.rules.legal_actions(game.state, 1)
    choice = asker.choice(game.rules.view(game.state, 1), legal, 1)
    assert isinstance(resolve(choice, ""), Rejection)
    accept = next(o for o in choice.options if o.action == ACCEPT)
    assert accept.key == "y" and accept.words == "accept P1's trade: you give 7, you get 6"
    assert resolve(choice, "n") == DECLINE


def test_a_schellenberg_buy_is_asked_in_two_steps_the_market_card_then_its_replacement() -> None:
    game = new_game({"players": 4, "market": True})
    view, legal = reach(game, lambda legal: any(isinstance(a, Buy) for a in legal))
    buys = [a for a in legal if isinstance(a, Buy)]
    choice = asker_for(game).choice(view, legal, 0)
    assert isinstance(resolve(choice, ""), Rejection) and resolve(choice, "p") == Pass()
    take = buys[0].take
    assert next(o for o in choice.options if o.key == card_key(take)).words == (
        f"buy {card_words(take)} from the market"
    )
    step = resolve(choice, card_key(take))
    assert isinstance(step, Choice) and f"Buy {card_words(take)}: which of" in step.question
    gives = [b for b in buys if b.take == take]
    assert [o.key for o in step.options] == [card_key(b.give) for b in gives]
    assert resolve(step, card_key(gives[-1].give)) == gives[-1]
    assert resolve(choice, gives[0].text) == gives[0]  # a whole buy typed out
