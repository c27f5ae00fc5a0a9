"""Races that breathe, at a table of the natural pace: chance's moves of a race come one at a
time (the family says how long each is watched: a card turned, a die of a Derby turn), and
between two races the table stops on the results until every person here has tapped "Next
race" or the countdown everyone is shown runs out. Other paces play straight on."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from horserace.drivers.server.connection import Connection
from horserace.drivers.server.race_break import BREAK_SECONDS, RaceBreak
from horserace.drivers.server.storage import HUMAN, PLAYING
from horserace.drivers.server.table_driver import TableDriver

RESULT_STEPS = 5  # at most this many steps' lines (the win, the payout) on the results


class TableBreaks(TableDriver):
    def _natural(self) -> bool:
        return self.settings.pace == "natural"

    def _automatic(self) -> Literal["chance", "bot", "answer"] | None:
        """Nothing moves by itself while the results are shown."""
        if self.race_break is not None:
            return None
        return super()._automatic()

    async def _chance_run(self) -> None:
        """At the natural pace a run stops after a step the family watches (the driver then
        waits `chance_pause`) and at the end of a race, where the results are shown."""
        if not self._natural():
            self.chance_pause = 0.0
            await super()._chance_run()
            return
        race = self._race()
        first = len(self.step_versions)
        await self._paced_run(race)
        if self.status != PLAYING or self._race() == race or race is None:
            return
        people = {row.seat for row in self.seats if row.kind == HUMAN and self.connected(row.seat)}
        if not people:
            return
        lines = [
            line
            for news in self.step_news[max(first, len(self.step_news) - RESULT_STEPS) :]
            for line in news.get(None, [])
        ]
        ends = time.monotonic() + BREAK_SECONDS
        self.race_break = RaceBreak(race[1], lines, people, ends, race)
        self.race_break.timer = self._spawn(self._break_ends(self.race_break))
        self._tell_break()

    async def _paced_run(self, race: tuple[str, int] | None) -> None:
        """Chance's moves until a watched step or the end of the race (stored as one run)."""
        beats = self.family.race_beats
        self.chance_pause = 0.0

        def stop(step: Any) -> bool:
            self.chance_pause = max((beats.get(e.kind, 0.0) for e in step.events), default=0.0)
            return self.chance_pause > 0 or self._race() != race

        await self._run_chance(stop)

    async def _break_ends(self, shown: RaceBreak) -> None:
        await asyncio.sleep(max(0.0, shown.ends - time.monotonic()))
        async with self.lock:
            if self.race_break is shown:
                self._end_break()
        self.kick()

    def _end_break(self) -> None:
        shown = self.race_break
        self.race_break = None
        if (
            shown is not None
            and shown.timer is not None
            and shown.timer is not asyncio.current_task()
        ):
            shown.timer.cancel()
        self._tell_break()

    def _tell_break(self) -> None:
        data = None if self.race_break is None else self.race_break.data()
        self.connections.everyone({"type": "break", "version": self.version, "race_break": data})

    async def next_race(self, connection: Connection) -> None:
        """A person has seen the results: when nobody else is still looking, play goes on."""
        async with self.lock:
            shown = self.race_break
            if shown is None or connection.seat not in shown.waiting:
                return
            shown.waiting.discard(connection.seat)
            still = {seat for seat in shown.waiting if self.connected(seat)}
            shown.waiting = still
            if still:
                self._tell_break()
            else:
                self._end_break()
        self.kick()
