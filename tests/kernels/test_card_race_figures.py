"""The card-race kernel's figures against exact ones: winners on a Scarne course and on a
faltering one (chi-square against the odds module), race cards turned against the exact
expectation (counted in card_exact.py, apart from the kernel and the odds module), and the money
the book, the tote and the party take in and pay out where the bets are fixed."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from horserace.families.cards.odds.book import legal_courses, win_by_count
from horserace.families.cards.odds.race import RacePosition, card_odds
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.cards.rules.track import CardTrack
from horserace.families.presets import get_preset
from horserace.kernels.card_race import CardGames, card_spec, run_games
from tests.kernels.card_exact import face_up_race_cards, stepped_cards
from tests.kernels.test_card_race_kernel import STUMBLING_ODDS, STUMBLING_PACK

CHI2_P001 = {3: 16.266, 23: 49.728}  # the chi-square distribution's 0.999 quantiles by df
CHI2_BY_CELLS_P001 = {8: 26.124, 12: 32.909, 16: 39.252, 20: 45.315, 24: 51.179, 28: 56.892}


def _play(
    preset: str, options: dict[str, Any], games: int, seed: int
) -> tuple[CardsConfig, CardGames]:
    config: CardsConfig = get_preset(preset).config(options)
    spec = card_spec(config)
    assert spec is not None
    return config, run_games(spec, seed, 0, games)


def _close(values: np.ndarray, mean: float, sigmas: float = 4.0) -> None:
    """The sample's mean within `sigmas` standard errors of the exact mean."""
    error = values.std(ddof=1) / np.sqrt(values.size)
    assert abs(values.mean() - mean) < sigmas * error, (values.mean(), mean, error)


def test_scarne_winners_by_horse_and_course_count_follow_the_exact_odds() -> None:
    """Every horse (suit) showing c course cards on a Scarne course wins with the exact chance
    of the odds module; chi-square over the (suit, count) cells at p = 0.001."""
    config, out = _play("scarne", {"races": 10, "players": 4, "betting": "tote"}, 12_000, 3)
    exact = {c: float(p) for c, p in win_by_count(config).items()}
    counts = out.course[:, :, :4].reshape(-1, 4)
    winner = out.order[:, :, 0].reshape(-1)
    chi2, cells = 0.0, 0
    for suit in range(4):
        for count, chance in exact.items():
            starts = int((counts[:, suit] == count).sum())
            if starts * chance < 20 or starts * (1 - chance) < 20:
                continue
            wins = int(((counts[:, suit] == count) & (winner == suit)).sum())
            expected = starts * chance
            chi2 += (wins - expected) ** 2 / (expected * (1 - chance))
            cells += 1
    assert cells in CHI2_BY_CELLS_P001, cells
    assert chi2 < CHI2_BY_CELLS_P001[cells], (chi2, cells)


def test_faltering_winners_on_the_full_pack_are_even() -> None:
    """A face-down course hides which horse it holds back, so from the gate every horse wins with
    chance 1/4: the odds module's exact programme gives 1/4 within 1e-14 for the Basic and the
    Scarne course (about 200 and 20 seconds, too slow to run here); chi-square at p = 0.001."""
    for preset, seed in (("basic", 1), ("scarne", 2)):
        options = {"faltering": True, "redeal": False, "betting": "tote", "races": 10}
        _, out = _play(preset, options, 15_000, seed)
        wins = np.bincount(out.order[:, :, 0].ravel(), minlength=4)
        expected = wins.sum() / 4
        chi2 = float(((wins - expected) ** 2 / expected).sum())
        assert chi2 < CHI2_P001[3], (preset, chi2, wins.tolist())


SHORT = {"ranks": 5, "course_length": 3, "faltering": True, "redeal": False, "races": 10}


