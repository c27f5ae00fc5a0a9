"""Monte Carlo over whole card-race games, played by the reference engine with card bots.

As in classic_sim.py, game i of a run with seed S is the single game seeded
`derive_seed(S, GAME_STREAM, i)` (its bots seeded from that with BOT_STREAM), and games are
tallied in fixed chunks merged in index order, so the report does not depend on the number
of worker processes. Beside the figures, the report carries what theory says: the chance that
a horse showing c course cards wins (over every legal course), and for the dealer's book the
exact edge of the bets the bots actually made.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from horserace.bots.cards_bots import CARDS_BOT_KINDS, make_cards_bot, view_odds
from horserace.components.french_deck import is_joker, suit_of
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.odds.cards_book import win_by_count
from horserace.rules.cards import events as ev
from horserace.rules.cards.config import CardsConfig
from horserace.rules.cards.rules import CardsRules
from horserace.rules.cards.state import CardsState
from horserace.rules.registry import get_preset
from horserace.simulate.stats import Proportion, RunningStats

__all__ = ["CHUNK_GAMES", "CardsReport", "simulate_cards"]

CHUNK_GAMES = 8
Progress = Callable[[int], None]


@dataclass
class _Tally:
    players: int
    games: int = 0
    races: int = 0
    steps: int = 0
    race_cards: RunningStats = field(default_factory=RunningStats)
    starts: dict[int, int] = field(default_factory=dict)  # by course count
    wins: dict[int, int] = field(default_factory=dict)
    bet_return: RunningStats = field(default_factory=RunningStats)  # book: per chip, per bet
    bet_edge: RunningStats = field(default_factory=RunningStats)  # book: exact edge, per bet
    takeout: int = 0
    pool: RunningStats = field(default_factory=RunningStats)  # tote and Calcutta, per race
    seat_chips: list[RunningStats] = field(default_factory=list)
    unclaimed: RunningStats = field(default_factory=RunningStats)

    def __post_init__(self) -> None:
        if not self.seat_chips:
            self.seat_chips = [RunningStats() for _ in range(self.players)]

    def merge(self, other: _Tally) -> None:
        self.games += other.games
        self.races += other.races
        self.steps += other.steps
        for mine, theirs in (
            (self.race_cards, other.race_cards),
            (self.bet_return, other.bet_return),
            (self.bet_edge, other.bet_edge),
            (self.pool, other.pool),
            (self.unclaimed, other.unclaimed),
        ):
            mine.merge(theirs)
        for table, more in ((self.starts, other.starts), (self.wins, other.wins)):
            for count, value in more.items():
                table[count] = table.get(count, 0) + value
        self.takeout += other.takeout
        for seat, theirs in zip(self.seat_chips, other.seat_chips, strict=True):
            seat.merge(theirs)


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


@dataclass(frozen=True)
class _Chunk:
    preset: str
    config: CardsConfig
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int


def _run_chunk(chunk: _Chunk, after_game: Callable[[], None] | None = None) -> _Tally:
    preset = get_preset(chunk.preset)
    rules = preset.rules
    assert isinstance(rules, CardsRules)
    tally = _Tally(chunk.config.players)
    for index in range(chunk.start, chunk.stop):
        game_seed = derive_seed(chunk.seed, GAME_STREAM, index)
        game = Game(chunk.preset, rules, chunk.config, seed=game_seed, chance_mode="seeded")
        agents = {
            seat: make_cards_bot(kind, derive_seed(game_seed, BOT_STREAM, seat))
            for seat, kind in enumerate(chunk.bots)
        }
        play(game, agents, SeededChance(game_seed), observe=_Observer(tally, rules))
        result = rules.result(game.state)
        for standing in result.standings:
            tally.seat_chips[standing.seat].add(standing.chips)
        tally.unclaimed.add(result.unclaimed)
        tally.games += 1
        if after_game is not None:
            after_game()
    return tally


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
    workers: int = field(default=1, compare=False)
    elapsed_seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "seed": self.seed,
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
) -> CardsReport:
    """Play `games` seeded games of a card-race preset. `bots` gives the seats' kinds in turn
    (P1 the first, and round again). Bad options raise ConfigError before any game."""
    preset = get_preset(preset_name)
    if not isinstance(preset.rules, CardsRules):
        raise ConfigError(f"{preset_name!r} is not a card-race preset")
    config: CardsConfig = preset.config(options)
    for name, value, low in (("games", games, 1), ("seed", seed, 0), ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigError(f"{name} must be a whole number >= {low}, not {value!r}")
    if not bots:
        raise ConfigError("name at least one bot kind")
    for kind in bots:
        if kind not in CARDS_BOT_KINDS:
            raise ConfigError(f"unknown bot kind {kind!r}; known: {', '.join(CARDS_BOT_KINDS)}")
    kinds = tuple(bots[seat % len(bots)] for seat in range(config.players))
    started = time.perf_counter()
    chunks = [
        _Chunk(preset_name, config, kinds, seed, start, min(start + CHUNK_GAMES, games))
        for start in range(0, games, CHUNK_GAMES)
    ]
    total = _Tally(config.players)
    if workers == 1 or len(chunks) == 1:
        done = 0

        def one_more() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done)

        for chunk in chunks:
            total.merge(_run_chunk(chunk, one_more))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(chunks))) as pool:
            try:
                for chunk, tally in zip(chunks, pool.map(_run_chunk, chunks), strict=True):
                    total.merge(tally)
                    if progress is not None:
                        progress(chunk.stop)
            except BaseException:
                pool.shutdown(cancel_futures=True)
                raise
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
        workers=workers,
        elapsed_seconds=time.perf_counter() - started,
    )
