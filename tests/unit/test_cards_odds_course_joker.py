"""The exact odds where a joker dealt to the course stays on its link (`course_joker =
"stays"`, the reading of records written before the discard): against an enumeration of the
rules engine's chance outcomes on short packs, as test_cards_odds.py does for the discard."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.components.french_deck import parse_card, parse_cards
from horserace.core.errors import ConfigError
from horserace.drivers.cli.app import app
from horserace.families.cards.odds.book import joker_discarded, legal_courses
from horserace.families.cards.odds.race import card_odds, exact_card_odds, position_from_cards
from horserace.families.cards.rules.events import CourseRedealt
from horserace.families.cards.rules.state import CardsPhase, CardsState
from horserace.families.cards.rules.track import RACING_SUITS
from tests.unit.test_cards_odds import RULES, enumerate_orders

STAYS = {"stumbling": True, "course_joker": "stays"}
SHORTER = {"ranks": 3, "course_length": 3, "need": 3, **STAYS}
TINY = {"ranks": 2, "course_length": 2, "need": 2, "faltering": True, **STAYS}
TINY_CROSS = {**TINY, "course_length": 1}


@pytest.mark.parametrize(
    ("options", "course", "turned"),
    [
        (SHORTER, "2C joker 3C", "3H"),  # on link 2, face up: it never stumbles the horses
        (SHORTER, "2C 2D 4S", "3H joker"),
        (TINY, "?? ??", ""),  # the joker may lie face down on either link
        (TINY, "3D ??", "2C"),  # the discard's odds give clubs 77/180, not 31/70
        (TINY, "joker ??", "2H"),  # hearts turns the joker on link 1: nobody falls back
        (TINY, "2C ??", "3D joker"),
        (TINY_CROSS, "??", ""),
    ],
)
def test_exact_odds_match_the_engine_with_the_joker_on_its_link(
    options: dict[str, Any], course: str, turned: str
) -> None:
    """The discard's odds (the joker never on a link, so in the deck while unseen) fail the
    face-down cases, where the joker may lie on a link and a link may turn it."""
    dealt = [None if word == "??" else word for word in course.split()]
    expected = enumerate_orders(options, [*dealt, *turned.split()])
    links = [None if c is None else parse_card(c) for c in dealt]
    history = parse_cards(turned)
    common = {"need": options["need"], "stumbling": True, "ranks": options["ranks"]}
    common["faltering"] = options.get("faltering", False)
    position = position_from_cards(links, history, joker_stays=True, **common)
    got = {order: p for order, p in exact_card_odds(position).order.items() if p}
    assert got == expected
    if course == "3D ??":  # the discard's odds: the joker in the deck only
        ruling = exact_card_odds(position_from_cards(links, history, **common))
        assert {order: p for order, p in ruling.order.items() if p} != expected


@pytest.mark.parametrize("options", [{"redeal": False}, {"redeal": True, "need": 2}])
def test_the_course_chances_with_the_joker_lying_there_match_the_rules_deal(
    options: dict[str, Any],
) -> None:
    """One deal of a short pack (3 cards a suit and the joker, 3 links) through every chance
    outcome of the rules engine: the suit counts of the courses that stand (the joker lies on
    one in 3/13 of the deals: a 2-card course) against legal_courses, which then never
    discards it."""
    config = RULES.make_config({**SHORTER, **options})
    mass: dict[tuple[int, ...], Fraction] = {}

    def deal(state: CardsState, p: Fraction) -> None:
        for action, q in RULES.chance_outcomes(state):
            after, events = RULES.apply(state, action)
            if any(isinstance(e, CourseRedealt) for e in events):
                continue  # dealt again: the course that stands is conditioned on standing
            if after.phase is CardsPhase.COURSE:
                deal(after, p * q)
            else:
                key = tuple(after.course_count(s) for s in RACING_SUITS)
                mass[key] = mass.get(key, Fraction(0)) + p * q

    deal(RULES.initial_state(config), Fraction(1))
    stands = sum(mass.values(), Fraction(0))
    table: dict[tuple[int, ...], Fraction] = {}
    for chance, counts, _ in legal_courses(config):
        table[counts] = table.get(counts, Fraction(0)) + chance
    assert table == {counts: p / stands for counts, p in mass.items()}
    on_course = sum((p for counts, p in table.items() if sum(counts) == 2), Fraction(0))
    assert on_course > 0 and joker_discarded(config) == ((False, Fraction(1)),)
    if not config.redeal:
        assert on_course == Fraction(3, 13)


def test_odds_cards_reads_a_joker_in_the_course_as_lying_there_with_course_joker_stays() -> None:
    course = "2C 9H joker KD 5S 7H JC"
    args = ["odds", "cards", "--json", "--course", course, "--stumbling", "--turned", "4H"]
    result = CliRunner().invoke(app, [*args, "--course-joker", "stays"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["course"] == course.split() and data["course_joker"] == "stays"
    assert data["joker_discarded"] is False
    assert data["book"]["horses"]["C"]["course_cards"] == 2
    links = parse_cards(course)
    position = position_from_cards(
        links, parse_cards("4H"), need=8, stumbling=True, joker_stays=True
    )
    assert data["win"] == {s: card_odds(position).win[i] for i, s in enumerate("CDHS")}
    discarded = json.loads(CliRunner().invoke(app, args).stdout)
    assert discarded["joker_discarded"] is True and discarded["win"] != data["win"]
    bad = CliRunner().invoke(app, ["odds", "cards", "--course", course, "--course-joker", "stays"])
    assert bad.exit_code == 2 and "--course-joker needs --stumbling" in bad.stderr


def test_a_joker_that_stays_was_never_discarded() -> None:
    with pytest.raises(ConfigError, match="none is discarded"):
        position_from_cards(
            parse_cards("2C 9H KD"),
            [],
            need=4,
            stumbling=True,
            joker_discarded=True,
            joker_stays=True,
        )
