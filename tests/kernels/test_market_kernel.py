"""Schellenberg's market, compiled (`kernels/market.py`), against the engine's rules and its EV
bot on the views of real games: the market's place in the deal, its price, the legal buys in
the engine's order (a random bot's pick on a tape means the same buy), and the EV bot's buy or
pass, with open hands (Classic) and hidden ones (Husted), share and split payouts."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from horserace.components.board import HORSES
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import play
from horserace.families import make_bot
from horserace.families.board.bot_values import market_price_of
from horserace.families.board.rules.actions import Buy
from horserace.families.board.rules.phases.deal import deck_for, next_to_deal
from horserace.families.board.rules.records import MARKET as ENGINE_MARKET
from horserace.families.board.rules.view import BoardView
from horserace.kernels import Array
from horserace.kernels import market as km
from horserace.kernels.advanced_ev import ev_tables
from horserace.kernels.advanced_numbers import (
    DECK,
    DECKS,
    FINISH,
    OPEN,
    PLAYERS,
    RANKS,
    SPEC_SIZE,
    SPLIT,
    VALUES,
)
from horserace.kernels.race_odds import odds_scratch
from tests.helpers import new_game
from tests.kernels.test_board_game_equality import SHIPPED


def test_the_market_takes_the_last_card_of_each_turn_round() -> None:
    for players in range(2, 13):
        config = new_game({"players": players, "market": True}).config
        out = (None,) * players
        for dealer in range(players):
            hand: Any = (dealer + 1) % players
            for index in range(3 * (players + 1)):
                expected = km.MARKET_HAND if hand is ENGINE_MARKET else hand
                assert km.deal_to(index, dealer, players, 1) == expected
                hand = next_to_deal(config, out, dealer, hand)
            assert km.deal_to(players, dealer, players, 0) == (dealer + 1) % players


def _spec(view: BoardView) -> Array:
    """The settings the market's functions read, in the kernels' layout, from the view."""
    config = view.config
    row = np.zeros(SPEC_SIZE, dtype=np.int64)
    row[PLAYERS], row[OPEN] = config.players, int(config.open_hands)
    row[SPLIT], row[DECKS] = int(config.payout == "split"), config.decks
    row[VALUES : VALUES + 4] = config.scratch_values
    for horse in HORSES:
        row[FINISH + horse] = view.board.advances_to_finish(horse)
    row[DECK : DECK + RANKS] = deck_for(config)
    return row


class _Checked:
    """An engine bot whose every market turn the compiled market answers too: the same legal
    buys in the same order, the same price and (for the EV bot) the same pick."""

    def __init__(self, kind: str, seed: int, seat: int, seen: dict[str, int]) -> None:
        self._bot = make_bot(kind, derive_seed(seed, BOT_STREAM, seat), "board")
        self._ev, self._seen = kind == "ev", seen
        self.reads_view = True

    def choose(self, view: BoardView, legal: Sequence[Action]) -> Action:
        action = self._bot.choose(view, legal)
        if any(isinstance(a, Buy) for a in legal):
            self._check(view, legal, action)
        return action

    def _check(self, view: BoardView, legal: Sequence[Action], action: Action) -> None:
        spec, n = _spec(view), view.config.players
        hands = np.zeros((n, RANKS), dtype=np.int64)
        for seat, hand in enumerate(view.hands):
            if hand is not None:
                hands[seat] = hand
            else:  # hidden: only its size counts
                hands[seat, 0] = view.hand_sizes[seat]
        line_of, position = np.zeros(13, dtype=np.int64), np.zeros(13, dtype=np.int64)
        for index, horse in enumerate(view.lines):
            if horse:
                line_of[horse] = index + 1
        for horse in HORSES:
            position[horse] = view.positions[horse - 2]
        assert view.market is not None and view.seat is not None
        market = np.array(view.market, dtype=np.int64)
        cost = km.price(spec, line_of)
        assert cost == market_price_of(view)
        options, worths = km.market_space()
        count = km.buy_options(hands[view.seat], market, options)
        buys = [(options[km.TAKES, k], options[km.GIVES, k]) for k in range(1, count)]
        assert buys == [(a.take, a.give) for a in legal[1:] if isinstance(a, Buy)]
        assert count == len(legal)
        self._seen["turns"] += 1
        if not self._ev:
            return
        finish = tuple(int(spec[FINISH + horse]) for horse in HORSES)
        tables = ev_tables(finish, view.config.repeat_scratch != "move")
        pick = km.ev_buy(
            spec, view.seat, hands, np.array(view.discards, dtype=np.int64), view.undealt,
            view.pot, line_of, position, cost, options, worths, count, tables,
            odds_scratch(max(finish)), np.zeros(13), np.zeros(13, dtype=np.int64),
            np.zeros(13),
        )  # fmt: skip
        assert legal[pick] == action
        self._seen["ev buys" if pick else "ev passes"] += 1


def _table(seed: int) -> dict[str, Any]:
    """A varied Schellenberg table: open hands or Husted's hidden ones, either payout."""
    pick = random.Random(seed)
    options: dict[str, Any] = {
        "players": pick.randint(2, 7),
        "market": True,
        "rounds": pick.randint(1, 2),
        "starting_chips": pick.choice([5, 20, 100]),
        "repeat_scratch": pick.choice(["move", "chain", "reroll"]),
        "scratch_values": pick.choice([(1, 2, 3, 4), (0, 1, 5, 2)]),
        "payout": pick.choice(["share", "split"]),
    }
    if pick.random() < 0.4:
        options |= {"husted": True, "open_hands": False, "ante": 1}
    if pick.random() < 0.3:
        options["board"] = pick.choice(SHIPPED)
    return options


@pytest.mark.parametrize("first", [0, 12])
def test_the_compiled_market_offers_and_buys_as_the_engine_does(first: int) -> None:
    seen = dict.fromkeys(("turns", "ev buys", "ev passes"), 0)
    for seed in range(first, first + 12):
        options = _table(seed)
        game = new_game(options, seed=seed)
        players = options["players"]
        kinds = ["ev" if seat % 2 == 0 else "random" for seat in range(players)]
        bots = {seat: _Checked(kinds[seat], seed, seat, seen) for seat in range(players)}
        play(game, bots, SeededChance(seed))
    # the EV bot both buys and passes, on many market turns
    assert seen["turns"] > 200
    assert min(seen["ev buys"], seen["ev passes"]) > 20
