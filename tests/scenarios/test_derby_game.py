"""Derby games end to end with typed choices and dice: exact money after every race, the bank's
accounting, scratches, house horses, the picking order, refusals, replay (RULINGS §3).

Races are shortened by moving the horses near the finish (`place_horses`) once they are off;
everything else (choices, odds dice, wagers, scratch rolls, the last turns) is typed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

import pytest

from horserace.core.errors import ConfigError, IllegalAction
from horserace.core.events import Event
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Game, replay
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.model import (
    ChooseHorse,
    ChooseSilk,
    DerbyPhase,
    DerbyState,
    Wager,
)
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.transcript import place_horses, play_texts, setup_texts
from horserace.families.presets import get_preset
from tests.helpers import random_game

RULES = DerbyRules()
E = TypeVar("E", bound=Event)
X = 20


def turn(*values: int) -> list[str]:
    padded = [*values, *([X] * (6 - len(values)))]
    return [f"d20 {v}" for v in padded]


def new_state(**options: object) -> DerbyState:
    return RULES.initial_state(RULES.make_config(options))


def money(state: DerbyState) -> tuple[int, ...]:
    return state.ledger.balances[: state.config.players]


def of(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def test_three_races_with_exact_money_and_the_podium_picking_first() -> None:
    state = new_state(players=3)  # 3 races, $8 each, wagers $0..3
    bank_float = 3 * 6 * (3 + 2 + 1) * 3
    assert state.bank == bank_float == 324
    total = state.ledger.total
    # race 1: horses 1, 2, 3; odds 2, 6, 4; wagers 3, 1, 0
    state, _ = play_texts(RULES, state, setup_texts((1, 2, 3), (2, 6, 4), (3, 1, 0)))
    assert money(state) == (5, 7, 8) and state.ledger.balances[3] == 4
    state = place_horses(state, {1: 28, 2: 28, 3: 28})
    state, events = play_texts(RULES, state, turn(3, 1, 3))  # 3 to 30, 1 to 29, 2 stays
    assert [(e.horse, e.place) for e in of(events, ev.HorsePlaced)] == [(3, 1), (1, 2)]
    state, events = play_texts(RULES, state, turn(X, X, 2))  # 2 to 29: Show
    assert of(events, ev.RaceFinished) == [ev.RaceFinished(1, (3, 1, 2), 2)]
    assert of(events, ev.PayoutMade) == [
        ev.PayoutMade(0, 1, 2, 3, 2, 12),  # 2 x $3 x odds 2
        ev.PayoutMade(1, 2, 3, 1, 6, 6),  # 1 x $1 x odds 6
        ev.PayoutMade(2, 3, 1, 0, 4, 0),  # nothing wagered, nothing won
    ]
    assert money(state) == (20, 14, 8) and state.bank == 324 - 18
    # race 2: the podium picks first, in finishing order: seats 3, 1, 2
    assert of(events, ev.RaceCalled) == [ev.RaceCalled(2, 3, (2, 0, 1))]
    assert state.phase is DerbyPhase.SELECT and RULES.actor(state) == 2
    race2 = [
        *("silk 1", "horse 5", "silk 2", "horse 1", "silk 3", "horse 2"),
        *("odds 1", "odds 6", "odds 3"),  # seat 3, seat 1, seat 2
        *("wager 3", "wager 3", "wager 2"),
    ]
    state, _ = play_texts(RULES, state, race2)
    assert state.horses == (1, 2, 5) and state.odds == (6, 3, 1) and state.wagers == (3, 2, 3)
    state = place_horses(state, {5: 28, 1: 28, 2: 28})
    state, events = play_texts(RULES, state, turn(X, X, 1, 2, 5))  # a three-way tie
    assert of(events, ev.TieRunsOn) == [ev.TieRunsOn((1, 2, 5), 1, 29)]
    state, events = play_texts(RULES, state, turn(1, 1, 2))  # 1: 31, 2: 30, 5: 29
    assert [(e.horse, e.place, e.past) for e in of(events, ev.HorsePlaced)] == [
        (1, 1, 2),
        (2, 2, 1),
        (5, 3, 0),
    ]
    assert money(state) == (20 + 54, 14 + 12, 8 + 3) == (74, 26, 11)
    assert state.bank == 306 - 54 - 12 - 3
    # race 3: seat 1 (Win) first again
    race3 = [
        *("silk 4", "horse 7", "silk 5", "horse 8", "silk 6", "horse 9"),
        *("odds 2", "odds 2", "odds 2"),
        *("wager 0", "wager 3", "wager 3"),
    ]
    state, _ = play_texts(RULES, state, race3)
    state = place_horses(state, {7: 28, 8: 28, 9: 28})
    state, _ = play_texts(RULES, state, turn(7, X, 7, 8))
    state, events = play_texts(RULES, state, turn(X, X, 9))
    assert money(state) == (74, 26 + 12, 11 + 6) == (74, 38, 17)
    assert state.phase is DerbyPhase.OVER and RULES.actor(state) is TERMINAL
    assert of(events, ev.GameOver) == [ev.GameOver((0,), (74, 38, 17))]
    result = RULES.result(state)
    assert [(s.seat, s.chips, s.place) for s in result.standings] == [
        (0, 74, 1),
        (1, 38, 2),
        (2, 17, 3),
    ]
    assert result.unclaimed == state.bank == 219
    assert sum(money(state)) + result.unclaimed == total == 3 * 8 + 324
    assert state.podiums == ((3, 1, 2), (1, 2, 5), (7, 8, 9))


def test_one_race_all_in_a_scratch_and_a_lost_wager() -> None:
    state = new_state(players=5, races=1, scratches=1)
    assert state.bank == 1 * 36 * 8  # all-in: the top wager is the starting $8
    texts = setup_texts((1, 2, 3, 4, 5), (1, 2, 3, 4, 6), (8, 5, 0, 1, 2))
    state, events = play_texts(RULES, state, texts)
    assert state.phase is DerbyPhase.SCRATCH and RULES.actor(state) is CHANCE
    state, events = play_texts(RULES, state, ["d20 17", "d20 2"])
    assert of(events, ev.ScratchRolled) == [ev.ScratchRolled(17, False), ev.ScratchRolled(2, True)]
    assert of(events, ev.WagerForfeited) == [ev.WagerForfeited(1, 2, 5)]
    assert of(events, ev.RaceStarted) == [ev.RaceStarted(1, (1, 3, 4, 5), ())]
    assert state.scratched == (2,) and state.race is not None and 2 not in state.race.runners
    state = place_horses(state, {1: 28, 3: 28, 4: 28})
    state, events = play_texts(RULES, state, [*turn(1, X, 1, 3), *turn(X, X, 4, 2)])
    assert state.podiums == ((1, 3, 4),)
    assert of(events, ev.WagerLost) == [ev.WagerLost(4, 5, 2)]
    assert money(state) == (8 + 24, 3, 8, 8 + 4, 6)
    assert state.bank == 288 + 5 + 2 - 24 - 4
    assert state.ledger.total == 5 * 8 + 288


def test_house_horses_run_and_their_places_pay_nobody() -> None:
    state = new_state(players=2, races=1, all_horses=True)
    state, events = play_texts(RULES, state, setup_texts((4, 12), (2, 3), (3, 2)))
    started = of(events, ev.RaceStarted)[0]
    assert started.runners == tuple(range(1, 21)) and len(started.house) == 18
    state = place_horses(state, {7: 28, 4: 28, 12: 28})
    state, events = play_texts(RULES, state, [*turn(7, X, 7, 4), *turn(X, X, 12)])
    assert state.podiums == ((7, 4, 12),)
    assert money(state) == (8 + 12, 8 + 6)


def test_a_scratch_can_hit_a_house_horse_and_a_repeat_is_rolled_again() -> None:
    state = new_state(players=2, races=1, all_horses=True, scratches=2)
    state, _ = play_texts(RULES, state, setup_texts((4, 12), (2, 3), (3, 2)))
    state, events = play_texts(RULES, state, ["d20 9", "d20 9", "d20 4"])
    assert [(e.value, e.scratched) for e in of(events, ev.ScratchRolled)] == [
        (9, True),
        (9, False),
        (4, True),
    ]
    assert of(events, ev.WagerForfeited) == [ev.WagerForfeited(0, 4, 3)]
    assert state.race is not None and len(state.race.runners) == 18
    assert money(state) == (5, 6) and state.wagers == (0, 2)


def test_wagers_are_limited_to_three_and_to_what_a_seat_holds() -> None:
    state = new_state(players=2, starting_money=2)
    state, _ = play_texts(RULES, state, ["silk 1", "horse 1", "silk 2", "horse 2", "4", "4"])
    assert RULES.legal_actions(state, 0) == tuple(Wager(a) for a in range(3))
    with pytest.raises(IllegalAction, match=r"may wager \$0 to \$2, not \$3"):
        RULES.apply(state, Wager(3))
    rich = replace(state, ledger=state.ledger.transfer(3, 0, 10))
    assert RULES.legal_actions(rich, 0) == tuple(Wager(a) for a in range(4))
    one_race = new_state(players=2, races=1)
    one_race, _ = play_texts(RULES, one_race, ["silk 1", "horse 1", "silk 2", "horse 2", "1", "1"])
    assert RULES.legal_actions(one_race, 0)[-1] == Wager(8)
    capped = new_state(players=2, races=1, all_in_single_race=False)
    capped, _ = play_texts(RULES, capped, ["silk 1", "horse 1", "silk 2", "horse 2", "1", "1"])
    assert RULES.legal_actions(capped, 0)[-1] == Wager(3)


def test_choices_are_refused_with_reasons() -> None:
    state = new_state(players=2)
    assert len(RULES.legal_actions(state, 0)) == 24 and RULES.legal_actions(state, 1) == ()
    with pytest.raises(IllegalAction, match="picks a silk first"):
        RULES.apply(state, ChooseHorse(3))
    state, _ = play_texts(RULES, state, ["silk 5"])
    assert len(RULES.legal_actions(state, 0)) == 20
    state, _ = play_texts(RULES, state, ["7"])  # a bare number is the horse now
    assert state.horses == (7, None)
    with pytest.raises(IllegalAction, match="silk 5 is already taken"):
        RULES.apply(state, ChooseSilk(5))
    state, _ = play_texts(RULES, state, ["silk 6"])
    with pytest.raises(IllegalAction, match="horse 7 is already taken"):
        RULES.apply(state, ChooseHorse(7))
    assert ChooseHorse(7) not in RULES.legal_actions(state, 1)
    with pytest.raises(IllegalAction):
        Game("derby", RULES, state.config, None, "scripted", state=state).act(0, ChooseHorse(8))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "players must be between 2 and 20"),
        ({"players": 21}, "players must be between 2 and 20"),
        ({"players": 2, "scratches": 1}, "fewer than 2 of 2 horses"),
        ({"scratches": 3}, "scratches must be between 0 and 2"),
        ({"races": 0}, "races must be between 1"),
        ({"all_horses": "yes"}, "all_horses must be true or false"),
        ({"track": "nowhere"}, "no packaged track 'nowhere'"),
        ({"speed": 2}, "unknown option(s) speed"),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        RULES.make_config(options)
    assert message in str(caught.value)


def test_two_players_with_a_scratch_are_fine_when_house_horses_run() -> None:
    assert RULES.make_config({"players": 2, "scratches": 2, "all_horses": True}).scratches == 2


def test_every_seat_and_spectators_see_the_same_table() -> None:
    seen: list[Event] = []
    game = random_game(
        {"players": 4, "races": 1}, 5, preset="derby", observe=lambda s: seen.extend(s.events)
    )
    for seat in (0, 3):
        assert replace(RULES.view(game.state, seat), seat=None) == RULES.view(game.state, None)
    assert seen and all(e.visible_to(None) and e.visible_to(2) for e in seen)  # nothing hidden


def test_seeded_games_replay_and_repeat() -> None:
    options = {"players": 6, "races": 2, "scratches": 2, "track": "sprint"}
    game = random_game(options, 11, preset="derby")
    again = random_game(options, 11, preset="derby")
    assert game.record() == again.record()
    report = replay(game.record(), get_preset)
    assert report.ok, report.problems
    tampered = game.record()
    steps = list(tampered.steps)
    index = next(i for i, s in enumerate(steps) if s.action.startswith("odds"))
    other = "odds 1" if steps[index].action != "odds 1" else "odds 2"
    steps[index] = replace(steps[index], action=other)
    bad = replay(replace(tampered, steps=tuple(steps)), get_preset)
    assert not bad.ok and "the seed gives" in bad.problems[0]
