"""The storage contract, for SQLite and for PostgreSQL (a real server, see conftest.py): round
trips, and one transaction per change; and SQLite's durable settings."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from horserace.core.errors import ConfigError
from horserace.drivers.server.database_url import sqlite_path
from horserace.drivers.server.sql_storage import PostgresStorage, SQLiteStorage
from horserace.drivers.server.storage import (
    BOT,
    HUMAN,
    OPEN,
    OVER,
    PLAYING,
    WAITING,
    SeatRow,
    Storage,
    StoredStep,
    TableRow,
)

ROW = TableRow(
    id="t1",
    preset="classic",
    config={"players": 2},
    seed=2**70 + 3,  # wider than SQLite's integers: kept as text
    chance="seeded",
    settings={"title": "x"},
    host_hash="h" * 64,
    created=1.5,
    seats=(SeatRow(0, OPEN), SeatRow(1, BOT, "ev bot", "ev")),
)


Opener = Callable[[], Storage]


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Opener, type[Exception]]:
    """(open the test's database again, the error a refused write raises)."""
    if request.param == "sqlite":
        return (lambda: SQLiteStorage(tmp_path / "a.db")), sqlite3.IntegrityError
    url: str = request.getfixturevalue("postgres_url")
    return (lambda: PostgresStorage(url)), psycopg.IntegrityError


def test_wal_and_full_sync(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "a.db")
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    store.close()


def test_tables_seats_and_steps_round_trip(backend: tuple[Opener, type[Exception]]) -> None:
    opener, _ = backend
    store = opener()
    store.create_table(ROW)
    assert store.load_table("t1") == ROW
    assert store.load_table("nope") is None
    seats = [SeatRow(0, HUMAN, "Ann", "random", "f" * 64), ROW.seats[1]]
    store.save_seats("t1", seats)
    store.set_status("t1", PLAYING)
    step = StoredStep(0, 1, "chance", "deal 7", ({"type": "card-dealt", "seat": 0},), None)
    store.append_step("t1", step, PLAYING)
    store.append_step("t1", StoredStep(1, 2, "0", "roll", (), "r-1"), OVER)
    store.close()
    again = opener()
    loaded = again.load_table("t1")
    assert loaded is not None
    assert loaded.seats == tuple(seats) and loaded.status == OVER and loaded.version == 2
    assert again.load_steps("t1") == [step, StoredStep(1, 2, "0", "roll", (), "r-1")]
    assert again.list_tables((WAITING, PLAYING)) == []
    assert [t.id for t in again.list_tables()] == ["t1"]
    again.truncate("t1", 1, 3)
    assert [s.step for s in again.load_steps("t1")] == [0]
    assert again.load_table("t1").version == 3  # type: ignore[union-attr]
    again.close()


def test_a_failed_append_changes_nothing(backend: tuple[Opener, type[Exception]]) -> None:
    opener, refused = backend
    store = opener()
    store.create_table(ROW)
    store.append_step("t1", StoredStep(0, 1, "chance", "deal 7"), PLAYING)
    with pytest.raises(refused):
        store.append_step("t1", StoredStep(0, 2, "chance", "deal 8"), OVER)
    table = store.load_table("t1")
    assert table is not None and (table.version, table.status) == (1, PLAYING)
    assert [s.action for s in store.load_steps("t1")] == ["deal 7"]
    store.close()


def test_database_urls() -> None:
    assert sqlite_path("sqlite:///horserace.db") == "horserace.db"
    assert sqlite_path("sqlite:////var/x.db") == "/var/x.db"
    assert sqlite_path("plain.db") == "plain.db"
    with pytest.raises(ConfigError):
        sqlite_path("postgresql://localhost/x")
    with pytest.raises(ConfigError):
        sqlite_path("sqlite:///")
    with pytest.raises(ConfigError, match=r"SQLite \(sqlite:///FILE\) or PostgreSQL"):
        sqlite_path("mysql://localhost/x")  # the refusal names both databases serve takes
