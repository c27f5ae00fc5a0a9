"""The race itself on scripted decks, option by option (RULINGS.md §2): scarne's short course,
faltering links, the stumbling joker, and horses placed by position."""

from __future__ import annotations

from horserace.components.french_deck import parse_card
from horserace.core.events import redact
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.state import CardsPhase
from tests.unit.test_cards_support import chips, events, new_table, of_suit, run, scripted

C, D, H, S = range(4)


def test_scarne_reach_six_with_six_of_a_suit_on_the_course_and_no_redeal() -> None:
    course = ["2C", "3C", "4C", "5C", "6C", "7C"]
    game, steps = scripted("scarne", {"players": 3, "races": 1}, [*course, "bet 4 H", "done"])
    assert not events(steps, ev.CourseRedealt)
    assert events(steps, ev.BookOpened)[0].prices == ("", "1-1", "1-1", "1-1")
    assert not any(a.text.endswith(" C") for a in game.rules.legal_actions(game.state, 2))
    run(game, ["done", "8C", *of_suit("H", 6)], steps)
    finished = events(steps, ev.HorseFinished)
    assert [(f.suit, f.place) for f in finished] == [(H, 1)]
    assert events(steps, ev.HorseMoved)[-1] == ev.HorseMoved(H, 6)
    assert chips(game) == (100 - 4, 100 + 4, 100)


def test_faltering_links_turn_on_first_arrival_and_spare_a_horse_at_the_gate() -> None:
    course = ["5C", "9D", "7D", "KH", "QS", "JC", "10S"]  # face down, link 1 first
    game = new_table("basic", players=3, races=1, faltering=True, redeal=False, betting="tote")
    steps = run(game, [*course, "done", "done", "done"])
    race = run(game, ["2H", "3H", "2D", "4H"])
    turned = events(race, ev.LinkTurned)
    assert turned == [
        ev.LinkTurned(1, parse_card("5C")),
        ev.LinkTurned(2, parse_card("9D")),
        ev.LinkTurned(3, parse_card("7D")),
    ]
    # Link 1 (5C) and link 2 (9D) name horses at the gate: nobody falls back. Diamonds then
    # reaches link 1 (already face up) and hearts' third card turns link 3 (7D): diamonds back.
    assert events(race, ev.HorseFellBack) == [ev.HorseFellBack(D, 0)]
    assert game.state.track.positions == (0, 0, 3, 0)
    assert game.state.track.frontier == 3
    view = game.rules.view(game.state, 1)
    assert view.course[:3] != (None, None, None) and view.course[3:] == (None,) * 4
    dealt = [e for step in steps for e in step.events]
    for seat in (0, 1, 2, None):
        shown = redact(dealt, seat)
        assert not any(isinstance(e, ev.CourseCardDealt) for e in shown)
        assert len([e for e in shown if isinstance(e, ev.CourseCardFaceDown)]) == 7


def test_faltering_the_arriving_horse_can_fall_back_itself() -> None:
    course = ["5H", "9D", "7D", "KH", "QS", "JC", "10S"]
    game = new_table("basic", players=3, races=1, faltering=True, redeal=False, betting="tote")
    run(game, [*course, "done", "done", "done"])
    race = run(game, ["2H"])
    assert events(race, ev.HorseMoved) == [ev.HorseMoved(H, 1)]
    assert events(race, ev.HorseFellBack) == [ev.HorseFellBack(H, 0)]
    race = run(game, ["3H"])  # link 1 is face up now: no second fall
    assert not events(race, ev.HorseFellBack) and game.state.track.positions[H] == 1


def test_stumbling_joker_lifts_all_but_a_tied_lead() -> None:
    course = ["2S", "3S", "4H", "5H", "6C", "7C", "8D"]
    game = new_table("basic", players=3, races=1, stumbling=True)
    run(game, [*course, "done", "done"])
    race = run(game, ["9C", "9D", "joker"])
    assert events(race, ev.JokerTurned) == [ev.JokerTurned((H, S))]
    track = game.state.track
    assert track.positions == (1, 1, 1, 1)
    assert track.standing == (C, D, H, S)  # the leaders got there first; H, S kept their order
    race = run(game, ["10S"])
    assert game.state.track.standing == (S, C, D, H)


def test_horses_that_cannot_finish_are_placed_by_position_ties_by_arrival() -> None:
    # A 10-card course with five clubs and five diamonds: neither can reach 8 any more.
    course = ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D"]
    options = {"players": 3, "races": 1, "course_length": 10, "redeal": False, "betting": "tote"}
    game, steps = scripted("basic", options, [*course, "trifecta 2 S H C", "done", "done", "done"])
    assert game.state.phase is CardsPhase.RACE and game.state.places == 3
    run(game, ["7C", "7D", "8D", "8C", "9C", "9D"], steps)  # level at 3: clubs got there first
    run(game, [*of_suit("S", 8), *of_suit("H", 7)], steps)
    assert game.state.phase is CardsPhase.RACE
    run(game, of_suit("H", 8)[7:], steps)
    over = events(steps, ev.RaceOver)
    assert over == [ev.RaceOver((S, H, C, D), (C, D), 6 + 8 + 8)]
    assert chips(game) == (100, 100, 100)  # P2's 2-chip trifecta takes the whole pool back


def test_the_race_runs_on_while_a_bet_needs_a_place() -> None:
    course = ["2C", "9H", "KD", "5S", "7H", "JC", "3D"]
    game, steps = scripted("basic", {"players": 3, "races": 1, "betting": "tote"}, course)
    run(game, ["exacta 3 S H", "done", "show 1 D", "done", "done"], steps)
    assert game.state.places == 3
    run(game, [*of_suit("S", 8, course), *of_suit("H", 8, course)], steps)
    assert game.state.phase is CardsPhase.RACE  # show needs the third place too
    run(game, of_suit("D", 8, course), steps)
    assert events(steps, ev.RaceOver)[0].order[:3] == (S, H, D)
