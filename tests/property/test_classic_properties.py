"""Properties of Classic Mode over random tables and seeds (DESIGN.md "Tests"): chips and cards
are conserved, chance is exact, seeds reproduce, replay checks records, hidden hands stay hidden.
"""

from __future__ import annotations

import dataclasses
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horserace.components.cards import RANKS
from horserace.core.actions import Action
from horserace.core.errors import RecordError
from horserace.core.events import redact
from horserace.core.record import GameRecord, parse_record, read_record
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Step, replay
from horserace.families.board.rules.events import CardDealt
from horserace.families.board.rules.state import BoardState, Phase
from horserace.families.presets import get_preset
from tests.helpers import (
    CARDS_PER_DECK,
    CARDS_PER_RANK,
    DECK_RANKS,
    decks_for,
    random_game,
    rank_word,
)

RULES = get_preset("classic").rules
# 30 random games a property (hypothesis draws new ones each run, so the runs add up); the
# conformance matrix plays every Classic row on fixed seeds besides
SETTINGS = settings(max_examples=30, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def classic_options(draw: st.DrawFn) -> dict[str, Any]:
    """Small tables where chips often run out (starting chips 0..60)."""
    players = draw(st.integers(min_value=2, max_value=12))
    return {
        "players": players,
        "rounds": draw(st.integers(min_value=1, max_value=3)),
        "starting_chips": draw(st.integers(min_value=0, max_value=60)),
        "repeat_scratch": draw(st.sampled_from(["move", "reroll"])),
        "open_hands": draw(st.booleans()),
        "rotate_dealer": draw(st.booleans()),
        "first_dealer": draw(st.integers(min_value=0, max_value=players - 1)),
    }


def check_state(state: BoardState, options: dict[str, Any]) -> None:
    """Every invariant a single state must satisfy."""
    players = options["players"]
    decks = decks_for(players)
    ledger = RULES.ledger(state)
    assert ledger.total == players * options["starting_chips"]
    assert all(type(b) is int and b >= 0 for b in ledger.balances)
    for rank in RANKS:
        held = sum(hand[rank] for hand in state.hands)
        assert held + state.deck[rank] + state.discards[rank] == CARDS_PER_RANK * decks
    in_play = sum(map(sum, state.hands)) + sum(state.deck) + sum(state.discards)
    assert in_play == CARDS_PER_DECK * decks
    actor = RULES.actor(state)
    for seat in range(players):
        assert bool(RULES.legal_actions(state, seat)) == (actor == seat)
    outcomes = RULES.chance_outcomes(state)
    if actor is CHANCE:
        assert sum((p for _, p in outcomes), Fraction(0)) == Fraction(1)
        assert all(p > 0 and RULES.can(state, action) for action, p in outcomes)
        assert len({action.text for action, _ in outcomes}) == len(outcomes)
        _check_exact_odds(state, outcomes)
    else:
        assert outcomes == []
    if not options["open_hands"]:
        for seat in [*range(players), None]:
            hands = RULES.view(state, seat).hands
            assert all(hands[other] is None for other in range(players) if other != seat)
            if seat is not None:
                assert hands[seat] == state.hands[seat]


def _check_exact_odds(state: BoardState, outcomes: list[tuple[Action, Fraction]]) -> None:
    """A card is dealt with chance (its count left) / (cards left); two fair dice otherwise."""
    probability = {action.text: p for action, p in outcomes}
    if state.phase is Phase.PAYOUT:  # paying out, then the next round: one sure outcome
        forced = RULES.forced_chance(state)
        assert forced is not None
        expected = {forced.text: Fraction(1)}
    elif state.phase is Phase.DEAL:
        left = sum(state.deck)
        expected = {
            f"deal {rank_word(rank)}": Fraction(state.deck[rank], left)
            for rank in DECK_RANKS
            if state.deck[rank]
        }
    else:
        expected = {}
        for a in range(1, 7):
            for b in range(1, 7):
                text = f"{min(a, b)}+{max(a, b)}"
                expected[text] = expected.get(text, Fraction(0)) + Fraction(1, 36)
    assert probability == expected


def check_step(step: Step, options: dict[str, Any]) -> None:
    check_state(step.after, options)
    if not options["open_hands"]:
        for seat in [*range(options["players"]), None]:
            shown = redact(step.events, seat)
            assert all(e.seat == seat for e in shown if isinstance(e, CardDealt))


@SETTINGS
@given(options=classic_options(), seed=SEEDS)
def test_every_step_conserves_chips_and_cards_and_hides_hands(
    options: dict[str, Any], seed: int
) -> None:
    check_state(RULES.initial_state(RULES.make_config(options)), options)
    game = random_game(options, seed, observe=lambda step: check_step(step, options))
    assert game.actor is TERMINAL
    result = RULES.result(game.state)
    assert sum(s.chips for s in result.standings) + result.unclaimed == (
        options["players"] * options["starting_chips"]
    )


@SETTINGS
@given(options=classic_options(), seed=SEEDS)
def test_same_seed_same_record_and_replay_reproduces_it(options: dict[str, Any], seed: int) -> None:
    game = random_game(options, seed)
    record = game.record()
    assert random_game(options, seed).record() == record
    report = replay(record, get_preset)
    assert report.ok, report.problems
    assert report.steps_checked == len(record.steps)
    assert report.game is not None and report.game.state == game.state
    # As if the dice had been typed in: no seed, so only the events can tell.
    assert replay(dataclasses.replace(record, seed=None, chance="typed"), get_preset).ok
    # The same moves under a seed that did not produce them are caught by the re-draw.
    wrong_seed = replay(dataclasses.replace(record, seed=seed ^ 1), get_preset)
    assert not wrong_seed.ok and "seed" in wrong_seed.problems[0]


def _chance_steps_with_choice(options: dict[str, Any], seed: int) -> tuple[GameRecord, list[Step]]:
    steps: list[Step] = []
    game = random_game(options, seed, observe=steps.append)
    chosen = [s for s in steps if s.actor is CHANCE and len(RULES.chance_outcomes(s.before)) > 1]
    return game.record(), chosen


@SETTINGS
@given(options=classic_options(), seed=SEEDS, data=st.data())
def test_a_changed_chance_outcome_is_reported(
    options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    record, chance_steps = _chance_steps_with_choice(options, seed)
    step = data.draw(st.sampled_from(chance_steps))
    others = [a.text for a, _ in RULES.chance_outcomes(step.before) if a.text != step.action.text]
    other = data.draw(st.sampled_from(others))
    steps = list(record.steps)
    steps[step.index] = dataclasses.replace(steps[step.index], action=other)
    tampered = dataclasses.replace(record, steps=tuple(steps))
    for version in (tampered, dataclasses.replace(tampered, seed=None, chance="typed")):
        report = replay(version, get_preset)
        assert not report.ok
        assert f"step {step.index} " in report.problems[0]


def _edit(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, list):
        return [*value, 0]
    return f"{value}!"


@SETTINGS
@given(options=classic_options(), seed=SEEDS, data=st.data())
def test_an_edited_event_is_reported(
    options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    record = random_game(options, seed).record()
    with_events = [i for i, s in enumerate(record.steps) if s.events]
    index = data.draw(st.sampled_from(with_events))
    events = [dict(e) for e in record.steps[index].events]
    which = data.draw(st.integers(min_value=0, max_value=len(events) - 1))
    keys = sorted(k for k in events[which] if k != "type")
    if keys:
        key = data.draw(st.sampled_from(keys))
        events[which][key] = _edit(events[which][key])
    else:
        events[which]["extra"] = 1
    steps = list(record.steps)
    steps[index] = dataclasses.replace(steps[index], events=tuple(events))
    report = replay(dataclasses.replace(record, steps=tuple(steps)), get_preset)
    assert not report.ok
    assert report.problems[0].startswith(f"step {index} ")


@SETTINGS
@given(options=classic_options(), seed=SEEDS, data=st.data())
def test_a_dropped_step_is_reported(
    options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    record = random_game(options, seed).record()
    index = data.draw(st.integers(min_value=0, max_value=len(record.steps) - 1))
    shorter = record.steps[:index] + record.steps[index + 1 :]
    report = replay(dataclasses.replace(record, steps=shorter), get_preset)
    assert not report.ok
    # A step claimed after the end is no better than a missing one.
    longer = (*record.steps, record.steps[index])
    assert not replay(dataclasses.replace(record, steps=longer), get_preset).ok
    # The same damage in the file: a line missing from the numbered steps.
    lines = list(record.lines())
    if index < len(record.steps) - 1:  # losing the last step leaves the numbering intact
        with pytest.raises(RecordError, match=f"line {index + 2}"):
            parse_record("\n".join(lines[: index + 1] + lines[index + 2 :]))


@SETTINGS
@given(options=classic_options(), seed=SEEDS)
def test_a_record_written_and_read_back_is_equal(options: dict[str, Any], seed: int) -> None:
    record = random_game(options, seed).record()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        record.write(path)
        again = read_record(path)
    assert again == record
    assert parse_record("\n".join(record.lines())) == record
