"""PostgreSQL with several writers, as several server processes would be: the second writer of
a table's next step is refused and nothing committed is lost; a table resumes from PostgreSQL
after its first server closed. (The storage contract itself runs over both databases in
test_server_storage.py.)"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from horserace.core.errors import ConfigError
from horserace.drivers.cli.app import app
from horserace.drivers.server import workers
from horserace.drivers.server.app import Peers, create_app
from horserace.drivers.server.cluster import Cluster
from horserace.drivers.server.database_url import postgres_conninfo
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.sql_storage import PostgresStorage, TableMoved
from horserace.drivers.server.storage import OPEN, OVER, PLAYING, SeatRow, StoredStep, TableRow
from tests.server.support import UNHELD, Player, TestClient, create_table, game_of, serving

ROW = TableRow(
    id="t1",
    preset="classic",
    config={"players": 2},
    seed=2**70 + 3,
    chance="seeded",
    settings={"title": "x"},
    host_hash="h" * 64,
    created=1.5,
    seats=(SeatRow(0, OPEN), SeatRow(1, OPEN)),
)


def test_the_second_writer_of_a_step_is_refused_and_nothing_is_lost(postgres_url: str) -> None:
    first, second = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    first.create_table(ROW)
    first.append_step("t1", StoredStep(0, 1, "chance", "roll 3"), PLAYING)
    with pytest.raises(psycopg.IntegrityError):  # same step, same version: stale
        second.append_step("t1", StoredStep(0, 1, "chance", "roll 5"), PLAYING)
    with pytest.raises(psycopg.IntegrityError):  # a new step claiming a version already made
        second.append_step("t1", StoredStep(1, 1, "chance", "roll 5"), PLAYING)
    second.append_step("t1", StoredStep(1, 2, "0", "pass", (), "r-1"), OVER)  # up to date
    for store in (first, second):
        assert [s.action for s in store.load_steps("t1")] == ["roll 3", "pass"]
        table = store.load_table("t1")
        assert table is not None and (table.version, table.status) == (2, OVER)
    first.close()
    second.close()


def test_racing_writers_one_wins_each_step(postgres_url: str) -> None:
    """Two storage objects in two threads append the same next step at the same moment, 20
    times: exactly one of each pair is stored, and the table's version is its version."""
    stores = [PostgresStorage(postgres_url), PostgresStorage(postgres_url)]
    stores[0].create_table(ROW)
    rounds = 20
    barrier = threading.Barrier(2, timeout=30)
    outcomes: list[list[bool]] = [[], []]

    def write(writer: int) -> None:
        for step in range(rounds):
            barrier.wait()
            try:
                action = StoredStep(step, step + 1, "chance", f"roll {writer}")
                stores[writer].append_step("t1", action, PLAYING)
                outcomes[writer].append(True)
            except psycopg.IntegrityError:
                outcomes[writer].append(False)
            barrier.wait()

    threads = [threading.Thread(target=write, args=(writer,)) for writer in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert all(a != b for a, b in zip(*outcomes, strict=True)) and len(outcomes[0]) == rounds
    steps = stores[1].load_steps("t1")
    assert [s.step for s in steps] == list(range(rounds))
    assert [s.action for s in steps] == [f"roll {0 if won else 1}" for won in outcomes[0]]
    assert stores[1].load_table("t1").version == rounds  # type: ignore[union-attr]
    for store in stores:
        store.close()


def test_tables_resume_from_postgres_after_the_first_storage_closed(postgres_url: str) -> None:
    first = PostgresStorage(postgres_url)
    first.create_table(ROW)
    first.append_step("t1", StoredStep(0, 1, "chance", "roll 3", ({"type": "rolled"},)), PLAYING)
    first.close()
    again = PostgresStorage(postgres_url)  # the schema is already there: opening is harmless
    assert [t.id for t in again.list_tables((PLAYING,))] == ["t1"]
    assert again.load_steps("t1") == [StoredStep(0, 1, "chance", "roll 3", ({"type": "rolled"},))]
    again.close()


def _finish(client: TestClient, table: str) -> str:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        watcher = Player(ws)
        watcher.hello()
        watcher.until(lambda m: m.get("state", {}).get("status") == "over")
    return game_of(client.get(f"/api/tables/{table}/record").text)


def test_a_server_on_postgres_resumes_a_stopped_table(postgres_url: str, tmp_path: Path) -> None:
    """Stopped mid-game on PostgreSQL, the table ends on the next server exactly as the same
    table ends uninterrupted on SQLite."""
    seats, options = ["ev", "heuristic", "random", "ev"], {"rounds": 1}
    with serving(tmp_path / "whole.db", seed=99) as client:
        whole_table, _, _ = create_table(client, "advanced", seats, options)
        whole = _finish(client, whole_table)
    key = str(tmp_path / "server.key")
    app = create_app(postgres_url, bot_delay=0.002, seeds=lambda: 99, key_file=key)
    with TestClient(app) as client:
        table, _, _ = create_table(client, "advanced", seats, options)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.until(lambda m: m["type"] == "update" and m["version"] >= 60)
    with psycopg.connect(postgres_url) as db:
        row = db.execute("SELECT status, version FROM tables WHERE id = %s", (table,)).fetchone()
    assert row is not None and row[0] == PLAYING and row[1] < len(whole.splitlines()) - 2
    resumed = create_app(postgres_url, seeds=lambda: 99, key_file=key, limits=UNHELD)
    with TestClient(resumed) as client:
        assert _finish(client, table) == whole


def test_postgres_urls() -> None:
    url = "postgresql://horserace@127.0.0.1:5432/horserace"
    assert postgres_conninfo(url) == url
    with pytest.raises(ConfigError):
        postgres_conninfo("sqlite:///x.db")
    with pytest.raises(ConfigError):
        postgres_conninfo("postgresql://127.0.0.1:5432/x?nosuchoption=1")


def test_a_table_has_one_owner_and_moves_when_its_owner_leaves(postgres_url: str) -> None:
    """Ownership over a real PostgreSQL: the owner writes, another worker is routed to it;
    when the owner's session ends its tables go to the first worker that looks, and the old
    owner's storage is refused from then on."""
    first, second = Cluster(postgres_url, "127.0.0.1:1"), Cluster(postgres_url, "127.0.0.1:2")
    assert first.worker != second.worker
    assert set(first.workers()) == {first.worker, second.worker}
    mine, theirs = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    mine.owner, theirs.owner = first.worker, second.worker
    mine.create_table(replace(ROW, status=PLAYING))
    mine.append_step("t1", StoredStep(0, 1, "chance", "roll 3"), PLAYING)
    assert first.route("t1") is None and second.route("t1") == "127.0.0.1:1"
    assert not second.claim("t1") and second.orphans() == []
    with pytest.raises(TableMoved):
        theirs.append_step("t1", StoredStep(1, 2, "chance", "roll 4"), PLAYING)
    first.close()  # its session ends: its lock, and its claim on t1, with it
    assert second.orphans() == ["t1"] and second.route("t1") is None
    with pytest.raises(TableMoved):
        mine.append_step("t1", StoredStep(1, 2, "chance", "roll 5"), PLAYING)
    theirs.append_step("t1", StoredStep(1, 2, "chance", "roll 4"), OVER)
    assert [s.action for s in theirs.load_steps("t1")] == ["roll 3", "roll 4"]
    assert set(second.workers()) == {second.worker} and second.mine(["t1", "x"]) == {"t1"}
    for closing in (mine, theirs, second):
        closing.close()


def test_more_than_one_worker_needs_postgres(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`serve` refuses before it starts anything (run in this process: were the workers
    started instead, the stand-in below fails the test rather than serving)."""

    def started(*_: object) -> None:
        raise AssertionError("the workers were started")

    monkeypatch.setattr(workers, "serve_workers", started)
    arguments = ["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}"]
    done = CliRunner().invoke(app, arguments)
    assert done.exit_code == 2 and "error: --workers above 1" in done.output, done.output


def test_only_a_worker_that_knows_the_secret_speaks_for_a_client(
    postgres_url: str, tmp_path: Path
) -> None:
    """A request forwarded by another worker is counted against the client it names; the
    same headers from anybody else change nothing (the address stays the sender's)."""
    app = create_app(
        postgres_url, key_file=str(tmp_path / "k"), peers=Peers("127.0.0.1:9", "s3cret")
    )
    body = {"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]}
    with TestClient(app) as client:
        forged = {"x-horserace-peer": "guess", "x-horserace-client": "203.0.113.7"}
        assert client.post("/api/tables", json=body, headers=forged).status_code == 201
        assert set(app.state.addresses.buckets) == {"testclient"}
        forwarded = {"x-horserace-peer": "s3cret", "x-horserace-client": "198.51.100.4"}
        made = client.post("/api/tables", json=body, headers=forwarded)
        assert made.status_code == 201
        assert set(app.state.addresses.buckets) == {"testclient", "198.51.100.4"}
        # only a worker may ask for a table: a guess at the secret moves nothing
        table = made.json()["table"]["id"]
        worker = {"worker": app.state.hub.cluster.worker}
        for headers in ({}, forged):
            asked = client.post(f"/_workers/hand-over/{table}", json=worker, headers=headers)
            assert asked.status_code == 403
        assert table in app.state.hub.tables
        asked = client.post(f"/_workers/hand-over/{table}", json=worker, headers=forwarded)
        assert asked.json() == {"moved": False}  # to itself: nothing moves
        assert table in app.state.hub.tables


def test_postgres_keeps_the_seeds_sealed_and_reads_plain_ones_of_older_servers(
    postgres_url: str,
) -> None:
    older = PostgresStorage(postgres_url)  # a server from before seeds were sealed
    older.create_table(replace(ROW, id="old", status=PLAYING))
    older.close()
    seal = ServerKey.generate().seed_seal()
    store = PostgresStorage(postgres_url, seal)  # opening seals the older plain seed
    store.create_table(replace(ROW, id="new"))
    with psycopg.connect(postgres_url, autocommit=True) as db:
        stored: dict[str, str] = dict(db.execute("SELECT id, seed FROM tables").fetchall())
    assert all(seed.startswith("sealed:") for seed in stored.values())
    assert str(ROW.seed) not in "".join(stored.values())
    assert [store.load_table(t).seed for t in ("old", "new")] == [ROW.seed, ROW.seed]  # type: ignore[union-attr]
    store.close()
    with pytest.raises(ConfigError, match="sealed"):
        PostgresStorage(postgres_url).load_table("new")


def test_two_workers_starting_together_on_a_fresh_database_both_serve(postgres_url: str) -> None:
    """Two workers making the schema in the same instant: a third session holds the `workers`
    table half-made (created, not committed), so both workers' start-ups run into it and wait
    there together; when it is rolled back both go on at once. Creating a table twice at once
    collides on its row type (UniqueViolation on type "workers") unless the creations take
    turns; both must join and route."""
    blocker = psycopg.connect(postgres_url)
    blocker.execute("CREATE TABLE workers (id BIGINT PRIMARY KEY)")
    started: dict[str, Cluster] = {}
    failed: list[BaseException] = []
    gate = threading.Barrier(2)

    def start(name: str) -> None:
        try:
            gate.wait()
            PostgresStorage(postgres_url).close()  # the tables' schema, as a worker's start
            started[name] = Cluster(postgres_url, f"127.0.0.1:{len(name)}")
        except BaseException as error:
            failed.append(error)

    threads = [threading.Thread(target=start, args=(name,)) for name in ("a", "bb")]
    for thread in threads:
        thread.start()
    with psycopg.connect(postgres_url, autocommit=True) as watcher:
        waiting, give_up = 0, time.monotonic() + 30
        # until both stopped at the half-made table (or one waits its turn behind the other)
        while waiting < 2 and not failed and time.monotonic() < give_up:
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone()
            waiting = row[0] if row else 0
    blocker.rollback()
    blocker.close()
    for thread in threads:
        thread.join(timeout=30)
    assert failed == [] and set(started) == {"a", "bb"}
    first, second = started["a"], started["bb"]
    assert first.worker != second.worker
    assert set(first.workers()) == {first.worker, second.worker}
    first.close()
    second.close()
