"""The Derby bots and the simulator: the EV bot's wager by expected value (exact figures worked
by hand), worker-independent simulation reports, paired races."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from horserace.core.errors import ConfigError
from horserace.drivers.simulate.runner import simulate_games
from horserace.families.derby.bots import DerbyEVBot, make_derby_bot, wager_value
from horserace.families.derby.rules.model import DerbyView, Wager
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.track import DEFAULT_TRACK
from horserace.families.derby.rules.transcript import play_texts
from horserace.families.derby.tally import paired_races
from horserace.families.random_bot import RandomBot

RULES = DerbyRules()


def wager_view(players: int, odds: int, **options: object) -> DerbyView:
    """Seat 0 to wager, holding horse 1 with odds die `odds`."""
    config = RULES.make_config({"players": players, **options})
    texts: list[str] = []
    for seat in range(players):
        texts += [f"silk {seat + 1}", f"horse {seat + 1}"]
    texts += [f"odds {odds}"] + ["odds 1"] * (players - 1)
    state, _ = play_texts(RULES, RULES.initial_state(config), texts)
    return RULES.view(state, 0)


@pytest.mark.parametrize(
    ("players", "odds", "options", "value"),
    [
        # 8 horses: each place 1/8; 6/8 x odds back, 5/8 lost
        (8, 1, {}, Fraction(6, 8) - Fraction(5, 8)),
        # 20 horses: odds 2 is a losing bet, odds 3 a winning one
        (20, 2, {}, Fraction(12, 20) - Fraction(17, 20)),
        (20, 3, {}, Fraction(18, 20) - Fraction(17, 20)),
        # two horses: both are paid (3x and 2x), nothing is ever lost
        (2, 1, {"races": 1}, Fraction(5, 2)),
        # a scratch among 4 horses: 1/4 per place for Win, Place, Show; lost 1/4
        (4, 1, {"scratches": 1}, Fraction(6, 4) - Fraction(1, 4)),
        # house horses: a field of 20 whoever owns them
        (3, 2, {"all_horses": True}, Fraction(12, 20) - Fraction(17, 20)),
    ],
)
def test_the_value_of_a_dollar_wagered(
    players: int, odds: int, options: dict[str, object], value: Fraction
) -> None:
    assert wager_value(wager_view(players, odds, **options), 0) == value


def test_the_ev_bot_bets_the_most_when_it_pays_and_nothing_when_it_does_not() -> None:
    bot = DerbyEVBot(random.Random(0))
    good = wager_view(20, 3)
    legal = RULES.legal_actions(RULES.initial_state(good.config), 0)  # silks: any is fine
    assert bot.choose(good, legal) in legal
    wagers = [Wager(a) for a in range(4)]
    assert bot.choose(good, wagers) == Wager(3)
    assert bot.choose(wager_view(20, 2), wagers) == Wager(0)


def test_make_derby_bot_knows_its_kinds() -> None:
    assert isinstance(make_derby_bot("random", 1), RandomBot)
    assert isinstance(make_derby_bot("ev", 1), DerbyEVBot)
    with pytest.raises(ConfigError, match="known: random, ev"):
        make_derby_bot("smart", 1)


def test_simulation_reports_do_not_depend_on_the_workers() -> None:
    options = {"players": 4, "races": 1, "track": "sprint", "scratches": 1}
    one = simulate_games("derby", options, 20, 9, bots=("ev", "random"), paired=300)
    two = simulate_games("derby", options, 20, 9, bots=("ev", "random"), paired=300, workers=2)
    assert one == two
    assert one.games == 20 and one.races == 20 and one.turns.count == 20
    assert sum(p[0].successes for p in one.horse_places) == 20
    assert sum(one.horse_runs) == 20 * 3  # four horses, one scratched
    assert one.seat_money[0].count == 20


def test_simulate_rejects_bad_runs() -> None:
    with pytest.raises(ConfigError, match="games must be at least 1"):
        simulate_games("derby", {}, 0, 1)
    with pytest.raises(ConfigError, match="unknown bot kind"):
        simulate_games("derby", {}, 1, 1, bots=("nobody",))


def test_paired_races_share_their_dice() -> None:
    report = paired_races(DEFAULT_TRACK, 6, 2000, seed=4)
    assert report.races == 2000 and report.field == 6
    for name, changed in report.winner_changed.items():
        assert 0 < changed.successes <= report.podium_changed[name].successes < 2000
    # a paved track is another race entirely without shared dice: about 5/6 of the winners
    # would differ; with the same d20s far fewer do
    assert report.winner_changed["neither"].rate < 0.6
    plain = DEFAULT_TRACK.without(mud=True, accelerators=True)
    same = paired_races(plain, 6, 500, seed=4)
    assert all(p.successes == 0 for p in same.winner_changed.values())
