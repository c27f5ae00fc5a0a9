"""Exact card-race odds against independent references: a direct enumeration of the rules
engine's own chance outcomes on a short pack, the closed form against the DP, floats against
Fractions, and the bets' tables against their definitions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from horserace.components.french_deck import Card, is_joker, parse_card, parse_cards, suit_of
from horserace.core.errors import ConfigError
from horserace.core.types import CHANCE
from horserace.families.cards.odds.book import average_book_edge, joker_discarded, legal_courses
from horserace.families.cards.odds.race import (
    RacePosition,
    TooManyStates,
    card_odds,
    exact_card_odds,
    position_from_cards,
    position_of,
)
from horserace.families.cards.rules.config import cards_config
from horserace.families.cards.rules.events import CourseJokerDiscarded, CourseRedealt, RaceOver
from horserace.families.cards.rules.rules import CardsRules
from horserace.families.cards.rules.state import CardsPhase, CardsState
from horserace.families.cards.rules.track import RACING_SUITS

RULES = CardsRules()


def enumerate_orders(options: dict[str, Any], forced: Sequence[str | None]) -> dict[Any, Fraction]:
    """P(final order | the forced cards) by walking every chance outcome of the rules engine.

    `forced` names the cards dealt at the first chance steps (course first, then the race); a
    None there (a face-down link) is any suit card: a joker dealt there would have been
    discarded for all to see, so the history would name it (where the joker stays on its link,
    any card, the joker too). A party table settles three
    places, so the whole order is known; its picks do not touch the race."""
    config = RULES.make_config({"betting": "party", "races": 1, "redeal": False, **options})
    memo: dict[Any, dict[Any, Fraction]] = {}

    def walk(state: CardsState, step: int) -> dict[Any, Fraction]:
        key = _memo_key(state, step, len(forced))
        known = memo.get(key)
        if known is not None:
            return known
        out: dict[Any, Fraction] = {}
        actor = RULES.actor(state)
        if actor is not CHANCE:
            assert isinstance(actor, int)
            after, _ = RULES.apply(state, RULES.legal_actions(state, actor)[0])
            out = walk(after, step)
        else:
            outcomes = RULES.chance_outcomes(state)
            if step < len(forced) and forced[step] is not None:
                wanted = parse_card(str(forced[step]))
                # a free face-down link may have taken the card: that deal is not this history
                outcomes = [(a, Fraction(1)) for a, _ in outcomes if a.card == wanted]  # type: ignore[attr-defined]
            elif step < len(forced) and not config.joker_stays:
                outcomes = [(a, p) for a, p in outcomes if not is_joker(a.card)]  # type: ignore[attr-defined]
            for action, p in outcomes:
                after, events = RULES.apply(state, action)
                over = [e for e in events if isinstance(e, RaceOver)]
                branch = {over[0].order: Fraction(1)} if over else walk(after, step + 1)
                for order, q in branch.items():
                    out[order] = out.get(order, Fraction(0)) + p * q
        memo[key] = out
        return out

    dist = walk(RULES.initial_state(config), 0)
    total = sum(dist.values(), Fraction(0))
    return {order: p / total for order, p in dist.items()}


def _memo_key(state: CardsState, step: int, named: int) -> tuple[Any, ...]:
    """What the rest of the walk depends on. While named cards are still to come, the cards
    themselves; past them, only their suits: no rule of a race reads a card's rank (only the
    cut for the deal does, and a party table never cuts), so two states whose cards differ by
    ranks within suits lead to the same orders, and walking them once costs a tenth as much."""
    if step < named:
        return (state.phase, state.deck, state.course, state.track, step)
    return (state.phase, _suits(state.deck), _suits(state.course), state.track, named)


def _suits(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(-1 if is_joker(card) else suit_of(card) for card in cards)


SHORT = {"ranks": 3, "course_length": 2, "need": 3}
SHORTER = {"ranks": 3, "course_length": 3, "need": 3}
TINY = {"ranks": 2, "course_length": 2, "need": 2}  # a face-down course is enumerated too
TINY_CROSS = {"ranks": 2, "course_length": 1, "need": 2}


@pytest.mark.parametrize(
    ("options", "course", "turned"),
    [
        (SHORT, "2C 3C", ""),  # clubs cannot finish: placed by position
        (SHORT, "2C 2D", "3H 3C"),
        ({**SHORT, "need": 2}, "2C 2D", "4S"),
        ({**SHORTER, "stumbling": True}, "2C 2D 4S", ""),
        ({**SHORTER, "stumbling": True}, "2C joker 3C 2S", "3H"),  # discarded: no stumble
        ({**SHORTER, "stumbling": True}, "2C 3C 2S", "3H joker"),
        ({**SHORTER, "stumbling": True}, "2H 2D 3D", "3H 4C"),
        ({**TINY, "faltering": True}, "?? ??", ""),
        ({**TINY, "faltering": True}, "2C ??", "3D"),
        ({**TINY_CROSS, "faltering": True}, "??", ""),
        ({**TINY_CROSS, "faltering": True}, "3S", "2C 2S"),
        ({**TINY_CROSS, "faltering": True, "stumbling": True}, "??", ""),
        ({**TINY, "faltering": True, "stumbling": True}, "joker 3C ??", "2H"),
        ({**TINY, "faltering": True, "stumbling": True}, "?? ??", ""),  # the joker in the deck
        ({**TINY, "faltering": True, "stumbling": True}, "3D ??", "2C"),
        ({**TINY, "faltering": True, "stumbling": True}, "3S joker ??", "2C"),
        ({**TINY_CROSS, "faltering": True, "stumbling": True}, "2D", "3S"),
        ({**TINY, "faltering": True, "stumbling": True}, "3C ??", "2H joker"),
    ],
)
def test_exact_odds_match_an_enumeration_of_the_rules_engine(
    options: dict[str, Any], course: str, turned: str
) -> None:
    """A joker named in the course is the one turned while dealing it, at that chance step:
    discarded, so it holds no link and never stumbles the horses."""
    dealt = [None if word == "??" else word for word in course.split()]
    history = turned.split()
    expected = enumerate_orders(options, [*dealt, *history])
    position = position_from_cards(
        [None if c is None else parse_card(c) for c in dealt if c != "joker"],
        parse_cards(turned),
        need=options["need"],
        faltering=options.get("faltering", False),
        stumbling=options.get("stumbling", False),
        joker_discarded="joker" in dealt,
        ranks=options["ranks"],
    )
    odds = exact_card_odds(position)
    got = {order: p for order, p in odds.order.items() if p}
    assert got == expected


def random_positions(count: int, seed: int, **options: Any) -> list[RacePosition]:
    """Positions part-way through seeded races of the rules engine (any table options)."""
    rng = random.Random(seed)
    config = RULES.make_config({"betting": "party", "races": 1, **options})
    positions: list[RacePosition] = []
    while len(positions) < count:
        state = RULES.initial_state(config)
        stop = rng.randrange(0, 30)
        turned = 0
        while True:
            actor = RULES.actor(state)
            if actor is CHANCE:
                outcomes, _ = RULES.chance_weights(state)
                action = outcomes[rng.randrange(len(outcomes))]
            else:
                assert isinstance(actor, int)
                action = RULES.legal_actions(state, actor)[0]
            after, events = RULES.apply(state, action)
            if any(isinstance(e, RaceOver) for e in events):
                break
            state = after
            if state.turned and len(state.turned) > turned:
                turned = len(state.turned)
                if turned >= stop:
                    positions.append(position_of(state))
                    break
    return positions


@pytest.mark.parametrize("options", [{}, {"course_length": 6, "need": 6, "redeal": False}])
def test_closed_form_equals_the_dp_exactly(options: dict[str, Any]) -> None:
    for position in random_positions(6, 11, **options):
        assert position.plain
        closed = exact_card_odds(position, method="closed")
        assert exact_card_odds(position, method="dp") == closed


def test_floats_agree_with_fractions() -> None:
    """On a short pack (7 cards a suit, 4 links, 5 to finish): the same code as a full one, at
    a tenth of the states (positions from the gate to near the end, the joker seen or not)."""
    short = {"ranks": 7, "course_length": 4, "need": 5}
    for position in random_positions(4, 5, stumbling=True, redeal=False, **short):
        exact = exact_card_odds(position)
        fast = card_odds(position)
        for table in ("win", "place", "show", "exacta", "trifecta", "superfecta"):
            ours, theirs = getattr(fast, table), getattr(exact, table)
            assert ours.keys() == theirs.keys()
            assert all(abs(ours[k] - float(theirs[k])) < 1e-12 for k in ours)


def test_every_table_sums_as_it_should() -> None:
    position = position_from_cards(parse_cards("2C 9H KD 5S 7H JC 3D"), [], need=8)
    odds = exact_card_odds(position)
    assert sum(odds.win.values()) == 1
    assert sum(odds.place.values()) == 2
    assert sum(odds.show.values()) == 3
    for table in (odds.exacta, odds.trifecta, odds.superfecta):
        assert sum(table.values()) == 1
    assert len(odds.superfecta) == 24 and len(odds.trifecta) == 24 and len(odds.exacta) == 12
    for a in RACING_SUITS:
        assert odds.win[a] == sum(p for (first, _), p in odds.exacta.items() if first == a)
        assert odds.show[a] == sum(p for key, p in odds.trifecta.items() if a in key)
    # Clubs, diamonds and hearts show two cards each: the same chances, by symmetry.
    assert odds.win[0] == odds.win[1] == odds.win[2] < odds.win[3]


def test_fewer_places_leave_the_longer_bets_empty() -> None:
    position = position_from_cards(parse_cards("2C 9H KD 5S 7H JC 3D"), [], need=8)
    win_only = exact_card_odds(position, places=1)
    assert win_only.place == {} and win_only.exacta == {} and win_only.superfecta == {}
    assert win_only.win == exact_card_odds(position).win
    two = exact_card_odds(position, places=2)
    assert two.exacta == exact_card_odds(position).exacta and two.trifecta == {}


def test_a_settled_race_is_certain() -> None:
    course = parse_cards("2C 9H KD 5S 7H JC 3D")
    spades = parse_cards("2S 3S 4S 6S 7S 8S 9S 10S")
    odds = exact_card_odds(position_from_cards(course, spades, need=8), places=1)
    assert odds.win == {0: 0, 1: 0, 2: 0, 3: 1}
    hearts = parse_cards("2H 3H 4H 5H 6H 8H 10H JH")
    diamonds = parse_cards("2D 4D 5D 6D 7D 8D 9D 10D")
    three = position_from_cards(course, [*spades, *hearts, *diamonds], need=8)
    assert exact_card_odds(three).superfecta[(3, 2, 1, 0)] == 1
    with pytest.raises(ConfigError, match="already over"):  # every place is known
        position_from_cards(course, [*spades, *hearts, *diamonds, parse_card("4C")], need=8)


DISCARDED = {"stumbling": True, "joker_discarded": True}


@pytest.mark.parametrize(
    ("course", "turned", "kwargs", "message"),
    [
        ("2C 9H KD 5S 7H JC 3D", "2C", {}, "already seen"),
        ("2C 9H KD 5S 7H JC AD", "", {}, "aces are the horses"),
        ("2C 9H KD 5S 7H JC 3D", "joker", {}, "only with stumbling"),
        ("2C 9H KD joker 7H JC 3D", "", {"stumbling": True}, "link 4: a joker dealt to the"),
        ("2C 9H KD 5S 7H JC 3D", "4H joker", DISCARDED, "joker was already seen"),
        ("2C 9H KD 5S 7H JC 3D", "", {"joker_discarded": True}, "that needs stumbling"),
        ("?? ?? ??", "", {"need": 4}, "only a faltering course"),
        ("?? ?? ??", "2C", {"faltering": True, "need": 4}, "give that link's card"),
        ("2C ?? ??", "", {"faltering": True, "need": 4}, "still face down"),
        ("2C 3C", "", {"need": 4}, "need must be 1 to 3"),
    ],
)
def test_bad_histories_are_config_errors(
    course: str, turned: str, kwargs: dict[str, Any], message: str
) -> None:
    links = [None if w == "??" else parse_card(w) for w in course.split()]
    options = {"need": 8, **kwargs}
    with pytest.raises(ConfigError, match=message):
        position_from_cards(links, parse_cards(turned), **options)


def test_the_dp_stops_at_its_state_budget() -> None:
    position = position_from_cards([None] * 7, [], need=8, faltering=True)
    with pytest.raises(TooManyStates):
        card_odds(position, places=1, max_states=2000)


def test_the_average_book_edge_weighs_every_legal_course() -> None:
    config = cards_config({})
    table = legal_courses(config)
    assert sum(chance for chance, _, _ in table) == 1
    # Seven of 48 cards with no suit showing five or more (two suits cannot both).
    legal = comb(48, 7) - 4 * sum(comb(12, k) * comb(36, 7 - k) for k in (5, 6, 7))
    average = average_book_edge(config)
    for count in (3, 4):  # the other suits share at most four cards: nothing to redeal
        assert average.count_chance[count] == Fraction(comb(12, count) * comb(36, 7 - count), legal)
    assert sum(average.count_chance.values()) == 1
    overall = sum(average.count_chance[c] * average.by_count[c] for c in average.by_count)
    assert average.overall == overall  # every course prices all four horses
    for chance, counts, win in table[:5]:
        assert sum(win) == 1 and chance > 0 and sum(counts) == 7


@pytest.mark.parametrize("options", [{"redeal": False}, {"redeal": True, "need": 2}])
def test_the_course_chances_with_the_joker_match_the_rules_deal(options: dict[str, Any]) -> None:
    """One deal of a short pack (3 cards a suit and the joker, 3 links) walked through every
    chance outcome of the rules engine: the suit counts of the courses that stand, and how often
    their deal turned the joker (discarded), against legal_courses and joker_discarded. A
    joker that took a link (a 2-card course), or a chance of 3/12, fails."""
    base = {"ranks": 3, "course_length": 3, "need": 3, "stumbling": True}
    config = RULES.make_config({**base, **options})
    mass: dict[tuple[tuple[int, ...], bool], Fraction] = {}

    def deal(state: CardsState, p: Fraction, discarded: bool) -> None:
        for action, q in RULES.chance_outcomes(state):
            after, events = RULES.apply(state, action)
            if any(isinstance(e, CourseRedealt) for e in events):
                continue  # dealt again: the course that stands is conditioned on standing
            joker = discarded or any(isinstance(e, CourseJokerDiscarded) for e in events)
            if after.phase is CardsPhase.COURSE:
                deal(after, p * q, joker)
            else:
                key = (tuple(after.course_count(s) for s in RACING_SUITS), joker)
                mass[key] = mass.get(key, Fraction(0)) + p * q

    deal(RULES.initial_state(config), Fraction(1), False)
    stands = sum(mass.values(), Fraction(0))
    by_counts: dict[tuple[int, ...], Fraction] = {}
    for (counts, _), p in mass.items():
        by_counts[counts] = by_counts.get(counts, Fraction(0)) + p / stands
    table: dict[tuple[int, ...], Fraction] = {}
    for chance, counts, _ in legal_courses(config):
        table[counts] = table.get(counts, Fraction(0)) + chance
    assert table == by_counts
    turned = sum((p for (_, joker), p in mass.items() if joker), Fraction(0)) / stands
    assert dict(joker_discarded(config))[True] == turned == Fraction(3, 13)
    for counts in by_counts:  # whatever the course, the same chance
        course = {k: p for k, p in mass.items() if k[0] == counts}
        assert course[(counts, True)] / sum(course.values()) == turned
