"""Monte Carlo over whole card-race games: on the compiled kernel when every seat bets blind
(kernels/card_race.py), else through the reference engine with the card bots.

On the engine, game i of a run with seed S is the single game seeded
`derive_seed(S, GAME_STREAM, i)` (its bots seeded from that with BOT_STREAM); on the kernel,
game i draws from stream i of the run's kernel seed. Either way games are tallied in fixed
chunks merged in index order (simulate/runner.py), so the report does not depend on the number
of worker processes. Beside the figures, the report carries what theory says: the chance that
a horse showing c course cards wins (over every legal course), and for the dealer's book the
exact edge of the bets actually made.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from horserace.components.french_deck import is_joker, suit_of
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.families.cards.bots import CARDS_BOT_KINDS, make_cards_bot, view_odds
from horserace.families.cards.odds.book import win_by_count
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.cards.rules.rules import CardsRules
from horserace.families.cards.rules.state import CardsState
from horserace.families.presets import get_preset
from horserace.simulate import runner
from horserace.simulate.cards_kernel import KERNEL_BOT, kernel_span
from horserace.simulate.cards_tally import CardsTally as _Tally
from horserace.simulate.stats import Proportion, RunningStats

if TYPE_CHECKING:
    from horserace.simulate.runner import Progress

__all__ = ["CHUNK_GAMES", "ENGINES", "KERNEL_CHUNK_GAMES", "CardsReport", "simulate_cards"]

CHUNK_GAMES = 8
KERNEL_CHUNK_GAMES = 5_000
ENGINES = ("auto", "kernel", "reference")


def _counts(state: CardsState) -> list[int]:
    return [
        sum(1 for c in state.course if not is_joker(c) and suit_of(c) == suit) for suit in range(4)
    ]


class _Observer:
    """Reads each step's events into the tally."""

    def __init__(self, tally: _Tally, rules: CardsRules) -> None:
        self.tally = tally
        self.rules = rules
        self.pending: list[tuple[int, int, int, int, float]] = []  # suit, stake, win, per, edge

    def __call__(self, step: Step) -> None:
        tally = self.tally
        tally.steps += 1
        before: CardsState = step.before
        for event in step.events:
            if isinstance(event, ev.BetPlaced) and before.config.betting == "book":
                self._book_bet(before, event)
            elif isinstance(event, ev.RaceOver):
                tally.races += 1
                tally.race_cards.add(event.cards)
                counts = _counts(before)
                for count in counts:
                    tally.starts[count] = tally.starts.get(count, 0) + 1
                winner = event.order[0]
                tally.wins[counts[winner]] = tally.wins.get(counts[winner], 0) + 1
                for suit, stake, win, per, _ in self.pending:
                    back = stake + stake * win // per if suit == winner else 0
                    tally.bet_return.add((back - stake) / stake)
                self.pending = []
            elif isinstance(event, ev.PoolSettled):
                tally.takeout += event.kept
                if event.pool != "the book":
                    tally.pool.add(event.total)

    def _book_bet(self, state: CardsState, event: ev.BetPlaced) -> None:
        suit = event.horses[0]
        price = state.config.book_odds.price(state.course_count(suit))
        assert price is not None
        chance = view_odds(self.rules.view(state, None), 1).win[suit]
        edge = 1 - chance * (1 + price[0] / price[1])
        self.pending.append((suit, event.stake, price[0], price[1], edge))
        self.tally.bet_edge.add(edge)


def _engine_span(
    preset_name: str, config: CardsConfig, bots: tuple[str, ...], seed: int, span: runner.Span
) -> _Tally:
    """The span's games through the reference play loop, tallied in index order."""
    rules = get_preset(preset_name).rules
    assert isinstance(rules, CardsRules)
    tally = _Tally(config.players)
    for index in range(span.start, span.stop):
        game_seed = derive_seed(seed, GAME_STREAM, index)
        game = Game(preset_name, rules, config, seed=game_seed, chance_mode="seeded")
        agents = {
            seat: make_cards_bot(kind, derive_seed(game_seed, BOT_STREAM, seat))
            for seat, kind in enumerate(bots)
        }
        play(game, agents, SeededChance(game_seed), observe=_Observer(tally, rules))
        result = rules.result(game.state)
        for standing in result.standings:
            tally.seat_chips[standing.seat].add(standing.chips)
        tally.unclaimed.add(result.unclaimed)
        tally.games += 1
    return tally


def _merge(earlier: _Tally, later: _Tally) -> _Tally:
    earlier.merge(later)
    return earlier


