"""Properties of the card race over random tables and seeds (DESIGN.md "Tests"): chips and cards
are conserved, chance is exact, seeds reproduce, records replay, a face-down course stays
hidden, and the exact odds agree with races played by the engine (within 4 sigma)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from horserace.components.french_deck import is_joker, parse_card
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.events import redact
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.core.types import CHANCE, TERMINAL
from horserace.drivers.bots import make_bot
from horserace.engine import Game, Step, play, replay
from horserace.families.cards.odds.race import card_odds, position_from_cards
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.rules import CardsRules, full_deck
from horserace.families.cards.rules.state import CardsPhase, CardsState
from horserace.families.presets import get_preset

RULES = CardsRules()
SETTINGS = settings(max_examples=80, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def card_tables(draw: st.DrawFn) -> dict[str, Any]:
    """Small tables of every betting style and race option; impossible mixes are skipped."""
    faltering = draw(st.booleans())
    betting = draw(
        st.sampled_from(["tote", "party"] if faltering else ["book", "tote", "party", "calcutta"])
    )
    ranks = draw(st.integers(min_value=3, max_value=12))
    length = draw(st.integers(min_value=2, max_value=8))
    options = {
        "players": draw(st.integers(min_value=3, max_value=5)),
        "races": draw(st.integers(min_value=1, max_value=2)),
        "starting_chips": draw(st.integers(min_value=0, max_value=40)),
        "ranks": ranks,
        "course_length": length,
        "need": draw(st.integers(min_value=1, max_value=min(length + 1, ranks))),
        "redeal": not faltering and draw(st.booleans()),
        "faltering": faltering,
        "stumbling": draw(st.booleans()),
        "course_joker": draw(st.sampled_from(["discard", "stays"])),
        "betting": betting,
        "bet_limit": draw(st.integers(min_value=1, max_value=4)),
        "takeout": draw(st.integers(min_value=0, max_value=30)),
        "dealer_bids": draw(st.booleans()),
    }
    try:
        RULES.make_config(options)
    except ConfigError:
        assume(False)
    return options


def check_state(state: CardsState, start_total: int) -> None:
    ledger = RULES.ledger(state)
    assert ledger.total == start_total
    assert all(type(b) is int and b >= 0 for b in ledger.balances)
    everything = sorted((*state.deck, *state.course, *state.discarded, *state.turned))
    assert everything == sorted(full_deck(state.config))
    if not state.config.joker_stays:  # a joker dealt to the course is discarded
        assert not any(is_joker(card) for card in state.course)
    if state.phase not in (CardsPhase.CUT, CardsPhase.COURSE):
        assert len(state.course) == state.config.course_length
    actor = RULES.actor(state)
    for seat in range(state.config.players):
        assert bool(RULES.legal_actions(state, seat)) == (actor == seat)
    outcomes = RULES.chance_outcomes(state)
    if actor is CHANCE:
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        assert len({a.text for a, _ in outcomes}) == len(outcomes) == len(state.deck)
    else:
        assert outcomes == []
    view = RULES.view(state, None)
    for link, shown in enumerate(view.course, 1):
        assert (shown is None) == (state.config.faltering and link > state.track.frontier)


def bots(players: int, seed: int) -> dict[int, Any]:
    return {
        seat: make_bot("random", derive_seed(seed, BOT_STREAM, seat), "cards")
        for seat in range(players)
    }


def random_game(options: dict[str, Any], seed: int, observe: Any = None) -> Game:
    rules = get_preset("basic").rules
    config = get_preset("basic").config(options)
    game = Game("basic", rules, config, seed=seed, chance_mode="seeded")
    play(game, bots(config.players, seed), SeededChance(seed), observe=observe)
    return game


@SETTINGS
@given(options=card_tables(), seed=SEEDS)
def test_every_step_conserves_chips_and_cards_and_hides_the_course(
    options: dict[str, Any], seed: int
) -> None:
    start_total = options["players"] * options["starting_chips"]

    def observe(step: Step) -> None:
        state: CardsState = step.after
        if state.config.betting == "party":
            check_state(state, start_total + state.config.bank_funds)
        else:
            check_state(state, start_total)
        hidden = [e for e in step.events if isinstance(e, ev.CourseCardDealt) and not e.face_up]
        for seat in [*range(options["players"]), None]:
            shown = redact(hidden, seat)
            assert all(isinstance(e, ev.CourseCardFaceDown) for e in shown)

    game = random_game(options, seed, observe)
    assert game.actor is TERMINAL
    result = RULES.result(game.state)
    assert (
        sum(s.chips for s in result.standings) + result.unclaimed == RULES.ledger(game.state).total
    )


@SETTINGS
@given(options=card_tables(), seed=SEEDS)
def test_same_seed_same_record_and_the_record_replays(options: dict[str, Any], seed: int) -> None:
    game = random_game(options, seed)
    record = game.record()
    assert random_game(options, seed).record() == record
    report = replay(record, get_preset)
    assert report.ok, report.problems
    assert report.game is not None and report.game.state == game.state


@SETTINGS
@given(options=card_tables(), seed=SEEDS)
def test_each_race_settles_the_places_its_bets_need(options: dict[str, Any], seed: int) -> None:
    steps: list[Step] = []
    random_game(options, seed, steps.append)
    for step in steps:
        for event in step.events:
            if isinstance(event, ev.RaceOver):
                before: CardsState = step.before
                assert sorted(event.order) == [0, 1, 2, 3]
                finished = before.track.finished + tuple(
                    e.suit for e in step.events if isinstance(e, ev.HorseFinished)
                )
                assert event.order[: len(finished)] == finished
                closed = [e.places for e in step.events if isinstance(e, ev.BetsClosed)]
                places = closed[0] if closed else before.places
                short = len(finished) < min(places, 3)
                assert event.by_position == (event.order[len(finished) :] if short else ())


def race_orders(
    course: str, options: dict[str, Any], races: int, seed: int
) -> list[tuple[int, ...]]:
    """Finishing orders of `races` races from one course, dealt by the engine (party: places 3)."""
    config = RULES.make_config({"betting": "party", "races": 1, "redeal": False, **options})
    rng = random.Random(seed)
    orders = []
    for _ in range(races):
        state = RULES.initial_state(config)
        for word in course.split():
            state, _ = RULES.apply(state, RULES.parse_action(state, word))
        while state.phase is CardsPhase.BETTING:
            actor = RULES.actor(state)
            assert isinstance(actor, int)
            state, _ = RULES.apply(state, RULES.legal_actions(state, actor)[0])
        while True:
            outcomes, _ = RULES.chance_weights(state)
            state, events = RULES.apply(state, outcomes[rng.randrange(len(outcomes))])
            over = [e for e in events if isinstance(e, ev.RaceOver)]
            if over:
                orders.append(over[0].order)
                break
    return orders


def within_four_sigma(hits: int, trials: int, p: float) -> bool:
    sigma = math.sqrt(p * (1 - p) / trials)
    return abs(hits / trials - p) <= 4 * sigma + 1e-12


def test_monte_carlo_races_agree_with_the_exact_odds() -> None:
    course = "2C 9H KD 5S 7H JC 3D"
    orders = race_orders(course, {}, 1500, seed=2026)
    odds = card_odds(position_from_cards([parse_card(c) for c in course.split()], [], need=8))
    for horse in range(4):
        wins = sum(1 for o in orders if o[0] == horse)
        assert within_four_sigma(wins, len(orders), odds.win[horse])
    exacta = sum(1 for o in orders if o[:2] == (3, 2))
    assert within_four_sigma(exacta, len(orders), odds.exacta[(3, 2)])


def test_monte_carlo_agrees_with_a_stumbling_face_down_race() -> None:
    """The engine deals the face-down course too: the odds see only three unknown links (a
    pack of 4 cards a suit: the odds of 5 cards and 4 links take 6 s of CPU, these 1 s)."""
    options = {"ranks": 4, "course_length": 3, "need": 3, "redeal": False}
    options |= {"faltering": True, "stumbling": True}
    config = RULES.make_config({"betting": "party", "races": 1, **options})
    rng = random.Random(99)
    tallies = [0, 0, 0, 0]
    trials = 1500
    for _ in range(trials):
        state = RULES.initial_state(config)
        while state.phase is not CardsPhase.OVER:
            actor = RULES.actor(state)
            if actor is CHANCE:
                outcomes, _ = RULES.chance_weights(state)
                action = outcomes[rng.randrange(len(outcomes))]
            else:
                assert isinstance(actor, int)
                action = RULES.legal_actions(state, actor)[0]
            state, events = RULES.apply(state, action)
            for event in events:
                if isinstance(event, ev.RaceOver):
                    tallies[event.order[0]] += 1
    position = position_from_cards([None] * 3, [], need=3, faltering=True, stumbling=True, ranks=4)
    odds = card_odds(position)
    for horse in range(4):
        assert within_four_sigma(tallies[horse], trials, odds.win[horse])
