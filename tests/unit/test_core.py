"""The core value types: ledger, dice, board files, Classic options, records, standings."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from horserace.components.board import DEFAULT_BOARD, HORSES, Board, load_board
from horserace.components.dice import ALL_ROLLS, DiceRoll, two_dice_sum_probabilities
from horserace.core.errors import ConfigError, InvalidAction, RecordError
from horserace.core.ledger import Ledger, LedgerError
from horserace.core.record import GameRecord, RecordedStep, parse_record, read_record
from horserace.core.rules import rank_standings
from horserace.engine import replay
from horserace.families.board.rules.config import BoardConfig
from horserace.families.presets import get_preset

# --- ledger -------------------------------------------------------------------------------------


def three_accounts() -> Ledger:
    return Ledger.open(["seat 1", "seat 2", "pot"], [10, 5, 0])


def test_transfer_moves_exactly_the_amount_and_conserves_the_total() -> None:
    ledger = three_accounts()
    after = ledger.transfer(0, 2, 7)
    assert after.balances == (3, 5, 7)
    assert after.total == ledger.total == 15
    assert ledger.balances == (10, 5, 0)  # the original is untouched
    assert after.transfer(2, 1, 7).balances == (3, 12, 0)
    assert ledger.transfer(1, 2, 0) == ledger


@pytest.mark.parametrize("amount", [11, -1, 1.5, Fraction(1, 2), "3", True, None])
def test_bad_transfers_raise(amount: Any) -> None:
    with pytest.raises(LedgerError):
        three_accounts().transfer(0, 2, amount)


def test_overdraw_names_the_account() -> None:
    with pytest.raises(LedgerError, match="seat 2"):
        three_accounts().transfer(1, 0, 6)


@pytest.mark.parametrize(
    ("labels", "balances"), [(["a"], [-1]), (["a"], [1.0]), (["a", "b"], [1]), (["a"], [True])]
)
def test_a_ledger_holds_whole_non_negative_balances(labels: list[str], balances: list[Any]) -> None:
    with pytest.raises(LedgerError):
        Ledger.open(labels, balances)


@pytest.mark.parametrize(
    ("owed", "paid", "left"), [(4, 4, 6), (10, 10, 0), (13, 10, 0), (0, 0, 10)]
)
def test_pay_what_you_can(owed: int, paid: int, left: int) -> None:
    ledger, actually = three_accounts().pay_what_you_can(0, 2, owed)
    assert actually == paid
    assert ledger.balances == (left, 5, paid)


def test_pay_what_you_can_with_nothing_pays_nothing() -> None:
    broke = Ledger.open(["seat 1", "pot"], [0, 9])
    after, paid = broke.pay_what_you_can(0, 1, 5)
    assert paid == 0 and after.balances == (0, 9)


# --- dice ---------------------------------------------------------------------------------------


def test_dice_text_keeps_the_low_die_first() -> None:
    assert DiceRoll.of(4, 3).text == "3+4"
    assert DiceRoll.of(4, 3) == DiceRoll(3, 4)
    assert DiceRoll.of(6, 6).total == 12
    for text in ("4+3", " 4 + 3 ", "3+4"):
        assert DiceRoll.parse(text).text == "3+4"


@pytest.mark.parametrize(
    "text", ["", "7", "7+1", "0+3", "3+", "+4", "a+b", "3+4+5", "345", "3 4 5", "3-4"]
)
def test_bad_dice_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        DiceRoll.parse(text)


@pytest.mark.parametrize(("low", "high"), [(4, 3), (0, 1), (1, 7)])
def test_impossible_dice_are_invalid(low: int, high: int) -> None:
    with pytest.raises(InvalidAction):
        DiceRoll(low, high)


def test_all_rolls_are_the_21_outcomes_with_exact_probabilities() -> None:
    assert len(ALL_ROLLS) == len(set(ALL_ROLLS)) == 21
    assert sum((r.probability for r in ALL_ROLLS), Fraction(0)) == 1
    by_sum: dict[int, Fraction] = {}
    for roll in ALL_ROLLS:
        by_sum[roll.total] = by_sum.get(roll.total, Fraction(0)) + roll.probability
    pairs = [a + b for a in range(1, 7) for b in range(1, 7)]
    expected = {s: Fraction(pairs.count(s), 36) for s in range(2, 13)}
    assert by_sum == expected == two_dice_sum_probabilities()
    assert expected[7] == Fraction(1, 6) and expected[2] == expected[12] == Fraction(1, 36)


# --- board --------------------------------------------------------------------------------------


def board_toml(lanes: dict[str, int], name: str = "mine") -> str:
    rows = "\n".join(f"{horse} = {slots}" for horse, slots in lanes.items())
    return f'name = "{name}"\n\n[lanes]\n{rows}\n'


STANDARD = {str(h): n for h, n in zip(HORSES, (2, 5, 7, 10, 13, 14, 13, 10, 7, 5, 2), strict=True)}


def test_the_standard_board_needs_slots_plus_one_advances() -> None:
    assert DEFAULT_BOARD.slots == (2, 5, 7, 10, 13, 14, 13, 10, 7, 5, 2)
    advances = [DEFAULT_BOARD.advances_to_finish(h) for h in range(2, 13)]
    assert advances == [3, 6, 8, 11, 14, 15, 14, 11, 8, 6, 3]


def test_a_board_file_loads(tmp_path: Path) -> None:
    lanes = {**STANDARD, "7": 20}
    path = tmp_path / "board.toml"
    path.write_text(board_toml(lanes))
    board = load_board(path)
    assert board.name == "mine"
    assert board.slots_of(7) == 20 and board.advances_to_finish(7) == 21
    assert board.slots_of(2) == 2
    assert Board.from_mapping(board.to_dict()) == board


def test_the_packaged_short_board_loads() -> None:
    import horserace

    board = load_board(
        Path(horserace.__file__).parent / "families" / "board" / "boards" / "short-board.toml"
    )
    assert board.name == "short" and len(board.slots) == 11


@pytest.mark.parametrize(
    ("text", "mentions"),
    [
        (board_toml({**STANDARD, "5": 0}), "5"),
        (board_toml({k: v for k, v in STANDARD.items() if k != "9"}), "9"),
        (board_toml({**STANDARD, "13": 4}), "13"),
        ("name = [unclosed\n", "TOML"),
        ('name = "no lanes"\n', "lanes"),
    ],
    ids=["zero-slots", "missing-lane", "lane-13", "not-toml", "no-lanes"],
)
def test_a_bad_board_file_is_one_clear_line(tmp_path: Path, text: str, mentions: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_board(path)
    message = str(caught.value)
    assert "\n" not in message and mentions in message and "bad.toml" in message


def test_a_missing_board_file_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_board(tmp_path / "nowhere.toml")
    assert "nowhere.toml" in str(caught.value) and "\n" not in str(caught.value)


# --- Classic options ----------------------------------------------------------------------------


def test_classic_defaults_follow_the_rulings() -> None:
    config = get_preset("classic").config({})
    assert config.rounds == 8 and config.starting_chips == 100
    assert config.board == DEFAULT_BOARD
    assert [BoardConfig(players=n).decks for n in (2, 4, 5, 12)] == [1, 1, 2, 2]


@pytest.mark.parametrize(
    ("options", "mentions"),
    [
        ({"players": 13}, "players"),
        ({"players": 1}, "players"),
        ({"players": "4"}, "players"),
        ({"rounds": 0}, "rounds"),
        ({"starting_chips": -1}, "starting_chips"),
        ({"repeat_scratch": "ignore"}, "repeat_scratch"),
        ({"open_hands": "yes"}, "open_hands"),
        ({"players": 3, "first_dealer": 3}, "first_dealer"),
        ({"colour": "red"}, "colour"),
        ({"board": "short"}, "board"),
    ],
)
def test_bad_classic_options_are_config_errors(options: dict[str, Any], mentions: str) -> None:
    with pytest.raises(ConfigError, match=mentions):
        get_preset("classic").config(options)


def test_a_board_given_as_data_is_validated() -> None:
    with pytest.raises(ConfigError):
        get_preset("classic").config({"board": {"name": "x", "lanes": {**STANDARD, "2": 0}}})


# --- records ------------------------------------------------------------------------------------


def a_record() -> GameRecord:
    return GameRecord(
        preset="classic",
        config={"players": 2},
        seed=5,
        chance="seeded",
        steps=(
            RecordedStep("chance", "deal 7", ({"type": "card-dealt", "seat": 1},)),
            RecordedStep("chance", "deal Q", ()),
        ),
        result={"winners": [0]},
    )


def test_a_record_reads_back_equal(tmp_path: Path) -> None:
    record = a_record()
    path = tmp_path / "r.jsonl"
    record.write(path)
    assert read_record(path) == record
    assert parse_record("\n".join(record.lines())) == record


def _lines() -> list[str]:
    return list(a_record().lines())


def _without_step_0() -> str:
    lines = _lines()
    return "\n".join([lines[0], *lines[2:]])


def _wrong_format() -> str:
    lines = _lines()
    header = {**json.loads(lines[0]), "format": "something-else"}
    return "\n".join([json.dumps(header), *lines[1:]])


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("", 1),
        ("\n\n", 1),
        ("{not json", 1),
        (_wrong_format(), 1),
        (_without_step_0(), 2),
        ("\n".join([*_lines()[:2], "[1, 2]"]), 3),
        ("\n".join([*_lines(), _lines()[1]]), 5),
    ],
    ids=["empty", "blank", "not-json", "wrong-format", "step-gap", "not-object", "after-result"],
)
def test_a_damaged_record_names_the_line(text: str, line: int) -> None:
    with pytest.raises(RecordError, match=f"line {line}\\b"):
        parse_record(text)


@pytest.mark.parametrize(
    "header", [{"preset": "no-such-game"}, {"config": {"players": 13}}, {"config": {"x": 1}}]
)
def test_a_record_whose_header_cannot_make_a_game_is_reported(header: dict[str, Any]) -> None:
    record = dataclasses.replace(a_record(), **header)
    report = replay(record, get_preset)
    assert not report.ok and report.problems[0].startswith("header")
    assert report.steps_checked == 0


def test_an_unreadable_record_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        read_record(tmp_path / "missing.jsonl")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        read_record(binary)


# --- standings ----------------------------------------------------------------------------------


def test_standings_most_chips_first_and_equal_chips_share_a_place() -> None:
    result = rank_standings([5, 9, 9, 1, 5], unclaimed=4)
    assert [(s.seat, s.chips, s.place) for s in result.standings] == [
        (1, 9, 1),
        (2, 9, 1),
        (0, 5, 3),
        (4, 5, 3),
        (3, 1, 5),
    ]
    assert result.winners == (1, 2)
    assert result.unclaimed == 4


def test_standings_everyone_equal_all_win_and_a_single_top_wins_alone() -> None:
    assert rank_standings([7, 7, 7], 0).winners == (0, 1, 2)
    assert rank_standings([0, 3, 2], 0).winners == (1,)
    assert [s.place for s in rank_standings([0, 3, 2], 0).standings] == [1, 2, 3]


def test_game_act_refuses_a_seat_out_of_turn() -> None:
    """Only the seat whose turn it is may act; chance's turn refuses every seat."""
    from horserace.core.errors import IllegalAction
    from horserace.core.types import actor_text
    from horserace.engine import Game
    from horserace.families.board.rules.actions import ROLL
    from horserace.families.presets import get_preset

    preset = get_preset("classic")
    game = Game("classic", preset.rules, preset.config({"players": 2}), None, "scripted")
    with pytest.raises(IllegalAction, match="chance's turn"):
        game.act(0, ROLL)  # the deal comes first
    for rank in range(2, 13):
        for _ in range(4):
            game.apply(preset.rules.parse_action(game.state, f"deal {rank}"))
    assert game.actor == 1  # the dealer's left makes the first scratch roll
    with pytest.raises(IllegalAction, match="seat 1 cannot act now: it is seat 2's turn"):
        game.act(0, ROLL)
    game.act(1, ROLL)
    assert actor_text(game.actor) == "chance"


@pytest.mark.parametrize("typed", ["3+4", "4+3", "3 4", "3,4", "34", " 4 + 3 "])
def test_dice_accept_the_ways_people_type_them(typed: str) -> None:
    assert DiceRoll.parse(typed).text == "3+4"


def test_deal_accepts_a_bare_rank_but_keeps_one_text_form() -> None:
    from horserace.families.board.rules.actions import Deal

    assert Deal.parse("q") == Deal.parse("deal Q") == Deal(12)
    assert Deal.parse("10").text == "deal 10"
    for typed in ("deal", "deal 7 8", "K", "deal 1"):
        with pytest.raises(InvalidAction):
            Deal.parse(typed)