@dataclass(frozen=True)
class CardsReport:
    """What a simulation found; equality ignores the timing and the worker count."""

    preset: str
    seed: int
    config: dict[str, Any]
    bots: tuple[str, ...]
    games: int
    races: int
    steps: int
    race_cards: RunningStats
    wins_by_count: dict[int, Proportion]  # a horse showing c course cards won
    exact_by_count: dict[int, float]
    bet_return: RunningStats  # book: the bettor's return per chip, per bet
    bet_edge: RunningStats  # book: the exact edge of each bet when it was made
    takeout: int
    pool: RunningStats
    seat_chips: tuple[RunningStats, ...]
    unclaimed: RunningStats
    engine: str = "reference"  # what played the games: "kernel" or "reference"
    workers: int = field(default=1, compare=False)
    elapsed_seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "seed": self.seed,
            "engine": self.engine,
            "config": self.config,
            "bots": list(self.bots),
            "games": self.games,
            "races": self.races,
            "steps": self.steps,
            "workers": self.workers,
            "elapsed_seconds": self.elapsed_seconds,
            "race_cards": self.race_cards.to_json(),
            "win_by_course_count": [
                {"count": count, **wins.to_json(), "exact": self.exact_by_count.get(count)}
                for count, wins in self.wins_by_count.items()
            ],
            "book": {
                "bets": self.bet_return.count,
                "bettor_return_per_chip": self.bet_return.to_json(),
                "exact_edge_of_bets_made": self.bet_edge.to_json(),
            },
            "takeout": self.takeout,
            "pool": self.pool.to_json(),
            "seats": [
                {"seat": seat, "name": f"P{seat + 1}", "bot": self.bots[seat], **chips.to_json()}
                for seat, chips in enumerate(self.seat_chips)
            ],
            "unclaimed": self.unclaimed.to_json(),
        }


def simulate_cards(
    preset_name: str,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    *,
    bots: Sequence[str] = ("value",),
    workers: int = 1,
    progress: Progress | None = None,
    engine: str = "auto",
) -> CardsReport:
    """Play `games` seeded games of a card-race preset. `bots` gives the seats' kinds in turn
    (P1 the first, and round again). `engine`: "auto" (the compiled kernel when every seat
    bets blind and the table is one it plays: book, tote or party), "kernel" or "reference".
    Bad options raise ConfigError before any game."""
    preset = get_preset(preset_name)
    if not isinstance(preset.rules, CardsRules):
        raise ConfigError(f"{preset_name!r} is not a card-race preset")
    config: CardsConfig = preset.config(options)
    runner.check_run(games, seed, workers)
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if not bots:
        raise ConfigError("name at least one bot kind")
    for kind in bots:
        if kind not in CARDS_BOT_KINDS:
            raise ConfigError(f"unknown bot kind {kind!r}; known: {', '.join(CARDS_BOT_KINDS)}")
    kinds = tuple(bots[seat % len(bots)] for seat in range(config.players))
    kernel = engine != "reference" and set(kinds) == {KERNEL_BOT} and _kernel_plays(config)
    if engine == "kernel" and not kernel:
        raise ConfigError(
            f"the compiled kernel plays tables where every seat bets {KERNEL_BOT} (--bots"
            f" {KERNEL_BOT}) at the book, the tote or a party; use --engine reference"
        )
    started = time.perf_counter()
    plan: runner.Plan[_Tally]
    if kernel:
        plan = runner.Plan(partial(kernel_span, config, seed), _merge)
        chunk = KERNEL_CHUNK_GAMES
    else:
        plan = runner.Plan(partial(_engine_span, preset_name, config, kinds, seed), _merge)
        chunk = CHUNK_GAMES
    total = runner.run(plan, games, chunk, workers=workers, progress=progress)
    exact: dict[int, float] = {}
    if not config.faltering:
        exact = {c: float(p) for c, p in win_by_count(config).items()}
    return CardsReport(
        preset=preset_name,
        seed=seed,
        config=preset.rules.config_to_dict(config),
        bots=kinds,
        games=total.games,
        races=total.races,
        steps=total.steps,
        race_cards=total.race_cards,
        wins_by_count={
            c: Proportion(total.wins.get(c, 0), total.starts[c]) for c in sorted(total.starts)
        },
        exact_by_count=exact,
        bet_return=total.bet_return,
        bet_edge=total.bet_edge,
        takeout=total.takeout,
        pool=total.pool,
        seat_chips=tuple(total.seat_chips),
        unclaimed=total.unclaimed,
        engine="kernel" if kernel else "reference",
        workers=workers,
        elapsed_seconds=time.perf_counter() - started,
    )


def _kernel_plays(config: CardsConfig) -> bool:
    from horserace.kernels.card_race import card_spec  # loads numba

    return card_spec(config) is not None