def test_a_faltering_short_pack_places_and_lasts_as_the_exact_figures_say() -> None:
    """A short pack (5 cards a suit, 3 face-down links, a horse home on reaching the end) at a
    party of three prizes: the first three home, in order, against the odds module's exact
    distribution (chi-square over the 24 orders), and the race cards turned until the third is
    home against the card-by-card expectation of card_exact.py (12.63 cards; 11.76 on a course
    that never throws a horse back)."""
    options = {**SHORT, "need": 3, "betting": "party", "prizes": [25, 20, 15]}
    _, out = _play("basic", options, 20_000, 4)
    position = RacePosition(3, 3, True, CardTrack(), (5, 5, 5, 5), False)
    exact = card_odds(position, places=3).order
    assert len(exact) == 24
    orders = out.order.reshape(-1, 4)
    seen: dict[tuple[int, ...], int] = {}
    for row in map(tuple, orders.tolist()):
        seen[row] = seen.get(row, 0) + 1
    assert sum(seen.get(key, 0) for key in exact) == orders.shape[0]
    chi2 = sum((seen.get(key, 0) - orders.shape[0] * p) ** 2 / (orders.shape[0] * p)
               for key, p in exact.items())  # fmt: skip
    assert chi2 < CHI2_P001[23], chi2
    _close(out.cards.ravel().astype(float), stepped_cards(5, 3, 3, 3, True))


def test_a_faltering_short_pack_race_lasts_as_the_exact_figures_say() -> None:
    """The same pack where a horse must cross the finish past the last link (need 4), on the
    tote: the race ends with the first horse home, after 10.59 cards on average (9.94 on a
    course that never throws a horse back, some 100 standard errors away)."""
    _, out = _play("basic", {**SHORT, "need": 4, "betting": "tote"}, 20_000, 5)
    _close(out.cards.ravel().astype(float), stepped_cards(5, 3, 4, 1, True))


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("basic", {"betting": "book"}),  # the first home ends it; redealt courses
        ("scarne", {"betting": "tote"}),
        ("basic", {"betting": "party", "prizes": [25, 20, 15]}),  # three home
        ("scarne", {"betting": "party", "prizes": [9, 8, 7, 6]}),  # three home, the fourth known
    ],
)
def test_race_cards_turned_agree_with_the_exact_expectation(
    preset: str, options: dict[str, Any]
) -> None:
    config, out = _play(preset, {**options, "races": 10, "players": 5}, 20_000, 6)
    places = min(len(config.prizes), 3) if config.betting == "party" else 1  # 3 home: all known
    redeal_at = config.redeal_at if config.redeal else None
    exact = face_up_race_cards(config.ranks, config.course_length, config.need, places, redeal_at)
    _close(out.cards.ravel().astype(float), float(exact))


FRACTIONAL_BOOK = {"name": "fractions", "odds": {"0": "4-5", "1": "7-4", "2": "5-2", "3": "9-2"}}


@pytest.mark.parametrize("book", [None, FRACTIONAL_BOOK], ids=["traditional", "fractional"])
def test_the_book_takes_in_what_the_exact_odds_say(book: dict[str, Any] | None) -> None:
    """One race a game, a dealer too rich to refuse a bet, and every other seat staking the
    limit (7) on a horse drawn at random: the dealer's expected gain per bet is, over every
    course and its chance, a quarter of the sum over horses with a price of
    7 x (1 - q) - q x floor(7 x win / per), q the horse's exact chance (no bet on a horse
    with no price). A count of four cards has no price in the fractional book."""
    options: dict[str, Any] = {"players": 6, "races": 1, "bet_limit": 7, "betting": "book"}
    options["starting_chips"] = 10**6
    if book is not None:
        options["book_odds"] = book
    config, out = _play("basic", options, 200_000, 7)
    per_bet = Fraction(0)
    for chance, counts, win in legal_courses(config):
        for suit in range(4):
            price = config.book_odds.price(counts[suit])
            if price is not None:
                odds_win, odds_per = price
                paid = 7 * odds_win // odds_per
                per_bet += chance * Fraction(1, 4) * (7 * (1 - win[suit]) - win[suit] * paid)
    gain = (out.chips[:, 0] - 10**6).astype(float)  # seat 0 deals the only race
    _close(gain, float(5 * per_bet))
    assert np.all(out.chips.sum(axis=1) + out.table == 6 * 10**6)
    staked = out.bet_stake[:, 0, 1:]
    assert set(np.unique(staked).tolist()) <= {0, 7}
    if book is not None:  # a pick of a horse with no price is no bet
        assert (staked == 0).any()


