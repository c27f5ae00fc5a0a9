"""Keeping the books of a real board at table speed: the one rule both drivers ask whether a
roll counts by its sum alone (so `7` is a roll there, and refused, with the reason, where each
die counts), and a whole hand typed in one line, read and checked against the pack."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from horserace.components.dice import DiceRoll
from horserace.core.errors import InvalidAction
from horserace.drivers.server.messages import table_state_data
from horserace.families.board.hand_entry import next_hand, read_hand, still_to_deal
from horserace.families.board.rules.records import MARKET, Racing, Scratching
from horserace.families.presets import get_preset
from tests.board_positions import arrange
from tests.helpers import deal_script, fill_hands, new_game, scripted_game
from tests.unit.test_play_cli import invoke

RULES = get_preset("classic").rules


def _rolling(options: dict[str, object], record: object) -> object:
    game = new_game({"players": 3, **options})
    return arrange(game.state, record=record)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("typed", "dice"), [("7", "1+6"), ("2", "1+1"), ("11", "5+6"), ("12", "6+6"), ("8", "2+6")]
)
def test_the_sum_alone_is_a_roll_where_only_the_sum_counts(typed: str, dice: str) -> None:
    for record in (Scratching(0, rolling=True), Racing(1, rolling=True)):
        state = _rolling({}, record)
        assert RULES.reads_only_sum(state)
        action = RULES.parse_action(state, typed)
        assert action == DiceRoll.parse(dice) and action.text == dice
        RULES.verify(state, action)
    assert RULES.parse_action(state, "3+4").text == "3+4"  # both dice still taken


def test_a_seat_calling_for_the_dice_reads_the_same_rule() -> None:
    assert RULES.reads_only_sum(_rolling({}, Racing(1)))
    assert not RULES.reads_only_sum(new_game({"players": 3}).state)  # the deal: cards


def test_robertsons_race_refuses_a_sum_and_says_how_to_type_the_four_dice() -> None:
    race = _rolling({"robertson": True}, Racing(0, rolling=True))
    assert not RULES.reads_only_sum(race)
    assert not RULES.reads_only_sum(_rolling({"robertson": True}, Racing(0)))
    with pytest.raises(InvalidAction) as refused:
        RULES.parse_action(race, "7")
    assert str(refused.value) == (
        "'7' is a sum, but Robertson's race reads each of the four dice:"
        " type all four, like '1+3+4+6'"
    )
    assert RULES.parse_action(race, "6+1+5+4").text == "1+4+5+6"
    scratch = _rolling({"robertson": True}, Scratching(0, rolling=True))
    assert RULES.reads_only_sum(scratch) and RULES.parse_action(scratch, "7").text == "1+6"


def test_other_families_never_read_a_sum_alone() -> None:
    for preset in ("derby", "basic"):
        rules = get_preset(preset).rules
        state = rules.initial_state(rules.make_config({}))
        assert not rules.reads_only_sum(state)


def test_each_hand_is_owed_its_share_of_the_deal_round_the_table() -> None:
    state = new_game({"players": 3}).state  # 44 cards: 14 each, from the dealer's left
    assert next_hand(state) == 1
    assert still_to_deal(state) == {1: 14, 2: 14, 0: 14}
    partly = scripted_game({"players": 3}, ["deal 2", "deal 3", "deal 4", "deal 5"]).state
    assert next_hand(partly) == 2 and still_to_deal(partly) == {2: 13, 0: 13, 1: 12}
    market = new_game({"players": 3, "market": True}).state
    owed = still_to_deal(market)
    assert MARKET in owed and sum(owed.values()) == market.phase_record.to_deal
    dealt = scripted_game({"players": 2}, deal_script(fill_hands(2), 0)).state
    assert next_hand(dealt) is None and still_to_deal(dealt) == {}


def test_a_hand_line_reads_ranks_suits_and_the_old_one_card_form() -> None:
    state = new_game({"players": 3}).state
    assert read_hand(state, 1, "Bob", "3 4 5 J q 10", {}) == (3, 4, 5, 11, 12, 10)
    assert read_hand(state, 1, "Bob", "3h 4c, js 10♥", {}) == (3, 4, 11, 10)
    assert read_hand(state, 1, "Bob", "deal 7", {}) == (7,)


@pytest.mark.parametrize(
    ("line", "held", "error"),
    [
        ("3 4 Z", {}, "'Z' is not a card rank here (2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q)"),
        ("A 4", {}, "'A' is not a card rank here"),
        (" ".join(["2", "3", "4", "5"] * 3 + ["6", "6", "7"]), {}, "Bob gets 14 more cards"),
        ("7 7 7 7 7", {}, "only 4 of the 7s are left in the pack, not 5"),
        ("7 7", {2: [7, 7, 7]}, "only 1 of the 7s is left in the pack, not 2"),
        ("9", {0: [9, 9], 2: [9, 9]}, "no 9 is left in the pack (every one is dealt or typed)"),
        ("  ", {}, "type the cards of Bob's hand in one line, like '3 4 5 J'"),
    ],
)
def test_a_bad_hand_line_is_refused_in_one_line(
    line: str, held: dict[int, list[int]], error: str
) -> None:
    state = new_game({"players": 3}).state
    with pytest.raises(InvalidAction) as refused:
        read_hand(state, 1, "Bob", line, held)  # type: ignore[arg-type]
    assert str(refused.value).startswith(error) and "\n" not in str(refused.value)


def test_the_terminal_takes_hands_a_line_and_refuses_a_sum_in_robertsons_race(
    tmp_path: Path,
) -> None:
    lines = [
        "2 2 2 2 3 3 3 3 4 4 4 4 5 5 6 6 6 6 7 7 7 7",  # P2's hand, dealt from P1's left
        "8 8 8 8 9 9 9 9 10 10 10 10 J J J J Q Q Q Q 5 5",
        *("7", "8", "6", "5"),  # Robertson's scratch rolls: two dice, the sum will do
        "7",  # the race rolls four dice: a sum is refused
        "1+3+4+6",
    ]
    options = ["--players", "2", "--rounds", "1", "--house", "robertson", "--companion"]
    options += ["--record", str(tmp_path / "books.jsonl")]
    _, out, _ = invoke("classic", *options, stdin="\n".join(lines) + "\n")
    assert "P2's hand as entered: 2 2 2 2 3 3 3 3 4 4 4 4 5 5 6 6 6 6 7 7 7 7" in out
    assert "P1 rolls 1+4=5: horse 5 to scratch line 4" in out
    refusal = (
        "not accepted: '7' is a sum, but Robertson's race reads each of the four dice:"
        " type all four, like '1+3+4+6'"
    )
    assert out.count(refusal) == 1
    assert "P2 rolls 1+3+4+6" in out


def test_a_hidden_hand_typed_in_stays_hidden_on_the_screen(tmp_path: Path) -> None:
    options = ["--players", "3", "--rounds", "1", "--hidden-hands", "--companion"]
    options += ["--record", str(tmp_path / "books.jsonl")]
    hand = "Q Q Q Q J J J J 10 10 10 10 9 9"
    _, out, _ = invoke("classic", *options, stdin=f"{hand}\nundo\n")
    assert re.search(r"P2 +100 +14 cards \(hidden\)", out)  # the board counts the cards typed
    assert "undone: P2's hand; type it again" in out
    assert "P2's hand (" not in out and "as entered" not in out  # only the typing shows it


def test_the_web_table_is_told_the_same_rule_and_the_hands_to_deal() -> None:
    def entry(state: object) -> object:
        return table_state_data(RULES, state, None, "playing", 7, moves=True)["entry"]

    deal = entry(new_game({"players": 3}).state)
    assert deal == {
        "sums": False,
        "hands": [(1, 14), (2, 14), (0, 14)],
        "pack": {f"deal {rank}": 4 for rank in [*map(str, range(2, 11)), "J", "Q"]},
    }
    race = _rolling({"robertson": True}, Racing(0, rolling=True))
    scratch = _rolling({"robertson": True}, Scratching(0, rolling=True))
    assert entry(race) == {"sums": False, "hands": [], "pack": {}}
    assert entry(scratch) == {"sums": True, "hands": [], "pack": {}}
    assert entry(_rolling({}, Racing(1))) == {"sums": True, "hands": [], "pack": {}}  # a roll
    watching = table_state_data(RULES, race, None, "playing", 7, moves=False)
    assert watching["entry"] is None and watching["legal"] == []


def test_rest_is_every_card_left_for_a_last_hand_with_no_stub() -> None:
    two = new_game({"players": 2}).state  # 44 cards, 22 each: nothing stays in the stub
    typed = {1: [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [6] * 4 + [7] * 2}
    rest = read_hand(two, 0, "Ann", "rest", typed)  # type: ignore[arg-type]
    assert rest == (7, 7, *[rank for rank in range(8, 13) for _ in range(4)])
    three = new_game({"players": 3}).state  # 14 each and 2 in the stub
    with pytest.raises(InvalidAction) as refused:
        read_hand(three, 1, "Bob", "rest", {})
    assert str(refused.value) == (
        "'rest' is for a hand that gets every card left: the pack has 44 cards not typed,"
        " Bob gets 14"
    )
