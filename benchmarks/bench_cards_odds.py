"""Time the card race's exact odds and its engine, so changes in speed show up as numbers.

Run: .venv/bin/python benchmarks/bench_cards_odds.py

Positions come from seeded races of the rules engine (a party table, so every race runs to
three places), stopped after a random number of cards. The odds caches are cleared before
every call, so each figure is a computation, not a look-up.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from horserace.core.chance import SeededChance
from horserace.core.types import CHANCE
from horserace.engine import Game, play
from horserace.families.cards.bots import make_cards_bot
from horserace.families.cards.odds import race as cards_odds
from horserace.families.cards.odds.book import _gate_win_sorted, average_book_edge
from horserace.families.cards.odds.race import RacePosition, card_odds, exact_card_odds, position_of
from horserace.families.cards.rules.config import cards_config
from horserace.families.cards.rules.events import RaceOver
from horserace.families.cards.rules.rules import CardsRules
from horserace.families.presets import get_preset

RULES = CardsRules()


def positions(count: int, seed: int, low: int, high: int, **options: Any) -> list[RacePosition]:
    """Public positions after `low`..`high` race cards of seeded races."""
    rng = random.Random(seed)
    config = RULES.make_config({"betting": "party", "races": 1, **options})
    found: list[RacePosition] = []
    while len(found) < count:
        state = RULES.initial_state(config)
        stop = rng.randint(low, high)
        while True:
            actor = RULES.actor(state)
            if actor is CHANCE:
                outcomes, _ = RULES.chance_weights(state)
                action = outcomes[rng.randrange(len(outcomes))]
            else:
                assert isinstance(actor, int)
                action = RULES.legal_actions(state, actor)[0]
            state, events = RULES.apply(state, action)
            if any(isinstance(e, RaceOver) for e in events):
                break
            if len(state.turned) >= stop:
                found.append(position_of(state))
                break
    return found


def clear() -> None:
    cards_odds._cached_orders.cache_clear()
    _gate_win_sorted.cache_clear()


def median_seconds(calls: list[Callable[[], object]]) -> float:
    times = []
    for call in calls:
        clear()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def row(name: str, calls: list[Callable[[], object]], unit: str = "ms") -> None:
    scale = {"µs": 1e6, "ms": 1e3, "s": 1.0}[unit]
    value = median_seconds(calls) * scale
    print(f"{name:<58} {value:>9.2f} {unit:<2}  {len(calls):>5}")


def game_speed() -> None:
    preset = get_preset("basic")
    config = preset.config({"players": 4, "races": 4})
    steps = 0
    started = time.perf_counter()
    games = 40
    for seed in range(games):
        game = Game("basic", preset.rules, config, seed, "seeded")
        bots = {s: make_cards_bot("random", seed * 10 + s) for s in range(4)}
        play(game, bots, SeededChance(seed))
        steps += len(game.steps)
    elapsed = time.perf_counter() - started
    name = "basic, 4 players x 4 races, random bots: one game"
    print(f"{name:<58} {elapsed / games * 1e3:>9.2f} ms")
    print(f"{'  steps per second':<58} {steps / elapsed:>9,.0f}")


def odds_calls(
    function: Callable[..., object], found: list[RacePosition], **kwargs: Any
) -> list[Callable[[], object]]:
    return [partial(function, position, **kwargs) for position in found]


def main() -> None:
    print(f"{'what':<58} {'median':>12}  {'runs':>5}")
    gate = positions(30, 1, 0, 0)
    mid = positions(30, 2, 5, 25)
    row("card_odds (floats, closed form), basic at the gate", odds_calls(card_odds, gate))
    row("card_odds (floats, closed form), basic mid-race", odds_calls(card_odds, mid))
    row("exact_card_odds (Fractions), basic at the gate", odds_calls(exact_card_odds, gate[:10]))
    row("exact_card_odds (Fractions), basic mid-race", odds_calls(exact_card_odds, mid[:10]))
    row(
        "card_odds by the DP (floats), basic at the gate",
        odds_calls(card_odds, gate[:5], method="dp"),
    )
    row(
        "card_odds by the DP (floats), basic mid-race", odds_calls(card_odds, mid[:10], method="dp")
    )
    joker_gate = positions(5, 3, 0, 0, stumbling=True)
    joker_mid = positions(10, 4, 10, 25, stumbling=True)
    row("stumbling: win only, at the gate", odds_calls(card_odds, joker_gate, places=1), "s")
    row("stumbling: all bets, at the gate", odds_calls(card_odds, joker_gate[:3]), "s")
    row("stumbling: all bets, 10-25 cards in", odds_calls(card_odds, joker_mid))
    hidden = {"faltering": True, "redeal": False}
    early = positions(4, 5, 8, 10, **hidden)
    young = positions(6, 6, 12, 14, **hidden)
    grown = positions(10, 7, 16, 18, **hidden)
    row("faltering: win only, 8-10 cards in", odds_calls(card_odds, early, places=1), "s")
    row("faltering: win only, 12-14 cards in", odds_calls(card_odds, young, places=1), "s")
    row("faltering: all bets, 12-14 cards in", odds_calls(card_odds, young), "s")
    row("faltering: all bets, 16-18 cards in", odds_calls(card_odds, grown), "s")
    row(
        "average_book_edge, traditional table, every legal course",
        [partial(average_book_edge, cards_config({}))] * 3,
    )
    game_speed()


if __name__ == "__main__":
    main()
