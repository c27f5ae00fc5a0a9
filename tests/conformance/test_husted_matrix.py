"""Husted across the board matrix: in every Husted row a seat short of the wager is offered the
fold alone and never meets by paying less (RULINGS §1, no "pay what you can" meet), and at
every table size from 2 to 12 a deal that leaves no stub says so and no draw follows."""

from __future__ import annotations

import pytest

from horserace.engine import Step
from horserace.families.board.news import opening_news
from horserace.families.board.rules import events as ev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.records import Betting, Drawing, innermost
from horserace.families.board.rules.state import BoardState
from horserace.families.presets import get_preset
from tests.conformance.board_matrix import ROWS, Row, play_row

HUSTED_ROWS = [row for row in ROWS if row.options.get("husted")]
MIX = ("ev", "heuristic", "random", "ev")
BETTORS = ("random",)  # they wager and raise most: a short stack comes within a game or two
BETS = ("meet", "raise", "wager")
NAMES = [f"P{seat + 1}" for seat in range(12)]


def test_every_table_size_has_a_husted_row() -> None:
    assert {row.options["players"] for row in HUSTED_ROWS} == set(range(2, 13))


@pytest.mark.parametrize("row", HUSTED_ROWS, ids=repr)
def test_a_seat_short_of_the_wager_may_only_fold(row: Row) -> None:
    shorts = 0
    rules = get_preset(row.preset).rules

    def follow(step: Step) -> None:
        nonlocal shorts
        state: BoardState = step.before
        record = innermost(state.phase_record)
        if isinstance(record, Betting) and isinstance(step.actor, int):
            seat = step.actor
            owe = record.level - record.round_bets[seat]
            legal = [a.text for a in rules.legal_actions(state, seat)]
            if owe > state.ledger.balances[seat]:
                shorts += 1
                assert legal == ["fold"] and step.action.text == "fold", f"step {step.index}"
            else:
                assert ("meet" in legal) == (owe > 0), f"step {step.index}: {legal}"
        for event in step.events:
            if isinstance(event, ev.ChipsPaid) and event.reason.startswith(BETS):
                assert event.paid == event.owed, f"step {step.index}: {event}"

    for seed in range(1, 40):
        play_row(row, seed, BETTORS, observe=follow)
        if shorts:
            break
    assert shorts, f"{row}: no seat ran short of a wager in 39 games"


@pytest.mark.parametrize("row", HUSTED_ROWS, ids=repr)
def test_a_deal_without_a_stub_says_so_and_no_draw_follows(row: Row) -> None:
    stubs: dict[int, int] = {}

    def follow(step: Step) -> None:
        state: BoardState = step.before
        if step.index == 0:
            lines = [line.text for line in opening_news(state, NAMES)]
            stub = int(lines[0].rsplit("(", 1)[1].split()[0])
            stubs[1] = stub
            assert any(line.startswith("No stub") for line in lines) == (stub == 0)
        for index, event in enumerate(step.events):
            if isinstance(event, ev.RoundStarted):
                stubs[event.round] = event.stub
                said = step.events[index + 1 : index + 2] == (hev.NoDraw(event.round),)
                assert said == (event.stub == 0), f"step {step.index}"
            elif isinstance(event, hev.NoDraw):
                assert stubs.get(event.round) == 0
        if isinstance(innermost(step.after.phase_record), Drawing):
            assert stubs[step.after.round] > 0, f"step {step.index}: a draw with no stub"

    play_row(row, 5, MIX, observe=follow)
    assert stubs
