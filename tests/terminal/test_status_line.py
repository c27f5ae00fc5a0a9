"""A status line too long for the screen goes on on the next line between two of its parts, so
that nothing on it is cut at 80 columns (the Schellenberg market, a debt, the last dice)."""

from __future__ import annotations

import contextlib

from horserace.components.cards import hand_text
from horserace.core.chance import SeededChance
from horserace.core.types import TERMINAL
from horserace.engine import Step, play
from horserace.families.board.render import BoardInfo, render_board, status_line
from horserace.families.board.rules.view import BoardView
from horserace.terminal.screen import status_parts, to_plain
from tests.terminal.tables import Table

BOARD = 79  # the board's columns at 80x24, less its scrollbar
PARTS = [
    ("classic ", "bold"),
    ("round 1/2", "bold"),
    ("race, roll 25", "cyan"),
    ("pot 198", "bold yellow"),
    ("dealer P1", ""),
    ("next P1", "bold"),
    ("dice 2+3=5", "bold"),
    ("market 6 6 7 8 8 8 8 8 Q", "italic"),
]


def test_a_long_status_goes_on_between_two_parts_and_a_short_one_stays_on_one_line() -> None:
    assert to_plain(status_parts(PARTS), BOARD).splitlines() == [
        "classic round 1/2 · race, roll 25 · pot 198 · dealer P1 · next P1 · dice 2+3=5",
        "market 6 6 7 8 8 8 8 8 Q",
    ]
    whole = "classic round 1/2 · " + " · ".join(text for text, _ in PARTS[2:])
    assert to_plain(status_parts(PARTS), 120).splitlines() == [whole]


class _There(Exception):
    """The race is where the test looks."""


def test_the_market_and_the_last_dice_show_whole_at_80_columns() -> None:
    t = Table("classic", options={"rounds": 1, "market": True})
    seen: list[BoardView] = []

    def observe(step: Step) -> None:
        view: BoardView = t.game.rules.view(step.after, None)
        if view.market and view.race_rolls > 10:
            seen.append(view)
            raise _There

    with contextlib.suppress(_There):
        play(t.game, t.agents, SeededChance(7), observe=observe)
    view = seen[0]
    names = [f"P{seat + 1}" for seat in range(t.game.config.players)]
    info = BoardInfo(names, last_dice=(2, 3), title="classic")
    shown = to_plain(render_board(view, info), BOARD)
    assert view.market is not None
    assert "dice 2+3=5" in shown and f"market {hand_text(view.market)}" in shown, shown


def test_between_two_rounds_the_status_says_the_race_is_paid_not_the_game_over() -> None:
    """The status said 'round 2/8 · game over' between two rounds (the payout's phase); it says
    'race won, paying out' there, and 'game over' only once the game is."""
    t = Table("classic", options={"rounds": 2})
    game = t.new_game()
    said: list[tuple[bool, str]] = []

    def status(step: Step) -> None:
        view: BoardView = game.rules.view(step.after, None)
        text = to_plain(status_line(view, BoardInfo(names=t.setup.names)), 200)
        said.append((game.rules.actor(step.after) is TERMINAL, text))

    play(game, t.agents, SeededChance(t.setup.seed), observe=status)
    paying = [text for over, text in said if "race won, paying out" in text]
    assert paying and not [text for over, text in said if "game over" in text and not over]
    assert said[-1][0] and "game over" in said[-1][1]