def test_the_tote_keeps_its_takeout_and_odd_chips_and_makes_up_minus_pools() -> None:
    """Every seat stakes the limit (9) on a win ticket: each race's pool is 7 x 9 = 63 and the
    house takes 17 % of it, rounded down (10), leaving 53. With k backers of the winner each
    gets 9 back and (53 - 9k) // k more, the odd chips to the house; with nobody backing it
    (chance (3/4)^7, the picks being blind) every ticket gets 53 x 9 // 63 = 7 back and the
    house keeps 4 more; with 6 or 7 backers the net pool is short of the stakes (a minus pool)
    and the house makes every stake whole out of its takeout."""
    options = {"players": 7, "races": 6, "bet_limit": 9, "betting": "tote", "takeout": 17}
    options["starting_chips"] = 10**6
    _, out = _play("basic", options, 40_000, 8)
    backers = (out.bet_horse == out.order[:, :, :1]).sum(axis=2)
    profit = 53 - 9 * backers
    odd = np.where(
        backers == 0, 53 - 7 * 7, np.where(profit >= 0, profit % np.maximum(backers, 1), 0)
    )
    kept = 10 + odd + np.minimum(profit, 0)  # a minus pool comes out of the takeout
    assert np.all(out.pool == 63) and np.array_equal(out.takeout, kept)
    assert np.array_equal(out.bank, kept.sum(axis=1)) and np.all(out.table == 0)
    assert np.array_equal(out.chips.sum(axis=1), 7 * 10**6 - out.bank)
    assert (backers >= 6).sum() >= 100 and (odd > 0).mean() > 0.3  # both paths are taken
    unbacked = (backers == 0).ravel().astype(float)
    _close(unbacked, 0.75**7)


@pytest.mark.parametrize("prizes", [[25, 20, 15], [40, 1, 0, 12]])
def test_the_party_pays_the_exact_prizes_on_average(prizes: list[int]) -> None:
    """Each seat's blind pick is any horse with chance 1/4 whatever the race, so a race pays
    players x sum(prizes) / 4 from the bank on average; a seat's prizes too, by seat."""
    options = {"players": 5, "races": 4, "betting": "party", "prizes": prizes}
    config, out = _play("basic", options, 50_000, 9)
    start = config.bank_funds
    _close((start - out.bank).astype(float) / 4, 5 * sum(prizes) / 4)
    for seat in range(5):
        _close((out.chips[:, seat] - config.starting_chips).astype(float) / 4, sum(prizes) / 4)
    assert np.all(out.chips.sum(axis=1) + out.bank == 5 * config.starting_chips + start)


CHI2_BY_DF_P001 = {5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124, 9: 27.877, 10: 29.588}


@STUMBLING_ODDS
def test_a_stumbling_table_wins_as_the_exact_odds_say_with_the_joker_discarded_or_not() -> None:
    """On a short pack (STUMBLING_PACK: its exact odds take half a second, the Basic pack's
    seven) the joker is turned while dealing 5 links from 32 suit cards and itself with chance
    5/33, and then discarded; a horse showing c course cards wins with the exact chance of a
    race with no joker (discarded) or with the joker in the deck, each cell apart (chi-square
    at p = 0.001, 100,000 races). The chance with the joker in the deck is the odds module's
    stumbling average less its share of discarded courses. A joker left lying on a link (no
    discard), or a discarded joker still in the deck (the discarded cells then win as the
    others do: a chi-square about 200 on average, against 22.5), fails."""
    options = {"races": 10, "players": 4, "betting": "tote"}
    config, out = _play("basic", {**options, **STUMBLING_PACK}, 10_000, 12)
    plain = win_by_count(
        get_preset("basic").config({**options, **STUMBLING_PACK, "stumbling": False})
    )
    mixed = win_by_count(config)
    p = Fraction(5, 33)
    exact = {
        (c, True): plain[c] for c in plain
    } | {(c, False): (mixed[c] - p * plain[c]) / (1 - p) for c in mixed}  # fmt: skip
    discarded = out.course[:, :, 4].reshape(-1).astype(bool)
    _close(discarded.astype(float), float(p))
    counts = out.course[:, :, :4].reshape(-1, 4)
    winner = out.order[:, :, 0].reshape(-1)
    won = counts[np.arange(winner.size), winner]
    chi2, cells = 0.0, 0
    for (count, gone), chance in exact.items():
        q = float(chance)
        starts = int(((counts == count) & (discarded == gone)[:, None]).sum())
        if starts * q < 20 or starts * (1 - q) < 20:
            continue
        wins = int(((won == count) & (discarded == gone)).sum())
        chi2 += (wins - starts * q) ** 2 / (starts * q * (1 - q))
        cells += 1
    assert cells in CHI2_BY_DF_P001, cells
    assert chi2 < CHI2_BY_DF_P001[cells], (chi2, cells)
