"""Nothing heavy on the event loop: a finished table answers its lobby line, record and check
from what was stored when it ended (no replay), and a table that must be read back is
replayed in a thread, a bounded number at a time, once however many ask for it at once."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from horserace.drivers.server.hub import REBUILDS, Hub
from horserace.drivers.server.published import Published, Sendable
from horserace.drivers.server.records import RecordCheck
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.sql_storage import SQLiteStorage
from horserace.drivers.server.storage import TableRow
from horserace.drivers.server.table import TableMaster
from tests.server.support import Player, TestClient, create_table, serving

BOTS = (["random", "random", "random"], {"rounds": 1})


def _play_out(client: TestClient, count: int) -> list[str]:
    """`count` tables of bots, each watched until it is over."""
    made = []
    for _ in range(count):
        table, _, _ = create_table(client, "classic", *BOTS)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.until(lambda m: m.get("state", {}).get("status") == "over")
        made.append(table)
    return made


def _answers(client: TestClient, table: str) -> tuple[Any, ...]:
    line = client.get(f"/api/tables/{table}")
    record = client.get(f"/api/tables/{table}/record")
    checked = client.get(f"/api/tables/{table}/verify")
    assert line.status_code == record.status_code == checked.status_code == 200
    stored_line = {**line.json(), "race": None}  # which race is playing: a live table's only
    return stored_line, record.text, checked.json()


def test_a_finished_table_answers_from_what_was_stored_when_it_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "t.db"
    with serving(database) as client:
        tables = _play_out(client, 2)
        storage = client.app.state.hub.storage  # type: ignore[attr-defined]
        deadline = time.monotonic() + 15
        while not all(storage.load_published(table) for table in tables):  # made at the end
            assert time.monotonic() < deadline, "the finished tables' records were not kept"
            time.sleep(0.02)
        before = {table: _answers(client, table) for table in tables}
    assert all(answer[2]["verified"] for answer in before.values())

    def no_replay(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a finished table was replayed to answer a request")

    monkeypatch.setattr(TableMaster, "restore", no_replay)
    with serving(database) as client:  # a new server: nothing of them is in memory
        for table in tables:
            assert _answers(client, table) == before[table]
        assert not client.app.state.hub.tables  # type: ignore[attr-defined]
        assert client.get("/api/tables/nosuchtable/record").status_code == 404


def test_reading_back_is_off_the_loop_bounded_and_once_per_table(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    with serving(database) as client:
        tables = _play_out(client, REBUILDS + 2)

    async def run() -> None:
        seal = ServerKey.load_or_create(f"{database}.key").seed_seal()  # the seeds' key
        hub = Hub(SQLiteStorage(database, seal))
        loop_thread = threading.get_ident()
        gate = threading.Event()
        lock = threading.Lock()
        inside: list[str] = []
        most = 0
        replayed: list[str] = []
        entered = asyncio.Event()
        loop = asyncio.get_running_loop()
        restore = hub._restore

        def held(row: TableRow) -> TableMaster | None:
            nonlocal most
            assert threading.get_ident() != loop_thread, "replayed on the event loop"
            with lock:
                inside.append(row.id)
                most = max(most, len(inside))
                replayed.append(row.id)
            loop.call_soon_threadsafe(entered.set)
            gate.wait(15)
            with lock:
                inside.remove(row.id)
            return restore(row)

        hub._restore = held  # type: ignore[method-assign]
        try:
            loads = [asyncio.ensure_future(hub.load(table)) for table in tables]
            loads += [asyncio.ensure_future(hub.load(tables[0])) for _ in range(5)]
            while len(inside) < REBUILDS:
                entered.clear()
                await asyncio.wait_for(entered.wait(), 15)
            for _ in range(3):  # threads are free to take more: the bound holds them back
                await asyncio.to_thread(lambda: None)
            assert len(inside) == REBUILDS
            line = await hub.summary(tables[-1])  # the loop answers meanwhile
            assert line is not None and line["status"] == "over"
            gate.set()
            found = await asyncio.wait_for(asyncio.gather(*loads), 15)
        finally:
            gate.set()
            await hub.close()
        assert most == REBUILDS
        assert sorted(replayed) == sorted(tables)  # the table asked for 6 times: once
        assert all(table is not None for table in found)
        assert {table.id for table in found if table is not None} == set(tables)
        assert len({id(table) for table in found[: len(tables)]}) == len(tables)
        assert all(table is found[0] for table in found[len(tables) :])

    asyncio.run(run())


def test_a_record_is_encoded_and_compressed_once_and_sent_as_asked(tmp_path: Path) -> None:
    """The record's bytes are kept once asked for: later requests read nothing from storage
    (a record does not change once its game is over), a client that accepts gzip gets them
    compressed, one that does not gets them plain, the same text either way."""
    with serving(tmp_path / "t.db") as client:
        (table,) = _play_out(client, 1)
        storage = client.app.state.hub.storage  # type: ignore[attr-defined]
        deadline = time.monotonic() + 15
        while not storage.load_published(table):
            assert time.monotonic() < deadline, "the finished table's record was not kept"
            time.sleep(0.02)
        path = f"/api/tables/{table}/record"
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        stored_text = storage.load_published(table)[0]

        def read(*args: Any, **kwargs: Any) -> None:
            raise AssertionError("a record already sent was read from storage again")

        storage.load_published = read
        zipped = client.get(path, headers={"Accept-Encoding": "gzip, deflate"})
        again = client.get(path, headers={"Accept-Encoding": "identity"})
        checked = client.get(f"/api/tables/{table}/verify")
    assert plain.status_code == zipped.status_code == again.status_code == 200
    assert "content-encoding" not in plain.headers and "content-encoding" not in again.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) * 2 < int(plain.headers["content-length"])
    assert plain.text == zipped.text == again.text == stored_text
    assert plain.headers["content-type"] == "application/x-ndjson"
    assert checked.status_code == 200 and checked.json()["verified"]


def test_the_records_kept_are_the_most_recently_asked_within_their_bytes() -> None:
    def sendable(size: int) -> Sendable:
        return Sendable(b"x" * size, b"", RecordCheck(()))

    kept = Published(asyncio.Semaphore(1), kept_bytes=250)
    for table in ("a", "b"):
        kept.keep(table, sendable(100))
    assert kept.get("a") is not None  # asked again: now the most recent
    kept.keep("c", sendable(100))  # over 250 bytes: the least recently asked goes
    assert kept.get("b") is None and kept.get("a") is not None and kept.get("c") is not None
    kept.keep("d", sendable(300))  # larger than all that may be kept: not kept
    assert kept.get("d") is None and kept.get("a") is not None
