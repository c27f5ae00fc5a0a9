"""The group writer: actions of many tables are committed together, off the event loop; a
batch with one action that cannot be stored stores the others and fails only that one; the
unique (table, version) key refuses a step stored twice."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from horserace.drivers.server.sql_storage import SQLiteStorage
from horserace.drivers.server.storage import OVER, PLAYING, StoredStep, TableRow
from horserace.drivers.server.writer import GroupWriter


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
