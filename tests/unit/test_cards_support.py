"""Helpers for the card-race tests (scripted tables, cards by suit), and checks of the helpers.

A script is one list of texts: each is applied to whoever acts at that moment, a card when
chance deals, a bet or a bid when a seat decides, exactly as a person would type them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from horserace.components.french_deck import card_text, parse_card, parse_cards, suit_of
from horserace.core.events import Event
from horserace.core.types import CHANCE
from horserace.engine import Game, Step
from horserace.families.cards.rules.rules import CardsRules
from horserace.families.cards.rules.state import CardsState
from horserace.families.presets import get_preset

RULES = CardsRules()


CUT = ["KS", "2C", "3C"]  # the Calcutta's cut for the first deal: P1's king deals, as seat 0


def new_table(preset: str = "basic", **options: Any) -> Game:
    chosen = get_preset(preset)
    config = chosen.config(options)
    return Game(preset, chosen.rules, config, seed=None, chance_mode="scripted")


def run(game: Game, script: Iterable[str], steps: list[Step] | None = None) -> list[Step]:
    """Apply every text in turn; returns (and extends) the steps."""
    done: list[Step] = [] if steps is None else steps
    for text in script:
        actor = game.actor
        action = game.rules.parse_action(game.state, text)
        step = game.apply(action) if actor is CHANCE else game.act(int(str(actor)), action)
        done.append(step)
    return done


def scripted(
    preset: str, options: Mapping[str, Any], script: Iterable[str]
) -> tuple[Game, list[Step]]:
    game = new_table(preset, **options)
    return game, run(game, script)


def cards(text: str) -> list[str]:
    """'2C 9H KD' -> ['2C', '9H', 'KD'] (checked)."""
    return [card_text(c) for c in parse_cards(text)]


def of_suit(suit: str, count: int, used: Iterable[str] = (), ranks: int = 12) -> list[str]:
    """`count` cards of `suit` (lowest ranks first) not among `used`."""
    taken = {parse_card(c) for c in used}
    index = "CDHS".index(suit.upper())
    found = [
        card_text(c)
        for rank in range(2, ranks + 2)
        if (c := parse_card(f"{rank}{suit}")) not in taken and suit_of(c) == index
    ]
    if len(found) < count:
        raise ValueError(f"only {len(found)} cards of {suit} left")
    return found[:count]


def events(steps: Sequence[Step], kind: type[Event]) -> list[Any]:
    return [e for step in steps for e in step.events if isinstance(e, kind)]


def chips(game: Game) -> tuple[int, ...]:
    state: CardsState = game.state
    return state.ledger.balances[: state.config.players]


def test_of_suit_skips_used_cards() -> None:
    assert of_suit("S", 3, used=["2S", "4S"]) == ["3S", "5S", "6S"]
    assert of_suit("h", 2) == ["2H", "3H"]


def test_cards_checks_every_name() -> None:
    assert cards("2c 10h td kd") == ["2C", "10H", "10D", "KD"]
