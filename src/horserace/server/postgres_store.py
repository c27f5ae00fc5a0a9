"""PostgreSQL behind the same storage interface, so several server processes can share one
database: each action is written in one transaction under its table's row lock, and a unique
(table, step) key and a unique (table, version) key refuse a second writer of the same place in
a table's record, so nothing already committed is ever overwritten."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import psycopg
from psycopg.conninfo import conninfo_to_dict

from horserace.core.errors import ConfigError
from horserace.server.storage import STATUSES, Page, SeatRow, StoredStep, TableRow, action_values

SCHEMES: Final = ("postgresql://", "postgres://")
SCHEMA_LOCK: Final = 0x686F727365  # the advisory lock that serialises creating the schema

SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        preset TEXT NOT NULL,
        config TEXT NOT NULL,
        seed TEXT NOT NULL,
        chance TEXT NOT NULL,
        settings TEXT NOT NULL,
        host_hash TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL,
        version BIGINT NOT NULL
    )""",
    """
    CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        bot TEXT NOT NULL,
        token_hash TEXT,
        PRIMARY KEY (table_id, seat)
    )""",
    """
    CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables(id),
        step INTEGER NOT NULL,
        version BIGINT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        request_id TEXT,
        PRIMARY KEY (table_id, step),
        UNIQUE (table_id, version)
    )""",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status)",
    "CREATE INDEX IF NOT EXISTS tables_by_age ON tables(status, created, id)",
)

TABLE_COLUMNS: Final = (
    "id, preset, config, seed, chance, settings, host_hash, created, status, version"
)


def is_postgres_url(url: str) -> bool:
    return url.startswith(SCHEMES)


def postgres_conninfo(url: str) -> str:
    """Check a postgresql:// URL (psycopg reads it; a bad one is a ConfigError)."""
    if not is_postgres_url(url):
        raise ConfigError(f"{url!r} is not a PostgreSQL URL (postgresql://USER@HOST:PORT/DB)")
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        raise ConfigError(f"{url!r}: {error}") from None
    return url


class PostgresStorage:
    """One connection, used by one writer at a time (a lock guards it across threads); a
    connection found broken is opened again before the next transaction."""

    def __init__(self, url: str) -> None:
        self.url = postgres_conninfo(url)
        self._lock = threading.Lock()
        self._db = self._connect()
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA:
                db.execute(statement)

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        with self._lock:
            if self._db.broken:
                self._db = self._connect()
            with self._db.transaction():
                yield self._db

    # --- tables ------------------------------------------------------------------------
    def create_table(self, table: TableRow) -> None:
        with self._transaction() as db:
            db.execute(
                f"INSERT INTO tables ({TABLE_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
        with self._transaction() as db:
            row = db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = %s", (table_id,)
            ).fetchone()
            return None if row is None else _table(db, row)

    def list_tables(self, statuses: Sequence[str] = STATUSES) -> list[TableRow]:
        with self._transaction() as db:
            rows = db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE status = ANY(%s) ORDER BY created, id",
                (list(statuses),),
            ).fetchall()
            return [_table(db, row) for row in rows]

    def page_tables(self, page: Page) -> list[TableRow]:
        where = ["status = ANY(%s)"]
        values: list[Any] = [list(page.statuses)]
        if page.preset is not None:
            where.append("preset = %s")
            values.append(page.preset)
        if page.open_only:
            where.append(
                "EXISTS (SELECT 1 FROM seats WHERE seats.table_id = tables.id"
                " AND seats.kind = 'open')"
            )
        if page.before is not None:
            where.append("(created, id) < (%s, %s)")
            values.extend(page.before)
        with self._transaction() as db:
            rows = db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE {' AND '.join(where)}"
                " ORDER BY created DESC, id DESC LIMIT %s",
                (*values, page.limit),
            ).fetchall()
            return [_table(db, row) for row in rows]

    def save_seats(self, table_id: str, seats: Sequence[SeatRow]) -> None:
        with self._transaction() as db:
            _lock_table(db, table_id)
            db.execute("DELETE FROM seats WHERE table_id = %s", (table_id,))
            _insert_seats(db, table_id, seats)

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE tables SET settings = %s WHERE id = %s",
                (json.dumps(settings, sort_keys=True), table_id),
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tables SET status = %s WHERE id = %s", (status, table_id))

    # --- actions -------------------------------------------------------------------------
    def append_step(self, table_id: str, step: StoredStep, status: str) -> None:
        self.append_steps([(table_id, step, status)])

    def append_steps(self, batch: Sequence[tuple[str, StoredStep, str]]) -> None:
        """In one transaction, each under its table row's lock (SELECT ... FOR UPDATE), so
        two processes append to one table one after the other; the second writer of a step
        or version is refused."""
        with self._transaction() as db:
            for table_id, step, status in batch:
                _append(db, table_id, step, status)

    def truncate(self, table_id: str, keep: int, version: int) -> None:
        with self._transaction() as db:
            _lock_table(db, table_id)
            db.execute("DELETE FROM actions WHERE table_id = %s AND step >= %s", (table_id, keep))
            db.execute("UPDATE tables SET version = %s WHERE id = %s", (version, table_id))

    def load_steps(self, table_id: str) -> list[StoredStep]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT step, version, actor, action, events, request_id FROM actions"
                " WHERE table_id = %s ORDER BY step",
                (table_id,),
            ).fetchall()
        return [
            StoredStep(step, version, actor, action, tuple(json.loads(events)), request)
            for step, version, actor, action, events, request in rows
        ]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _append(
    db: psycopg.Connection[tuple[Any, ...]], table_id: str, step: StoredStep, status: str
) -> None:
    _lock_table(db, table_id)
    db.execute(
        "INSERT INTO actions (table_id, step, version, actor, action, events, request_id)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
        action_values(table_id, step),
    )
    db.execute(
        "UPDATE tables SET version = %s, status = %s WHERE id = %s",
        (step.version, status, table_id),
    )


def _lock_table(db: psycopg.Connection[tuple[Any, ...]], table_id: str) -> None:
    db.execute("SELECT 1 FROM tables WHERE id = %s FOR UPDATE", (table_id,))


def _table(db: psycopg.Connection[tuple[Any, ...]], row: tuple[Any, ...]) -> TableRow:
    table_id, preset, config, seed, chance, settings, host, created, status, version = row
    seats = db.execute(
        "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = %s ORDER BY seat",
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


def _insert_seats(
    db: psycopg.Connection[tuple[Any, ...]], table_id: str, seats: Sequence[SeatRow]
) -> None:
    with db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO seats (table_id, seat, kind, name, bot, token_hash)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            [(table_id, s.seat, s.kind, s.name, s.bot, s.token_hash) for s in seats],
        )
