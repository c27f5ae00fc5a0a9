"""The moves nobody is asked for: chance, the bots (and a stand-in for a person who is away,
or whose turn clock ran out), the answer a person asked the table to make for them, a
spectator's skip at a table of bots alone, and every person's turn clock.

The table never answers for a person by itself: whoever holds what, a person is asked, and
only their clock (the same for every seat) or their own "answer for me" moves for them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any, Literal

from horserace.core.actions import Action
from horserace.core.types import CHANCE, TERMINAL
from horserace.drivers.server.bots import bot_for_move
from horserace.drivers.server.connection import Connection
from horserace.drivers.server.protocol import ErrorReply
from horserace.drivers.server.storage import BOT, PLAYING
from horserace.drivers.server.table_moves import NotStored, TableMoves
from horserace.drivers.server.turn_clock import TurnClock
from horserace.engine import Agent

log = logging.getLogger("horserace.drivers.server")
RETRY_SECONDS = 1.0  # after a move that could not be stored, then twice as long each time
RETRY_MAX_SECONDS = 60.0
INLINE_SECONDS = 0.0003  # a bot kind that decides faster on average decides on the loop
_THINKING: dict[tuple[str, str], float] = {}  # (family, bot kind) -> average CPU seconds


def _timed(bot: Agent, view: Any, legal: Sequence[Action]) -> tuple[Action, float]:
    """The bot's choice and the CPU time it took (this thread's: waits are not counted)."""
    started = time.thread_time()
    choice = bot.choose(view, legal)
    return choice, time.thread_time() - started


class TableDriver(TableMoves):
    _retry_seconds = RETRY_SECONDS

    # --- who moves when nobody is asked ---
    def _automatic(self) -> Literal["chance", "bot", "answer"] | None:
        """What the driver does next: draw chance, let a bot (or a stand-in) move, make the
        one answer of a person who asked for "answer for me", or wait for a person."""
        if self.status != PLAYING or self.revealing:
            return None
        actor = self.game.actor
        if actor is TERMINAL:
            return None
        if actor is CHANCE:  # at a companion table only what is sure (a payout): no choice
            sure = self.chance is not None or self.rules.forced_chance(self.game.state) is not None
            return "chance" if sure else None
        assert isinstance(actor, int)
        if self.stood_in(actor):
            return "bot"
        if actor in self.answering and self._one_answer(actor) is not None:
            return "answer"
        return None

    def _one_answer(self, seat: int) -> Action | None:
        """The seat's one legal action, when it has exactly one."""
        legal = self.rules.legal_actions(self.game.state, seat)
        return legal[0] if len(legal) == 1 else None

    def kick(self) -> None:
        """Make sure the driver runs if anything should happen without a person."""
        if self._driver is None or self._driver.done():
            self._driver = self._spawn(self._drive())

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        error = task.exception()
        if task is not self._driver or not isinstance(error, NotStored):
            log.error("table %s stopped moving", self.id, exc_info=error)
            return
        # a move nobody is asked for could not be stored (it was put back): try again later,
        # or the table would wait for a person's message that may never come
        delay = self._retry_seconds
        self._retry_seconds = min(RETRY_MAX_SECONDS, 2 * delay)
        log.error("table %s could not move; trying again in %g s", self.id, delay, exc_info=error)
        self._driver = self._spawn(self._drive_later(delay))

    async def _drive_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._drive()
        self._retry_seconds = RETRY_SECONDS

    async def _drive(self) -> None:
        while True:
            await self.paced()
            async with self.lock:
                self._arm_timer()
                move = self._automatic()
                if move is None:
                    return
                if move == "chance":
                    await self._chance_run()
                    version = -1
                else:
                    version = self.version
                pause = 0.0
                if move == "answer":
                    actor = self.game.actor
                    assert isinstance(actor, int)
                    pause = self.pauses.next(actor)  # drawn alike whatever the seat holds
                elif not self._hurrying():
                    pause = self.bot_delay
            if version < 0:
                await asyncio.sleep(0 if self._hurrying() else self.chance_pause)
                continue
            await asyncio.sleep(pause)
            if move == "answer":
                await self._answer_for(version)
            else:
                await self._bot_move(version)

    def _still_automatic(self, version: int, move: Literal["bot", "answer"]) -> int | None:
        """The seat to move for (under the lock), if the table is still at `version` and its
        next move is still the `move` ("answer" or "bot") nobody is asked for."""
        seat = self.game.actor
        if self.version != version or not isinstance(seat, int) or self._automatic() != move:
            return None
        return seat

    async def _answer_for(self, version: int) -> None:
        """The one answer of a person who asked the table to make it, as if they had."""
        async with self.lock:
            seat = self._still_automatic(version, "answer")
            if seat is None:
                return
            answer = self._one_answer(seat)
            assert answer is not None
            await self.commit(answer, seat)

    async def _bot_move(self, version: int) -> None:
        """A bot's move at `version`: it decides off the lock, then moves if nothing changed."""
        async with self.lock:
            seat = self._still_automatic(version, "bot")
            if seat is None:
                return
            row = self.seats[seat]
            bot = bot_for_move(self.bots, row.bot, self.seed, seat, len(self.game.steps))
            view = self.rules.view(self.game.state, seat)
            legal = self.rules.legal_actions(self.game.state, seat)
        choice = await self._decide(row.bot, bot, view, legal)
        async with self.lock:
            if self.version != version or self._automatic() != "bot":
                return
            clocked = self.ran_out == (version, seat)
            if clocked:  # the log says so, to everyone alike
                self.clocked_out.add(len(self.game.steps))
            try:
                await self.commit(choice, seat)
            except BaseException:
                self.clocked_out.discard(len(self.game.steps))
                raise
            if clocked:
                await self._save_settings()

    async def _decide(self, kind: str, bot: Agent, view: Any, legal: Sequence[Action]) -> Action:
        """A bot's choice: on the event loop when bots of its kind decide in well under a
        millisecond (a thread's hand-off would cost the loop more than the choice), in a
        worker thread otherwise. Each choice's CPU time keeps its kind's average."""
        key = (self.rules.family, kind)
        average = _THINKING.get(key)
        if average is not None and average < INLINE_SECONDS:
            choice, took = _timed(bot, view, legal)
        else:
            choice, took = await asyncio.to_thread(_timed, bot, view, legal)
        _THINKING[key] = took if average is None else 0.9 * average + 0.1 * took
        return choice

    # --- a skip on a table of bots alone, and the turn timer ---
    def _hurrying(self) -> bool:
        if self.hurry is None:
            return False
        if self.status == PLAYING and self.hurry == self._race():
            return True
        self.hurry = None
        return False

    async def skip(self, connection: Connection) -> None:
        """Bots alone at the table: anyone watching may skip to the end of this race."""
        async with self.lock:
            if any(row.kind != BOT for row in self.seats) or self.status != PLAYING:
                connection.send(
                    ErrorReply(
                        code="illegal",
                        message="skipping is for tables where only bots play",
                        version=self.version,
                    ).model_dump(mode="json")
                )
                return
            self.hurry = self._race()
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()  # it may be sleeping through a bot's pause
        self._driver = None
        self.kick()

    def _arm_timer(self) -> None:
        """The clock of the person to move (every person's, whatever they hold): when it
        runs out a bot plays that turn for them; for a person who is not connected, their
        stand-in plays their seat from then on, until they come back."""
        clock = self.turn_clock()
        if clock is None or self.ran_out == (clock.version, clock.seat):
            return
        if self._timer is not None and not self._timer.done():
            if self._clock_timed is clock:
                return
            self._timer.cancel()
        self._clock_timed = clock
        self._timer = self._spawn(self._turn_timer(clock))

    async def _turn_timer(self, clock: TurnClock) -> None:
        await asyncio.sleep(clock.left())
        async with self.lock:
            if self.turn_clock() is not clock:
                return
            self.ran_out = (clock.version, clock.seat)
            if not self.connected(clock.seat):
                self.away.add(clock.seat)
                self._broadcast_seats()
        self.kick()
