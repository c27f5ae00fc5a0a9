"""Robertson's four dice on the terminal's board: while the roller pairs them, the ▶ and the
status line's "next" name the seat pairing (the view's roller is the next one already), and the
four dice replace the last two rolled (which stayed beside them)."""

from __future__ import annotations

import io

from rich.console import Console

from horserace.core.chance import SeededChance
from horserace.engine import Game
from horserace.families.board.render import BoardInfo, players_table, status_line, to_plain
from horserace.families.board.rules.events import FourDiceRolled
from horserace.families.board.screen import BoardScreen
from horserace.families.presets import get_preset


def test_the_seat_pairing_four_dice_is_marked_and_its_dice_are_shown() -> None:
    preset = get_preset("classic")
    config = preset.table_config({"robertson": True, "rounds": 1})
    game = Game("classic", preset.rules, config, seed=3, chance_mode="seeded")
    chance = SeededChance(3)
    names = [f"P{seat + 1}" for seat in range(preset.rules.players(config))]
    screen = BoardScreen(Console(file=io.StringIO()), preset.rules, names, frozenset(), True)
    screen.start(game)
    while not (view := preset.rules.view(game.state, None)).four_dice:
        actor = game.actor
        if isinstance(actor, int):
            step = game.act(actor, preset.rules.legal_actions(game.state, actor)[0])
        else:
            step = game.apply(chance.choose(preset.rules, game.state))
        screen.learn(step)
    pairing = game.actor
    assert isinstance(pairing, int) and view.roller != pairing  # the view names the next
    rolled = next(e for e in step.events if isinstance(e, FourDiceRolled))
    info = BoardInfo(names=names, last_dice=screen.last_dice)
    status = to_plain(status_line(view, info))
    assert f"next {names[pairing]}" in status
    assert status.count("dice ") == 1  # the two rolled before are gone
    assert "dice " + "+".join(map(str, rolled.dice)) + ": pairing" in status
    marked = [row for row in to_plain(players_table(view, info)).splitlines() if "▶" in row]
    assert len(marked) == 1 and names[pairing] in marked[0]
