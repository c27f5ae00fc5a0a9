"""Keeping the books of a real board on the full screen: the dice and cards typed in, Ctrl-Z
withdrawing the last entry as a new line of the record, and a stopped record going on where it
ended, its deal numbered on from where it stopped."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from horserace.core.record import read_record
from horserace.drivers.cli.resume import Resumable, catch_up
from horserace.engine import UNDO, Game
from horserace.terminal.tui.app import QUIT, TableApp
from horserace.terminal.tui.run import table_app
from tests.terminal.pilot import asking, enter, on_screen, press, question, run, said, until
from tests.terminal.tables import Table


async def asked(pilot: Pilot[str], app: TableApp, words: str) -> None:
    await until(pilot, lambda: asking(app) and words in question(app))


def books(t: Table, game: Game) -> TableApp:
    return table_app(game, t.agents, t.chance(), t.screen, t.finish, t.help, "dark")


def test_ctrl_z_withdraws_the_last_card_typed_in_as_a_new_line_of_the_record() -> None:
    t = Table("classic", companion=True)
    app, game = books(t, t.game), t.game

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await asked(pilot, app, "P2's hand, 14 cards (card 1/84 next)")
            await until(pilot, lambda: "^z undo last entry" in on_screen(app))  # in the footer
            await enter(pilot, app, game, "deal 2")
            await enter(pilot, app, game, "deal 5")
            await asked(pilot, app, "P4's hand, 14 cards (card 3/84 next)")
            await press(pilot, "ctrl+z")
            await asked(pilot, app, "P3's hand, 14 cards (card 2/84 next)")
            assert "undone: deal 5; type it again" in said(app)
            actions = [step.action for step in game.record().steps]
            assert actions == ["deal 2", "deal 5", UNDO]  # nothing erased: an undo line added
            assert [sum(hand) for hand in game.state.cards.hands][:3] == [0, 1, 0]  # the 5 is back
            await enter(pilot, app, game, "deal 7")
            await asked(pilot, app, "P4's hand, 14 cards (card 3/84 next)")
            await press(pilot, "ctrl+c")
        assert app.return_value == QUIT

    run(scenario)


def test_a_stopped_record_goes_on_on_the_full_screen_numbering_its_deal_on(
    tmp_path: Path,
) -> None:
    first = Table("classic", companion=True)
    app, game = books(first, first.game), first.game

    async def typing() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await asked(pilot, app, "card 1/84 next")
            for card in ("deal 2", "deal 3", "deal 4"):
                await enter(pilot, app, game, card)
            await press(pilot, "ctrl+c")

    run(typing)
    path = tmp_path / "books.jsonl"
    game.record().write(path)

    again = Table("classic", companion=True)
    record = read_record(path)
    resumed = catch_up(
        Resumable(path, record, again.setup.config, again.setup.seed),
        again.agents,
        again.chance(),
        frozenset(),
    )
    app = books(again, resumed)

    async def going_on() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await asked(pilot, app, "P5's hand, 14 cards (card 4/84 next)")
            assert not any("deals 84 cards" in line for line in said(app))  # not dealt again
            await press(pilot, "ctrl+z")
            await asked(pilot, app, "P4's hand, 14 cards (card 3/84 next)")
            await enter(pilot, app, resumed, "deal 9")
            await asked(pilot, app, "P5's hand, 14 cards (card 4/84 next)")
            await press(pilot, "ctrl+c")

    run(going_on)
    assert [step.action for step in resumed.record().steps] == [
        "deal 2",
        "deal 3",
        "deal 4",
        UNDO,
        "deal 9",
    ]
