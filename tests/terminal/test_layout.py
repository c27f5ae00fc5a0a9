"""At 80x24 with a question open, every family's screen shows what a player needs without
scrolling: every lane, every seat with its money (and its cards on the dice board), the seat's
own hand and the question; the log gives way first. A resize lays the screen out anew."""

from __future__ import annotations

import contextlib
import difflib
import re
from typing import Any

import pytest
from textual.pilot import Pilot

from horserace.core.events import seat_name
from horserace.core.words import counted
from horserace.engine import Game
from horserace.families.board.news import money_text
from horserace.families.board.render import hand_cells, lane_odds, line_of
from horserace.families.cards.render import board_odds
from horserace.families.derby.rules.model import DerbyPhase
from horserace.terminal.tui.app import TableApp
from horserace.terminal.tui.panels import GameLog
from tests.terminal.pilot import (
    asking,
    enter,
    holding,
    on_screen,
    pick_first,
    press,
    question,
    run,
    settled,
    until,
)
from tests.terminal.tables import table

# the table, and how many questions are answered (each with its first option) before looking
TABLES: dict[str, tuple[dict[str, Any], int]] = {
    "classic": ({"companion": True}, 0),  # no decisions: the dice typed in are the question
    "northwoods": ({"companion": True}, 0),
    "advanced": ({"humans": [0], "options": {"players": 6, "rounds": 1}}, 4),  # 4 cards drafted
    "basic": ({"humans": [2]}, 0),
    "calcutta": ({"humans": [0]}, 1),
    "derby": ({"humans": [0]}, 2),  # past the silk and the horse: the lanes show
}
# the Derby's biggest fields (20 horses in two columns): 20 seats picking and wagering, and the
# house running the horses nobody owns
BIG_FIELDS: dict[str, tuple[dict[str, Any], int]] = {
    "20 seats picking": ({"humans": [0], "options": {"players": 20}}, 0),
    "20 seats wagering": ({"humans": [0], "options": {"players": 20}}, 2),
    "20 horses, 2 seats": ({"humans": [0], "options": {"players": 2, "all_horses": True}}, 2),
}


def percent(chance: float) -> str:
    """A chance as the boards write it, as a regular expression."""
    return re.escape("<0.1%" if 0 < chance < 0.0005 else f"{chance * 100:.1f}%")


def needs(game: Game, text: str) -> list[str]:
    """What must be on the screen that is missing from `text`: a lane per horse, each seat with
    its money (and, on the dice board, its number of cards), and the viewer's own hand."""
    view: Any = game.rules.view(game.state, 0 if game.preset != "classic" else None)
    names = [f"P{seat + 1}" for seat in range(game.rules.players(game.config))]
    wanted: list[str] = []  # regular expressions, each to match one line of the screen
    you = r"(?: \(you\))?"
    if game.preset in ("classic", "advanced", "northwoods"):
        odds = lane_odds(view)
        for horse in range(2, 13):  # its lane, drawn in full or tight, with its chance if known
            shown = odds is not None and horse in odds and not line_of(view, horse)
            chance = ".*" + percent(odds[horse]) if odds is not None and shown else ""
            wanted.append(rf"(?:│\s*{horse} │|(?:^|\s){horse} +(?:\d+/\d+|line \d)){chance}")
        for seat, name in enumerate(names):
            money = re.escape(money_text(view.config.money, view.chips[seat]))
            cards = counted(view.hand_sizes[seat], "card")
            wanted.append(rf"{name}{you} {money} · {cards}")
        if game.preset == "advanced":
            wanted.append(r"your hand \(P1\): " + re.escape(hand_cells(view, 0).plain))
    elif game.preset in ("basic", "calcutta"):
        odds, _ = board_odds(view)
        for suit, label in enumerate(("♣ clubs", "♦ diamonds", "♥ hearts", "♠ spades")):
            chance = "" if odds is None or suit not in odds else ".*" + percent(odds[suit])
            wanted.append(rf"{label}\s+●{chance}")
        dealer = r"(?: \(dealer\))?"
        wanted += [
            rf"{name}{you}{dealer} {chips}\b" for name, chips in zip(names, view.chips, strict=True)
        ]
    elif view.phase is DerbyPhase.SELECT and not any(view.silks):  # the seats, in two columns
        for seat, name in enumerate(names):  # if need be: a line's start, or after the │
            wanted.append(rf"(?:^|│)[▶ ]\s*{name}{you}\s[^│]*\${view.money[seat]}\b")
    else:
        for horse in sorted({*view.field, *view.scratched}):
            owner = view.owner(horse)
            rider = "house" if owner is None else seat_name(names, owner) + r"(?: ?\*)?"
            money = "" if owner is None else rf"\s[^│]*\b{view.money[owner]}\b"
            wanted.append(rf"(?:^|│)\s*{horse}\s+{rider}{money}")
    return [pattern for pattern in wanted if not re.search(pattern, text, re.MULTILINE)]


