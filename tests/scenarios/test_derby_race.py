"""Derby movement with scripted d20s (RULINGS §3, seed 004), on the default track:
zones 0-8 move 3, 9-18 move 2, 19-28 move 1; mud 5, 14, 24; accelerators 2, 11, 21; finish 29.

Two players, one race: seat 0 rides horse 4, seat 1 horse 12. Any other number on a d20 moves
nothing (20 is the filler). Expected spaces come from the rule text, not from the engine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.events import Event
from horserace.core.types import CHANCE
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.model import AccelDie, D20Roll, DerbyPhase, DerbyState, MudDie
from horserace.families.derby.rules.race import RaceState
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.track import DEFAULT_TRACK, DerbyTrack, Zone
from horserace.families.derby.rules.transcript import place_horses, play_texts, setup_texts

RULES = DerbyRules()
A, B = 4, 12  # seat 0's and seat 1's horses
X = 20  # a number that names no running horse


def race_state(**options: Any) -> DerbyState:
    """Two seats, one race, horses A and B at the start line, the race on."""
    config = RULES.make_config({"players": 2, "races": 1, **options})
    state, _ = play_texts(RULES, RULES.initial_state(config), setup_texts((A, B), (3, 5), (2, 1)))
    assert state.phase is DerbyPhase.RACE
    return state


def turn(s1: int = X, s2: int = X, z1: int = X, z2: int = X, z3: int = X, z4: int = X) -> list[str]:
    return [f"d20 {v}" for v in (s1, s2, z1, z2, z3, z4)]


def run(state: DerbyState, *texts: str) -> tuple[DerbyState, list[Event]]:
    return play_texts(RULES, state, texts)


def race_of(state: DerbyState) -> RaceState:
    assert state.race is not None
    return state.race


def pos(state: DerbyState, horse: int) -> int:
    return race_of(state).position(horse)


def moves(events: list[Event]) -> list[tuple[int, int, int, str, int]]:
    return [
        (e.horse, e.start, e.end, e.cause, e.mud_try)
        for e in events
        if isinstance(e, ev.HorseMoved)
    ]


def test_default_track_matches_the_ruling() -> None:
    track = DEFAULT_TRACK
    assert track.finish == 29
    assert track.zone_moves(0) == 3 and track.zones[0].moves == 3
    assert track.zones[1].moves == 2
    first_mud = min(track.mud)
    assert track.zone_at(first_mud) is track.zones[0]  # the first mud lies in the start zone
    assert track.zone_moves(29) == track.zone_moves(40) == track.zones[-1].moves


# --- single dice ---------------------------------------------------------------------------------


def test_singles_move_one_each_and_a_number_not_running_moves_nothing() -> None:
    state, events = run(race_state(), *turn(A, B, X, 7, 1, 19))
    assert (pos(state, A), pos(state, B)) == (1, 1)
    rolled = [e for e in events if isinstance(e, ev.DieRolled)]
    assert [(e.die, e.value, e.runs) for e in rolled] == [
        (1, A, True),
        (2, B, True),
        (3, X, False),
        (4, 7, False),
        (5, 1, False),
        (6, 19, False),
    ]
    assert race_of(state).turn == 2 and race_of(state).last_dice == (A, B, X, 7, 1, 19)


def test_double_single_is_one_movement_of_two_and_skips_the_accelerator_it_passes() -> None:
    state = place_horses(race_state(), {A: 1})
    state, events = run(state, *turn(A, A))
    assert moves(events) == [(A, 1, 3, "double", 0)]  # 1 -> 3, no stop on accelerator 2
    assert RULES.actor(state) is CHANCE and race_of(state).waiting_for == "d20"
    assert not any(isinstance(e, ev.AcceleratorRolled) for e in events)


def test_a_horse_called_by_both_single_dice_in_the_mud_gets_two_tries() -> None:
    state = place_horses(race_state(), {A: 5}, stuck=[A])
    state, events = run(state, *turn(A, A), "mud blank", "mud shoe")
    assert moves(events) == [(A, 5, 6, "double", 2)]  # shoe on try 2 of 2: 2 - 2 + 1 = 1
    assert A not in race_of(state).stuck


# --- zone dice -----------------------------------------------------------------------------------


def test_two_zone_dice_on_one_horse_add_up_to_one_movement() -> None:
    state = place_horses(race_state(), {A: 9})  # zone 2 moves 2
    state, events = run(state, *turn(X, X, A, X, A, X))
    assert moves(events) == [(A, 9, 13, "zone", 0)]


def test_three_zone_dice_in_the_start_zone_move_nine() -> None:
    _, events = run(race_state(), *turn(X, X, A, A, B, A))
    assert moves(events) == [(A, 0, 9, "zone", 0), (B, 0, 3, "zone", 0)]


def test_zone_movement_uses_the_zone_the_horse_started_the_turn_in() -> None:
    state = place_horses(race_state(), {A: 8})  # the last start-zone space
    state, events = run(state, *turn(A, X, A))
    # the single takes it to 9 (zone 2), the zone die still moves the start zone's 3
    assert moves(events) == [(A, 8, 9, "single", 0), (A, 9, 12, "zone", 0)]


def test_singles_resolve_before_zones_whatever_the_die_order() -> None:
    state = place_horses(race_state(), {A: 3, B: 3})
    state, events = run(state, *turn(B, X, A, B))
    assert [m[0] for m in moves(events)] == [B, A, B]


# --- mud -----------------------------------------------------------------------------------------


def test_passing_over_mud_counts_it_as_a_space() -> None:
    state = place_horses(race_state(), {A: 4})  # one space before the first mud
    state, events = run(state, *turn(X, X, A))
    assert moves(events) == [(A, 4, 7, "zone", 0)]
    assert A not in race_of(state).stuck


def test_ending_on_mud_sticks_the_horse() -> None:
    state = place_horses(race_state(), {A: 2, B: 4})
    state, events = run(state, *turn(B, X, A))
    assert moves(events) == [(B, 4, 5, "single", 0), (A, 2, 5, "zone", 0)]
    assert race_of(state).stuck == {A, B}
    assert [e.horse for e in events if isinstance(e, ev.StuckInMud)] == [B, A]


def test_leaving_the_mud_on_the_second_try_moves_one_less() -> None:
    state = place_horses(race_state(), {A: 5}, stuck=[A])
    state, _ = run(state, *turn(X, X, A))  # start zone: 3 tries
    assert race_of(state).waiting_for == "mud"
    state, more = run(state, "mud blank")
    assert [m for m in more if isinstance(m, ev.MudRolled)] == [ev.MudRolled(A, 1, 3, False)]
    assert pos(state, A) == 5 and race_of(state).waiting_for == "mud"
    state, more = run(state, "mud shoe")
    assert moves(more) == [(A, 5, 7, "zone", 2)]  # 3 - 2 + 1
    assert A not in race_of(state).stuck
    assert race_of(state).waiting_for == "d20" and race_of(state).turn == 2


def test_a_horseshoe_on_the_first_try_moves_the_full_amount() -> None:
    state = place_horses(race_state(), {A: 5}, stuck=[A])
    state, events = run(state, *turn(X, X, A), "shoe")  # bare "shoe" is accepted
    assert moves(events) == [(A, 5, 8, "zone", 1)]


def test_every_try_failing_leaves_the_horse_stuck_and_the_turn_goes_on() -> None:
    state = place_horses(race_state(), {A: 5, B: 0}, stuck=[A])
    state, events = run(state, *turn(X, X, A, B), "mud blank", "mud blank", "mud blank")
    assert moves(events) == [(B, 0, 3, "zone", 0)]
    assert pos(state, A) == 5 and A in race_of(state).stuck
    rolls = [e for e in events if isinstance(e, ev.MudRolled)]
    assert [(r.attempt, r.tries) for r in rolls] == [(1, 3), (2, 3), (3, 3)]


def test_a_single_on_a_stuck_horse_has_one_try() -> None:
    state = place_horses(race_state(), {A: 5}, stuck=[A])
    state, events = run(state, *turn(A), "mud blank")
    assert moves(events) == [] and race_of(state).turn == 2


def test_a_single_into_the_mud_makes_the_zone_move_roll_the_mud_die() -> None:
    state = place_horses(race_state(), {A: 4})
    state, events = run(state, *turn(A, X, A))
    assert moves(events) == [(A, 4, 5, "single", 0)]
    assert race_of(state).waiting_for == "mud"
    state, more = run(state, "mud blank", "mud blank", "mud shoe")
    assert moves(more) == [(A, 5, 6, "zone", 3)]  # the start zone's 3, shoe on try 3


def test_a_horse_out_of_the_mud_can_land_on_an_accelerator() -> None:
    track = DerbyTrack(
        name="mud then accelerator",
        finish=12,
        zones=(Zone("all", 0, 11, 3),),
        mud=frozenset({3}),
        accelerators=frozenset({5}),
    )
    state = place_horses(race_state(track=track), {A: 3}, stuck=[A])
    state, events = run(state, *turn(X, X, A), "mud shoe")
    assert moves(events) == [(A, 3, 6, "zone", 1)]
    state = place_horses(race_state(track=track), {A: 3}, stuck=[A])
    state, events = run(state, *turn(X, X, A), "mud blank", "mud shoe", "accel 2")
    assert moves(events) == [(A, 3, 5, "zone", 2), (A, 5, 7, "accelerator", 0)]


# --- accelerators --------------------------------------------------------------------------------


def test_an_exact_landing_on_an_accelerator_rolls_the_bonus() -> None:
    state = place_horses(race_state(), {A: 1})
    state, _ = run(state, *turn(A))
    assert race_of(state).waiting_for == "accel" and race_of(state).accelerating == A
    third = Fraction(1, 3)
    assert RULES.chance_outcomes(state) == [
        (AccelDie(1), third),
        (AccelDie(2), third),
        (AccelDie(3), third),
    ]
    state, more = run(state, "accel 2")
    assert moves(more) == [(A, 2, 4, "accelerator", 0)]
    assert more[0] == ev.AcceleratorRolled(A, 2)


def test_passing_over_an_accelerator_does_nothing() -> None:
    state, events = run(race_state(), *turn(X, X, A))
    assert moves(events) == [(A, 0, 3, "zone", 0)]
    assert race_of(state).waiting_for == "d20"


def test_an_accelerator_bonus_can_land_in_the_mud() -> None:
    state = place_horses(race_state(), {A: 1})
    state, events = run(state, *turn(A), "accel 3")  # 2 + 3 = 5, the first mud
    assert moves(events) == [(A, 1, 2, "single", 0), (A, 2, 5, "accelerator", 0)]
    assert A in race_of(state).stuck
    # next turn its zone move needs the mud die: three tries in the start zone
    state, _ = run(state, *turn(X, X, A))
    trying = race_of(state).mud_try
    assert trying is not None and trying.spaces == 3


def test_an_accelerator_bonus_does_not_trigger_another_accelerator() -> None:
    track = DerbyTrack(
        name="two accelerators",
        finish=15,
        zones=(Zone("all", 0, 14, 1),),
        mud=frozenset(),
        accelerators=frozenset({1, 3}),
    )
    state, events = run(race_state(track=track), *turn(A), "accel 2")
    assert moves(events) == [(A, 0, 1, "single", 0), (A, 1, 3, "accelerator", 0)]
    assert race_of(state).waiting_for == "d20" and race_of(state).turn == 2


def test_the_accelerator_die_is_data() -> None:
    track = DerbyTrack(
        name="loaded",
        finish=15,
        zones=(Zone("all", 0, 14, 1),),
        mud=frozenset({9}),
        accelerators=frozenset({1}),
        mud_shoe=1,
        mud_blank=5,
        accelerator_faces=(1, 1, 2, 3, 3, 3),
    )
    state, _ = run(race_state(track=track), *turn(A))
    assert [(a.text, w) for a, w in zip(*RULES.chance_weights(state), strict=True)] == [
        ("accel 1", 2),
        ("accel 2", 1),
        ("accel 3", 3),
    ]
    state = place_horses(race_state(track=track), {A: 9}, stuck=[A])
    state, _ = run(state, *turn(A))
    outcomes, weights = RULES.chance_weights(state)
    assert list(zip(outcomes, weights, strict=True)) == [(MudDie(True), 1), (MudDie(False), 5)]


# --- the finish ----------------------------------------------------------------------------------


def test_farther_past_the_line_finishes_first() -> None:
    state = place_horses(race_state(), {A: 28, B: 28})
    state, events = run(state, *turn(A, X, A, B))  # A: 28 + 1 + 1 = 30, B: 29
    placed = [e for e in events if isinstance(e, ev.HorsePlaced)]
    assert placed == [ev.HorsePlaced(A, 1, 1), ev.HorsePlaced(B, 2, 0)]
    assert state.phase is DerbyPhase.OVER
    assert state.podiums == ((A, B),)


def test_a_two_horse_tie_runs_on_until_it_breaks() -> None:
    state = place_horses(race_state(), {A: 28, B: 28})
    state, events = run(state, *turn(X, X, A, B))  # both reach 29: level on the line
    assert [e for e in events if isinstance(e, ev.TieRunsOn)] == [ev.TieRunsOn((A, B), 1, 29)]
    assert state.phase is DerbyPhase.RACE and race_of(state).blocks == ((A, B),)
    state, events = run(state, *turn(A, B))  # both one more: still level
    assert not any(isinstance(e, ev.HorsePlaced | ev.TieRunsOn) for e in events)
    assert (pos(state, A), pos(state, B)) == (30, 30) and state.phase is DerbyPhase.RACE
    state, events = run(state, *turn(X, X, B))  # past the line a zone die moves the last zone's 1
    placed = [e for e in events if isinstance(e, ev.HorsePlaced)]
    assert placed == [ev.HorsePlaced(B, 1, 2), ev.HorsePlaced(A, 2, 1)]
    finished = [e for e in events if isinstance(e, ev.RaceFinished)]
    assert finished == [ev.RaceFinished(1, (B, A), 3)]


def test_an_earlier_finisher_stays_ahead_of_a_later_one_that_goes_farther() -> None:
    config = RULES.make_config({"players": 3, "races": 1})
    start, _ = play_texts(
        RULES, RULES.initial_state(config), setup_texts((1, 2, 3), (1, 1, 1), (0, 0, 0))
    )
    state = place_horses(start, {1: 28, 2: 28, 3: 26})
    state, events = run(state, *turn(X, X, 1, 2))  # 1 and 2 tie on the line for 1st
    state, events = run(state, *turn(X, X, 3, 3, 3))  # 3: 26 + 3 = 29; 1 and 2 still level
    # whatever 1 and 2 do, horse 3 finished a turn later: it is third
    assert [e for e in events if isinstance(e, ev.HorsePlaced)] == [ev.HorsePlaced(3, 3, 0)]
    assert race_of(state).blocks == ((1, 2), (3,))
    assert [e for e in events if isinstance(e, ev.TieRunsOn)] == []
    assert race_of(state).podium == ()  # Win is not decided yet
    assert race_of(state).places() == {3: 3}
    state, events = run(state, *turn(2))
    assert [(e.horse, e.place) for e in events if isinstance(e, ev.HorsePlaced)] == [
        (2, 1),
        (1, 2),
    ]
    assert state.podiums == ((2, 1, 3),)


def test_a_settled_horse_no_longer_moves_and_the_race_waits_for_show() -> None:
    config = RULES.make_config({"players": 4, "races": 1})
    start, _ = play_texts(
        RULES, RULES.initial_state(config), setup_texts((1, 2, 3, 5), (1, 1, 1, 1), (0,) * 4)
    )
    state = place_horses(start, {1: 28, 2: 19})
    state, events = run(state, *turn(1, X, 2))
    assert [(e.horse, e.place) for e in events if isinstance(e, ev.HorsePlaced)] == [(1, 1)]
    state, events = run(state, *turn(1, 1, 1, 1, 1, 1))
    assert pos(state, 1) == 29 and not moves(events)
    assert [e.runs for e in events if isinstance(e, ev.DieRolled)] == [False] * 6
    assert state.phase is DerbyPhase.RACE and race_of(state).podium == (1,)


def test_a_tie_for_fourth_does_not_hold_up_the_end() -> None:
    config = RULES.make_config({"players": 5, "races": 1})
    start, _ = play_texts(
        RULES, RULES.initial_state(config), setup_texts((1, 2, 3, 5, 6), (1,) * 5, (0,) * 5)
    )
    state = place_horses(start, {1: 31, 2: 30, 3: 29, 5: 26, 6: 26})
    state, _ = run(state, *turn(X, X, 5, 6, 5, 6))  # 1, 2, 3 in; 5 and 6 only to 28
    assert state.phase is DerbyPhase.OVER and state.podiums == ((1, 2, 3),)


# --- the dice as chance steps ----------------------------------------------------------------


def test_each_die_is_its_own_chance_step_with_exact_weights() -> None:
    state = race_state()
    outcomes = RULES.chance_outcomes(state)
    assert [a for a, _ in outcomes] == [D20Roll(v) for v in range(1, 21)]
    assert all(p == Fraction(1, 20) for _, p in outcomes)
    state = place_horses(state, {A: 5}, stuck=[A])
    state, _ = run(state, *turn(A))
    assert [(a.text, p) for a, p in RULES.chance_outcomes(state)] == [
        ("mud shoe", Fraction(1, 2)),
        ("mud blank", Fraction(1, 2)),
    ]


def test_the_wrong_die_is_refused_with_a_reason() -> None:
    state = race_state()
    with pytest.raises(IllegalAction, match="d20"):
        RULES.apply(state, MudDie(True))
    with pytest.raises(InvalidAction):
        RULES.parse_action(state, "d20 21")
    assert RULES.parse_action(state, "7") == D20Roll(7)
    state = place_horses(state, {A: 1})
    state, _ = run(state, *turn(A))
    with pytest.raises(IllegalAction, match="accelerator"):
        RULES.apply(state, D20Roll(3))
    with pytest.raises(IllegalAction, match="cannot come up"):
        RULES.apply(state, AccelDie(4))
