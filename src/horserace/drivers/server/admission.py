"""What an address, and the server, may start and step: every table, one of bots alone too,
counts against its creator's share and the server's until it is over, and the automatic moves
of an address's tables share its steps a second (its tables of bots alone a smaller budget of
their own, which starts empty). Refusals are 429 `rate-limited`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from horserace.drivers.server.limits import MAX_ADDRESSES, Limits, StepBudget
from horserace.drivers.server.seating import TableRefusal
from horserace.drivers.server.storage import BOT, OVER, SeatRow
from horserace.drivers.server.table_base import TableBase


class Admission:
    """The tables each address has not finished yet, and the step budgets of addresses."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.created_by: dict[str, set[str]] = {}  # address -> its tables not over yet
        self.step_budgets: dict[str, StepBudget] = {}

    def steps_of(self, address: str, bots_alone: bool = False) -> StepBudget:
        """The steps a second every table `address` created shares (a table read back from
        storage, whose creator is not kept, has a budget of its own); its tables of bots
        alone share a smaller one, which starts empty and saves up little."""
        key = f"{address} bots alone" if bots_alone else address
        budget = self.step_budgets.get(key)
        if budget is None:
            if len(self.step_budgets) > MAX_ADDRESSES:
                self.step_budgets.clear()
            if bots_alone:
                rate = self.limits.bots_alone_steps_per_address
                budget = StepBudget(rate, rate / 4, saved=0.0)
            else:
                rate = self.limits.steps_per_address
                budget = StepBudget(rate, 2 * rate)
            self.step_budgets[key] = budget
        return budget

    def check(self, address: str, tables: Mapping[str, TableBase]) -> None:
        """Refuse a new table past the address's share or the server's (`tables`: those the
        server holds): every table counts, one of bots alone too, until it is over."""
        mine = self.created_by.setdefault(address, set())
        for table_id in list(mine):
            held = tables.get(table_id)
            if held is None or held.status == OVER:
                mine.discard(table_id)
        if len(mine) >= self.limits.tables_per_address:
            raise TableRefusal(
                "rate-limited",
                f"this address has {len(mine)} tables waiting or playing; finish one first",
            )
        running = sum(1 for table in tables.values() if table.status != OVER)
        if running >= self.limits.tables_running:
            raise TableRefusal("rate-limited", "the server runs all the tables it can")
        if len(tables) >= self.limits.tables_total:
            raise TableRefusal("rate-limited", "the server holds all the tables it can")

    def created(self, address: str, table_id: str) -> None:
        """`address` made the table (after `check` let it)."""
        self.created_by.setdefault(address, set()).add(table_id)


def bots_alone(seats: Sequence[SeatRow]) -> bool:
    """Nobody plays at this table: every seat is a bot's."""
    return all(seat.kind == BOT for seat in seats)
