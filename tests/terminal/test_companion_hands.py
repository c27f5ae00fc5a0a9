"""Keeping the books of a real board at table speed: on the full screen each hand of the deal
typed in one line and shown as typed, a bad line refused in one line, an undo taking the last
line back whole, the scratch dice given by their sum alone, with the chips they make; the record
still has a step per card. In printed lines, the same round to its end and its standings."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from horserace.engine import UNDO
from horserace.terminal.tui.choice_panel import AnswerField
from tests.terminal.pilot import asking, on_screen, press, question, run, said, until
from tests.terminal.tables import Table
from tests.terminal.test_books import asked, books
from tests.unit.test_play_cli import invoke, standings

P2 = "2 2 2 2 3 3 3 3 4 4 4 4 5 5"
P3 = "5 5 6 6 6 6 7 7 7 7 8 8 8 8"
P1 = "9 9 9 9 10 10 10 10 J J J J Q Q"


def test_a_deal_typed_a_hand_a_line_and_the_scratch_by_its_sums() -> None:
    t = Table("classic", companion=True, options={"players": 3, "rounds": 1})
    app, game = books(t, t.game), t.game

    async def line(pilot: Pilot[str], text: str) -> None:
        await press(pilot, *text, "enter")

    async def pasted(pilot: Pilot[str], text: str) -> None:
        """A long line put in the answer field at once, as pasted."""
        app.query_one(AnswerField).value = text
        await press(pilot, "enter")

    async def scenario() -> None:
        async with app.run_test(size=(80, 30)) as pilot:
            await asked(pilot, app, "P2's hand, 14 cards (card 1/42 next)")
            await pasted(pilot, "2 2 2 2 3 3 3 3 4 4 4 4 5 5 6")  # one card too many
            await until(
                pilot, lambda: asking(app) and any("P2 gets 14 more" in s for s in said(app))
            )
            await pasted(pilot, P2)
            await asked(pilot, app, "P3's hand, 14 cards (card 2/42 next)")
            assert P2 in on_screen(app)  # shown as typed, 13 of its cards not dealt yet
            await line(pilot, "undo")  # the whole line back
            await asked(pilot, app, "P2's hand, 14 cards (card 1/42 next)")
            assert f"undone: P2's hand ({P2}); type it again" in said(app)
            await pasted(pilot, P2)
            await asked(pilot, app, "P3's hand, 14 cards (card 2/42 next)")
            await line(pilot, "q 2 5")  # q is the Queen here; the pack has no 2 left
            await until(pilot, lambda: asking(app) and any("no 2 is left" in s for s in said(app)))
            await pasted(pilot, P3.replace("5 5", "5h 5c"))  # a suit is read and ignored
            await asked(pilot, app, "P1's hand, 14 cards (card 3/42 next)")
            await pasted(pilot, P1)
            for total in ("7", "4+4", "6", "5"):  # the scratches: 7, 8, 6 and 5
                await until(pilot, lambda: asking(app) and "rolls" in question(app))
                await line(pilot, total)
            await until(pilot, lambda: asking(app) and "P3 rolls" in question(app))
            await press(pilot, "ctrl+c")

    run(scenario)
    # 7, 8, 6 scratched to lines 1-3 cost P3 4, 8 and 12; 5 to line 4 costs P2 and P3 2 x 4
    assert list(game.state.ledger.balances) == [100, 92, 68, 40]  # the seats, then the pot
    actions = [step.action for step in game.record().steps]
    deals = [a for a in actions[actions.index(UNDO) + 1 :] if a.startswith("deal")]
    assert len(deals) == 42 and deals[:6] == ["deal 2", "deal 5", "deal 9"] * 2
    assert actions[:2] == ["deal 2", UNDO]  # the undone line's one dealt card, withdrawn
    assert [a for a in actions if "+" in a] == ["1+6", "4+4", "1+5", "1+4"]


def test_a_round_typed_in_printed_lines_ends_with_the_chips_it_makes(tmp_path: Path) -> None:
    options = ["--players", "3", "--rounds", "1", "--companion", "--names", "Ann,Bob,Cy"]
    lines = [P2, P3, P1, "7", "8", "6", "5", "12", "12", "12"]  # Bob's hand first: Ann deals
    options += ["--record", str(tmp_path / "books.jsonl")]
    code, out, _ = invoke("classic", *options, stdin="\n".join(lines) + "\n")
    assert code == 0, out
    # 12 wins: the pot of 40 pays 10 a Queen, and Ann holds two
    assert "Horse 12 wins: pot 40 pays 10 a card: Ann +20; 20 stay in the pot" in out
    assert standings(out) == ({"Ann": 120, "Bob": 92, "Cy": 68}, 20)
