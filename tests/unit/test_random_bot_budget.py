"""The random bot plays any legal move, but buys a horse at a Calcutta auction as a person
would: never for more than a quarter of its purse, over many seeded games; and the auction is
still an auction (most horses find a buyer, bids rise)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from horserace.bots import make_bot
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.families.cards.rules.actions import NO_BID, Bid, BookBet
from horserace.families.presets import get_preset
from horserace.families.random_bot import BUDGET_SHARE, RandomBot, committed

GAMES = 40


def random_table(preset: str, options: dict[str, Any], seed: int, observe: Any) -> Game:
    chosen = get_preset(preset)
    config = chosen.config(options)
    game = Game(preset, chosen.rules, config, seed=seed, chance_mode="seeded")
    agents = {
        seat: make_bot("random", derive_seed(seed, BOT_STREAM, seat), "cards")
        for seat in range(chosen.rules.players(config))
    }
    assert all(isinstance(agent, RandomBot) for agent in agents.values())
    play(game, agents, SeededChance(seed), observe=observe)
    return game


def test_calcutta_bids_stay_within_a_quarter_of_the_purse() -> None:
    bids: list[tuple[int, int]] = []  # (amount, the bidder's purse then)
    sold: list[int] = []  # what each horse fetched (0: no buyer)

    def watch(step: Step) -> None:
        if isinstance(step.action, Bid):
            bidding = step.before.auction.bidding
            bids.append((step.action.amount, bidding.purses[step.actor]))
        for event in step.events:
            if event.kind == "horse-sold":
                sold.append(event.to_json()["price"])

    for seed in range(GAMES):
        random_table("calcutta", {"players": 5}, seed, watch)
    assert len(bids) > 4 * GAMES
    over = [(amount, purse) for amount, purse in bids if amount > purse * BUDGET_SHARE]
    assert not over, over[:5]
    assert sum(1 for price in sold if price) > len(sold) / 2  # most horses are bought
    assert max(amount for amount, _ in bids) > 10  # and bids rise past the opening chip


def test_only_what_a_horse_costs_is_budgeted() -> None:
    assert committed(Bid(12)) == 12
    assert committed(NO_BID) == 0
    assert committed(BookBet(5, 0)) == 0  # a book bet is bounded by the table's limit


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_still_picks_any_bid_within_its_budget(seed: int) -> None:
    bot = RandomBot(random.Random(seed))
    legal: list[Action] = [*(Bid(amount) for amount in range(10, 101)), NO_BID]
    picks = {bot.choose(None, legal) for _ in range(3000)}
    assert picks == {*(Bid(amount) for amount in range(10, 26)), NO_BID}
