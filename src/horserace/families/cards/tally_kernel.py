"""Card-race games on the compiled kernel, tallied into the same figures as the engine's games.

Every seat bets blind (families/cards/bots.py: a horse drawn at random, for the most it may stake),
so the games need no odds and the kernel plays them whole. The exact edge of each book bet is
looked up once per course (the exact odds depend on the course's cards of each suit and on
the joker, so a run needs a few hundred lookups at most).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from horserace.core.chunks import Span
from horserace.core.rng import derive_seed
from horserace.core.stats import RunningStats
from horserace.families.cards.odds.race import RacePosition, card_odds
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.cards.rules.track import RACING_SUITS, CardTrack
from horserace.families.cards.tally import CardsTally

__all__ = ["kernel_span"]

KERNEL_STREAM = 4  # the kernel's games draw from this stream of the run's seed


@lru_cache(maxsize=4096)
def _win_chances(config: CardsConfig, course: tuple[int, ...]) -> tuple[float, ...]:
    """Each horse's exact chance to win once the course is dealt (counts per suit, then 1 if
    the joker was turned while dealing it: discarded, or lying on its link where the table
    leaves it there; either way out of the race's deck)."""
    unseen = tuple(config.ranks - course[suit] for suit in RACING_SUITS)
    joker = config.stumbling and not course[len(RACING_SUITS)]
    position = RacePosition(config.need, config.course_length, False, CardTrack(), unseen, joker)
    odds = card_odds(position, places=1)
    return tuple(odds.win[suit] for suit in RACING_SUITS)


def kernel_span(config: CardsConfig, seed: int, span: Span) -> CardsTally:
    """The span's games on the compiled kernel, tallied as the engine path tallies them."""
    from horserace.kernels.card_race import card_spec, run_games  # loads numba

    spec = card_spec(config)
    assert spec is not None, "the caller checks that the kernel plays this table"
    out = run_games(spec, derive_seed(seed, KERNEL_STREAM), span.start, span.stop - span.start)
    tally = CardsTally(config.players)
    tally.games = span.stop - span.start
    tally.races = int(out.cards.size)
    tally.steps = int(out.steps.sum())
    tally.race_cards = RunningStats.of_array(out.cards)
    cards, races = np.unique(out.cards, return_counts=True)
    tally.card_counts = {int(c): int(k) for c, k in zip(cards, races, strict=True)}
    courses = out.course.reshape(-1, len(RACING_SUITS) + 1)
    counts = courses[:, : len(RACING_SUITS)]
    winner = out.order[:, :, 0].reshape(-1)
    won = counts[np.arange(winner.size), winner]
    starts = np.bincount(counts.ravel())
    wins = np.bincount(won, minlength=starts.size)
    tally.starts = {c: int(k) for c, k in enumerate(starts) if k}
    tally.wins = {c: int(wins[c]) for c in tally.starts if wins[c]}
    if config.betting == "book":
        _book(config, tally, courses, winner, out.bet_horse, out.bet_stake)
    tally.takeout = int(out.takeout.sum())
    tally.pool = RunningStats.of_array(out.pool[out.pool > 0])
    tally.seat_chips = [RunningStats.of_array(out.chips[:, s]) for s in range(config.players)]
    tally.unclaimed = RunningStats.of_array(out.table + out.bank)
    return tally


def _book(
    config: CardsConfig,
    tally: CardsTally,
    courses: np.ndarray,
    winner: np.ndarray,
    horse: np.ndarray,
    stake: np.ndarray,
) -> None:
    """The bettors' return per chip and the exact edge of every bet the blind bettors made."""
    horse = horse.reshape(winner.size, -1)
    stake = stake.reshape(winner.size, -1)
    race, seat = np.nonzero(horse >= 0)
    if race.size == 0:
        return
    backed = horse[race, seat]
    staked = stake[race, seat]
    count = courses[race, backed]
    prices = np.zeros((2, int(count.max()) + 1), dtype=np.int64)
    for listed, win, per in config.book_odds.prices:
        if listed < prices.shape[1]:
            prices[:, listed] = (win, per)
    win, per = prices[0, count], prices[1, count]
    back = np.where(backed == winner[race], staked + staked * win // per, 0)
    tally.bet_return = RunningStats.of_array((back - staked) / staked)
    keys, where = np.unique(courses[race], axis=0, return_inverse=True)
    chances = np.array([_win_chances(config, tuple(int(v) for v in key)) for key in keys])
    chance = chances[where.ravel(), backed]
    tally.bet_edge = RunningStats.of_array(1 - chance * (1 + win / per))
