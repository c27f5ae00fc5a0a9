"""The group writer: actions of many tables are committed together, off the event loop, and
their tables are woken a few a turn of the loop; a batch with one action that cannot be stored
stores the others and fails only that one; the unique (table, version) key refuses a step
stored twice."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from horserace.drivers.server.event_loop import BoundedLoop, turn_times
from horserace.drivers.server.sql_storage import SQLiteStorage
from horserace.drivers.server.storage import OVER, PLAYING, StoredStep, TableRow
from horserace.drivers.server.writer import SETTLE_PER_TURN, GroupWriter, Row


def _tables(store: SQLiteStorage, count: int) -> list[str]:
    ids = [f"t{n}" for n in range(count)]
    for table in ids:
        store.create_table(TableRow(table, "classic", {}, 1, "fair", {}, "h", 0.0))
    return ids


def test_many_tables_share_commits_and_each_action_is_stored_once(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "t.db")
    ids = _tables(store, 50)
    writer = GroupWriter(store)

    async def table_moves(table: str) -> None:
        for step in range(8):
            await writer.append(table, [StoredStep(step, step + 1, "chance", "roll")], PLAYING)

    async def everyone() -> None:
        await asyncio.gather(*(table_moves(table) for table in ids))

    asyncio.run(everyone())
    writer.close()
    assert writer.written == 400 and writer.batches < 400  # commits were shared
    assert all(len(store.load_steps(table)) == 8 for table in ids)
    assert all(store.load_table(table).version == 8 for table in ids)  # type: ignore[union-attr]


def test_one_bad_action_fails_alone(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "t.db")
    first, second = _tables(store, 2)
    store.append_step(first, StoredStep(0, 1, "chance", "roll"), PLAYING)
    writer = GroupWriter(store)

    async def both() -> tuple[BaseException | None, BaseException | None]:
        again = writer.append(first, [StoredStep(1, 1, "chance", "roll")], PLAYING)  # 1 again
        fine = writer.append(
            second, [StoredStep(0, 1, "chance", "roll"), StoredStep(1, 2, "chance", "roll")], OVER
        )
        return await asyncio.gather(again, fine, return_exceptions=True)

    failed, stored = asyncio.run(both())
    writer.close()
    assert isinstance(failed, sqlite3.IntegrityError) and stored is None
    assert [s.version for s in store.load_steps(first)] == [1]
    assert [s.version for s in store.load_steps(second)] == [1, 2]
    assert store.load_table(second).status == OVER  # type: ignore[union-attr]
    with pytest.raises(sqlite3.IntegrityError):  # the unique (table, version) key
        store.append_step(first, StoredStep(5, 1, "chance", "roll"), PLAYING)


class _HeldFirst(SQLiteStorage):
    """The first commit waits until `go` is set, so the writes queued meanwhile make one
    batch."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.go = threading.Event()
        self.holding = threading.Event()
        self.sizes: list[int] = []

    def append_steps(self, rows: Sequence[Row]) -> None:
        if not self.sizes:
            self.holding.set()
            self.go.wait(30)
        self.sizes.append(len(rows))
        super().append_steps(rows)


def test_the_tables_of_one_commit_are_woken_a_few_a_turn(tmp_path: Path) -> None:
    store = _HeldFirst(tmp_path / "t.db")
    first, *others = _tables(store, 1 + 3 * SETTLE_PER_TURN)
    writer = GroupWriter(store)
    woken: Counter[int] = Counter()

    async def table_moves(table: str) -> None:
        await writer.append(table, [StoredStep(0, 1, "chance", "roll")], PLAYING)
        times = turn_times()
        assert times is not None
        woken[times[0].total] += 1

    async def everyone() -> None:
        held = asyncio.ensure_future(table_moves(first))
        while not store.holding.is_set():  # the writer holds the first write
            await asyncio.sleep(0.01)
        rest = asyncio.gather(*(table_moves(table) for table in others))
        while writer._queue.qsize() < len(others):  # every other write is queued behind it
            await asyncio.sleep(0.01)
        store.go.set()
        await asyncio.gather(held, rest)

    loop = BoundedLoop()
    try:
        loop.run_until_complete(everyone())
    finally:
        loop.close()
    writer.close()
    assert store.sizes == [1, len(others)]  # the others were committed together
    assert sum(woken.values()) == len(others) + 1
    assert max(woken.values()) <= SETTLE_PER_TURN
    assert len(woken) >= 1 + len(others) // SETTLE_PER_TURN
