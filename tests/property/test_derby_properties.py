"""Properties of Derby over random tables and seeds: money conserved and accounted for by the
events, exact chance, horses only ever moving forward, stuck horses on mud, settled horses still,
podiums of distinct runners, seeds reproducing, records replaying."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from horserace.core.types import CHANCE
from horserace.engine import Step, replay
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.model import DerbyPhase, DerbyState
from horserace.families.derby.rules.race import DERBY_HORSES
from horserace.families.presets import get_preset
from tests.helpers import random_game

RULES = get_preset("derby").rules
SETTINGS = settings(max_examples=25, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def derby_options(draw: st.DrawFn) -> dict[str, Any]:
    """Small, quick tables: the sprint track mostly, one or two races."""
    players = draw(st.integers(min_value=2, max_value=20))
    all_horses = draw(st.booleans())
    field = 20 if all_horses else players
    return {
        "players": players,
        "races": draw(st.integers(min_value=1, max_value=2)),
        "starting_money": draw(st.integers(min_value=0, max_value=12)),
        "scratches": draw(st.integers(min_value=0, max_value=min(2, field - 2))),
        "all_horses": all_horses,
        "all_in_single_race": draw(st.booleans()),
        "track": draw(st.sampled_from(["sprint", "sprint", "derby"])),
    }


class Checker:
    """Checks every step of a game against the invariants, and tallies the money events."""

    def __init__(self, state: DerbyState) -> None:
        self.total = state.ledger.total
        self.float = state.bank
        self.winnings = 0
        self.lost = 0

    def __call__(self, step: Step) -> None:
        before: DerbyState = step.before
        after: DerbyState = step.after
        config = after.config
        assert after.ledger.total == self.total
        if after.phase in (DerbyPhase.WAGER, DerbyPhase.SCRATCH, DerbyPhase.RACE):
            assert after.ledger.balances[config.wagers_account] == sum(after.wagers)
        else:
            assert after.ledger.balances[config.wagers_account] == 0
        if RULES.actor(after) is CHANCE:
            outcomes = RULES.chance_outcomes(after)
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
        for event in step.events:
            if isinstance(event, ev.PayoutMade):
                self.winnings += event.winnings
                assert event.winnings == (4 - event.place) * event.wager * event.odds
            elif isinstance(event, ev.WagerLost | ev.WagerForfeited):
                self.lost += event.amount
        assert after.bank == self.float + self.lost - self.winnings
        race, old = after.race, before.race
        if race is None or after.phase is not DerbyPhase.RACE:
            return
        track = config.track
        assert all(track.is_mud(race.position(h)) for h in race.stuck)
        assert all(race.position(h) == 0 for h in DERBY_HORSES if h not in race.runners)
        assert not set(race.runners) & set(after.scratched)
        if old is not None and before.phase is DerbyPhase.RACE:
            for horse in race.runners:
                assert race.position(horse) >= old.position(horse)
                if horse in old.settled:
                    assert race.position(horse) == old.position(horse)


@SETTINGS
@given(options=derby_options(), seed=SEEDS)
def test_random_games_keep_every_invariant(options: dict[str, Any], seed: int) -> None:
    config = RULES.make_config(options)
    checker = Checker(RULES.initial_state(config))
    game = random_game(options, seed, preset="derby", observe=checker)
    state: DerbyState = game.state
    assert state.phase is DerbyPhase.OVER
    assert len(state.podiums) == config.races
    field = 20 if config.all_horses else config.players
    for podium in state.podiums:
        assert len(set(podium)) == len(podium) == min(3, field - config.scratches)
    result = RULES.result(state)
    assert sum(s.chips for s in result.standings) + result.unclaimed == checker.total


@settings(max_examples=10, deadline=None)
@given(options=derby_options(), seed=SEEDS)
def test_same_seed_same_game_and_records_replay(options: dict[str, Any], seed: int) -> None:
    game = random_game(options, seed, preset="derby")
    assert random_game(options, seed, preset="derby").record() == game.record()
    report = replay(game.record(), get_preset)
    assert report.ok, report.problems
    assert report.game is not None and report.game.state == game.state
