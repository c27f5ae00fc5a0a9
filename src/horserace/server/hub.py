"""Every table the server holds: created from the lobby, resumed from storage on start."""

from __future__ import annotations

import logging
from collections.abc import Callable

from horserace.core.errors import ConfigError, HorseraceError
from horserace.core.rng import fresh_seed
from horserace.rules.registry import get_preset
from horserace.server.bots import bot_family
from horserace.server.protocol import CreateTable
from horserace.server.seating import TableSettings, new_seats, now
from horserace.server.storage import OPEN, OVER, PLAYING, WAITING, Storage, TableRow
from horserace.server.table import TableMaster
from horserace.server.tokens import hash_token, new_table_id, new_token

log = logging.getLogger("horserace.server")


class Hub:
    def __init__(
        self, storage: Storage, bot_delay: float = 0.0, seeds: Callable[[], int] = fresh_seed
    ) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.seeds = seeds
        self.tables: dict[str, TableMaster] = {}

    def resume(self) -> int:
        """Load every unfinished table from storage and set its bots going again."""
        resumed = 0
        for row in self.storage.list_tables((WAITING, PLAYING)):
            try:
                table = TableMaster.restore(
                    row, self.storage.load_steps(row.id), self.storage, self.bot_delay
                )
            except HorseraceError as error:
                log.error("table %s cannot be resumed: %s", row.id, error)
                continue
            self.tables[row.id] = table
            table.kick()
            resumed += 1
        return resumed

    def find(self, table_id: str) -> TableMaster | None:
        """A table in memory, or a finished one read back from storage."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = self.storage.load_table(table_id)
        if row is None or row.status != OVER:
            return None
        try:
            table = TableMaster.restore(
                row, self.storage.load_steps(row.id), self.storage, self.bot_delay
            )
        except HorseraceError as error:
            log.error("table %s cannot be read back: %s", row.id, error)
            return None
        self.tables[row.id] = table
        return table

    async def create(self, request: CreateTable) -> tuple[TableMaster, str]:
        """A new table with a fresh seed (only its hash is shown until the end); returns the
        table and the host's token."""
        preset = get_preset(request.preset)
        config = preset.config(request.options)
        rules = preset.rules
        bots = bot_family(rules.family)
        seats = new_seats(rules.players(config), request.seats, bots.standin, bots.check)
        host_token = new_token()
        settings = TableSettings(
            title=request.title.strip(),
            turn_seconds=request.turn_seconds,
            companion=request.companion,
        )
        row = TableRow(
            id=new_table_id(),
            preset=preset.name,
            config=rules.config_to_dict(config),
            seed=self.seeds(),
            chance="typed" if request.companion else "seeded",
            settings=settings.to_dict(),
            host_hash=hash_token(host_token),
            created=now(),
            seats=tuple(seats),
        )
        if row.id in self.tables:
            raise ConfigError("table id collision; try again")
        self.storage.create_table(row)
        table = TableMaster(row, self.storage, self.bot_delay)
        self.tables[row.id] = table
        if not any(seat.kind == OPEN for seat in seats):
            await table.start()
        return table, host_token

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.close()
        self.storage.close()
