"""Husted with no stub: when the deal leaves nothing to draw from there is no draw that round,
the round's start says so in the log, and the second betting round follows the first."""

from __future__ import annotations

import pytest

from horserace.core.chance import SeededChance
from horserace.core.types import CHANCE
from horserace.engine import Game
from horserace.families.board.news import opening_news, step_news
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.records import Betting
from tests.helpers import bots_for, new_game
from tests.scenarios.test_advanced_scenarios import act

NAMES = [f"P{seat + 1}" for seat in range(12)]
SAYS = "No stub this round: no draw, the second betting round follows the first"
# RULINGS §1 Husted: the 54-card pack a deck (two decks above 4 players) deals out evenly at
NO_STUB = {False: {2, 3, 6, 9, 12}, True: {2, 5, 8, 11}}  # by the market, a hand of its own


def husted(players: int, market: bool, seed: int = 7) -> Game:
    options = {"players": players, "husted": True, "ante": 1, "open_hands": False}
    return new_game({**options, "market": market, "rounds": 2}, seed=seed)


def deal_out(game: Game, chance: SeededChance) -> None:
    while game.actor is CHANCE:
        game.apply(chance.choose(game.rules, game.state))


@pytest.mark.parametrize("market", [False, True], ids=["plain", "market"])
@pytest.mark.parametrize("players", range(2, 13))
def test_the_first_deal_says_whether_there_is_a_draw(players: int, market: bool) -> None:
    game = husted(players, market)
    lines = [line.text for line in opening_news(game.state, NAMES)]
    no_stub = players in NO_STUB[market]
    assert lines[0].startswith("Round 1: P1 deals") and lines[0].endswith(
        "(0 left in the stub)" if no_stub else "left in the stub)"
    )
    assert lines[1:] == ([SAYS] if no_stub else [])
    if no_stub:
        chance = SeededChance(7)
        deal_out(game, chance)
        assert sum(game.state.deck) == 0
        act(game, *["check"] * players)  # round 1 of the betting: straight to round 2
        record = game.state.phase_record
        assert isinstance(record, Betting) and record.round_no == 2


def test_a_later_round_without_a_stub_says_so_with_an_event() -> None:
    game = husted(4, False, seed=3)  # round 2 deals 24 cards to 4 seats: no stub
    chance, bots = SeededChance(3), bots_for(4, 3)
    said: list[tuple[ev.RoundStarted, list[str]]] = []
    while not game.over:
        actor = game.actor
        if isinstance(actor, int):
            legal = game.rules.legal_actions(game.state, actor)
            step = game.act(actor, bots[actor].choose(game.rules.view(game.state, actor), legal))
        else:
            step = game.apply(chance.choose(game.rules, game.state))
        for index, event in enumerate(step.events):
            if isinstance(event, ev.RoundStarted):
                rest = step.events[index + 1 : index + 2]
                assert (rest == (hev.NoDraw(event.round),)) == (event.stub == 0)
                said.append((event, [n.text for n in step_news(step.events, NAMES)]))
    assert [(e.round, e.cards_to_deal, e.stub) for e, _ in said] == [(2, 24, 0)]
    told = said[0][1]
    start = told.index("Round 2: P2 deals 24 cards (0 left in the stub)")
    assert told[start + 1] == SAYS
