"""Hidden cards at rest: a copy of the database of an unfinished table (SQLite's file and its
-wal, PostgreSQL's rows as stored and its table's files) holds no dealt card of any seat in
any form the steps serialise it (the chance's deal text, the card events' JSON): each step's
action and events are sealed with the server's key. A database made before they were sealed
still loads, and its unfinished tables' steps are sealed when it opens; finished tables'
records, public, are left as they were."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from horserace.core.errors import ConfigError
from horserace.drivers.server.app import create_app
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.sql_storage import PostgresStorage, SQLiteStorage, SQLStorage
from horserace.drivers.server.storage import OVER, PLAYING, StoredStep, TableRow
from tests.server.hidden import PRIVATE_KINDS
from tests.server.support import Message, Player, TestClient, create_table, join, serving


def _on_disk(database: Path) -> bytes:
    wal = Path(f"{database}-wal")
    return database.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def _secrets(steps: list[StoredStep]) -> list[bytes]:
    """Every form a dealt card takes in the stored steps: each deal's text, each hidden
    event's JSON (as stored) and its kind's name."""
    found = {f'"{event["type"]}"' for step in steps for event in step.events}
    found &= {f'"{kind}"' for kind in PRIVATE_KINDS}
    for step in steps:
        if step.action.startswith("deal"):
            found.add(step.action)
        for event in step.events:
            if event["type"] in PRIVATE_KINDS:
                found.add(json.dumps(event, sort_keys=True))
    return [text.encode() for text in sorted(found)]


def _until_ann_is_asked(client: TestClient) -> tuple[str, int, str, Message]:
    """An Advanced table where Ann, a person, takes the last seat (the game starts) and is
    asked to act: dealt, and nothing moves until she does. (table, seat, token, state)"""
    table, _, _ = create_table(client, "advanced", ["open", "random", "random", "random"])
    seat, token = join(client, table, "Ann")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ann = Player(ws, seat)
        ann.hello(token)
        waiting = ann.settled(people=[seat])
    assert waiting["state"]["view"]["hands"][seat] and waiting["state"]["status"] == PLAYING
    return table, seat, token, waiting


def _dealt_to_every_seat(steps: list[StoredStep]) -> list[bytes]:
    """The secrets of the opened record, which holds every seat's cards."""
    dealt = [e for s in steps for e in s.events if e["type"] == "card-dealt"]
    assert {e["seat"] for e in dealt} == {0, 1, 2, 3}
    secrets = _secrets(steps)
    assert b'"card-dealt"' in secrets and any(s.startswith(b"deal") for s in secrets)
    return secrets


def test_an_unfinished_tables_dealt_cards_are_nowhere_in_the_sqlite_files(
    tmp_path: Path,
) -> None:
    database = tmp_path / "t.db"
    with serving(database) as client:
        table, seat, token, waiting = _until_ann_is_asked(client)
    hand = waiting["state"]["view"]["hands"][seat]
    key = ServerKey.load_or_create(f"{database}.key")
    steps = SQLiteStorage(database, key.seed_seal()).load_steps(table)
    secrets = _dealt_to_every_seat(steps)
    on_disk = _on_disk(database)
    assert [s for s in secrets if s in on_disk] == []
    with sqlite3.connect(database) as db:
        stored = db.execute("SELECT action, events FROM actions").fetchall()
    assert all(a.startswith("sealed:") and e.startswith("sealed:") for a, e in stored)
    with pytest.raises(ConfigError, match="sealed"):  # the copy alone
        SQLiteStorage(database).load_steps(table)
    with pytest.raises(ConfigError, match="another key"):
        SQLiteStorage(database, ServerKey.generate().seed_seal()).load_steps(table)
    with sqlite3.connect(database) as db:  # a sealed step moved to another place opens not
        db.execute("UPDATE actions SET events = ? WHERE step = 0", (stored[1][1],))
    with pytest.raises(ConfigError, match="another key"):
        SQLiteStorage(database, key.seed_seal()).load_steps(table)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE actions SET events = ? WHERE step = 0", (stored[0][1],))
    with serving(database) as client:  # replayed after the restart: Ann holds the same hand
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            again = Player(ws, seat).hello(token)
        assert again["state"]["view"]["hands"][seat] == hand
        assert again["version"] == waiting["version"]


def test_an_unfinished_tables_dealt_cards_are_nowhere_in_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    key_file = str(tmp_path / "server.key")
    with TestClient(create_app(postgres_url, seeds=lambda: 20240601, key_file=key_file)) as client:
        table, _, _, _ = _until_ann_is_asked(client)
    store = PostgresStorage(postgres_url, ServerKey.load_or_create(key_file).seed_seal())
    secrets = _dealt_to_every_seat(store.load_steps(table))
    store.close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        rows = db.execute("SELECT * FROM actions").fetchall()
        db.execute("CHECKPOINT")  # the table's pages as they are on disk
        home = db.execute("SHOW data_directory").fetchone()
        path = db.execute("SELECT pg_relation_filepath('actions')").fetchone()
    assert home is not None and path is not None
    as_stored = "\n".join(str(value) for row in rows for value in row).encode()
    heap = Path(home[0], path[0]).read_bytes()
    assert [s for s in secrets if s in as_stored or s in heap] == []


