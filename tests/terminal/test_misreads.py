"""The misreads the full screen must not allow, driven by the pilot: keys pressed while the bots
play answer nothing, Enter alone does not accept a Perry trade (it has no default), and a move
with one legal answer is taken at once and said in the log, never waited for."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from horserace.core.actions import Action
from horserace.engine import Agent
from horserace.families.board.rules.actions import DECLINE
from horserace.terminal.tui.choice_panel import ChoicePanel
from horserace.terminal.tui.run import table_app
from tests.terminal.pilot import asking, holding, press, question, run, said, until
from tests.terminal.tables import Table, table

TRADING = {"players": 3, "trade_window": "before-scratch", "rounds": 1}
PERSON = 2  # P3, offered a trade by P2's bot first thing, and by P1's after passing its own


class Gate:
    """A person's seat held just before each question is put, until the test lets it go."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.arrived = threading.Semaphore(0)
        self.go = threading.Semaphore(0)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        self.arrived.release()
        self.go.acquire()
        return self.agent.choose(view, legal)


def test_a_stray_enter_neither_before_nor_at_the_question_accepts_a_perry_trade() -> None:
    """y and Enter pressed before each offer to P3 is put, and Enter alone at the question,
    leave the offer unanswered (a trade has no default); n declines it."""
    t = Table("classic", seed=7, humans=[PERSON], options=TRADING)
    gate = Gate(t.agents[PERSON])
    agents = {**t.agents, PERSON: gate}
    app = table_app(t.game, agents, t.chance(), t.screen, t.finish, t.help, "dark")
    game = t.game

    async def held(pilot: Pilot[str], *stray: str) -> None:
        """Once the seat is about to be asked: the stray keys, then the question."""
        await until(pilot, lambda: gate.arrived.acquire(blocking=False))
        await press(pilot, *stray)
        gate.go.release()
        await until(pilot, lambda: asking(app))

    async def offered(pilot: Pilot[str]) -> None:
        await held(pilot, "y", "enter")
        assert question(app).startswith("P3, answer the trade")
        panel = app.query_one(ChoicePanel)
        assert panel.query_one("#answer", Input).value == ""  # nothing typed before counts
        steps = len(game.steps)
        await press(pilot, "enter")
        feedback = panel.query_one("#feedback", Static)
        await until(pilot, lambda: "Enter alone chooses nothing" in str(feedback.render()))
        assert asking(app) and len(game.steps) == steps and game.actor == PERSON
        await press(pilot, "n", "enter")
        await until(pilot, lambda: len(game.steps) > steps)
        assert game.steps[steps].action == DECLINE.text

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            try:
                await offered(pilot)  # P2's offer
                await held(pilot, "y", "enter")
                assert question(app).startswith("P3, trade?")
                steps = len(game.steps)
                await press(pilot, "p", "enter")  # no offer of P3's own
                await until(pilot, lambda: len(game.steps) > steps)
                await offered(pilot)  # P1's offer
                await press(pilot, "ctrl+c")
            finally:
                gate.go.release()

    run(scenario)


def test_a_move_with_one_legal_answer_is_taken_at_once_and_said_in_the_log() -> None:
    """In Classic a person's only move is to roll: never asked, each roll said in the log."""
    app, game, _ = table("classic", humans=[0], options={"rounds": 1})

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: asking(app) or holding(app) is not None)
            assert not asking(app)  # the race is run without a question
            rolls = sum(step.actor == "0" for step in game.steps)
            assert rolls >= 1
            assert said(app).count("P1: roll the dice (the only move)") == rolls
            await press(pilot, "ctrl+c")

    run(scenario)
