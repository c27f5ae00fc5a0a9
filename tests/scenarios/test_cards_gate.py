"""The gate is not a link (RULINGS.md §2): horses level at the gate, fallen back there or never
moved, are ordered clubs, diamonds, hearts, spades, in the standing order and in the places."""

from __future__ import annotations

from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.track import CardTrack, fall_back, move_up
from tests.unit.test_cards_support import chips, events, scripted

C, D, H, S = range(4)
# a 3-card suit (2, 3, 4), a face-down 2-card course: a horse crosses on its third card
SHORT = {"ranks": 3, "course_length": 2, "need": 3, "faltering": True, "redeal": False}


def test_a_horse_fallen_back_to_the_gate_stands_in_suit_order_there() -> None:
    track = move_up(CardTrack(), D, 3)
    assert track.standing == (D, C, H, S)
    back = fall_back(track, D)
    assert back.positions == (0, 0, 0, 0) and back.standing == (C, D, H, S)
    ahead = move_up(move_up(CardTrack(), S, 3), H, 3)  # spades then hearts to link 1
    spades_back = fall_back(ahead, S)
    assert spades_back.standing == (H, C, D, S)
    assert fall_back(move_up(ahead, C, 3), C).standing == (S, H, C, D)


def test_the_party_prizes_place_a_fallen_back_horse_by_its_suit_at_the_gate() -> None:
    options = {**SHORT, "players": 3, "races": 1, "betting": "party"}
    course = ["3D", "2S"]  # link 1: diamonds falls back on reaching it; link 2: spades' card
    picks = ["pick D", "pick S", "pick H"]  # P2, P3, P1 (the dealer picks last)
    # diamonds reaches link 1 and turns its own 3D: back to the gate, 4D its only card left;
    # hearts turns link 2 (2S, nobody there) and crosses; clubs crosses second. Diamonds and
    # spades can no longer finish and stand level at the gate: diamonds third, spades last.
    race = ["2D", "2H", "3H", "4H", "2C", "3C", "4C"]
    game, steps = scripted("basic", options, [*course, *picks, *race])
    assert events(steps, ev.HorseFellBack) == [ev.HorseFellBack(D, 0)]
    assert events(steps, ev.RaceOver)[0].order == (H, C, D, S)
    # hearts 1st: P1 25; clubs 2nd: nobody; diamonds 3rd: P2 15; spades: nothing
    assert chips(game) == (125, 115, 100)
