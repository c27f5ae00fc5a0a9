"""The log lines a table keeps for each step: a step whose events every viewer may see is
told once for all (the families' news sees the viewer only through `redact`); a step with a
hidden event is told to each viewer apart. Checked against telling every viewer apart, over
a whole game of every preset."""

from __future__ import annotations

import pytest

from horserace.core.chance import SeededChance
from horserace.drivers.server.bots import bot_family
from horserace.drivers.server.table_base import viewers_news
from horserace.engine import Game, Step, play
from horserace.families import family
from horserace.families.presets import PRESETS, get_preset


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_shared_news_is_what_each_viewer_would_be_told(name: str) -> None:
    preset = get_preset(name)
    config = preset.config({})
    players = preset.rules.players(config)
    bots = bot_family(preset.rules.family)
    agents = {seat: bots.make(bots.kinds[0], 11 + seat) for seat in range(players)}
    news = family(preset.rules.family).news
    names = [f"P{seat + 1}" for seat in range(players)]
    shared = private = 0

    def check(step: Step) -> None:
        nonlocal shared, private
        told = viewers_news(news, step, names, players)
        assert told == {seat: news(step, names, seat) for seat in (None, *range(players))}
        if len({id(lines) for lines in told.values()}) == 1:
            shared += 1
        else:
            private += 1

    game = Game(name, preset.rules, config, 5, "seeded")
    play(game, agents, SeededChance(5), observe=check)
    assert shared > 0
