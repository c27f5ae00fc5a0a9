"""Live odds in the table's messages: worked out from the view alone, equal to what the odds
modules give on the same public inputs (dice board and card race exactly, Derby by its seeded
estimate), and absent where there is nothing yet to race or too much hidden to work out."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from horserace.components.board import HORSES
from horserace.components.french_deck import SUIT_LETTERS, is_joker, suit_of
from horserace.core.chance import SeededChance
from horserace.core.types import TERMINAL
from horserace.drivers.server.messages import odds_data, prepare_live_odds, table_state
from horserace.families.board.odds.race import race_odds, scratch_phase_odds
from horserace.families.board.odds.view import _cached_odds as board_positions_odds
from horserace.families.board.rules.state import Phase
from horserace.families.cards.family import ODDS_BUDGET as CARDS_BUDGET
from horserace.families.cards.odds.race import (
    TooManyStates,
    card_odds,
    position_from_cards,
    position_of,
)
from horserace.families.cards.rules.state import CardsPhase, CardsView
from horserace.families.derby import live_odds as live_odds_module
from horserace.families.derby.live_odds import LIVE, ODDS_SAMPLES, ODDS_SEED, odds_key
from horserace.families.derby.rules.model import DerbyPhase
from horserace.families.derby.sampled_odds import (
    HALF_TENTH,
    half_width,
    table_odds,
    widest_interval,
)
from horserace.families.presets import get_preset
from tests.helpers import bots_for, new_game


def test_a_board_table_before_the_scratches_carries_the_exact_pre_race_odds() -> None:
    preset = get_preset("classic")
    state = preset.rules.initial_state(preset.config({}))
    message = table_state(preset.rules, state, None, "playing", 7, moves=False)
    assert message.odds is not None
    board = state.config.board
    exact = scratch_phase_odds({h: board.advances_to_finish(h) for h in HORSES}, set(), 4)
    assert message.odds == {str(h): p for h, p in exact.items()}


def test_the_odds_every_round_starts_with_are_ready_before_the_first_table() -> None:
    """Before the scratch rolls every set of scratched horses is raced: the dearest odds of
    the game, asked for by every table at every round's start, are worked out by the
    server's preparation, so no table waits for them on the event loop."""
    board_positions_odds.cache_clear()
    prepare_live_odds()
    for name in ("classic", "northwoods"):
        preset = get_preset(name)
        state = preset.rules.initial_state(preset.config({}))
        worked_out = board_positions_odds.cache_info().misses
        assert table_state(preset.rules, state, None, "playing", 7, moves=False).odds
        assert board_positions_odds.cache_info().misses == worked_out, name


def test_mid_race_odds_follow_the_positions_and_scratches() -> None:
    game = new_game({"players": 4, "rounds": 1}, seed=3)
    chance, bots = SeededChance(3), bots_for(4, 3)
    while not (game.state.phase is Phase.RACE and game.state.race.race_rolls >= 10):
        actor = game.actor
        if isinstance(actor, int):
            legal = game.rules.legal_actions(game.state, actor)
            game.act(actor, bots[actor].choose(game.rules.view(game.state, actor), legal))
        else:
            game.apply(chance.choose(game.rules, game.state))
    state = game.state
    message = table_state(game.rules, state, 1, "playing", 3, moves=False)
    board = state.config.board
    running = {
        h: board.advances_to_finish(h) - state.position(h) for h in HORSES if not state.line_of(h)
    }
    expected = race_odds(running).win
    assert message.odds is not None
    assert message.odds.keys() == {str(h) for h in expected}
    for horse, chance_ in expected.items():
        assert message.odds[str(horse)] == pytest.approx(chance_, abs=1e-12)


# --- Derby and the card race ---------------------------------------------------------------------


