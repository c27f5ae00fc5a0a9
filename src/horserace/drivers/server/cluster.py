"""Several server processes (workers) over one PostgreSQL database: each table is owned by one
worker at a time, and an owner that dies hands its tables on.

A worker is alive while it holds its session advisory lock (class `LOCK_CLASS`, its id) on its
own connection: when the process dies, PostgreSQL ends the session and the lock goes with it,
at once. `table_owners` says which worker owns each table; a table whose owner is not alive is
claimed by the first worker that looks (every second, or when somebody asks for it). Every
write to a table checks ownership in its own transaction (`SQLStorage.owner`), so a worker
that lost a table while cut off from the database can never write to it again.

`workers` gives each worker's private address, where the others forward a table's requests and
sockets (routing.py).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import psycopg

from horserace.drivers.server.sql_storage import SCHEMA_LOCK, marks
from horserace.drivers.server.storage import PLAYING, WAITING

LOCK_CLASS: Final = 0x6872  # the advisory locks of live workers: (LOCK_CLASS, worker id)
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS workers (
        id BIGINT PRIMARY KEY,
        address TEXT NOT NULL,
        started DOUBLE PRECISION NOT NULL
    )""",
)
CHANNEL: Final = "horserace_tables"  # NOTIFY: "worker:id,id,..." of tables that changed
PAYLOAD: Final = 7_000  # bytes of one notification at most (PostgreSQL allows 8,000)
LIVE = f"""SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted
    AND classid = {LOCK_CLASS} AND objsubid = 2
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"""


