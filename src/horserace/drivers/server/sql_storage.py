"""The server's storage in SQL, for SQLite (one process, one file) and PostgreSQL (several
processes sharing one database). The two dialects share every statement and differ only where
their SQL does: column types, how a transaction takes its locks, the parameter mark, and
opening (and re-opening) a connection.

Every method is one transaction. A unique (table, step) key and a unique (table, version) key
refuse a second writer of the same place in a table's record, so nothing committed is ever
overwritten; when `owner` is set (a worker of several over PostgreSQL) every write to a table
also checks, in its transaction, that this worker still owns the table (see cluster.py).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, Final

from horserace.core.errors import HorseraceError
from horserace.drivers.server.at_rest import SEALED, SeedSeal, open_seed, open_text, private_file
from horserace.drivers.server.database_url import is_postgres_url, postgres_conninfo, sqlite_path
from horserace.drivers.server.storage import (
    PLAYING,
    STATUSES,
    WAITING,
    Page,
    SeatRow,
    StoredStep,
    TableRow,
    action_values,
)

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        preset TEXT NOT NULL,
        config TEXT NOT NULL,
        seed TEXT NOT NULL,  -- decimal text: a seed may be wider than 64 bits
        chance TEXT NOT NULL,
        settings TEXT NOT NULL,
        host_hash TEXT NOT NULL,
        created {real} NOT NULL,
        status TEXT NOT NULL,
        version {big} NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        bot TEXT NOT NULL,
        token_hash TEXT,
        PRIMARY KEY (table_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables(id),
        step INTEGER NOT NULL,
        version {big} NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        request_id TEXT,
        PRIMARY KEY (table_id, step)
    )""",
    # which worker process owns a table (several workers over one PostgreSQL database)
    """CREATE TABLE IF NOT EXISTS table_owners (
        table_id TEXT PRIMARY KEY,
        worker {big} NOT NULL
    )""",
    # a finished table's published record and its check, as they were when it ended
    """CREATE TABLE IF NOT EXISTS published (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        record TEXT NOT NULL,
        checked TEXT NOT NULL
    )""",
    "CREATE UNIQUE INDEX IF NOT EXISTS actions_by_version ON actions(table_id, version)",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status)",
    "CREATE INDEX IF NOT EXISTS tables_by_age ON tables(status, created, id)",
    "CREATE INDEX IF NOT EXISTS owners_by_worker ON table_owners(worker)",
)
TABLE_COLUMNS: Final = (
    "id, preset, config, seed, chance, settings, host_hash, created, status, version"
)
ROWS_PER_STATEMENT = 500  # 7 values a row, well under SQLite's 32,766 parameters
SCHEMA_LOCK: Final = 0x686F727365  # the advisory lock that serialises creating the schema


class TableMoved(HorseraceError):
    """Another worker owns the table now: this one must not write to it."""


def marks(count: int, width: int = 1) -> str:
    """`count` rows of `width` parameter marks: '?, ?' or '(?, ?), (?, ?)'."""
    if width == 1:
        return ", ".join(["?"] * count)
    row = "(" + ", ".join(["?"] * width) + ")"
    return ", ".join([row] * count)


