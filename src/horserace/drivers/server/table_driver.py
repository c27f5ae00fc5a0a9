"""The moves nobody is asked for: chance, the bots (and a stand-in for a person who is away),
the table's answer for a person who may only pay or pass, a spectator's skip at a table of
bots alone, and the turn timer of a person who dropped."""

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
from horserace.drivers.server.storage import BOT, HUMAN, PLAYING
from horserace.drivers.server.table_moves import NotStored, TableMoves
from horserace.engine import Agent

log = logging.getLogger("horserace.drivers.server")
QUICK_ANSWER = (0.5, 1.5)  # a person's "pass", in bot pauses: the table answers as fast


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
        """What the driver does next: draw chance, let a bot (or a stand-in) move, answer for
        a person who has nothing to play but "pay" or "pass", or wait."""
        if self.status != PLAYING or self.revealing:
            return None
        actor = self.game.actor
        if actor is TERMINAL:
            return None
        if actor is CHANCE:
            return "chance" if self.chance is not None else None
        assert isinstance(actor, int)
        row = self.seats[actor]
        if row.kind == BOT or actor in self.away:
            return "bot"
        if self._only_answer(actor) is not None:
            return "answer"
        return None

    def _only_answer(self, seat: int) -> Action | None:
        """The one thing `seat` may do, when that is to pay or pass (holding no card that
        could answer): the table says it for them."""
        legal = self.rules.legal_actions(self.game.state, seat)
        if len(legal) == 1 and legal[0].text in ("pay", "pass"):
            return legal[0]
        return None

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
            async with self.lock:
                move = self._automatic()
                if move is None:
                    self._arm_timer()
                    return
                if move == "chance":
                    await self._chance_run()
                    version = -1
                else:
                    version = self.version
            if version < 0:
                await asyncio.sleep(0)
                continue
            if move == "answer":
                await asyncio.sleep(self._quick_person())
                await self._answer_for(version)
                continue
            await asyncio.sleep(0 if self._hurrying() else self.bot_delay)
            await self._bot_move(version)

    def _quick_person(self) -> float:
        """How long a quick person takes to press "pass": the others must not tell the
        table's answer from theirs, so it takes as long, at random."""
        return self._jitter.uniform(QUICK_ANSWER[0], QUICK_ANSWER[1]) * self.bot_delay

    def _still_automatic(self, version: int, move: Literal["bot", "answer"]) -> int | None:
        """The seat to move for (under the lock), if the table is still at `version` and its
        next move is still the `move` ("answer" or "bot") nobody is asked for."""
        seat = self.game.actor
        if self.version != version or not isinstance(seat, int) or self._automatic() != move:
            return None
        return seat

    async def _answer_for(self, version: int) -> None:
        """Pay or pass for the seat, exactly as if they had pressed it (nobody is told)."""
        async with self.lock:
            seat = self._still_automatic(version, "answer")
            if seat is None:
                return
            answer = self._only_answer(seat)
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
            if self.version == version and self._automatic() == "bot":
                await self.commit(choice, seat)

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
        """A dropped person's turn: after `turn_seconds` their stand-in bot takes the seat
        (until they come back). A person who is here is never hurried."""
        actor = self.game.actor
        seconds = self.settings.turn_seconds
        if self.status != PLAYING or not isinstance(actor, int) or seconds <= 0:
            return
        if self.seats[actor].kind != HUMAN or self.connected(actor) or actor in self.away:
            return
        pending = self._timer is not None and not self._timer.done()
        if pending and self._timer_version == self.version:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_version = self.version
        self._timer = self._spawn(self._turn_timer(self.version, actor, seconds))

    async def _turn_timer(self, version: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.version != version or self.game.actor != seat or self.connected(seat):
                return
            self.away.add(seat)
            self._broadcast_seats()
        self.kick()
