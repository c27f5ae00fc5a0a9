"""The basic card race with the dealer's book, on scripted decks: exact chips from RULINGS.md §2
(traditional odds by course count, the dealer pays winners and keeps losers, the deal passes
left, redeal at five of a suit), not from the engine's code."""

from __future__ import annotations

import pytest

from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import replay
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import BookBet
from horserace.families.cards.rules.state import CardsPhase
from horserace.families.presets import get_preset
from tests.unit.test_cards_support import chips, events, new_table, of_suit, run, scripted

COURSE = ["2C", "9H", "KD", "5S", "7H", "JC", "3D"]  # clubs 2, diamonds 2, hearts 2, spades 1
SPADES_WIN = ["4H", *of_suit("S", 2, COURSE), "6H", *of_suit("S", 8, COURSE)[2:]]


def test_book_prices_follow_the_course_count() -> None:
    game, steps = scripted("basic", {"players": 3}, COURSE)
    opened = events(steps, ev.BookOpened)
    assert opened == [ev.BookOpened(0, ("3-1", "3-1", "3-1", "2-1"))]
    assert game.state.phase is CardsPhase.BETTING
    assert game.actor == 1  # the dealer's left bets first; the dealer does not bet


def test_winner_paid_at_the_odds_loser_kept_by_the_dealer() -> None:
    bets = ["bet 5 S", "done", "bet 10 C"]  # at the limit, P3 is done
    game, steps = scripted("basic", {"players": 3, "races": 1}, [*COURSE, *bets, *SPADES_WIN])
    assert game.actor is TERMINAL
    over = events(steps, ev.RaceOver)
    assert over[0].order[0] == 3 and over[0].cards == len(SPADES_WIN)
    # P2: 5 at 2-1 on spades -> stake back + 10; P3: 10 on clubs -> to the dealer.
    assert chips(game) == (100 + 10 - 10, 100 + 10, 100 - 10)
    assert game.state.ledger.balance(3) == 0  # nothing left on the table
    result = game.rules.result(game.state)
    assert result.winners == (1,) and result.unclaimed == 0


def test_the_race_stops_at_the_first_horse_across_for_win_bets() -> None:
    game, steps = scripted("basic", {"players": 3, "races": 2}, [*COURSE, "done", "done"])
    run(game, SPADES_WIN, steps)
    finished = events(steps, ev.HorseFinished)
    assert [(f.suit, f.place) for f in finished] == [(3, 1)]
    assert events(steps, ev.RaceStarted) == [ev.RaceStarted(2, 1)]  # the deal passes left
    assert game.state.phase is CardsPhase.COURSE and game.actor is CHANCE
    assert len(game.state.deck) == 48


def test_five_of_a_suit_is_redealt() -> None:
    bad = ["2C", "3C", "4C", "5C", "6C", "7H", "8H"]
    game, steps = scripted("basic", {"players": 3}, [*bad, *COURSE])
    assert events(steps, ev.CourseRedealt) == [ev.CourseRedealt(0, 5)]
    assert len(events(steps, ev.CourseCardDealt)) == 14
    assert game.state.phase is CardsPhase.BETTING and game.state.redeals == 1
    assert len(game.state.course) == 7 and len(game.state.deck) == 48 - 7


def test_four_of_a_suit_stands_and_pays_ten_to_one() -> None:
    course = ["2C", "3C", "4C", "5C", "7H", "8H", "9D"]
    game, steps = scripted("basic", {"players": 3, "races": 1}, [*course, "bet 2 C", "done"])
    assert not events(steps, ev.CourseRedealt)
    assert events(steps, ev.BookOpened)[0].prices == ("10-1", "2-1", "3-1", "1-1")
    run(game, ["done", *of_suit("C", 8, course)], steps)
    assert chips(game) == (100 - 20, 100 + 20, 100)


def test_limit_chips_and_cover_are_enforced_with_reasons() -> None:
    game = new_table("basic", players=3, starting_chips=20, bet_limit=10)
    run(game, COURSE)
    rules = game.rules
    with pytest.raises(IllegalAction, match="limit is 10"):
        rules.apply(game.state, rules.parse_action(game.state, "bet 11 H"))
    run(game, ["bet 6 H"])
    with pytest.raises(IllegalAction, match="4 left"):
        rules.apply(game.state, rules.parse_action(game.state, "bet 5 H"))
    # The dealer holds 20 and owes 18 if hearts (3-1) wins, net of the losing stakes (none
    # yet): not one more chip on hearts; elsewhere the 6 on hearts would be collected first.
    stakes = [a.stake for a in rules.legal_actions(game.state, 1) if isinstance(a, BookBet)]
    assert max(stakes) == 4
    legal_hearts = [a for a in rules.legal_actions(game.state, 1) if a.text.endswith("H")]
    assert legal_hearts == []  # 18 + 3 > 20: the dealer cannot cover another chip on hearts
    with pytest.raises(IllegalAction, match="cover"):
        rules.apply(game.state, rules.parse_action(game.state, "bet 1 H"))
    with pytest.raises(InvalidAction):
        rules.parse_action(game.state, "bet lots H")


def test_shorthands_read_like_the_canonical_text() -> None:
    game = new_table("basic", players=3)
    run(game, COURSE)
    rules = game.rules
    for text in ("bet 5 S", "5 s", "5S", "s 5", "bet 5 spades"):
        assert rules.parse_action(game.state, text).text == "bet 5 S"
    assert rules.parse_action(game.state, "").text == "done"


def test_a_scripted_book_game_replays() -> None:
    game, _ = scripted(
        "basic",
        {"players": 3, "races": 1},
        [*COURSE, "bet 5 S", "done", "bet 10 C", *SPADES_WIN],
    )
    report = replay(game.record(), get_preset)
    assert report.ok, report.problems
