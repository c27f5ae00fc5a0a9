"""A move: applied through the engine, stored (through the group writer, off the event loop),
then told to everyone, step by step; put back as it was if it cannot be stored."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from horserace.core.actions import Action
from horserace.core.types import CHANCE
from horserace.drivers.server.fair import FairChance
from horserace.drivers.server.seating import (
    Status,
)
from horserace.drivers.server.sql_storage import TableMoved
from horserace.drivers.server.storage import (
    HUMAN,
    OVER,
    PLAYING,
    StoredStep,
)
from horserace.drivers.server.table_views import TableViews
from horserace.engine import Step

CHANCE_RUN = 64  # chance's moves stored in one write at most


class NotStored(Exception):
    """A move's write failed: the table was put back as it was before the move."""


class TableMoves(TableViews):
    chance_pause = 0.0  # seconds the driver waits after chance's last run (a race's beat)

    # --- moves ---
    async def commit(
        self, action: Action, seat: int | None = None, request: str | None = None
    ) -> Step:
        """Apply (`Game.act` for a seat, `Game.apply` for chance; the rules verify first),
        persist, then tell everyone (see `_publish`)."""
        mark = self._mark()
        step = self.game.apply(action) if seat is None else self.game.act(seat, action)
        await self._publish(mark, [(step, request)])
        return step

    async def _chance_run(self) -> None:
        """Chance's moves until a seat is to move (a deal of many cards), up to CHANCE_RUN of
        them: applied one after another, stored in one write, then told in order."""
        await self._run_chance(lambda step: False)

    async def _run_chance(self, stop: Callable[[Step], bool]) -> None:
        """`_chance_run`, ending early after a step `stop` names."""
        mark = self._mark()
        steps: list[tuple[Step, str | None]] = []
        while len(steps) < CHANCE_RUN and self.game.actor is CHANCE:
            state = self.game.state
            if self.chance is not None:
                action = self.chance.choose(self.rules, state)
            else:  # a companion table: what the host enters waits for them, the sure does not
                forced = self.rules.forced_chance(state)
                if forced is None:
                    break
                action = forced
            step = self.game.apply(action)
            steps.append((step, None))
            if stop(step):
                break
        await self._publish(mark, steps)

    def _made_by(self, step: Step) -> str:
        """Who a step counts as made by in the metrics: chance, a bot's seat or a person's
        seat. A person's seat counts as theirs whoever moved for it (their clock's bot, their
        "answer for me"), so no count tells what anybody holds."""
        if not isinstance(step.actor, int):
            return "chance"
        return "person" if self.seats[step.actor].kind == HUMAN else "bot"

    def _mark(self) -> tuple[Any, int, int | None]:
        draws = self.chance.draws if isinstance(self.chance, FairChance) else None
        return self.game.state, len(self.game.steps), draws

    async def _publish(
        self, mark: tuple[Any, int, int | None], steps: list[tuple[Step, str | None]]
    ) -> None:
        """Persist the steps just applied (through the group writer when there is one, off
        the event loop; the table's lock is held meanwhile, other tables move on), then tell
        everyone, step by step. If storage fails, the game (and the dice) are put back as
        they were at `mark` and nobody is told."""
        stored = []
        version = self.version
        for step, request in steps:
            version += 1
            recorded = self.game.steps[step.index]
            stored.append(
                StoredStep(
                    step=step.index,
                    version=version,
                    actor=recorded.actor,
                    action=recorded.action,
                    events=recorded.events,
                    request_id=request,
                )
            )
        status: Status = OVER if self.game.over else PLAYING
        try:
            if self.writer is not None:
                await self.writer.append(self.id, stored, status)
            else:
                self.storage.append_steps(
                    [(self.id, row, status if row is stored[-1] else PLAYING) for row in stored]
                )
        except BaseException as error:
            self.game.state = mark[0]
            del self.game.steps[mark[1] :]
            if isinstance(self.chance, FairChance) and mark[2] is not None:
                self.chance.draws = mark[2]
            if isinstance(error, TableMoved):
                self.on_moved(self)
            elif isinstance(error, Exception):
                raise NotStored(f"the move could not be stored ({error})") from error
            raise
        finished = status != self.status
        self.last_active = time.monotonic()
        if self.pacer is not None:
            self.pacer.spend(len(stored))
        for (step, request), row in zip(steps, stored, strict=True):
            if self.metrics is not None:
                self.metrics.actions.labels(self._made_by(step)).inc()
            self.version = row.version
            self.status = status if row is stored[-1] else PLAYING
            self.step_versions.append(row.version)
            self.remember(step)
            if request is not None:
                self.requests[request] = row.version
            self._broadcast_step(step)
        if finished:
            self.on_change(self)