async def fits(pilot: Pilot[str], app: TableApp, game: Game) -> None:
    asked = question(app)[:40]

    def laid_out() -> bool:  # once the last change is laid out (later on a busy machine)
        text = on_screen(app)
        board = app.query_one("#board")
        return not needs(game, text) and board.max_scroll_y == 0 and asked in text

    with contextlib.suppress(AssertionError):  # said below, in detail
        await until(pilot, laid_out)
    text = on_screen(app)
    assert needs(game, text) == []
    assert app.query_one("#board").max_scroll_y == 0  # nothing of the board scrolled away
    assert asked in text, text  # the question (its start: a long one is wrapped)


SMALLEST = {"advanced", "calcutta", "derby"}  # each family's screen: the dice board's, the cards'


@pytest.mark.parametrize("preset", sorted(TABLES))
def test_80x24_shows_every_lane_seat_and_the_own_hand_with_a_question_open(preset: str) -> None:
    """And at 60x20, the smallest screen, once resized to it: the dice board drawn tight (a lane
    in a few cells, three to a line) keeps every seat's money and the own hand above the
    question; a card race's seats go on the next line whole ('P5 150', not 'P5' and '150')."""
    kwargs, answers = TABLES[preset]
    sizes = [(80, 24), *([(60, 20)] if preset in SMALLEST else [])]
    at_80x24(table(preset, **kwargs)[:2], answers, sizes)


@pytest.mark.parametrize("case", sorted(BIG_FIELDS))
def test_80x24_shows_a_derby_of_20_horses_in_two_columns(case: str) -> None:
    kwargs, answers = BIG_FIELDS[case]
    at_80x24(table("derby", **kwargs)[:2], answers)


def test_80x24_shows_a_derby_race_of_20_horses_with_its_dice_typed_in() -> None:
    """A real table's race (the dice typed in): every horse's lane, seat and money in view."""
    app, game, _ = table("derby", companion=True, options={"players": 20})

    def typed() -> str:  # an answer to every die the race asks for
        asked = question(app)
        if "mud die" in asked:
            return "shoe"
        if "odds die" in asked or "accelerator" in asked:
            return str(len(game.steps) % 3 + 1)
        return str(len(game.steps) % 20 + 1)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            while (race := game.state.race) is None or race.turn < 2:  # a turn run: lanes moved
                await until(pilot, lambda: asking(app))
                await enter(pilot, app, game, typed())
            await until(pilot, lambda: asking(app))
            await fits(pilot, app, game)
            await press(pilot, "ctrl+c")

    run(scenario)


def at_80x24(
    played: tuple[TableApp, Game], answers: int, sizes: list[tuple[int, int]] | None = None
) -> None:
    """After `answers` questions answered with their first option, the next one fits at 80x24
    (or each of `sizes` in turn, the screen resized to the next)."""
    app, game = played
    first, *then = sizes or [(80, 24)]

    async def scenario() -> None:
        async with app.run_test(size=first) as pilot:
            for _ in range(answers + 1):
                await until(pilot, lambda: asking(app) or holding(app) is not None)
                assert holding(app) is None
                if _ < answers:
                    await pick_first(pilot, app, game)
            await fits(pilot, app, game)
            for size in then:
                await pilot.resize_terminal(*size)
                await fits(pilot, app, game)
            await press(pilot, "ctrl+c")

    run(scenario)


def test_a_resize_to_80x24_and_back_lays_the_screen_out_anew() -> None:
    app, game, _ = table("advanced", humans=[0], options={"players": 6, "rounds": 1})

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(3):
                await until(pilot, lambda: asking(app))
                await pick_first(pilot, app, game)
            await until(pilot, lambda: asking(app))
            roomy = await settled(pilot, app)
            assert "│lane│gate" in roomy and "4 cards (hidden)" in roomy  # drawn in full
            assert app.query_one(GameLog).display
            await pilot.resize_terminal(80, 24)
            await fits(pilot, app, game)
            assert "│lane│gate" not in on_screen(app)  # drawn compact
            await pilot.resize_terminal(120, 40)
            with contextlib.suppress(AssertionError):  # said below, in detail
                await until(pilot, lambda: on_screen(app) == roomy)
            again = on_screen(app)
            diff = difflib.unified_diff(roomy.splitlines(), again.splitlines(), lineterm="")
            assert again == roomy, "\n".join(diff)
            await press(pilot, "ctrl+c")

    run(scenario)
