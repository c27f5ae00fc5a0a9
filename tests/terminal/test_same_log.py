"""The full screen's log keeps the whole game, and `--plain` prints the same lines in the same
order for the same game: every line of news (the course's cards too), each race's result and
the final standings; only the board is not a line of the log (the full screen draws it above).
The web table tells each step in the same words."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from horserace.core.chance import SeededChance
from horserace.engine import Step, play
from horserace.families import family_of_preset
from horserace.terminal.screen import TableScreen
from horserace.terminal.session import in_lines
from tests.terminal.pilot import holding, press, run, said, until
from tests.terminal.tables import Table, table
from tests.terminal.test_replay_screen import over

GAMES: dict[str, dict[str, object]] = {
    "classic": {"rounds": 1},
    "basic": {"races": 1},
    "calcutta": {"races": 1},
    "derby": {"races": 1},
}


def no_board(*_: Any, **__: Any) -> Text:
    return Text("")


def boards_blank(screen: TableScreen, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every board drawn as nothing: the lines are compared, not the boards (the snapshots
    check those); on the full screen a Derby's boards took most of the game's CPU."""
    monkeypatch.setattr(screen, "render", no_board)
    monkeypatch.setattr(screen, "prompt_board", no_board)


def printed(preset: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game of bots as `--plain` prints it, each board printed as nothing."""
    t = Table(preset, options=GAMES[preset])
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    screen = t.terminal.screen(t.setup, console, True, False)
    boards_blank(screen, monkeypatch)
    game = t.new_game()
    assert in_lines(game, t.agents, SeededChance(t.setup.seed), screen)
    t.terminal.finish(screen, game.rules.result(game.state))
    return lines(out.getvalue().splitlines())


def lines(texts: list[str]) -> list[str]:
    return [text.rstrip() for text in texts if text.strip()]


@pytest.mark.parametrize("preset", sorted(GAMES))
def test_the_log_and_plain_say_the_same_lines(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, screen = table(preset, options=GAMES[preset])
    boards_blank(screen, monkeypatch)  # as printed: only the board is not a line of the log
    logged: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: over(holding(app)))  # the standings in the log too
            logged.extend(said(app))
            await press(pilot, "enter")

    run(scenario)
    plain = printed(preset, monkeypatch)
    assert any("Final standings" in line for line in plain)
    assert lines(logged) == plain


@pytest.mark.parametrize("preset", sorted(GAMES))
def test_the_web_table_tells_each_step_in_the_terminals_words(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web table's log is `Family.news` of each step (what the server sends); every one of
    its lines stands in the terminal's log of the same game, in the same order."""
    on_the_terminal = printed(preset, monkeypatch)
    t = Table(preset, options=GAMES[preset])
    news = family_of_preset(preset).news
    told: list[str] = []

    def tell(step: Step) -> None:
        told.extend(news(step, t.setup.names, t.setup.viewer))

    play(t.new_game(), t.agents, SeededChance(t.setup.seed), observe=tell)
    remaining = iter(on_the_terminal)
    missing = [line for line in told if line not in remaining]
    assert len(told) > 10 and not missing, missing[:1]