def _play_until(
    name: str, options: dict[str, Any], seed: int, stop: Callable[[Any, Any], bool]
) -> tuple[Any, Any]:
    """(rules, state): a game of random moves played on until `stop(rules, state)`."""
    preset = get_preset(name)
    rules = preset.rules
    state = rules.initial_state(preset.config(options))
    chance, pick = SeededChance(seed), random.Random(seed)
    while not stop(rules, state):
        actor = rules.actor(state)
        assert actor is not TERMINAL, "the game ended before the wanted position"
        if isinstance(actor, int):
            action = pick.choice(rules.legal_actions(state, actor))
        else:
            action = chance.choose(rules, state)
        state, _ = rules.apply(state, action)
    return rules, state


def _derby_mid_race(rules: Any, state: Any) -> bool:
    return state.phase is DerbyPhase.RACE and state.race is not None and state.race.turn >= 4


def _derby_late_race(rules: Any, state: Any) -> bool:
    """Late enough in the race that some horses are behind (small chances)."""
    return state.phase is DerbyPhase.RACE and state.race is not None and state.race.turn >= 8


def test_a_derby_table_mid_race_sends_the_quick_estimate_then_the_precise_odds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every seat gets the odds module's estimate of the position at the turn's start: at once
    the quick one, and once the thread has worked it out and refined it, one within half a
    tenth of a point. The table's odds are a LiveOdds of the test's own: it waits for this
    position's estimates alone, not for the other positions this process's tables queued.
    (That a refinement gone on from the precise step is the estimate from scratch is
    tests/unit/test_derby_live_odds.py's: the refined races are not played twice here.)"""
    live = live_odds_module.LiveOdds()
    monkeypatch.setattr(live_odds_module, "LIVE", live)
    rules, state = _play_until("derby", {}, 5, _derby_mid_race)
    key = odds_key(rules.view(state, None))
    assert key.race is not None and not key.race.dice  # the position before the turn's dice
    quick = table_odds(key, samples=ODDS_SAMPLES, seed=ODDS_SEED)
    assert quick is not None and not quick.exact
    seats = (None, *range(state.config.players))
    for seat in seats:
        message = table_state(rules, state, seat, "playing", 5, moves=False)
        assert message.odds == {str(h): quick.win(h) for h in quick.horses}
        assert message.odds_rough and message.odds_decimals == dict.fromkeys(message.odds, 0)
    live.settle()
    precise = live.odds(key)  # worked out, then refined while nothing else waited
    assert precise is not None and precise.samples > 100 * ODDS_SAMPLES
    assert precise.all_to_a_tenth and not precise.rough
    counts = np.array([[round(p * precise.samples) for p in row] for row in precise.chances])
    assert widest_interval(counts, precise.samples) <= HALF_TENTH
    for seat in seats:
        message = table_state(rules, state, seat, "playing", 5, moves=False)
        assert message.odds == {str(h): precise.win(h) for h in precise.horses}
        assert not message.odds_rough and message.odds_decimals == dict.fromkeys(message.odds, 1)
    odds = message.odds
    assert odds is not None
    assert sum(odds.values()) == pytest.approx(1.0, abs=1e-9)
    assert set(odds) == {str(h) for h in state.race.runners}


def test_a_precise_derby_estimate_sends_a_tenth_only_for_the_chances_sure_to_a_tenth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between the precise step and its refinement a message says, chance by chance, whether
    it prints to a tenth: those whose own interval is within half a tenth (the small ones)."""
    rules, state = _play_until("derby", {}, 7, _derby_late_race)
    LIVE.settle()  # the shared table odds' thread must not pick up the stand-in below
    live = live_odds_module.LiveOdds()
    monkeypatch.setattr(live_odds_module, "LIVE", live)
    monkeypatch.setattr(live_odds_module, "refined_odds", lambda *_: None)  # never refined
    table_state(rules, state, None, "playing", 7, moves=False)  # the quick one, precise queued
    live.settle()
    message = table_state(rules, state, None, "playing", 7, moves=False)
    precise = live.odds(odds_key(rules.view(state, None)))  # the thread's, not run again
    assert precise is not None and not precise.rough and not precise.all_to_a_tenth
    assert precise.samples >= live_odds_module.PRECISE_SAMPLES
    assert message.odds == {str(h): precise.win(h) for h in precise.horses}
    sure = {str(h): int(precise.to_a_tenth(h, 1)) for h in precise.horses}
    assert not message.odds_rough and message.odds_decimals == sure
    assert set(sure.values()) == {0, 1}
    for horse, decimals in sure.items():  # a tenth exactly where the interval allows it
        assert (half_width(message.odds[horse], precise.samples) <= HALF_TENTH) == decimals
    live.settle()


def test_exact_odds_are_sent_to_a_tenth() -> None:
    rules, state = _play_until("derby", {}, 6, lambda r, s: s.phase is DerbyPhase.WAGER)
    message = table_state(rules, state, 0, "playing", 6, moves=False)
    assert message.odds and message.odds_decimals == dict.fromkeys(message.odds, 1)
    assert not message.odds_rough


def test_the_dice_of_a_turn_falling_share_the_odds_of_the_turns_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The quick estimate of the turn's start is sent while its dice fall (the estimate of a
    position with some dice known would differ). On a LiveOdds of the test's own, whose
    precise step gives nothing: no precise estimate comes in between two of the messages, and
    no work is left queued for the next test (a precise and a refined estimate, seconds)."""
    monkeypatch.setattr(live_odds_module, "LIVE", live_odds_module.LiveOdds())
    monkeypatch.setattr(live_odds_module, "precise_odds", lambda key: None)
    rules, state = _play_until("derby", {}, 11, _derby_mid_race)  # a table no other test uses
    while state.race.dice or state.race.waiting_for != "d20":  # to the start of a turn
        state, _ = rules.apply(state, SeededChance(1).choose(rules, state))
    sent = []
    for value in (3, 9, 14, 20, 1):  # five of the six dice
        sent.append(table_state(rules, state, None, "playing", 5, moves=False).odds)
        state, _ = rules.apply(state, rules.parse_action(state, f"d20 {value}"))
    assert state.race.dice == (3, 9, 14, 20, 1)
    sent.append(table_state(rules, state, None, "playing", 5, moves=False).odds)
    assert all(odds == sent[0] for odds in sent)
    live_odds_module.LIVE.settle()


def test_only_the_newest_derby_positions_wait_for_their_precise_odds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table that moves on faster than the precise odds are worked out leaves at most
    WAITING positions waiting, newest first: the older ones are dropped, not worked out. Each
    precise step queues its refinement, which runs only once no position waits: every one is
    asked for after the last precise step (a stand-in too, a refinement being millions of
    races)."""
    rules, state = _play_until("derby", {}, 13, _derby_mid_race)
    chance, views = SeededChance(13), list[Any]()
    while len(views) < 12:
        state, _ = rules.apply(state, chance.choose(rules, state))
        assert state.phase is DerbyPhase.RACE and state.race is not None
        if not state.race.dice and state.race.waiting_for == "d20":
            views.append(rules.view(state, None))
    started, go, computed = threading.Event(), threading.Event(), []

    refined: list[Any] = []

    def slow(key: Any) -> Any:
        started.set()
        go.wait()
        computed.append(key)
        return live_odds_module.quick_odds(key)

    def refine(key: Any, going: Any = None, after: Any = None) -> Any:
        refined.append((key, len(computed)))
        return None  # nothing kept: the precise step's estimate stays

    LIVE.settle()  # the shared table odds' thread must not pick up the stand-ins below
    monkeypatch.setattr(live_odds_module, "precise_odds", slow)
    monkeypatch.setattr(live_odds_module, "refined_odds", refine)
    live = live_odds_module.LiveOdds()
    live.wins(views[0])
    started.wait()  # the first position is being worked out
    for view in views[1:]:
        live.wins(view)
    go.set()
    live.settle()
    keys = [odds_key(view) for view in views]
    assert computed == [keys[0], *reversed(keys[-live_odds_module.WAITING :])]
    assert refined and all(done == len(computed) for _, done in refined)


def test_a_derby_table_before_the_race_sends_the_exact_even_odds() -> None:
    rules, state = _play_until("derby", {}, 6, lambda r, s: s.phase is DerbyPhase.WAGER)
    message = table_state(rules, state, 0, "playing", 6, moves=False)
    field = [h for h in rules.view(state, 0).field if h not in state.scratched]
    assert message.odds == {str(h): 1 / len(field) for h in field}


def test_a_derby_table_while_horses_are_picked_sends_no_odds() -> None:
    preset = get_preset("derby")
    state = preset.rules.initial_state(preset.config({}))
    assert table_state(preset.rules, state, None, "waiting", 1, moves=False).odds is None


def _cards_turned(count: int) -> Callable[[Any, Any], bool]:
    return lambda rules, state: state.phase is CardsPhase.RACE and len(state.turned) >= count


def _odds_from_cards(view: CardsView) -> dict[str, float]:
    """What `odds cards` works out from the same course and turned cards."""
    config = view.config
    position = position_from_cards(
        view.course,
        view.turned,
        need=config.need,
        faltering=config.faltering,
        stumbling=config.stumbling,
        ranks=config.ranks,
    )
    return {SUIT_LETTERS[suit]: p for suit, p in card_odds(position, places=1).win.items()}


@pytest.mark.parametrize("preset", ["basic", "scarne"])
def test_a_card_race_sends_the_exact_odds_of_its_course_and_turned_cards(preset: str) -> None:
    rules, state = _play_until(preset, {}, 8, _cards_turned(6))
    view = rules.view(state, 1)
    message = table_state(rules, state, 1, "playing", 8, moves=False)
    assert message.odds is not None
    assert message.odds == pytest.approx(_odds_from_cards(view), abs=1e-12)
    assert sum(message.odds.values()) == pytest.approx(1.0, abs=1e-9)


FALTERING = {"faltering": True, "redeal": False, "betting": "tote"}


def _hidden_swapped(state: Any) -> Any:
    """The same table with a face-down link of the course traded for an undealt card of
    another suit: nothing anybody sees changes."""
    frontier = state.track.frontier
    link = frontier  # index of link frontier + 1, the first face-down one
    hidden = state.course[link]
    other = next(
        c
        for c in state.deck
        if is_joker(c) != is_joker(hidden)
        or (not is_joker(c) and not is_joker(hidden) and suit_of(c) != suit_of(hidden))
    )
    course = (*state.course[:link], other, *state.course[link + 1 :])
    deck = tuple(sorted((*(c for c in state.deck if c != other), hidden)))
    return replace(state, course=course, deck=deck)


def test_a_face_down_course_moves_the_odds_only_through_what_the_view_shows() -> None:
    def late_and_hidden(rules: Any, state: Any) -> bool:
        return (
            _cards_turned(1)(rules, state)
            and state.track.frontier < state.config.course_length
            and odds_data(rules.family, rules.view(state, None))["odds"] is not None
        )

    rules, state = _play_until("basic", FALTERING, 11, late_and_hidden)
    twin = _hidden_swapped(state)
    assert twin.course != state.course
    assert rules.view(twin, 0) == rules.view(state, 0)
    one = table_state(rules, state, 0, "playing", 11, moves=False).odds
    two = table_state(rules, twin, 0, "playing", 11, moves=False).odds
    assert one is not None and one == two
    assert one == pytest.approx(_odds_from_cards(rules.view(state, 0)), abs=1e-12)


def test_a_young_face_down_race_past_the_state_budget_sends_none() -> None:
    rules, state = _play_until("basic", FALTERING, 12, lambda r, s: s.phase is CardsPhase.RACE)
    view = rules.view(state, None)
    with pytest.raises(TooManyStates):
        card_odds(position_of(view), places=1, max_states=CARDS_BUDGET)
    assert table_state(rules, state, None, "playing", 12, moves=False).odds is None
