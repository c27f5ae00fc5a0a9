"""What the full screen looks like: each preset's table of bots stopped at a fixed step and a
person's Advanced hand at a question (80x24 and 120x40, dark and light; 60x20 and 160x48 as a
Calcutta's auction too), a Derby of 20 horses drawn compact, the help open, and a real table's
books kept (companion mode). Update on purpose with `pytest tests/terminal --snapshot-update`
and look at the pictures it writes before committing them."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension  # type: ignore[import-untyped]
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot
from textual.widgets import Input

from horserace.families.derby import live_odds
from horserace.families.derby.rules.model import DerbyView
from horserace.families.derby.sampled_odds import PlaceOdds
from horserace.terminal.tui.app import TableApp
from horserace.terminal.tui.overlays import HelpScreen
from horserace.terminal.tui.theme import theme_name
from tests.terminal.pilot import asking, enter, pick_first, press, run, settled, until
from tests.terminal.tables import still_table, table

# each preset with a look of its own, as a table of bots stopped at a fixed step (Northwoods in
# its first race, Calcutta mid-race); Advanced's own look, a person's hand, is a question open
# below, and Scarne draws Basic's course shorter
TABLES = {"classic": 150, "northwoods": 120, "basic": 60, "calcutta": 75, "derby": 120}
SIZES = {"60x20": (60, 20), "80x24": (80, 24), "120x40": (120, 40), "160x48": (160, 48)}
# the pictures of a still table at each size and theme, and of a Derby of 20 horses
STILL = [("80x24", "dark"), ("80x24", "light"), ("120x40", "dark"), ("120x40", "light")]
SMALLEST = ("60x20", "dark")  # the dice boards' too
BIG_DERBY = [("80x24", "dark"), ("80x24", "light")]
pytestmark = pytest.mark.precise_derby_odds  # the Derby's pictures show them


class LastBoardOdds(live_odds.LiveOdds):
    """The Derby's odds as a still table shows them: the refined odds of the last board (the
    screen's `settle` asks for them), and nothing worked out for the boards the bots played
    through on the way there (none of them is in the picture; each cost seconds of CPU)."""

    def odds(self, view: DerbyView, ready: Any = None) -> PlaceOdds | None:
        return self._looked_up(live_odds.odds_key(view))


LAST_BOARD_ODDS = LastBoardOdds()  # kept from one picture to the next, as the table's are


@pytest.fixture(autouse=True)
def _last_board_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_odds, "LIVE", LAST_BOARD_ODDS)


def one_table(name: str) -> pytest.MarkDecorator:
    """The tests of one table's pictures run by one worker, which plays the table once."""
    return pytest.mark.xdist_group(f"the pictures of {name}")


@functools.cache
def still_pictures(
    preset: str, steps: int, shots: tuple[tuple[str, str], ...], players: int | None = None
) -> dict[tuple[str, str], str]:
    """A table of bots stopped after `steps` steps (`still_table`), pictured at each size and
    theme of `shots`, the terminal resized and the theme changed between two pictures: each
    the same picture as an app started at that size and theme (the snapshots were taken so),
    at one game's cost (a Derby's: its last board's odds worked out once)."""
    options: dict[str, object] | None = None if players is None else {"players": players}
    app, there = still_table(preset, steps, theme=shots[0][1], options=options)
    pictures: dict[tuple[str, str], str] = {}

    async def scenario() -> None:
        async with app.run_test(size=SIZES[shots[0][0]]) as pilot:
            await until(pilot, there.is_set)
            pictures.update(await pictured(pilot, app, shots))
            app.exit()

    run(scenario)
    return pictures


def family_pictures(preset: str) -> dict[tuple[str, str], str]:
    dice = preset in ("classic", "northwoods")
    return still_pictures(preset, TABLES[preset], (*STILL, *([SMALLEST] if dice else [])))


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("size", ["80x24", "120x40"])
@pytest.mark.parametrize("preset", [pytest.param(p, marks=one_table(p)) for p in sorted(TABLES)])
def test_family_screen(snapshot: SnapshotAssertion, preset: str, size: str, theme: str) -> None:
    picture = family_pictures(preset)[size, theme]
    assert snapshot.use_extension(SVGImageExtension) == picture


@pytest.mark.parametrize(
    "preset", [pytest.param(p, marks=one_table(p)) for p in ("classic", "northwoods")]
)
def test_a_dice_board_mid_race_at_60x20(snapshot: SnapshotAssertion, preset: str) -> None:
    """The smallest screen with no question open: the board drawn compact, a scratched lane
    saying what it pays ('pays 3'), each running lane its chance."""
    picture = family_pictures(preset)[SMALLEST]
    assert snapshot.use_extension(SVGImageExtension) == picture