class Cluster:
    """This worker's place among the others: its id and liveness lock, and the ownership of
    tables. Methods are blocking (one connection, guarded by a lock): call them in a thread."""

    def __init__(self, url: str, address: str) -> None:
        self.url = url
        self.address = address
        self.worker = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._db = self._connect()
        with self._transaction() as db:
            # CREATE TABLE IF NOT EXISTS is no guard against a second process creating the
            # same table in the same instant (its row type collides): one at a time
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA:
                db.execute(statement)
        self._join()

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        with self._lock, self._db.transaction():
            yield self._db

    def _join(self) -> None:
        """Take a free worker id (its lock) and publish this worker's address under it."""
        worker = self.worker
        while True:
            if worker <= 0:
                worker = secrets.randbelow(2**31 - 2) + 1
            with self._lock:
                row = self._db.execute(
                    "SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, worker)
                ).fetchone()
            if row is not None and row[0]:
                break
            worker = 0
        self.worker = worker
        with self._transaction() as db:
            db.execute(
                "INSERT INTO workers (id, address, started) VALUES (%s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address,"
                " started = EXCLUDED.started",
                (worker, self.address, time.time()),
            )

    def check(self) -> bool:
        """Still alive in the database's eyes? A lost connection is opened again and the
        lock taken again (the tables it owned may have moved meanwhile); false if it was."""
        try:
            with self._lock:
                self._db.execute("SELECT 1")
            return True
        except psycopg.Error:
            with self._lock:
                self._db.close()
                self._db = self._connect()
            self._join()
            return False

    # --- ownership -----------------------------------------------------------------------
    def route(self, table_id: str) -> str | None:
        """Where a table's requests go: None when this worker owns it (or just claimed it,
        or no such table exists); otherwise its live owner's address."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT o.worker, w.address FROM table_owners o"
                " LEFT JOIN workers w ON w.id = o.worker WHERE o.table_id = %s FOR UPDATE OF o",
                (table_id,),
            ).fetchone()
            if row is None:
                exists = db.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone()
                if exists is not None:  # a table made before there were workers
                    db.execute(
                        "INSERT INTO table_owners VALUES (%s, %s) ON CONFLICT DO NOTHING",
                        (table_id, self.worker),
                    )
                return None
            worker, address = row
            if worker == self.worker:
                return None
            if address is not None and _alive(db, worker):
                return str(address)
            db.execute(
                "UPDATE table_owners SET worker = %s WHERE table_id = %s",
                (self.worker, table_id),
            )
            return None

    def claim(self, table_id: str) -> bool:
        """Whether this worker owns the table now (it did, or took it from a dead owner)."""
        return self.route(table_id) is None

    def give(self, table_id: str, worker: int) -> bool:
        """Hand a table this worker owns to a live `worker` (where its people are connected);
        whether it went."""
        with self._transaction() as db:
            if not _alive(db, worker):
                return False
            moved = db.execute(
                "UPDATE table_owners SET worker = %s WHERE table_id = %s AND worker = %s",
                (worker, table_id, self.worker),
            )
            return moved.rowcount == 1

    def orphans(self, limit: int = 100) -> list[str]:
        """Claim up to `limit` unfinished tables whose owner is dead (or that have none);
        their ids. Two workers looking at once share them out, never both take one."""
        with self._transaction() as db:
            rows = db.execute(
                f"WITH live AS ({LIVE})"
                " SELECT t.id, o.worker FROM tables t LEFT JOIN table_owners o"
                " ON o.table_id = t.id WHERE t.status IN (%s, %s)"
                " AND (o.worker IS NULL OR o.worker NOT IN (SELECT objid FROM live))"
                " ORDER BY t.created LIMIT %s",
                (WAITING, PLAYING, limit),
            ).fetchall()
        claimed = []
        for table_id, _ in rows:
            if self.claim(table_id):
                claimed.append(str(table_id))
        return claimed

    def mine(self, table_ids: Sequence[str]) -> set[str]:
        """Which of these tables this worker still owns."""
        if not table_ids:
            return set()
        with self._transaction() as db:
            rows = db.execute(
                "SELECT table_id FROM table_owners WHERE worker = %s AND table_id IN"
                f" ({marks(len(table_ids)).replace('?', '%s')})",
                (self.worker, *table_ids),
            ).fetchall()
        return {str(row[0]) for row in rows}

    def workers(self) -> dict[int, str]:
        """The live workers and their addresses."""
        with self._transaction() as db:
            rows = db.execute(f"SELECT id, address FROM workers WHERE id IN ({LIVE})").fetchall()
        return {int(worker): str(address) for worker, address in rows}

    # --- the lobby's news ---------------------------------------------------------------
    def announce(self, table_ids: Sequence[str]) -> None:
        """Tell the other workers these tables changed (their lobby sockets show them)."""
        chunk: list[str] = []
        for table_id in [*table_ids, None]:
            if table_id is not None and sum(len(t) + 1 for t in chunk) < PAYLOAD:
                chunk.append(table_id)
                continue
            if chunk:
                with self._lock:
                    payload = f"{self.worker}:" + ",".join(chunk)
                    self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            chunk = [] if table_id is None else [table_id]

    def listen(self, heard: Callable[[list[str]], None]) -> threading.Thread:
        """A thread that calls `heard` with the tables other workers announce."""

        def run() -> None:
            while not self._stop.is_set():
                try:
                    with self._connect() as db:
                        db.execute(f"LISTEN {CHANNEL}")
                        while not self._stop.is_set():
                            for note in db.notifies(timeout=1.0):
                                worker, _, ids = note.payload.partition(":")
                                if worker != str(self.worker) and ids:
                                    heard(ids.split(","))
                except psycopg.Error:
                    self._stop.wait(1.0)  # the database is away: listen again soon

        thread = threading.Thread(target=run, name="horserace-listen", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Leave: the lock goes with the connection, and the tables to whoever claims them."""
        self._stop.set()
        with self._lock:
            with contextlib.suppress(psycopg.Error):  # at once, not when the session ends
                self._db.execute("SELECT pg_advisory_unlock_all()")
            self._db.close()


def _alive(db: psycopg.Connection[tuple[Any, ...]], worker: int) -> bool:
    row = db.execute(f"SELECT EXISTS ({LIVE} AND objid::bigint = %s)", (worker,)).fetchone()
    return bool(row and row[0])
