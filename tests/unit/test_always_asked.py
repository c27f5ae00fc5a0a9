"""A person at the keyboard is always asked where a hidden card could answer (RULINGS 1b): owing
a penalty with no Ace or King, after a roll with no joker, paying for a scratched horse with no
Husted face card. The terminal puts the question with "pay" or "pass" as its one answer, in the
words it uses when the card is held, and never answers for the person at once."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from horserace.components.cards import ACE, JOKER, KING
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.engine import Game, play
from horserace.families.board.choices import BoardAsker
from horserace.families.board.rules.actions import JACK, PASS, PAY, Discard, Keep
from horserace.families.board.screen import BoardScreen
from horserace.families.presets import get_preset
from horserace.terminal.choices import Choice
from horserace.terminal.keyboard import KeyboardAgent
from tests.helpers import bots_for


class Person:
    """Answers each question with its first option (pay, pass; the lowest card in a draft, and
    horse cards before the Ace, King and joker, so that the hand has none in the end), and keeps
    what it was asked and told."""

    def __init__(self) -> None:
        self.asked: list[Choice] = []
        self.told: list[str] = []

    def ask(self, choice: Choice) -> Action:
        self.asked.append(choice)
        options = sorted(choice.options, key=lambda o: _weight(o.action))
        action = options[0].action
        assert action is not None
        return action

    def tell(self, lines: Sequence[str]) -> None:
        self.told.extend(lines)


def _weight(action: Action | None) -> int:
    """Cards that could answer last: kept last in a draft, discarded first in Husted's draw."""
    if isinstance(action, Keep):
        return int(action.rank in (JOKER, ACE, KING))
    if isinstance(action, Discard):
        return -sum(1 for rank in action.ranks if rank >= JACK)
    return 0


class Watched:
    """The person's agent, with every set of legal actions it was given."""

    def __init__(self, agent: KeyboardAgent) -> None:
        self.agent = agent
        self.given: list[tuple[Action, ...]] = []

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        self.given.append(tuple(legal))
        return self.agent.choose(view, legal)


@pytest.mark.parametrize(
    ("preset", "options", "seed", "lone", "question"),
    [
        ("advanced", {"players": 4, "rounds": 2}, 3, PAY, "you owe a penalty"),
        ("advanced", {"players": 4, "rounds": 2}, 3, PASS, "play your joker?"),
        (
            "classic",
            {"players": 6, "rounds": 2, "husted": True, "open_hands": False, "ante": 1},
            1,
            PASS,
            "play a face card?",
        ),
    ],
    ids=["penalty", "joker", "face card"],
)
def test_a_person_holding_nothing_is_asked(
    preset: str, options: dict[str, Any], seed: int, lone: Action, question: str
) -> None:
    spec = get_preset(preset)
    config = spec.config(options)
    game = Game(preset, spec.rules, config, seed=seed, chance_mode="seeded")
    screen = BoardScreen(
        console=Console(file=io.StringIO()),
        rules=spec.rules,
        names=["Ann", *(f"P{seat + 1}" for seat in range(1, config.players))],
        humans=frozenset({0}),
        plain=True,
        game=game,
    )
    person = Person()
    seat = Watched(KeyboardAgent(0, screen, BoardAsker(screen), person))
    agents: dict[int, Any] = dict(bots_for(config.players, 5))
    agents[0] = seat
    play(game, agents, SeededChance(seed))
    lone_times = sum(1 for legal in seat.given if legal == (lone,))
    assert lone_times >= 1, "the game never came to that question"
    put = [c for c in person.asked if [o.action for o in c.options] == [lone]]
    assert len(put) == lone_times  # every time, a question with its one answer
    assert all(c.question == f"Ann, {question}" for c in put)
    assert not [line for line in person.told if lone.text in line and "only move" in line]
