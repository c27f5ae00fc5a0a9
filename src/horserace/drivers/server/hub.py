"""Every table the server holds: created from the lobby, resumed from storage on start."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from horserace.core.errors import ConfigError, HorseraceError
from horserace.drivers.server.admission import Admission, bots_alone
from horserace.drivers.server.bots import bot_family
from horserace.drivers.server.catalogue import check_fields
from horserace.drivers.server.cluster import Cluster
from horserace.drivers.server.fair import FAIR, server_seed
from horserace.drivers.server.limits import Limits, StepBudget
from horserace.drivers.server.lobby import PUSH_SECONDS, LobbyFeed, row_summary
from horserace.drivers.server.once import Once
from horserace.drivers.server.ops import Metrics, event
from horserace.drivers.server.protocol import CreateTable
from horserace.drivers.server.published import Published, Sendable
from horserace.drivers.server.records import Archive, RecordCheck
from horserace.drivers.server.routing import CLOSE_MOVING
from horserace.drivers.server.seating import TableRefusal, TableSettings, new_seats, now
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.storage import (
    OPEN,
    OVER,
    PLAYING,
    WAITING,
    Page,
    Storage,
    TableRow,
)
from horserace.drivers.server.table import TableMaster
from horserace.drivers.server.table_base import TableBase
from horserace.drivers.server.tokens import hash_token, new_table_id, new_token
from horserace.drivers.server.writer import GroupWriter
from horserace.families import family
from horserace.families.presets import get_preset

log = logging.getLogger("horserace.drivers.server")
REBUILDS = 2  # tables replayed (read back, or their records checked) off the loop at once


class HeldTables(dict[str, TableMaster]):
    """The tables held in memory, by id; `on_change` is called when one comes or goes (the
    front door's `/healthz` counts them)."""

    def __init__(self) -> None:
        super().__init__()
        self.on_change: Callable[[], None] = lambda: None

    def __setitem__(self, key: str, value: TableMaster) -> None:
        super().__setitem__(key, value)
        self.on_change()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self.on_change()


class Hub:
    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.0,
        seeds: Callable[[], int] = server_seed,
        limits: Limits | None = None,
        key: ServerKey | None = None,
        metrics: Metrics | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.key = key or ServerKey.generate()
        self.metrics = metrics or Metrics()
        self.writer = GroupWriter(storage)
        self.storage = storage
        self.bot_delay = bot_delay
        self.seeds = seeds
        self.limits = limits or Limits()
        self.tables = HeldTables()
        self.admission = Admission(self.limits)
        self.heavy = asyncio.Semaphore(REBUILDS)  # replays off the loop at once
        self.published = Published(self.heavy)  # finished tables' records, ready to send
        self._loading: Once[TableMaster | None] = Once()  # tables being read back
        self.lobby = LobbyFeed(self.summary_of)
        self.cluster = cluster  # one worker of several over PostgreSQL (cluster.py)
        self._news: set[str] = set()
        self._chores: set[asyncio.Task[None]] = (
            set()
        )  # tables changed here, for the other workers' lobbies
        if cluster is not None:
            loop = asyncio.get_running_loop()

            def heard(table_ids: list[str]) -> None:
                loop.call_soon_threadsafe(self._heard, table_ids)

            cluster.listen(heard)

    def resume(self) -> int:
        """Load every unfinished table from storage (a worker: every one it owns or can claim
        from a dead owner) and set its bots going again."""
        if self.cluster is not None:
            return self.adopt(self.cluster.orphans())
        resumed = 0
        for row in self.storage.list_tables((WAITING, PLAYING)):
            if self._load(row) is not None:
                resumed += 1
        event(log, "tables resumed", count=resumed)
        return resumed

    def adopt(self, claimed: list[str]) -> int:
        """A worker plays on the tables it claimed from dead workers (at its start, before
        it serves anyone)."""
        adopted = 0
        for table_id in claimed:
            row = None if table_id in self.tables else self.storage.load_table(table_id)
            if row is not None and self._load(row) is not None:
                adopted += 1
        if adopted:
            event(log, "tables adopted", count=adopted)
        return adopted

    async def adopt_later(self, claimed: list[str]) -> int:
        """`adopt` while serving: each table read back off the event loop."""
        adopted = 0
        for table_id in claimed:
            with contextlib.suppress(TableElsewhere):
                if table_id not in self.tables and await self.load(table_id) is not None:
                    adopted += 1
        if adopted:
            event(log, "tables adopted", count=adopted)
        return adopted

    async def load(self, table_id: str) -> TableMaster | None:
        """A table in memory, or one read back from storage (a table that left memory while
        idle, or a finished one), which then plays on where it was. Reading back replays the
        table's record: that is done off the event loop, `REBUILDS` tables at a time, and a
        table asked for by many at once is read back once. A worker reads back only a table
        it owns (or claims): TableElsewhere if another live worker owns it."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        return await self._loading.run(table_id, lambda: self._read_back(table_id))

    async def _read_back(self, table_id: str) -> TableMaster | None:
        async with self.heavy:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            built = await asyncio.to_thread(self._rebuild, table_id)
        if built is None:
            return None
        return self.tables.get(table_id) or self._take(built)

    def _rebuild(self, table_id: str) -> TableMaster | None:
        """In a thread: the table's row, its claim (a worker's), its replay."""
        row = self.storage.load_table(table_id)
        if row is None:
            return None
        if self.cluster is not None and not self.cluster.claim(table_id):
            raise TableElsewhere("the table is moving to another worker; try again")
        return self._restore(row)

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """A table's lobby line: the live one in memory, else its stored row's (read off the
        event loop; the table stays where it is)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.summary()
        row = await asyncio.to_thread(self.storage.load_table, table_id)
        return None if row is None else row_summary(row)

    async def archived(self, table_id: str) -> Archive | None:
        """A finished table's published record and check: stored when it ended, else worked
        out now off the event loop (a table that ended before they were kept)."""
        table = self.tables.get(table_id)
        if table is None:
            stored = await asyncio.to_thread(self.storage.load_published, table_id)
            if stored is not None:
                return Archive(stored[0], RecordCheck.from_dict(stored[1]))
            table = await self.load(table_id)
        return None if table is None else await table.archive(self.key)

    async def sendable(self, table_id: str) -> Sendable | None:
        """A finished table's record ready to send (published.py)."""
        return await self.published.sendable(table_id, self.archived)

    async def route(self, table_id: str) -> str | None:
        """Where a table's requests are served: None here, else its owner's address."""
        if self.cluster is None or table_id in self.tables:
            return None
        return await asyncio.to_thread(self.cluster.route, table_id)

    def worker_id(self) -> int:
        assert self.cluster is not None
        return self.cluster.worker

    async def hand_over(self, table_id: str, worker: int) -> bool:
        """Give a table nobody here is connected to to the worker where somebody now connects
        to it, so their messages are not forwarded through this worker for the rest of the
        game. Between two moves (under the table's lock); whether it went."""
        if self.cluster is None or worker == self.cluster.worker:
            return False
        cluster = self.cluster
        table = self.tables.get(table_id)
        if table is None:  # not in memory (idle): nothing to let go of, if it is ours
            return await asyncio.to_thread(cluster.give, table_id, worker)
        async with table.lock:
            if len(table.connections) or self.tables.get(table_id) is not table:
                return False
            if not await asyncio.to_thread(cluster.give, table_id, worker):
                return False
            del self.tables[table_id]
        table.connections.close(CLOSE_MOVING)  # one that came meanwhile finds the new owner
        await table.close()
        event(log, "table handed over", table=table_id, worker=worker)
        return True

    def lost(self, table: TableBase) -> None:
        """Another worker owns the table now (this one was cut off from the database for a
        while): it leaves memory, and its sockets reconnect to the new owner."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            event(log, "table moved away", table=table.id)
            table.connections.close(CLOSE_MOVING)
            asyncio.get_running_loop().create_task(table.close())

    async def keep_tables(self) -> None:
        """A worker's round: still alive (its lock), tables of dead workers adopted, tables
        it no longer owns let go."""
        assert self.cluster is not None
        cluster = self.cluster
        rounds = 0
        while True:
            await asyncio.sleep(self.limits.claim_seconds)
            rounds += 1
            try:
                kept = await asyncio.to_thread(cluster.check)
                if not kept or rounds % 5 == 0:
                    held = list(self.tables)
                    mine = await asyncio.to_thread(cluster.mine, held)
                    for table_id in held:
                        table = self.tables.get(table_id)
                        if table_id not in mine and table is not None:
                            self.lost(table)
                await self.adopt_later(await asyncio.to_thread(cluster.orphans))
            except Exception:  # the next round tries again
                log.exception("keeping the tables failed")

    def _load(self, row: TableRow) -> TableMaster | None:
        table = self._restore(row)
        return None if table is None else self._take(table)

    def _restore(self, row: TableRow) -> TableMaster | None:
        """A table replayed from its record (no event loop needed: `load` runs it in a
        thread), started if every seat is a bot's."""
        try:
            table = TableMaster.restore(
                row, self.storage.load_steps(row.id), self.storage, self.bot_delay
            )
        except HorseraceError as error:
            log.error("table %s cannot be read back: %s", row.id, error)
            return None
        if table.status == WAITING and table.ready_to_start():
            table.start_now()  # every seat was a bot's: it was stopped before it started
        return table

    def _take(self, table: TableMaster) -> TableMaster:
        """A table read back, held and set going (on the event loop)."""
        self._hold(table)
        if table.status != OVER:
            table.kick()
        return table

    def _hold(self, table: TableMaster, budget: StepBudget | None = None) -> None:
        self.tables[table.id] = table
        table.pacer = budget or self.admission.steps_of(
            f"table {table.id}", bots_alone(table.seats)
        )
        table.on_change = self._changed
        table.metrics = self.metrics
        table.writer = self.writer
        table.on_moved = self.lost
        table.reveal_seconds = self.limits.reveal_seconds
        table.heavy = self.heavy
        table.pauses.median = self.limits.answer_seconds

    def _changed(self, table: TableBase) -> None:
        self.lobby.changed(table.id)
        if table.status == OVER and not table.archiving:
            self._archive_soon(table)
        if self.cluster is not None:
            if not self._news:
                asyncio.get_running_loop().call_later(PUSH_SECONDS, self._tell_others)
            self._news.add(table.id)

    def _archive_soon(self, table: TableBase) -> None:
        """A table that just ended: its published record and check are made and stored now,
        while it is in memory (the table stays busy, so in memory, until they are)."""

        async def archive() -> None:
            try:
                await table.archive(self.key)
            except Exception:  # a request for the record tries again
                log.exception("table %s: its record could not be archived", table.id)

        task = asyncio.get_running_loop().create_task(archive())
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)

    def _tell_others(self) -> None:
        news, self._news = sorted(self._news), set()
        assert self.cluster is not None
        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self.cluster.announce, news)
        )
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def _heard(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            self.lobby.changed(table_id)

    def summary_of(self, table_id: str) -> dict[str, Any] | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table.summary()
        row = self.storage.load_table(table_id)
        return None if row is None else row_summary(row)

    def page(self, page: Page) -> list[dict[str, Any]]:
        """One lobby page from storage; tables in memory give their live line."""
        found = []
        for row in self.storage.page_tables(page):
            table = self.tables.get(row.id)
            found.append(table.summary() if table is not None else row_summary(row))
        return found

    async def sweep(self) -> int:
        """Tables nobody is connected to and nothing moves leave memory: finished ones after
        `over_seconds`, others after `idle_seconds`. Their records stay in storage; `find`
        reads them back when somebody asks. Returns how many left."""
        moment = time.monotonic()
        gone = []
        for table in list(self.tables.values()):
            quiet = moment - table.last_active
            wait = self.limits.over_seconds if table.status == OVER else self.limits.idle_seconds
            if quiet >= wait and len(table.connections) == 0 and not table.busy():
                del self.tables[table.id]
                gone.append(table)
        for table in gone:
            await table.close()
        if gone:
            event(log, "tables left memory", count=len(gone), held=len(self.tables))
        return len(gone)

    async def housekeeping(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the next sweep tries again; nothing is lost by waiting
                log.exception("housekeeping failed")

    async def create(self, request: CreateTable, address: str = "") -> tuple[TableMaster, str]:
        """A new table with a fresh seed (only its hash is shown until the end); returns the
        table and the host's token. An address may have a few tables not over at once,
        whose automatic moves share its steps a second, and the server a bounded number."""
        self.admission.check(address, self.tables)
        preset = get_preset(request.preset)
        check_fields(preset.name, request.options)
        rules = preset.rules
        # a house rule brings its own options, and refuses others
        options = family(rules.family).table_options(preset.defaults, request.options)
        try:
            config = preset.config(options)
        except HorseraceError:
            raise
        except (TypeError, ValueError, OverflowError) as error:  # a type the rules did not expect
            raise ConfigError(f"bad options: {error}") from None
        bots = bot_family(rules.family)
        seats = new_seats(
            rules.players(config), request.seats, bots.standin, bots.check, request.names
        )
        host_token = new_token()
        settings = TableSettings(
            title=request.title.strip(),
            turn_seconds=request.turn_seconds,
            companion=request.companion,
            pace=request.pace,
            private=request.private,
        )
        row = TableRow(
            id=new_table_id(),
            preset=preset.name,
            config=rules.config_to_dict(config),
            seed=self.seeds(),
            chance="typed" if request.companion else FAIR,
            settings=settings.to_dict(),
            host_hash=hash_token(host_token),
            created=now(),
            seats=tuple(seats),
        )
        table = await self._open(row, self.admission.steps_of(address, bots_alone(row.seats)))
        self.admission.created(address, row.id)
        kinds = [seat.kind if seat.kind != "bot" else seat.bot for seat in row.seats]
        event(log, "table created", table=row.id, preset=row.preset, seats=kinds, by=address)
        return table, host_token

    async def again(self, table: TableMaster) -> TableMaster:
        """The next game of a finished table: same game, options, settings, host and seats
        (each person keeps their seat and token), a fresh seed; it starts at once unless a
        seat is still open."""
        if table.status != OVER:
            raise TableRefusal("illegal", "the next game starts when this one is over")
        if table.next_table is not None:
            found = await self.load(table.next_table)
            if found is not None:
                return found
        row = TableRow(
            id=new_table_id(),
            preset=table.preset.name,
            config=table.rules.config_to_dict(table.config),
            seed=self.seeds(),
            chance="typed" if table.settings.companion else FAIR,
            settings=table.settings.to_dict(),
            host_hash=table.host_hash,
            created=now(),
            seats=tuple(table.seats),
        )
        again = await self._open(row, table.pacer)
        table.moved_to(again.id)
        return again

    async def _open(self, row: TableRow, budget: StepBudget | None = None) -> TableMaster:
        """Store and hold a new table; one of bots alone is stored as playing at once (so a
        stop between storing and starting cannot leave it waiting)."""
        if not any(seat.kind == OPEN for seat in row.seats):
            row = replace(row, status=PLAYING)
        if row.id in self.tables:
            raise ConfigError("table id collision; try again")
        await asyncio.to_thread(self.storage.create_table, row)
        table = TableMaster(row, self.storage, self.bot_delay)
        self._hold(table, budget)
        self.lobby.changed(table.id)
        table.kick()
        return table

    async def close(self) -> None:
        self.lobby.close()
        for table in list(self.tables.values()):
            await table.close()
        self.writer.close()
        self.storage.close()
        if self.cluster is not None:
            self.cluster.close()


class TableElsewhere(HorseraceError):
    """Another live worker owns the table: ask again (the router sends it there)."""
