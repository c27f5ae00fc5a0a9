"""The contract of core/rules.py, checked for every registered preset (later families included
the moment they register): finished games, conserved money, exact chance, replay, configs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.errors import HorseraceError, IllegalAction
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Step, play, replay
from horserace.families.presets import PRESETS, get_preset
from tests.helpers import bots_for, new_game, random_game

NAMES = sorted(PRESETS)
SEEDS = (1, 2, 3)
MAX_STEPS = 200_000


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_games_finish_and_keep_every_contract(name: str, seed: int) -> None:
    rules = get_preset(name).rules
    game = new_game({}, preset=name, seed=seed)
    players = rules.players(game.config)
    start_total = rules.ledger(game.state).total

    def check(state: Any, where: str) -> None:
        assert rules.ledger(state).total == start_total, f"{where}: money not conserved"
        assert all(balance >= 0 for balance in rules.ledger(state).balances), where
        actor = rules.actor(state)
        for seat in range(players):
            legal = rules.legal_actions(state, seat)
            assert bool(legal) == (actor == seat), f"{where}: seat {seat} may {legal}"
        outcomes = rules.chance_outcomes(state)
        if actor is CHANCE:
            assert outcomes and sum((p for _, p in outcomes), Fraction(0)) == 1, where
            assert all(p > 0 for _, p in outcomes), where
        else:
            assert outcomes == [], where
        if actor is not TERMINAL:
            with pytest.raises(IllegalAction):
                rules.result(state)

    check(game.state, "the start")
    bots = bots_for(players, seed)

    def observe(step: Step) -> None:
        check(step.after, f"step {step.index}")

    play(game, bots, SeededChance(seed), observe=observe, max_steps=MAX_STEPS)
    assert game.over
    result = rules.result(game.state)
    assert sorted(s.seat for s in result.standings) == list(range(players))
    assert sum(s.chips for s in result.standings) + result.unclaimed == start_total
    by_seat = {s.seat: s for s in result.standings}
    assert set(result.winners) == {s.seat for s in result.standings if s.place == 1}
    assert (
        result.winners
        and max(s.chips for s in result.standings) == by_seat[result.winners[0]].chips
    )
    places = [s.place for s in result.standings]
    assert places == sorted(places) and places[0] == 1
    record = game.record()
    assert record.result is not None
    report = replay(record, get_preset)
    assert report.ok, report.problems
    assert report.game is not None and report.game.state == game.state


@pytest.mark.parametrize("name", NAMES)
def test_result_raises_before_the_end(name: str) -> None:
    preset = get_preset(name)
    state = preset.rules.initial_state(preset.config({}))
    assert preset.rules.actor(state) is not TERMINAL
    with pytest.raises(IllegalAction):
        preset.rules.result(state)


@pytest.mark.parametrize("name", NAMES)
def test_config_round_trips_through_plain_data(name: str) -> None:
    preset = get_preset(name)
    config = preset.config({})
    data = preset.rules.config_to_dict(config)
    assert preset.rules.make_config(data) == config
    assert preset.rules.config_to_dict(preset.rules.make_config(data)) == data


@pytest.mark.parametrize("name", NAMES)
def test_unknown_option_is_a_config_error(name: str) -> None:
    with pytest.raises(HorseraceError):
        get_preset(name).config({"no_such_option_anywhere": 1})


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_record(name: str) -> None:
    assert random_game({}, 9, preset=name).record() == random_game({}, 9, preset=name).record()


@dataclass(frozen=True)
class Bogus:
    """An action no rule family knows."""

    @property
    def text(self) -> str:
        return "bogus"


class BogusBot:
    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        return Bogus()


@pytest.mark.parametrize("name", NAMES)
def test_a_bot_choosing_an_illegal_action_makes_the_engine_raise(name: str) -> None:
    game = new_game({}, preset=name, seed=4)
    players = game.rules.players(game.config)
    last = [game.state]
    bots = {seat: BogusBot() for seat in range(players)}
    try:
        play(game, bots, SeededChance(4), observe=lambda step: last.append(step.after))
    except IllegalAction as error:
        assert str(error)
    else:
        pytest.skip(f"{name}: no seat had to decide in this game")
    assert isinstance(game.actor, int)  # it stopped at a seat's turn ...
    assert game.state == last[-1]  # ... and applied nothing
    assert len(game.steps) == len(last) - 1


class BogusChance:
    def choose(self, rules: Any, state: Any) -> Action:
        return Bogus()


@pytest.mark.parametrize("name", NAMES)
def test_a_chance_source_giving_an_unknown_outcome_makes_the_engine_raise(name: str) -> None:
    game = new_game({}, preset=name, seed=4)
    players = game.rules.players(game.config)
    bots = bots_for(players, 4)
    while game.actor is not CHANCE:  # let the seats act until chance is asked
        seat = game.actor
        assert isinstance(seat, int)
        legal = game.rules.legal_actions(game.state, seat)
        game.apply(bots[seat].choose(game.rules.view(game.state, seat), legal))
    before = game.state
    with pytest.raises(IllegalAction):
        play(game, bots, BogusChance())
    assert game.state == before
