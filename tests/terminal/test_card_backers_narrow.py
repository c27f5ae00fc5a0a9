"""A card race at 60 columns: the lanes' table is wider than the screen, so its last column (the
owners, the book's bettors) goes under the lanes as a line of its own instead of past the edge;
at 80 columns it stays a column of the table."""

from __future__ import annotations

import contextlib

from horserace.core.chance import SeededChance
from horserace.engine import Step, play
from horserace.families.cards.render import BoardInfo, board_odds, render_board, to_plain
from tests.terminal.tables import Table


class _Enough(Exception):
    pass


def calcutta_mid_race() -> tuple[str, str, list[str]]:
    """A Calcutta's board after its auction, at 60 and 80 columns, and each suit's owner."""
    table = Table("calcutta")
    game = table.game

    def observe(step: Step) -> None:
        if len(game.steps) >= 75:
            raise _Enough

    with contextlib.suppress(_Enough):
        play(game, table.agents, SeededChance(7), observe=observe)
    view = game.rules.view(game.state, 0)
    names = [f"P{seat + 1}" for seat in range(len(view.chips))]
    odds, note = board_odds(view)
    info = BoardInfo(names, "calcutta", odds, note, (), frozenset({0}))
    owners = view.auction.owners
    sold = [f"{names[o]} ({view.auction.prices[s]})" for s, o in enumerate(owners) if o is not None]
    board = render_board(view, info, compact=True)
    return to_plain(board, 60), to_plain(board, 80), sold


def test_a_calcutta_shows_every_owner_at_60_columns() -> None:
    narrow, wide, sold = calcutta_mid_race()
    assert len(sold) == 4  # every suit bought: four owners to show
    owners = [line for line in narrow.splitlines() if line.startswith("owner:")]
    assert len(owners) == 1 and all(owner in owners[0] for owner in sold), narrow
    assert all(len(line) <= 60 for line in narrow.splitlines())
    assert "owner:" not in wide and all(owner in wide for owner in sold)  # a column at 80