UNFINISHED = TableRow("u1", "advanced", {"players": 2}, 7, "fair", {}, "h" * 64, 1.0, PLAYING)
DEAL = StoredStep(
    0,
    1,
    "chance",
    "deal Q 7 K 2 A 9",
    (
        {"type": "card-dealt", "seat": 0, "rank": 12, "open": False},
        {"type": "card-dealt", "seat": 1, "rank": 7, "open": False},
    ),
)
ANSWER = StoredStep(1, 2, "0", "pass", ({"type": "passed", "seat": 0},), "r0-1")


def _older_database(storage: SQLStorage) -> dict[str, list[StoredStep]]:
    """Two tables stored in clear, as a server made before steps were sealed kept them: an
    unfinished one and a finished one (dealt differently, to tell them apart)."""
    over = replace(UNFINISHED, id="o1", status=OVER)
    dealt = {"type": "card-dealt", "seat": 1, "rank": 4, "open": False}
    over_deal = replace(DEAL, action="deal 3 4 5 6 8 10", events=(dealt,))
    storage.create_table(UNFINISHED)
    storage.create_table(over)
    storage.append_steps([("u1", DEAL, PLAYING), ("u1", ANSWER, PLAYING)])
    storage.append_steps([("o1", over_deal, OVER)])
    storage.close()
    return {"u1": [DEAL, ANSWER], "o1": [over_deal]}


def _stored(rows: list[tuple[Any, ...]]) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    for table_id, action, events in rows:
        found.setdefault(table_id, []).append((action, events))
    return found


def _sealed_when_opened(
    stored: dict[str, list[tuple[str, str]]], steps: dict[str, list[StoredStep]]
) -> None:
    assert all(a.startswith("sealed:") and e.startswith("sealed:") for a, e in stored["u1"])
    assert stored["o1"] == [
        (s.action, json.dumps(list(s.events), sort_keys=True)) for s in steps["o1"]
    ]


def test_an_older_sqlite_databases_clear_steps_load_and_are_sealed_when_it_opens(
    tmp_path: Path,
) -> None:
    database = tmp_path / "old.db"
    steps = _older_database(SQLiteStorage(database))
    secrets = _secrets(steps["u1"])
    assert all(s in _on_disk(database) for s in secrets if s != b'"card-dealt"')
    opened = SQLiteStorage(database, ServerKey.generate().seed_seal())
    with sqlite3.connect(database) as db:
        stored = _stored(db.execute("SELECT table_id, action, events FROM actions").fetchall())
    _sealed_when_opened(stored, steps)
    assert {t: opened.load_steps(t) for t in ("u1", "o1")} == steps
    opened.close()
    on_disk = _on_disk(database)  # not even in a free page, or the -wal
    assert [s for s in secrets if s != b'"card-dealt"' and s in on_disk] == []


def test_postgres_keeps_steps_sealed_and_seals_an_older_databases(
    postgres_url: str, tmp_path: Path
) -> None:
    steps = _older_database(PostgresStorage(postgres_url))
    seal = ServerKey.generate().seed_seal()
    opened = PostgresStorage(postgres_url, seal)
    later = StoredStep(2, 3, "chance", "deal J J", (DEAL.events[0],))
    opened.append_step("u1", later, PLAYING)
    with psycopg.connect(postgres_url, autocommit=True) as db:
        stored = _stored(db.execute("SELECT table_id, action, events FROM actions").fetchall())
        db.execute("CHECKPOINT")  # the table's pages as they are on disk
        home = db.execute("SHOW data_directory").fetchone()
        path = db.execute("SELECT pg_relation_filepath('actions')").fetchone()
    assert home is not None and path is not None
    _sealed_when_opened(stored, steps)
    assert opened.load_steps("u1") == [*steps["u1"], later]
    assert PostgresStorage(postgres_url, seal).load_steps("o1") == steps["o1"]
    with pytest.raises(ConfigError, match="another key"):
        PostgresStorage(postgres_url, ServerKey.generate().seed_seal()).load_steps("u1")
    opened.close()
    heap = Path(home[0], path[0]).read_bytes()  # the old rows are not left dead in the file
    assert b"deal 3 4 5 6 8 10" in heap  # the finished table's, public
    assert [s for s in _secrets([*steps["u1"], later]) if s != b'"card-dealt"' and s in heap] == []
