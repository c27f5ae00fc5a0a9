"""Robertson's four dice on the web board: while the roller pairs them, the seat pairing is the
one marked (the view's roller names the next roller already), as the terminal's ▶ does. The
board script draws a real view of a seeded game, sent as the server sends it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from horserace.core.chance import SeededChance
from horserace.drivers.server.jsonable import to_jsonable
from horserace.engine import Game
from horserace.families.presets import get_preset
from tests.web.support import new_page

STATIC = Path(__file__).resolve().parents[2] / "src/horserace/drivers/server/static"


def _pairing_view() -> tuple[dict[str, Any], int]:
    """A seeded Robertson game played up to its first four dice; the view and the seat pairing."""
    preset = get_preset("classic")
    config = preset.table_config({"robertson": True, "rounds": 1})
    game = Game("classic", preset.rules, config, seed=3, chance_mode="seeded")
    chance = SeededChance(3)
    while not preset.rules.view(game.state, None).four_dice:
        actor = game.actor
        if isinstance(actor, int):
            game.act(actor, preset.rules.legal_actions(game.state, actor)[0])
        else:
            game.apply(chance.choose(preset.rules, game.state))
    pairing = game.actor
    assert isinstance(pairing, int)
    view = to_jsonable(preset.rules.view(game.state, pairing))
    assert isinstance(view, dict) and view["roller"] != pairing  # the view names the next
    return view, pairing


def test_the_web_board_marks_the_seat_pairing_the_four_dice(browser: Browser) -> None:
    view, pairing = _pairing_view()
    names = [f"P{seat + 1}" for seat in range(len(view["chips"]))]
    page = new_page(browser)
    page.set_content('<div id="board"></div>')
    for script in ("common.js", "board.js"):  # as the table page loads them
        page.add_script_tag(path=str(STATIC / script))
    info = {"family": "board", "names": names, "actor": pairing, "unit": "chips"}
    page.evaluate(
        "([view, info]) => Board.draw(document.getElementById('board'), view, info)",
        [json.loads(json.dumps(view)), info],
    )
    marks = page.locator(".player[data-seat] .muted").all_inner_texts()
    marked = [seat for seat, words in enumerate(marks) if "pairs" in words or "rolls" in words]
    assert marked == [pairing]
    assert "pairs" in marks[pairing]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
