"""The Derby's live odds on the terminal: printed to a tenth of a point when within half a
tenth, else in whole percents. The full screen shows the quick estimate (~12) at once and
draws the board again when the precise figures are in, then when they are refined (every
chance to a tenth), from a thread of their own; a printed board waits for the refined ones."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from typing import Any

import numpy as np
import pytest
from rich.console import RenderableType

from horserace.core.chance import SeededChance
from horserace.engine import Step, play
from horserace.families.derby import live_odds
from horserace.families.derby.family import FAMILY
from horserace.families.derby.render import percent, to_plain
from horserace.families.derby.rules.model import DerbyPhase, DerbyState, DerbyView
from horserace.families.derby.sampled_odds import HALF_TENTH, TENTH, PlaceOdds, widest_interval
from horserace.families.derby.screen import DerbyScreen
from horserace.terminal.tui.overlays import HelpScreen
from tests.terminal.tables import Table

pytestmark = pytest.mark.precise_derby_odds


class _There(Exception):
    """The game is where the test looks."""


def mid_race(seed: int, turn: int = 3) -> tuple[DerbyScreen, DerbyState]:
    """A seeded table of bots stopped at the start of its first race's `turn`."""
    t = Table("derby", seed)

    def observe(step: Step) -> None:
        race = step.after.race
        if step.after.phase is DerbyPhase.RACE and race.turn == turn and not race.dice:
            raise _There

    with contextlib.suppress(_There):
        play(t.game, t.agents, SeededChance(seed), observe=observe)
    assert isinstance(t.screen, DerbyScreen)
    t.screen.game = t.game
    return t.screen, t.game.state


class Boards:
    """The full screen as the screen sees it: the boards drawn, and an event once one is drawn
    again from the odds' thread."""

    def __init__(self) -> None:
        self.drawn: list[str] = []
        self.again = threading.Event()

    def board(self, renderable: RenderableType) -> None:
        self.drawn.append(to_plain(renderable, 120))

    def redraw(self, renderable: RenderableType) -> None:
        self.board(renderable)
        self.again.set()

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the odds draw boards only, not {name}")


def precise(odds: PlaceOdds, within: float = TENTH) -> None:
    counts = np.array([[round(p * odds.samples) for p in row] for row in odds.chances])
    assert widest_interval(counts, odds.samples) <= within


def win_cells(board: str, odds: PlaceOdds, rough: bool) -> list[str]:
    """The win chances the board should show, each on its horse's line, missing from it."""
    lines = board.splitlines()
    missing = []
    for horse in odds.horses:
        cell = percent(odds.win(horse), rough, odds.to_a_tenth(horse, 1)).strip()
        if not any(
            line.split()[:1] == [str(horse)] and f" {cell} " in line + " " for line in lines
        ):
            missing.append(f"{horse}: {cell}")
    return missing


def test_the_full_screen_shows_rough_odds_at_once_then_draws_the_precise_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live_odds, "LIVE", live_odds.LiveOdds())  # nothing worked out yet
    table, state = mid_race(21)
    boards = Boards()
    table.display = boards
    view = table.view(state)
    quick = live_odds.quick_odds(live_odds.odds_key(view))
    assert quick is not None and quick.rough
    first = to_plain(table.current(), 120)
    assert win_cells(first, quick, rough=True) == []  # ~12: whole percents, marked
    assert "~ odds being refined" in first
    assert boards.again.wait(300)  # the board is drawn again once the precise odds are in
    live_odds.LIVE.settle()  # and refined
    odds = live_odds.LIVE.odds(view)
    assert odds is not None and not odds.rough and odds.all_to_a_tenth
    precise(odds, HALF_TENTH)
    for _ in range(3000):  # the board drawn again with them, from the odds' thread
        again = boards.drawn[-1]
        if win_cells(again, odds, rough=False) == []:  # 12.3: to a tenth
            break
        time.sleep(0.1)
    assert win_cells(again, odds, rough=False) == []
    assert "~" not in again and "whole %" not in again


def test_a_printed_board_waits_for_the_precise_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_odds, "LIVE", live_odds.LiveOdds())
    table, state = mid_race(22)
    board = to_plain(table.render(state), 120)
    odds = live_odds.LIVE.odds(table.view(state))
    assert odds is not None and not odds.rough and odds.all_to_a_tenth
    precise(odds, HALF_TENTH)
    assert win_cells(board, odds, rough=False) == []
    assert "~" not in board


def help_rows(odds: PlaceOdds) -> tuple[str, list[str]]:
    """The help overlay over the table with these odds, and its win chances: each as the board
    prints it, on its horse's line."""
    shown = live_odds.shown(odds)
    plain = HelpScreen("", shown).plain()
    cells = [percent(odds.win(h), odds.rough, odds.to_a_tenth(h, 1)).strip() for h in odds.horses]
    for horse, cell in zip(odds.horses, cells, strict=True):
        assert re.search(rf"^{horse} +{re.escape(cell)}$", plain, re.MULTILINE), (cell, plain)
    return plain, cells


def precise_step(view: DerbyView) -> PlaceOdds | None:
    """The live odds once their precise step is in (asked for already), before they are
    refined: read on the odds' thread as it says they are in, before it goes on to refine."""
    caught: list[PlaceOdds | None] = []
    came = threading.Event()

    def precise_in() -> None:
        caught.append(live_odds.LIVE.odds(view))
        came.set()

    odds = live_odds.LIVE.odds(view, precise_in)
    if odds is not None and odds.rough:
        assert came.wait(300)
        odds = caught[0]
    return odds


def test_the_help_shows_each_live_chance_with_the_digits_it_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The quick estimate in whole percents marked ~, the precise one to a tenth only where
    its own interval is within half a tenth, the refined one all to a tenth."""
    monkeypatch.setattr(live_odds, "LIVE", live_odds.LiveOdds())
    table, state = mid_race(23, turn=8)  # some horses behind: small chances
    view = table.view(state)
    key = live_odds.odds_key(view)
    quick = live_odds.quick_odds(key)
    assert quick is not None and quick.rough
    assert FAMILY.shown_odds(view) == live_odds.shown(quick)  # what the help asks for at once
    plain, cells = help_rows(quick)
    assert all(cell.startswith("~") and "." not in cell for cell in cells)
    assert "~ odds being refined" in plain
    odds = precise_step(view)  # the live odds' first step, as the help shows it
    assert odds is not None and not odds.all_to_a_tenth
    plain, cells = help_rows(odds)
    tenths = {cell for cell in cells if "." in cell}
    assert tenths and len(tenths) < len(cells)  # some to a tenth, the others whole
    assert "whole % being refined" in plain and "~" not in plain
    live_odds.LIVE.settle()  # the live odds worked out and refined, as the help asked
    refined = live_odds.LIVE.odds(view)
    assert refined is not None and refined.all_to_a_tenth
    plain, cells = help_rows(refined)
    assert all("." in cell or cell == "<0.1" for cell in cells if cell != "-")
    assert "being refined" not in plain
