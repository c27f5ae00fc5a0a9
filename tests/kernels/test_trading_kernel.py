"""Perry's trading window, compiled (`kernels/trading.py`), against the engine's rules and bots
on the views of real games: the legal offers in the engine's order (a random bot's pick on a
tape means the same offer), the EV bot's offer or pass, and the EV and heuristic bots' answers,
at every window moment, with open hands (Classic) and hidden ones (Advanced)."""

from __future__ import annotations

import random
from collections import Counter
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
from horserace.families.board.odds.view import scratch_rolls_done
from horserace.families.board.rules.actions import ACCEPT, Answer, Offer
from horserace.families.board.rules.phases.deal import deck_for
from horserace.families.board.rules.state import Phase
from horserace.families.board.rules.view import BoardView
from horserace.kernels import Array
from horserace.kernels import trading as kt
from horserace.kernels.advanced_ev import ev_tables
from horserace.kernels.advanced_numbers import (
    DECK,
    DECKS,
    EV,
    FINISH,
    HEURISTIC,
    OPEN,
    PLAYERS,
    RANKS,
    SPEC_SIZE,
    SPLIT,
    VALUES,
)
from horserace.kernels.trading_numbers import trade_settings
from tests.helpers import new_game
from tests.kernels.test_board_game_equality import SHIPPED


def _spec(view: BoardView) -> Array:
    """The settings the window's functions read, in the kernels' layout, from the view."""
    config = view.config
    row = np.zeros(SPEC_SIZE, dtype=np.int64)
    row[PLAYERS], row[OPEN] = config.players, int(config.open_hands)
    row[SPLIT], row[DECKS] = int(config.payout == "split"), config.decks
    row[VALUES : VALUES + 4] = config.scratch_values
    for horse in HORSES:
        row[FINISH + horse] = view.board.advances_to_finish(horse)
    row[DECK : DECK + RANKS] = deck_for(config)
    return row


def _rolls_left(view: BoardView) -> int:
    """Scratch rolls still to come at the window (0: the race is next)."""
    if view.phase is not Phase.SCRATCH:
        return 0
    if view.config.repeat_scratch == "move":
        return 4 - scratch_rolls_done(view)
    return 4 - sum(1 for horse in view.lines if horse)


