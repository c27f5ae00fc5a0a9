"""A whole Advanced game with two people at one keyboard, played through the screen's `Display`
as the full screen would: the keyboard is passed (a screen held until Enter) before a person is
asked whenever anyone else moved since they last answered, and only then; no board drawn while
nobody is asked shows a hand, and the board drawn for a question shows the asked person's
hand alone; no log line names a person's hidden pick. With one person at the keyboard nothing
is passed and their hand stays on the board."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.engine import CHANCE_TEXT, Game, play
from horserace.families.board.terminal import TABLE_TERMINAL
from horserace.families.presets import get_preset
from horserace.terminal.choices import Choice
from horserace.terminal.screen import TableScreen, to_plain
from horserace.terminal.table import TableSetup
from tests.helpers import bots_for

NAMES = ["Ann", "Bob", "Cy", "Di"]
ROW = re.compile(r"(\w+) \(you\)\s+\d+\s+(?!\d+ cards? \(hidden\))(\S.*)$", re.M)
PICK = re.compile(r"\b(?:Ann|Bob) keeps (?!a card)\S+")


def hands(board: RenderableType) -> set[str]:
    return {name for name, _ in ROW.findall(to_plain(board, 100))}


class Watcher:
    """The full screen as the play loop's thread sees it, answering each question with its
    first option and noting, in order, each board (whose hands it shows), each question and
    each pass of the keyboard, with the steps played by then."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen: list[tuple[str, Any, int]] = []  # (what, hands or name, steps played)
        self.log_lines: list[str] = []

    def board(self, renderable: RenderableType) -> None:
        self.seen.append(("board", hands(renderable), len(self.game.steps)))

    redraw = board

    def log(self, lines: Sequence[RenderableType]) -> None:
        self.log_lines += [to_plain(line, 100) for line in lines]

    def pause(self, seconds: float) -> None:
        pass

    def ask(self, question: str, default: str | None) -> str:
        raise AssertionError(f"no bare question is put here: {question}")

    def choose(self, choice: Choice, then: RenderableType | None = None) -> Action:
        self.seen.append(("asked", choice.question.split(",")[0], len(self.game.steps)))
        action = choice.options[0].action
        assert action is not None
        if then is not None:
            self.board(then)
        return action

    def tell(self, text: Text) -> None:
        self.log_lines.append(text.plain)

    def hold(self, title: str, body: RenderableType, *, until_enter: bool, seconds: float) -> None:
        if title.endswith("'s turn"):
            assert until_enter
            self.seen.append(("passed", title.removesuffix("'s turn"), len(self.game.steps)))

    def clear(self) -> None:
        pass

    def of(self, what: str) -> list[tuple[str, int]]:
        return [(name, at) for kind, name, at in self.seen if kind == what]


def played(humans: frozenset[int]) -> tuple[Game, Watcher, TableScreen]:
    preset = get_preset("advanced")
    config = preset.table_config({"players": 4, "rounds": 2})
    setup = TableSetup(
        preset="advanced",
        rules=preset.rules,
        config=config,
        seed=5,
        names=NAMES,
        humans=humans,
        bots=("random",) * 4,
        companion=False,
        speed=0.0,
    )
    console = Console(file=io.StringIO(), width=100, height=40)
    screen = TABLE_TERMINAL.screen(setup, console, False, True)
    game = Game("advanced", preset.rules, config, seed=5, chance_mode="seeded")
    watcher = Watcher(game)
    screen.display = watcher
    agents: dict[int, Any] = dict(bots_for(4, 5))
    for seat in humans:
        agents[seat] = TABLE_TERMINAL.keyboard(seat, screen)
    screen.start(game)
    play(game, agents, SeededChance(5), observe=screen.observe)
    return game, watcher, screen


def test_two_people_pass_the_keyboard_and_see_only_their_own_hands() -> None:
    game, watcher, _ = played(frozenset({0, 1}))
    assert not [line for line in watcher.log_lines if PICK.search(line)]
    assert not [line for line in watcher.log_lines if "only move" in line]  # none taken for them
    asked = watcher.of("asked")
    assert len(asked) > 30
    # a board shows one hand only right before that person's question, in the same step
    for index, (kind, shown, at) in enumerate(watcher.seen):
        if kind == "board" and shown:
            following = next(event for event in watcher.seen[index + 1 :] if event[0] != "board")
            assert following == ("asked", *shown, at), (shown, at, following)
        if kind == "passed":  # the board under the pass screen shows no hand
            under = next(e for e in reversed(watcher.seen[:index]) if e[0] == "board")
            assert not under[1], (shown, at, under)
    # the keyboard is passed before a question when anyone else moved since that person's last
    actors = [step.actor for step in game.steps]
    last: tuple[str, int] | None = None
    wanted = []
    for name, at in asked:
        seat = str(NAMES.index(name))
        moved = actors[last[1] : at] if last is not None and last[0] == name else ["someone"]
        if any(actor not in (seat, CHANCE_TEXT) for actor in moved):
            wanted.append((name, at))
        last = (name, at)
    assert watcher.of("passed") == wanted
    assert len(wanted) < len(asked)  # a penalty and the joker after it: asked without a pass


def test_one_person_keeps_their_hand_on_the_board() -> None:
    _, watcher, screen = played(frozenset({0}))
    assert not watcher.of("passed")
    assert screen.viewer == 0
    assert hands(screen.current()) == {"Ann"}
