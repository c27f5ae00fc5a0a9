"""The stumbling joker turned while dealing the course, on scripted decks (RULINGS.md §2): it is
discarded for all to see and another card dealt, so the course always holds its full number of
suit cards and that race's deck has no joker; a redeal shuffles it back in."""

from __future__ import annotations

import pytest

from horserace.components.french_deck import JOKER, parse_card
from horserace.core.errors import IllegalAction
from horserace.core.events import redact
from horserace.families.cards import news as cards_news
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.state import CardsPhase
from tests.unit.test_cards_support import CUT, chips, events, of_suit, run, scripted

C, D, H, S = range(4)
COURSE = ["2C", "9H", "KD", "5S", "7H", "JC", "3D"]  # clubs 2, diamonds 2, hearts 2, spades 1
SPADES_WIN = ["4H", *of_suit("S", 2, COURSE), "6H", *of_suit("S", 8, COURSE)[2:]]
NAMES = ["P1", "P2", "P3"]


def test_a_joker_dealt_to_the_course_is_discarded_and_the_link_gets_the_next_card() -> None:
    dealt = [*COURSE[:2], "joker", *COURSE[2:]]
    options = {"players": 3, "races": 2, "stumbling": True}
    game, steps = scripted("basic", options, dealt)
    assert events(steps, ev.CourseJokerDiscarded) == [ev.CourseJokerDiscarded(3)]
    assert [e.link for e in events(steps, ev.CourseCardDealt)] == [1, 2, 3, 4, 5, 6, 7]
    state = game.state
    assert state.course == tuple(parse_card(c) for c in COURSE)
    assert state.discarded == (JOKER,) and JOKER not in state.deck
    assert len(state.deck) == 49 - 8  # 48 suit cards and the joker, less 7 links and the joker
    assert not game.rules.view(state, 1).joker_unseen
    # the prices go by the seven suit cards, as on the same course without a joker
    assert events(steps, ev.BookOpened) == [ev.BookOpened(0, ("3-1", "3-1", "3-1", "2-1"))]
    run(game, ["bet 5 S", "done", "bet 10 C"], steps)
    with pytest.raises(IllegalAction, match="not in the deck"):
        game.rules.apply(game.state, game.rules.parse_action(game.state, "joker"))
    run(game, SPADES_WIN, steps)
    over = events(steps, ev.RaceOver)
    assert over == [ev.RaceOver((S, H, C, D), (), len(SPADES_WIN))]
    assert not events(steps, ev.JokerTurned)
    # P2: 5 at 2-1 on spades -> stake back + 10; P3: 10 on clubs -> to the dealer (P1).
    assert chips(game) == (100 + 10 - 10, 100 + 10, 100 - 10)
    # the next race deals from the whole deck again, the joker in it
    assert game.state.phase is CardsPhase.COURSE and game.state.discarded == ()
    assert JOKER in game.state.deck and len(game.state.deck) == 49


def test_every_seat_sees_the_discard_even_on_a_face_down_course() -> None:
    course = ["5C", "9D", "7D", "KH", "QS", "JC", "10S"]
    options = {"players": 3, "races": 1, "faltering": True, "redeal": False, "betting": "tote"}
    game, steps = scripted("basic", {**options, "stumbling": True}, ["joker", *course])
    for seat in (0, 1, 2, None):
        shown = redact([e for step in steps for e in step.events], seat)
        assert shown[0] == ev.CourseJokerDiscarded(1)
        assert [type(e) for e in shown[1:8]] == [ev.CourseCardFaceDown] * 7
    run(game, ["done", "done", "done", "2H", "3H"], steps)
    # link 1 holds 5C, the card dealt after the joker: hearts reaches it, clubs is at the gate
    assert events(steps, ev.LinkTurned) == [
        ev.LinkTurned(1, parse_card("5C")),
        ev.LinkTurned(2, parse_card("9D")),
    ]
    assert game.state.track.positions == (0, 0, 2, 0)
    assert len(game.state.deck) == 49 - 8 - 2 and not game.state.joker_unseen()


def test_a_redeal_shuffles_the_discarded_joker_back_in() -> None:
    five_clubs = ["2C", "joker", "3C", "4C", "5C", "6C", "7H", "8H"]
    course = ["2S", "3S", "4H", "5H", "6C", "7C", "8D"]
    options = {"players": 3, "races": 1, "stumbling": True}
    game, steps = scripted("basic", options, [*five_clubs, *course])
    assert events(steps, ev.CourseJokerDiscarded) == [ev.CourseJokerDiscarded(2)]
    assert events(steps, ev.CourseRedealt) == [ev.CourseRedealt(C, 5)]
    assert game.state.discarded == () and len(game.state.deck) == 49 - 7
    run(game, ["done", "done", "9C", "9D", "joker"], steps)
    assert events(steps, ev.JokerTurned) == [ev.JokerTurned((H, S))]
    assert game.state.track.positions == (1, 1, 1, 1)


def test_scarne_and_calcutta_courses_keep_their_length() -> None:
    game, steps = scripted("scarne", {"players": 3, "stumbling": True}, ["joker", *COURSE[:6]])
    assert len(game.state.course) == 6 and game.state.phase is CardsPhase.BETTING
    assert events(steps, ev.CourseJokerDiscarded) == [ev.CourseJokerDiscarded(1)]
    dealt = [*CUT, *COURSE[:6], "joker", COURSE[6]]
    game, steps = scripted("calcutta", {"players": 3, "stumbling": True}, dealt)
    sorted_course = events(steps, ev.CourseSorted)[0].cards
    assert sorted(sorted_course) == sorted(parse_card(c) for c in COURSE)
    assert events(steps, ev.CourseJokerDiscarded) == [ev.CourseJokerDiscarded(7)]


def test_the_news_tells_the_deal_then_the_discard() -> None:
    options = {"players": 3, "races": 1, "stumbling": True}
    _, steps = scripted("basic", options, ["joker", *COURSE])
    lines = [
        (line.text, line.kind)
        for step in steps
        for line in cards_news.table_news(step, NAMES, None)
    ]
    deals = [text for text, _ in lines if " deals the course, " in text]
    assert deals == ["Race 1: P1 deals the course, 7 cards face up"]
    discard = "The joker turns up for link 1: discarded for this race, another card dealt"
    assert (discard, "joker") in lines
    assert lines.index((deals[0], "race")) < lines.index((discard, "joker"))
