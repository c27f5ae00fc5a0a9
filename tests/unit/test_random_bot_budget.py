"""The random bot plays any legal move, but commits money as a person would: over many seeded
all-random-bot games of every preset (and the board's money house rules), what a seat has
riding on one race never exceeds a quarter of its money, chips are conserved, and a Calcutta
lot ends in a few bids. Each check reads the game's own state, not the bot's arithmetic."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.drivers.bots import make_bot
from horserace.engine import Game, Step, play
from horserace.families.board.rules.actions import Buy, Meet, Wager
from horserace.families.board.rules.phases.market import price
from horserace.families.cards.bots import raise_towards
from horserace.families.cards.rules.actions import NO_BID, Bid, BookBet, ToteBet
from horserace.families.cards.rules.tote_bets import cost
from horserace.families.derby.rules.model import Wager as DerbyWager
from horserace.families.presets import get_preset
from horserace.families.random_bot import BUDGET_SHARE, NOTHING, Outlay, Outlays, RandomBot

GAMES = 12
TABLES: dict[str, tuple[str, dict[str, Any], str]] = {  # name: (preset, options, family)
    "classic": ("classic", {"rounds": 2}, "board"),
    "advanced": ("advanced", {"rounds": 2}, "board"),
    "northwoods": ("northwoods", {"rounds": 3}, "board"),
    "husted": ("classic", {"husted": True, "ante": 2, "open_hands": False, "rounds": 3}, "board"),
    "schellenberg": ("classic", {"market": True, "rounds": 3}, "board"),
    "basic": ("basic", {}, "cards"),
    "scarne": ("scarne", {}, "cards"),
    "tote": ("basic", {"betting": "tote"}, "cards"),
    "calcutta": ("calcutta", {"players": 5}, "cards"),
    "derby": ("derby", {}, "derby"),
    "derby-one-race": ("derby", {"races": 1}, "derby"),
}


def random_table(table: str, seed: int, observe: Callable[[Step], None]) -> Game:
    preset_name, options, family = TABLES[table]
    preset = get_preset(preset_name)
    config = preset.config(options)
    game = Game(preset_name, preset.rules, config, seed=seed, chance_mode="seeded")
    agents = {
        seat: make_bot("random", derive_seed(seed, BOT_STREAM, seat), family)
        for seat in range(preset.rules.players(config))
    }
    assert all(isinstance(agent, RandomBot) for agent in agents.values())
    total = preset.rules.ledger(game.state).total

    def checked(step: Step) -> None:
        assert preset.rules.ledger(step.after).total == total  # chips are conserved
        observe(step)

    play(game, agents, SeededChance(seed), observe=checked)
    return game


def riding(step: Step) -> Outlay:
    """What the acting seat has riding on the race after its move, out of its money, read from
    the state before it (NOTHING for a move that commits no money)."""
    state, action, seat = step.before, step.action, step.actor
    assert isinstance(seat, int)
    if isinstance(action, Bid):
        auction = state.auction
        bought = sum(p for o, p in zip(auction.owners, auction.prices, strict=True) if o == seat)
        return Outlay(bought + action.amount, state.ledger.balance(seat) + bought)
    if isinstance(action, BookBet | ToteBet):
        staked = state.betting.staked_by(seat)
        added = action.stake if isinstance(action, BookBet) else cost(action.kind, action.stake)
        return Outlay(staked + added, state.ledger.balance(seat) + staked)
    if isinstance(action, Buy):
        return Outlay(price(state.config, state.race), state.ledger.balances[seat])
    if isinstance(action, Meet | Wager):
        before, after = state.seats.wagered[seat], step.after.seats.wagered[seat]
        return Outlay(after, state.ledger.balances[seat] + before)
    if isinstance(action, DerbyWager):
        return Outlay(action.amount, state.money(seat))
    return NOTHING


@pytest.mark.parametrize("table", TABLES)
def test_no_random_bot_commits_more_than_its_budget(table: str) -> None:
    kinds: Counter[str] = Counter()
    over: list[tuple[str, Outlay]] = []

    def watch(step: Step) -> None:
        if isinstance(step.actor, int):
            outlay = riding(step)
            if outlay.riding:
                kinds[type(step.action).__name__] += 1
            if outlay.riding > outlay.money * BUDGET_SHARE:
                over.append((step.action.text, outlay))

    for seed in range(GAMES):
        random_table(table, seed, watch)
    assert not over, over[:5]
    if table not in ("classic", "advanced", "northwoods"):  # these tables commit no money
        assert sum(kinds.values()) > GAMES, kinds  # and the bots still bet, bid and buy


@pytest.mark.parametrize("kinds", [("random",), ("value",), ("value", "favourite", "random")])
def test_calcutta_lots_end_in_a_few_bids_and_most_horses_sell(kinds: tuple[str, ...]) -> None:
    """Bids jump (towards the bidder's limit) and a pass leaves the lot: with 5 seats no lot
    takes more than 3 asks a seat (one chip at a time took up to 75)."""
    per_lot: Counter[tuple[int, int, int]] = Counter()  # (game, race, horse) -> bid steps
    sold: list[int] = []
    bids: list[int] = []
    preset = get_preset("calcutta")
    for seed in range(GAMES * 2):

        def watch(step: Step, seed: int = seed) -> None:
            if isinstance(step.action, Bid) or step.action == NO_BID:
                per_lot[(seed, step.before.race, step.before.auction.horse)] += 1
            if isinstance(step.action, Bid):
                bids.append(step.action.amount)
            sold.extend(e.to_json()["price"] for e in step.events if e.kind == "horse-sold")

        game = Game("calcutta", preset.rules, preset.config({"players": 5}), seed, "seeded")
        agents = {
            seat: make_bot(kinds[seat % len(kinds)], derive_seed(seed, BOT_STREAM, seat), "cards")
            for seat in range(5)
        }
        play(game, agents, SeededChance(seed), observe=watch)
    assert max(per_lot.values()) <= 3 * 5, per_lot.most_common(3)
    assert sum(1 for p in sold if p) > len(sold) / 2  # most horses are bought
    assert max(bids) > 10  # bids rise past the opening chip


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_still_picks_any_bid_within_its_budget(seed: int) -> None:
    outlays = Outlays(
        (Bid,), lambda view, a: Outlay(a.amount, 100) if isinstance(a, Bid) else NOTHING
    )
    bot = RandomBot(random.Random(seed), outlays)
    legal: list[Action] = [*(Bid(amount) for amount in range(10, 101)), NO_BID]
    assert bot.wants_view(legal) and not bot.wants_view([NO_BID])
    picks = {bot.choose(object(), legal) for _ in range(3000)}
    assert picks == {*(Bid(amount) for amount in range(10, 26)), NO_BID}


def test_a_value_bidder_raises_halfway_to_its_limit() -> None:
    bids = [Bid(amount) for amount in range(11, 151)]
    assert raise_towards(10, 50, bids) == Bid(30)
    assert raise_towards(10, 11, bids) == Bid(11)  # at least the lowest bid
    assert raise_towards(10, 400, bids) == Bid(150)  # at most what it holds
