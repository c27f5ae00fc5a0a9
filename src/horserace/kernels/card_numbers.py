"""The card-race kernel's numbers: which configs it plays, its settings as one array, and the
outcome rows of whole games.

The kernel only knows suits: a card is its suit 0..3, or 4 for the joker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from horserace.families.cards.rules.config import CardsConfig
from horserace.kernels import Array

CARD_STYLES = ("book", "tote", "party")
JOKER, SUITS, JOKER_CARD = 4, 4, 52
# positions in the spec array
(PLAYERS, RACES, CHIPS, DEALER, LENGTH, NEED, RANKS, REDEAL, FALTER, STUMBLE, STYLE) = range(11)
LIMIT, TAKEOUT, BANK, REDEAL_AT, PRIZES, PRIZE, WIN, PER = 11, 12, 13, 14, 15, 16, 20, 40
JOKER_STAYS = 60  # 1: a joker dealt to the course lies on its link (course_joker = "stays")
SPEC_SIZE = 61
TICKS = 1 << 20  # standing order: position first, then arrival (fewer than 2**20 a race)


def card_spec(config: CardsConfig) -> Array | None:
    """The kernel's numbers for a config it plays exactly, or None (the engine must play it)."""
    if config.betting not in CARD_STYLES or config.cut_for_deal:
        return None
    spec = np.zeros(SPEC_SIZE, dtype=np.int64)
    spec[:11] = (
        config.players,
        config.races,
        config.starting_chips,
        config.first_dealer,
        config.course_length,
        config.need,
        config.ranks,
        config.redeal,
        config.faltering,
        config.stumbling,
        CARD_STYLES.index(config.betting),
    )
    spec[LIMIT], spec[TAKEOUT], spec[BANK] = config.bet_limit, config.takeout, config.bank_funds
    spec[REDEAL_AT], spec[PRIZES] = config.redeal_at, len(config.prizes)
    spec[JOKER_STAYS] = config.joker_stays
    spec[PRIZE : PRIZE + len(config.prizes)] = config.prizes
    for count, win, per in config.book_odds.prices:
        if count < PER - WIN:  # counts 0..19 fit the table
            spec[WIN + count], spec[PER + count] = win, per
    return spec


@dataclass(frozen=True)
class CardGames:
    """Per game: chips per seat, what is left on the table and in the bank, steps played;
    per race (games x races): the finishing order, course cards per suit (and, in the last
    column, 1 if the joker was turned while dealing the course: discarded, or lying on its link
    when the table leaves it there), race cards turned,
    redeals, each seat's bet (horse, -1 for none, and stake), the pool."""

    chips: Array
    table: Array
    bank: Array
    steps: Array
    order: Array  # (games, races, 4)
    course: Array  # (games, races, 5)
    cards: Array
    redeals: Array
    bet_horse: Array  # (games, races, players)
    bet_stake: Array
    pool: Array  # tote: the win pool (0: no tickets)
    takeout: Array


def outputs(spec: Array, games: int) -> CardGames:
    """Zeroed outcome rows for `games` games."""
    n, races = int(spec[PLAYERS]), int(spec[RACES])
    zeros: Any = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
    return CardGames(
        chips=zeros(games, n),
        table=zeros(games),
        bank=zeros(games),
        steps=zeros(games),
        order=zeros(games, races, SUITS),
        course=zeros(games, races, SUITS + 1),
        cards=zeros(games, races),
        redeals=zeros(games, races),
        bet_horse=zeros(games, races, n),
        bet_stake=zeros(games, races, n),
        pool=zeros(games, races),
        takeout=zeros(games, races),
    )