@one_table("a Derby of 20 horses")
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_derby_of_20_horses_at_80x24(snapshot: SnapshotAssertion, theme: str) -> None:
    """Two columns of horses, each lane drawn to the columns left (mid-race, its fourth turn)."""
    picture = still_pictures("derby", 100, tuple(BIG_DERBY), players=20)["80x24", theme]
    assert snapshot.use_extension(SVGImageExtension) == picture


@pytest.mark.parametrize(("size", "theme"), [("80x24", "dark"), ("120x40", "light")])
def test_the_books_of_a_real_table(snap_compare: Any, size: str, theme: str) -> None:
    """Companion mode: three cards typed in, the fourth asked for (Ctrl-Z in the footer)."""
    app, game, _ = table("classic", theme=theme, companion=True)

    async def settle(pilot: Pilot[Any]) -> None:
        for card in ("deal 2", "deal 5", "deal 12"):
            await until(pilot, lambda: asking(app))
            await enter(pilot, app, game, card)
        await until(pilot, lambda: asking(app))
        app.query_one("#answer", Input).cursor_blink = False  # the same picture every time
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=settle)


# a person's table, and how many questions are answered (the first option) before the picture
ASKING: dict[str, tuple[dict[str, Any], int]] = {
    "advanced": ({"humans": [0], "options": {"players": 4, "rounds": 1}}, 3),  # the draft
    "calcutta": ({"humans": [0]}, 0),  # the auction's bid field
}
# each table's question pictured at these sizes and themes (the first: the size it starts at):
# every size, the smallest (the dice board drawn tight) and a wide one (the log beside)
AT_A_QUESTION: dict[str, list[tuple[str, str]]] = {
    "advanced": [
        ("80x24", "dark"),
        ("80x24", "light"),
        ("120x40", "dark"),
        ("120x40", "light"),
        ("60x20", "dark"),
        ("160x48", "dark"),
    ],
    "calcutta": [("80x24", "dark"), ("60x20", "dark"), ("160x48", "dark")],
}
HELP_OPEN = [("80x24", "dark"), ("120x40", "light")]  # over Advanced's question


@functools.cache
def pictures_at_a_question(preset: str, help: bool = False) -> dict[tuple[str, str], str]:
    """`preset`'s table played once to its question, then pictured at each size and theme of
    AT_A_QUESTION (with the help open over it, if `help`: HELP_OPEN), the screen resized and
    its theme changed between two pictures: each the same picture as an app started at that
    size and theme (the snapshots were taken so), at one game's cost."""
    kwargs, answers = ASKING[preset]
    shots = HELP_OPEN if help else AT_A_QUESTION[preset]
    app, game, _ = table(preset, theme=shots[0][1], **kwargs)
    pictures: dict[tuple[str, str], str] = {}

    async def scenario() -> None:
        async with app.run_test(size=SIZES[shots[0][0]]) as pilot:
            for _ in range(answers):
                await until(pilot, lambda: asking(app))
                await pick_first(pilot, app, game)
            await until(pilot, lambda: asking(app))
            app.query_one("#answer", Input).cursor_blink = False  # the same picture every time
            if help:
                await press(pilot, "?")
                await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            pictures.update(await pictured(pilot, app, shots))
            await press(pilot, "ctrl+c")

    run(scenario)
    return pictures


async def pictured(
    pilot: Pilot[Any], app: TableApp, shots: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], str]:
    """The screen at each size and theme of `shots`, resized and its theme changed between two
    pictures."""
    pictures: dict[tuple[str, str], str] = {}
    for size, theme in shots:
        app.theme = theme_name(theme)
        await pilot.resize_terminal(*SIZES[size])
        await settled(pilot, app)
        pictures[size, theme] = await screenshot(pilot)
    return pictures


async def screenshot(pilot: Pilot[Any]) -> str:
    """The picture as `snap_compare` takes it (textual._doc.take_svg_screenshot): once the
    app's messages and animations are done."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    return pilot.app.export_screenshot(title=pilot.app.title, simplify=True)


@pytest.mark.parametrize(
    ("preset", "size", "theme"),
    [
        pytest.param(preset, size, theme, marks=one_table(f"{preset}'s question"))
        for preset, shots in AT_A_QUESTION.items()
        for size, theme in shots
    ],
)
def test_a_question_open(snapshot: SnapshotAssertion, preset: str, size: str, theme: str) -> None:
    picture = pictures_at_a_question(preset)[size, theme]
    assert snapshot.use_extension(SVGImageExtension) == picture


@one_table("the help over a question")
@pytest.mark.parametrize(("size", "theme"), HELP_OPEN)
def test_the_help_open(snapshot: SnapshotAssertion, size: str, theme: str) -> None:
    picture = pictures_at_a_question("advanced", help=True)[size, theme]
    assert snapshot.use_extension(SVGImageExtension) == picture