class _Checked:
    """An engine bot whose every trading turn the compiled window answers too: the same legal
    offers in the same order and (for the EV and heuristic bots) the same offer or answer."""

    def __init__(self, kind: str, seed: int, seat: int, seen: Counter[str]) -> None:
        self._bot = make_bot(kind, derive_seed(seed, BOT_STREAM, seat), "board")
        self._kind, self._seen = kind, seen
        self.reads_view = True

    def choose(self, view: BoardView, legal: Sequence[Action]) -> Action:
        action = self._bot.choose(view, legal)
        if view.offer is not None and isinstance(legal[0], Answer):
            self._check_answer(view, legal, action)
        elif any(isinstance(a, Offer) for a in legal):
            self._check_offer(view, legal, action)
        return action

    def _window(self, view: BoardView) -> tuple[Array, Any, Array, Array, Array, float]:
        spec, config = _spec(view), view.config
        table = {"deck": config.deck, "ante": config.ante}
        table |= {"trade_window": config.trade_window, "trade_offers": config.trade_offers}
        finish = tuple(int(spec[FINISH + horse]) for horse in HORSES)
        move = config.repeat_scratch == "move"
        trade = kt.trade_space(trade_settings(table), config.players, finish, move)
        hands = np.zeros((config.players, RANKS), dtype=np.int64)
        for seat, hand in enumerate(view.hands):
            if hand is not None:
                hands[seat] = hand
            else:  # hidden: only its size counts
                hands[seat, 0] = view.hand_sizes[seat]
        line_of = np.zeros(13, dtype=np.int64)
        for index, horse in enumerate(view.lines):
            if horse:
                line_of[horse] = index + 1
        left = _rolls_left(view)
        odds = kt.window_odds(spec, trade, line_of, left)
        dice = ev_tables(finish, not move)[1]
        estimate = kt.pot_estimate(spec, trade, view.pot, line_of, left, dice)
        kt.card_worths(spec, trade, odds, view.pot)
        return spec, trade, hands, odds, np.array(view.discards, dtype=np.int64), estimate

    def _check_offer(self, view: BoardView, legal: Sequence[Action], action: Action) -> None:
        spec, trade, hands, odds, discards, estimate = self._window(view)
        assert view.seat is not None
        count = kt.list_offers(
            trade[kt.SETTINGS], spec[OPEN], view.config.players, view.seat, hands,
            trade[kt.GIVES], trade[kt.WANTED], trade[kt.ROWS],
        )  # fmt: skip
        gives, rows = trade[kt.GIVES], trade[kt.ROWS]
        listed = [
            (
                int(rows[0, k]),
                tuple(int(r) for r in gives[:, rows[1, k]] if r >= 0),
                (int(rows[2, k]),) if rows[2, k] >= 0 else (),
            )
            for k in range(count)
        ]
        assert listed == [(a.target, a.give, a.take) for a in legal[1:] if isinstance(a, Offer)]
        assert count + 1 == len(legal)
        self._seen["offer turns"] += 1
        if self._kind == "ev":
            pick = kt.ev_offer(
                spec, trade, view.seat, hands, discards, view.undealt, odds, estimate, count
            )
            assert legal[pick] == action
            self._seen["ev offers" if pick else "ev passes"] += 1

    def _check_answer(self, view: BoardView, legal: Sequence[Action], action: Action) -> None:
        offer = view.offer
        assert offer is not None and view.seat is not None
        self._seen["answers"] += 1
        if self._kind not in ("ev", "heuristic") or ACCEPT not in legal:
            return  # (a seat that cannot give what is asked may only decline: no choice)
        spec, trade, hands, odds, discards, estimate = self._window(view)
        give_b = offer.give[1] if len(offer.give) > 1 else -1
        take = offer.take[0] if offer.take else -1
        kind = EV if self._kind == "ev" else HEURISTIC
        own = kt.answer_offer(
            spec, trade, kind, hands, view.seat, offer.give[0], give_b, take, odds, estimate,
            discards, view.undealt,
        )  # fmt: skip
        assert (own == 0) == (action == ACCEPT)
        self._seen[f"{self._kind} {'accepts' if own == 0 else 'declines'}"] += 1


def _table(seed: int) -> tuple[str, dict[str, Any]]:
    """A varied Perry table: Classic's open hands or Advanced's hidden ones, every window."""
    pick = random.Random(seed)
    advanced = pick.random() < 0.5
    options: dict[str, Any] = {
        "players": pick.randint(4, 8) if advanced else pick.randint(2, 6),
        "rounds": 1,
        "trade_window": pick.choice(["before-scratch", "after-each-scratch", "after-scratch"]),
        "trade_offers": pick.choice([1, 2, 3]),
        "repeat_scratch": pick.choice(["move", "chain", "reroll"]),
        "scratch_values": pick.choice([(1, 2, 3, 4), (0, 1, 5, 2)]),
    }
    if advanced:
        options |= {"open_hands": pick.random() < 0.3, "ante": pick.choice([1, 2])}
    else:
        options["payout"] = pick.choice(["share", "split"])
    if pick.random() < 0.3:
        options["board"] = pick.choice(SHIPPED)
    return ("advanced" if advanced else "classic"), options


@pytest.mark.parametrize("first", [0, 10])
def test_the_compiled_window_lists_offers_and_decides_as_the_engine_does(first: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(first, first + 10):
        preset, options = _table(seed)
        game = new_game(options, preset=preset, seed=seed)
        players = game.rules.players(game.config)
        kinds = [("ev", "random", "heuristic")[(seat + seed) % 3] for seat in range(players)]
        bots = {seat: _Checked(kinds[seat], seed, seat, seen) for seat in range(players)}
        play(game, bots, SeededChance(seed))
    # offers listed, and the EV bot both offers and passes, accepts and declines
    assert seen["offer turns"] > 100
    assert min(seen["ev offers"], seen["ev passes"]) > 5
    assert min(seen["ev accepts"], seen["ev declines"], seen["heuristic declines"]) > 3