class SQLStorage:
    """One connection, used by one writer at a time (a lock guards it across threads)."""

    BEGIN = "BEGIN"
    TYPES: ClassVar[dict[str, str]] = {}

    def __init__(self, seal: SeedSeal | None = None) -> None:
        self.owner: int | None = None  # the worker that must own every table written to
        self.seal = seal  # seals each table's seed with the server's key (at_rest.py)
        self._lock = threading.Lock()
        self._db: Any = self._connect()
        with self._transaction() as db:
            self._prepare(db)
            for statement in SCHEMA:
                db.execute(statement.format(**self.TYPES))
        if seal is not None and self.seal_clear_seeds() + self.seal_clear_steps():
            self._forget_old_pages()

    def seal_clear_seeds(self) -> int:
        """Seal the seeds an older server stored as plain text, of every unfinished table
        (a finished table's seed is public); how many were sealed."""
        assert self.seal is not None
        with self._transaction() as db:
            clear = db.execute(
                "SELECT id, seed FROM tables WHERE status IN (?, ?) AND seed NOT LIKE ?"
                " ORDER BY id",
                (WAITING, PLAYING, SEALED + "%"),
            ).fetchall()
            for table_id, seed in clear:
                db.execute(
                    "UPDATE tables SET seed = ? WHERE id = ? AND seed = ?",
                    (self.seal.seal(table_id, int(seed)), table_id, seed),
                )
        return len(clear)

    def seal_clear_steps(self) -> int:
        """Seal the actions and events an older server stored in clear, of every unfinished
        table (the dealt cards are in them; a finished table's record is public); how many
        steps were sealed."""
        assert self.seal is not None
        with self._transaction() as db:
            clear = db.execute(
                "SELECT table_id, step, action, events FROM actions WHERE table_id IN"
                " (SELECT id FROM tables WHERE status IN (?, ?))"
                " AND (action NOT LIKE ? OR events NOT LIKE ?) ORDER BY table_id, step",
                (WAITING, PLAYING, SEALED + "%", SEALED + "%"),
            ).fetchall()
            for table_id, step, action, events in clear:
                db.execute(
                    "UPDATE actions SET action = ?, events = ? WHERE table_id = ? AND step = ?"
                    " AND action = ? AND events = ?",  # unless a worker starting too sealed it
                    (
                        *self._sealed_texts(table_id, step, action, events),
                        *(table_id, step, action, events),
                    ),
                )
        return len(clear)

    def _sealed_texts(self, table_id: str, step: int, action: str, events: str) -> list[str]:
        """A step's action and events as stored: sealed (each its own nonce), or clear when
        this storage has no key; a text already sealed is kept."""
        texts = [action, events]
        if self.seal is None:
            return texts
        return [
            text if text.startswith(SEALED) else self.seal.seal_text(table_id, place, text)
            for place, text in zip(_places(step), texts, strict=True)
        ]

    def _forget_old_pages(self) -> None:
        """After rewriting secrets: nothing of the old text stays where a copy finds it."""

    # --- where the dialects differ --------------------------------------------------------
    def _connect(self) -> Any:
        raise NotImplementedError

    def _prepare(self, db: Any) -> None:
        """Inside the schema's transaction, before it is created."""

    def _sql(self, statement: str) -> str:
        return statement

    def _usable(self) -> bool:
        return True

    # --- shared -------------------------------------------------------------------------
    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[Any]:
        with self._lock:
            if not self._usable():
                self._db = self._connect()
            db = _Dialected(self._db, self._sql)
            db.execute(self.BEGIN if write else "BEGIN")
            try:
                yield db
            except BaseException:
                if self._usable():
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _read(self, statement: str, values: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._transaction(write=False) as db:
            return list(db.execute(statement, values).fetchall())

    def _fence(self, db: Any, table_ids: Sequence[str]) -> None:
        """When this storage writes for one worker of several: each table must be that
        worker's (the row is share-locked until the commit, so a claim waits for it)."""
        if self.owner is None:
            return
        wanted = sorted(set(table_ids))
        owned = db.execute(
            f"SELECT table_id FROM table_owners WHERE worker = ? AND table_id IN"
            f" ({marks(len(wanted))}) {self.SHARE}",
            (self.owner, *wanted),
        ).fetchall()
        lost = set(wanted) - {row[0] for row in owned}
        if lost:
            raise TableMoved(f"table {min(lost)} is owned by another worker now")

    SHARE = ""

    # --- tables ------------------------------------------------------------------------
    def create_table(self, table: TableRow) -> None:
        with self._transaction() as db:
            db.execute(
                f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({marks(10)})",
                (
                    table.id,
                    table.preset,
                    json.dumps(table.config, sort_keys=True),
                    self._stored_seed(table),
                    table.chance,
                    json.dumps(table.settings, sort_keys=True),
                    table.host_hash,
                    table.created,
                    table.status,
                    table.version,
                ),
            )
            _insert_seats(db, table.id, table.seats)
            if self.owner is not None:
                db.execute("INSERT INTO table_owners VALUES (?, ?)", (table.id, self.owner))

    def _stored_seed(self, table: TableRow) -> str:
        if self.seal is None:
            return str(table.seed)
        return self.seal.seal(table.id, table.seed)

    def load_table(self, table_id: str) -> TableRow | None:
        with self._transaction(write=False) as db:
            row = db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            return None if row is None else _table(db, row, self.seal)

    def list_tables(self, statuses: Sequence[str] = STATUSES) -> list[TableRow]:
        with self._transaction(write=False) as db:
            rows = db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN ({marks(len(statuses))})"
                " ORDER BY created, id",
                tuple(statuses),
            ).fetchall()
            return [_table(db, row, self.seal) for row in rows]

    def page_tables(self, page: Page) -> list[TableRow]:
        where = [f"status IN ({marks(len(page.statuses))})"]
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
        with self._transaction(write=False) as db:
            rows = db.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE {' AND '.join(where)}"
                " ORDER BY created DESC, id DESC LIMIT ?",
                (*values, page.limit),
            ).fetchall()
            return [_table(db, row, self.seal) for row in rows]

    def save_seats(self, table_id: str, seats: Sequence[SeatRow]) -> None:
        with self._transaction() as db:
            self._fence(db, [table_id])
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            _insert_seats(db, table_id, seats)

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with self._transaction() as db:
            self._fence(db, [table_id])
            db.execute(
                "UPDATE tables SET settings = ? WHERE id = ?",
                (json.dumps(settings, sort_keys=True), table_id),
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self._transaction() as db:
            self._fence(db, [table_id])
            db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    # --- actions -------------------------------------------------------------------------
    def append_step(self, table_id: str, step: StoredStep, status: str) -> None:
        self.append_steps([(table_id, step, status)])

    def append_steps(self, batch: Sequence[tuple[str, StoredStep, str]]) -> None:
        """Several tables' actions in one transaction: one commit (one wait for the disk)
        for all of them, in a few statements (each call into the database gives up the GIL,
        and taking it back waits behind the busy event loop)."""
        rows = [self._action_row(table_id, step) for table_id, step, _ in batch]
        latest = {table_id: (table_id, step.version, status) for table_id, step, status in batch}
        with self._transaction() as db:
            self._fence(db, list(latest))
            for start in range(0, len(rows), ROWS_PER_STATEMENT):
                chunk = rows[start : start + ROWS_PER_STATEMENT]
                db.execute(
                    f"INSERT INTO actions VALUES {marks(len(chunk), 7)}",
                    [v for r in chunk for v in r],
                )
            tables = list(latest.values())
            for start in range(0, len(tables), ROWS_PER_STATEMENT):
                moved = tables[start : start + ROWS_PER_STATEMENT]
                db.execute(
                    f"WITH moved(id, version, status) AS (VALUES {marks(len(moved), 3)})"
                    " UPDATE tables SET version = moved.version, status = moved.status"
                    " FROM moved WHERE tables.id = moved.id",
                    [v for r in moved for v in r],
                )

    def _action_row(self, table_id: str, step: StoredStep) -> tuple[Any, ...]:
        row = list(action_values(table_id, step))
        row[4:6] = self._sealed_texts(table_id, step.step, row[4], row[5])
        return tuple(row)

    def truncate(self, table_id: str, keep: int, version: int) -> None:
        with self._transaction() as db:
            self._fence(db, [table_id])
            db.execute("DELETE FROM actions WHERE table_id = ? AND step >= ?", (table_id, keep))
            db.execute("DELETE FROM published WHERE table_id = ?", (table_id,))  # not over now
            db.execute("UPDATE tables SET version = ? WHERE id = ?", (version, table_id))

    def load_steps(self, table_id: str) -> list[StoredStep]:
        rows = self._read(
            "SELECT step, version, actor, action, events, request_id FROM actions"
            " WHERE table_id = ? ORDER BY step",
            (table_id,),
        )
        steps = []
        for step, version, actor, action, events, request in rows:
            opened = [
                open_text(self.seal, table_id, place, text)
                for place, text in zip(_places(step), (action, events), strict=True)
            ]
            steps.append(
                StoredStep(step, version, actor, opened[0], tuple(json.loads(opened[1])), request)
            )
        return steps

    def save_published(self, table_id: str, record: str, checked: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO published VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
                " SET record = excluded.record, checked = excluded.checked",
                (table_id, record, json.dumps(checked, sort_keys=True)),
            )

    def load_published(self, table_id: str) -> tuple[str, dict[str, Any]] | None:
        rows = self._read("SELECT record, checked FROM published WHERE table_id = ?", (table_id,))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    def close(self) -> None:
        with self._lock:
            self._db.close()


class SQLiteStorage(SQLStorage):
    """The embedded database: SQLite in WAL mode with synchronous=FULL, so a committed action
    survives a killed process or a lost power supply. BEGIN IMMEDIATE takes the write lock
    at once, so a transaction never fails half-way for want of it."""

    BEGIN = "BEGIN IMMEDIATE"
    TYPES: ClassVar[dict[str, str]] = {"real": "REAL", "big": "INTEGER"}

    def __init__(self, path: str | Path, seal: SeedSeal | None = None) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            # readable by its owner alone (SQLite gives its -wal and -shm files the same mode)
            private_file(Path(self.path))
            for beside in (Path(self.path + "-wal"), Path(self.path + "-shm")):
                if beside.exists():
                    private_file(beside)
        super().__init__(seal)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA secure_delete=ON")  # what is deleted or rewritten is zeroed
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _forget_old_pages(self) -> None:
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]


