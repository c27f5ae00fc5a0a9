"""The card-race bots decide from the exact odds: they bet only where the price beats them, pick
the best expected prize, and bid under their estimate of a horse's share of the pool."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from horserace.components.french_deck import card_text, pack
from horserace.core.errors import ConfigError
from horserace.families.cards.bots import (
    CardsBot,
    calcutta_value,
    make_cards_bot,
    party_value,
    view_odds,
)
from horserace.families.cards.odds.race import exact_card_odds, position_of
from horserace.families.cards.rules.actions import Bid, BookBet, Done, NoBid, Pick
from horserace.families.cards.rules.rules import CardsRules
from horserace.families.cards.rules.state import CardsState, CardsView
from horserace.families.random_bot import RandomBot
from tests.unit.test_cards_support import CUT, new_table, run

DECK = [card_text(c) for c in pack(range(2, 14))]


def random_course(rng: random.Random) -> list[str]:
    while True:
        course = rng.sample(DECK, 7)
        counts = [sum(1 for c in course if c.endswith(s)) for s in "CDHS"]
        if max(counts) < 5:
            return course


def seat_view(state: CardsState, seat: int) -> CardsView:
    return CardsRules().view(state, seat)


@pytest.mark.parametrize("seed", range(8))
def test_the_value_bot_bets_only_where_the_price_beats_the_exact_odds(seed: int) -> None:
    game = new_table("basic", players=3)
    run(game, random_course(random.Random(seed)))
    state = game.state
    rules = game.rules
    exact = exact_card_odds(position_of(state), places=1).win
    edges = {}
    for suit in range(4):
        price = state.config.book_odds.price(state.course_count(suit))
        assert price is not None
        edges[suit] = exact[suit] * (1 + Fraction(*price)) - 1
    choice = CardsBot("value", random.Random(0)).choose(
        seat_view(state, 1), rules.legal_actions(state, 1)
    )
    if isinstance(choice, BookBet):
        assert edges[choice.suit] > 0
        assert edges[choice.suit] == max(edges.values())
        assert choice.stake == 10
    else:
        assert isinstance(choice, Done) and max(edges.values()) <= 0


def test_the_favourite_bot_backs_the_likeliest_horse_once() -> None:
    game = new_table("basic", players=3)
    run(game, ["2C", "9H", "KD", "5S", "7H", "JC", "3D"])
    bot = CardsBot("favourite", random.Random(0))
    choice = bot.choose(seat_view(game.state, 1), game.rules.legal_actions(game.state, 1))
    assert choice == BookBet(10, 3)


def test_the_party_bot_picks_the_best_expected_prize() -> None:
    game = new_table("basic", players=3, betting="party")
    run(game, ["2C", "3C", "4C", "2H", "3H", "2D", "5S"])
    view = seat_view(game.state, 1)
    odds = view_odds(view, 3)
    values = {suit: party_value(view, suit, odds) for suit in range(4)}
    choice = CardsBot("value", random.Random(0)).choose(
        view, game.rules.legal_actions(game.state, 1)
    )
    assert isinstance(choice, Pick) and values[choice.suit] == max(values.values())
    exact = exact_card_odds(position_of(game.state), places=3)
    expected = 25 * exact.win[3] + 20 * (exact.place[3] - exact.win[3])
    expected += 15 * (exact.show[3] - exact.place[3])
    assert values[3] == pytest.approx(float(expected))


def test_the_calcutta_bidder_raises_halfway_to_its_estimate() -> None:
    game = new_table("calcutta", players=3)
    run(game, [*CUT, "2C", "9H", "KD", "5S", "7H", "JC", "3D"])
    bot = CardsBot("value", random.Random(0))
    view = seat_view(game.state, 1)
    assert view.auction.horse is not None
    value = calcutta_value(view, view.auction.horse, view_odds(view, 2))
    assert 0 < value < 150
    choice = bot.choose(view, game.rules.legal_actions(game.state, 1))
    ceiling = int(0.9 * value)
    assert choice == (Bid(max(1, (ceiling + 1) // 2)) if ceiling >= 1 else NoBid())
    run(game, [f"bid {int(value) + 5}"])  # P2 bids past P3's estimate: P3 passes
    view = seat_view(game.state, 2)
    assert bot.choose(view, game.rules.legal_actions(game.state, 2)) == NoBid()


def test_bot_kinds() -> None:
    assert isinstance(make_cards_bot("random", 1), RandomBot)
    assert isinstance(make_cards_bot("value", 1), CardsBot)
    with pytest.raises(ConfigError, match="unknown bot kind"):
        make_cards_bot("clever", 1)
