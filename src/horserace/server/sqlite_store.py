"""The embedded database: SQLite in WAL mode with synchronous=FULL, so a committed action
survives a killed process or a lost power supply."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from horserace.core.errors import ConfigError
from horserace.server.storage import STATUSES, Page, SeatRow, StoredStep, TableRow, action_values

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    preset TEXT NOT NULL,
    config TEXT NOT NULL,
    seed TEXT NOT NULL,  -- decimal text: a seed may be wider than 64 bits
    chance TEXT NOT NULL,
    settings TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    bot TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    version INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    request_id TEXT,
    PRIMARY KEY (table_id, step)
);
CREATE UNIQUE INDEX IF NOT EXISTS actions_by_version ON actions(table_id, version);
CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status);
CREATE INDEX IF NOT EXISTS tables_by_age ON tables(status, created, id);
"""


ROWS_PER_STATEMENT = 500  # 7 values a row, well under SQLite's 32,766 parameters


def sqlite_path(url: str) -> str:
    """'sqlite:///horserace.db' (relative), 'sqlite:////abs/path.db' or a bare path."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
    elif "://" in url:
        raise ConfigError(f"{url!r}: this server keeps its tables in SQLite (sqlite:///FILE)")
    else:
        path = url
    if not path:
        raise ConfigError("the database URL names no file")
    return path


class SQLiteStorage:
    """One connection, used by one writer at a time (a lock guards it across threads)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    # --- tables ------------------------------------------------------------------------
    def create_table(self, table: TableRow) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    table.preset,
                    json.dumps(table.config, sort_keys=True),
                    str(table.seed),
                    table.chance,
                    json.dumps(table.settings, sort_keys=True),
                    table.host_hash,
                    table.created,
                    table.status,
                    table.version,
                ),
            )
            _insert_seats(db, table.id, table.seats)

    def load_table(self, table_id: str) -> TableRow | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
            return None if row is None else self._table(row)

    def list_tables(self, statuses: Sequence[str] = STATUSES) -> list[TableRow]:
        marks = ", ".join("?" for _ in statuses)
        with self._lock:
            rows = self._db.execute(
                f"SELECT * FROM tables WHERE status IN ({marks}) ORDER BY created, id",
                tuple(statuses),
            ).fetchall()
            return [self._table(row) for row in rows]

    def page_tables(self, page: Page) -> list[TableRow]:
        where = [f"status IN ({', '.join('?' for _ in page.statuses)})"]
        values: list[Any] = list(page.statuses)
        if page.preset is not None:
            where.append("preset = ?")
            values.append(page.preset)
        if page.open_only:
            where.append(
                "EXISTS (SELECT 1 FROM seats WHERE seats.table_id = tables.id"
                " AND seats.kind = 'open')"
            )
        if page.before is not None:
            where.append("(created < ? OR (created = ? AND id < ?))")
            values.extend([page.before[0], page.before[0], page.before[1]])
        with self._lock:
            rows = self._db.execute(
                f"SELECT * FROM tables WHERE {' AND '.join(where)}"
                " ORDER BY created DESC, id DESC LIMIT ?",
                (*values, page.limit),
            ).fetchall()
            return [self._table(row) for row in rows]

    def _table(self, row: tuple[Any, ...]) -> TableRow:
        table_id, preset, config, seed, chance, settings, host, created, status, version = row
        seats = self._db.execute(
            "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        ).fetchall()
        return TableRow(
            id=table_id,
            preset=preset,
            config=json.loads(config),
            seed=int(seed),
            chance=chance,
            settings=json.loads(settings),
            host_hash=host,
            created=created,
            status=status,
            version=version,
            seats=tuple(SeatRow(*seat) for seat in seats),
        )

    def save_seats(self, table_id: str, seats: Sequence[SeatRow]) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            _insert_seats(db, table_id, seats)

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET settings = ? WHERE id = ?",
                (json.dumps(settings, sort_keys=True), table_id),
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    # --- actions -------------------------------------------------------------------------
    def append_step(self, table_id: str, step: StoredStep, status: str) -> None:
        self.append_steps([(table_id, step, status)])

    def append_steps(self, batch: Sequence[tuple[str, StoredStep, str]]) -> None:
        """Several tables' actions in one transaction: one commit (one wait for the disk)
        for all of them."""
        rows = [action_values(table_id, step) for table_id, step, _ in batch]
        latest = {table_id: (table_id, step.version, status) for table_id, step, status in batch}
        with self._transaction() as db:
            # a few statements for the whole batch, not one per action: each call into
            # SQLite gives up the GIL, and taking it back waits behind the busy event loop
            for start in range(0, len(rows), ROWS_PER_STATEMENT):
                chunk = rows[start : start + ROWS_PER_STATEMENT]
                marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
                db.execute(f"INSERT INTO actions VALUES {marks}", [v for r in chunk for v in r])
            tables = list(latest.values())
            for start in range(0, len(tables), ROWS_PER_STATEMENT):
                moved = tables[start : start + ROWS_PER_STATEMENT]
                marks = ", ".join(["(?, ?, ?)"] * len(moved))
                db.execute(
                    f"WITH moved(id, version, status) AS (VALUES {marks})"
                    " UPDATE tables SET version = moved.version, status = moved.status"
                    " FROM moved WHERE tables.id = moved.id",
                    [v for r in moved for v in r],
                )

    def truncate(self, table_id: str, keep: int, version: int) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM actions WHERE table_id = ? AND step >= ?", (table_id, keep))
            db.execute("UPDATE tables SET version = ? WHERE id = ?", (version, table_id))

    def load_steps(self, table_id: str) -> list[StoredStep]:
        with self._lock:
            rows = self._db.execute(
                "SELECT step, version, actor, action, events, request_id FROM actions"
                " WHERE table_id = ? ORDER BY step",
                (table_id,),
            ).fetchall()
        return [
            StoredStep(step, version, actor, action, tuple(json.loads(events)), request)
            for step, version, actor, action, events, request in rows
        ]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _insert_seats(db: sqlite3.Connection, table_id: str, seats: Sequence[SeatRow]) -> None:
    db.executemany(
        "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
        [(table_id, s.seat, s.kind, s.name, s.bot, s.token_hash) for s in seats],
    )