class PostgresStorage(SQLStorage):
    """PostgreSQL, shared by several server processes. A connection found broken is opened
    again before the next transaction; the schema is made under an advisory lock, so two
    processes starting together do not both create it."""

    TYPES: ClassVar[dict[str, str]] = {"real": "DOUBLE PRECISION", "big": "BIGINT"}
    SHARE = "FOR SHARE"

    def __init__(self, url: str, seal: SeedSeal | None = None) -> None:
        self.url = postgres_conninfo(url)
        super().__init__(seal)

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    def _prepare(self, db: Any) -> None:
        db.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def _usable(self) -> bool:
        return not self._db.broken

    def _forget_old_pages(self) -> None:
        # the rows before sealing are dead versions until vacuumed: VACUUM FULL writes each
        # table anew and drops its old files (the write-ahead log keeps them until recycled)
        with self._lock:
            for table in ("tables", "actions"):
                self._db.execute(f"VACUUM FULL {table}")


def open_storage(url: str, seal: SeedSeal | None = None) -> SQLStorage:
    """The storage a database URL names: postgresql://... or sqlite:///FILE (or a path);
    `seal` seals the tables' seeds (the server's key's)."""
    if is_postgres_url(url):
        return PostgresStorage(url, seal)
    return SQLiteStorage(sqlite_path(url), seal)


