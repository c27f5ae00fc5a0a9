"""The same words everywhere, for every preset and house rule: each row of the conformance
matrices (the dice board's, the card races') and the Derby says the same lines in `--plain`,
on the full screen (its log), in a replay of the record, and the web table's log (the family's
`news` of each step) has each of its lines among them, in order.

The full screen is its play loop (`table_app`'s work) talking to a display that keeps what it
is given to log: the app's log widget writes the same lines (tests/terminal/test_same_log.py
checks that on the real app for a few presets); the replay is the replay app's `Playback` on
the record played back by the engine."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console, RenderableType
from rich.text import Text

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.engine import Step, play
from horserace.engine import replay as engine_replay
from horserace.families import family_of_preset
from horserace.families.presets import get_preset
from horserace.terminal.choices import Choice
from horserace.terminal.screen import words_of
from horserace.terminal.session import in_lines
from horserace.terminal.tui.pacer import Pacer
from horserace.terminal.tui.replay import Playback
from horserace.terminal.tui.run import table_app
from tests.conformance.board_matrix import ROWS
from tests.conformance.card_matrix import CARD_ROWS
from tests.terminal.tables import Table

# each row's options at one round (one race): enough for every rule's words to come up
MATRIX: dict[str, tuple[str, dict[str, Any]]] = {
    **{
        row.name: (row.preset, {**row.options, "rounds": 1})
        for row in ROWS
        if "husted-" not in row.name  # Husted at other table sizes: the same words
    },
    **{row.name: (row.preset, {**row.options, "races": 1}) for row in CARD_ROWS},
    "derby": ("derby", {"races": 1, "players": 4}),
    "derby+all-horses": ("derby", {"races": 1, "players": 4, "all_horses": True}),
    "derby+scratches": ("derby", {"races": 1, "players": 4, "scratches": 2}),
}


class LogKept:
    """The full screen as its play loop sees it, keeping the log's words (a table's lines as
    printed, as the log's words have them)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def log(self, lines: Sequence[RenderableType]) -> None:
        self.said.extend(word for line in lines for word in words_of(line))

    def tell(self, text: Text) -> None:
        self.said.append(text.plain)

    def board(self, renderable: RenderableType) -> None:
        pass

    def redraw(self, renderable: RenderableType) -> None:
        pass

    def pause(self, seconds: float) -> None:
        pass

    def hold(self, title: str, body: RenderableType, *, until_enter: bool, seconds: float) -> None:
        pass

    def clear(self) -> None:
        self.said.clear()

    def ask(self, question: str, default: str | None) -> str:
        raise AssertionError("only bots play here")

    def choose(self, choice: Choice, then: RenderableType | None = None) -> Action:
        raise AssertionError("only bots play here")


def _lines(texts: Sequence[str]) -> list[str]:
    return [text.rstrip() for line in texts for text in line.splitlines() if text.strip()]


def _printed(t: Table) -> list[str]:
    """`--plain`: the game printed line by line, each board printed as nothing."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    screen = t.terminal.screen(t.setup, console, True, False)
    screen.render = lambda *_, **__: Text("")  # type: ignore[method-assign]
    screen.prompt_board = lambda *_, **__: Text("")  # type: ignore[method-assign]
    game = t.new_game()
    assert in_lines(game, t.agents, SeededChance(t.setup.seed), screen)
    t.terminal.finish(screen, game.rules.result(game.state))
    return _lines(out.getvalue().splitlines())


# words once said wrong: 'a exacta', '1 chips', a seat glued to the dealer's mark ('DP2'), a
# line a position ('(position 3)' for 'on line 3'), 'Error:' beside 'error:'
SLIPS = re.compile(r"\ba [aeio]\w|\b1 chips\b|\b1 chip go\b|\bDP\d|\(position \d|Error:")
SCRATCHED = re.compile(r"horse (\d+) to scratch line \d; nobody holds one")


def slips(lines: Sequence[str]) -> list[str]:
    """The lines that say a word once said wrong, and a scratch said to cost nobody anything
    before someone discards the horse (a hidden holder's cards: Advanced)."""
    found = [line for line in lines if SLIPS.search(line)]
    for at, line in enumerate(lines):
        scratched = SCRATCHED.search(line)
        if scratched is None:
            continue
        for later in lines[at + 1 :]:
            if " rolls " in later:
                break
            if "discards" in later and f"× {scratched[1]}" in later:
                found.append(f"{line} / {later}")
    return found


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_plain_the_full_screen_replay_and_the_web_say_the_same(name: str) -> None:
    preset, options = MATRIX[name]
    plain = _printed(Table(preset, options=options))
    assert len(plain) > 10
    assert not slips(plain)

    t = Table(preset, options=options)
    app = table_app(t.game, t.agents, t.chance(), t.screen, t.finish, t.help)
    shown = LogKept()
    app.work(shown)  # the full screen's play loop, on this thread
    assert _lines(shown.said) == plain

    steps: list[Step] = []
    assert engine_replay(t.game.record(), get_preset, observe=steps.append).ok
    playback = Playback(steps, t.new_screen, t.new_game, lambda s, r: t.terminal.finish(s, r))
    playback.app = SimpleNamespace(pacer=Pacer())  # type: ignore[assignment]
    replayed = LogKept()
    playback.work(replayed)
    assert _lines(replayed.said) == plain

    news = family_of_preset(preset).news
    told: list[str] = []
    play(
        t.new_game(),
        Table(preset, options=options).agents,
        SeededChance(t.setup.seed),
        observe=lambda step: told.extend(news(step, t.setup.names, t.setup.viewer)),
    )
    remaining = iter(plain)
    missing = [line for line in told if line not in remaining]
    assert told and not missing, missing[:1]


def test_the_slips_are_found() -> None:
    """What the words check catches: each slip as it was once said."""
    said = [
        "P2 bets 5 on a exacta",
        "1 chips to the pot",
        "1 chip go to the Jockey Pot",
        "DP2 rolls 3+4=7",
        "P1 pays 3 (rolled scratched horse 7 (position 3))",
        "Error: the game is not over yet",
        "P3 rolls 4+6=10: horse 10 to scratch line 3; nobody holds one",
        "P1 discards 1 × 10",
    ]
    assert slips(said) == [*said[:6], f"{said[6]} / {said[7]}"]
    assert not slips(["P2 bets 5 on an exacta", "1 chip to the pot", "a trifecta", "on line 3"])
