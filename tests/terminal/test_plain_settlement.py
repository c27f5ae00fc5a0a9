"""`--plain` says the round's settlement as the full screen holds it: after each race's payout a
row a seat, what it collects from the pots, its chips, and the round's gain or loss (the full
screen showed the table in its popup only; the printed lines had none)."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from horserace.core.chance import SeededChance
from horserace.engine import Game, Step
from horserace.families.board.rules import events as ev
from horserace.terminal.session import in_lines
from tests.terminal.tables import Table

ROW = re.compile(r"^(P\d)\s+(-|\d+)\s+(\d+)\s+([+±-]\d+)$")
HEADER = re.compile(r"^player\s+collects\s+chips\s+this round$")
SEATS = 3


def settlements(game: Game, steps: list[Step]) -> list[list[tuple[str, ...]]]:
    """Each payout's rows, worked out from the game's steps: (seat, collects, chips, change
    since the round began)."""
    began = game.rules.view(steps[0].before, None).chips
    found: list[list[tuple[str, ...]]] = []
    for step in steps:
        if any(isinstance(event, ev.RoundStarted) for event in step.events):
            began = game.rules.view(step.after, None).chips
        if not any(isinstance(event, ev.PotShared) for event in step.events):
            continue
        chips = game.rules.view(step.after, None).chips
        paid = [0] * SEATS
        for event in step.events:
            if isinstance(event, ev.PayoutMade | ev.JockeyPotWon):
                paid[event.seat] += event.amount
        rows: list[tuple[str, ...]] = []
        for seat in range(SEATS):
            change = chips[seat] - began[seat]
            sign = "+" if change > 0 else "-" if change < 0 else "±"
            collects = str(paid[seat]) if paid[seat] else "-"
            rows.append((f"P{seat + 1}", collects, str(chips[seat]), f"{sign}{abs(change)}"))
        found.append(rows)
    return found


def test_plain_prints_each_payouts_money_table(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table("classic", options={"players": SEATS, "rounds": 2})
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, force_terminal=False)
    screen = t.terminal.screen(t.setup, console, True, False)
    game = t.new_game()
    steps: list[Step] = []
    shown = screen.observe

    def observe(step: Step) -> None:
        steps.append(step)
        shown(step)

    monkeypatch.setattr(screen, "observe", observe)
    assert in_lines(game, t.agents, SeededChance(t.setup.seed), screen)
    printed = [line.strip() for line in out.getvalue().splitlines()]
    headers = [index for index, line in enumerate(printed) if HEADER.match(line)]
    expected = settlements(game, steps)
    assert len(headers) == len(expected) == 2
    for index, rows in zip(headers, expected, strict=True):
        table = printed[index + 1 : index + 1 + SEATS]
        assert [match.groups() for line in table if (match := ROW.match(line))] == rows
        before = printed[:index]  # the payout's lines, then the board, then the table
        paid = max(at for at, line in enumerate(before) if " wins: pot " in line)
        assert not [line for line in before[paid:] if " rolls " in line]
    assert any(row[1] != "-" for rows in expected for row in rows)  # somebody collected