class _Dialected:
    """A connection whose statements are written with '?' marks, turned into the dialect's."""

    def __init__(self, db: Any, sql: Any) -> None:
        self._db = db
        self._sql = sql

    def execute(self, statement: str, values: Sequence[Any] = ()) -> Any:
        return self._db.execute(self._sql(statement), values)


def _table(db: Any, row: tuple[Any, ...], seal: SeedSeal | None) -> TableRow:
    table_id, preset, config, seed, chance, settings, host, created, status, version = row
    seats = db.execute(
        "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    ).fetchall()
    return TableRow(
        id=table_id,
        preset=preset,
        config=json.loads(config),
        seed=open_seed(seal, table_id, seed),
        chance=chance,
        settings=json.loads(settings),
        host_hash=host,
        created=created,
        status=status,
        version=version,
        seats=tuple(SeatRow(*seat) for seat in seats),
    )


def _places(step: int) -> tuple[str, str]:
    """What a step's sealed action and events are bound to, besides their table."""
    return f"{step}/action", f"{step}/events"


def _insert_seats(db: Any, table_id: str, seats: Sequence[SeatRow]) -> None:
    if seats:
        db.execute(
            f"INSERT INTO seats VALUES {marks(len(seats), 6)}",
            [v for s in seats for v in (table_id, s.seat, s.kind, s.name, s.bot, s.token_hash)],
        )
