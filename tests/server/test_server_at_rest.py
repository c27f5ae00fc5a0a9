"""Secrets at rest: the database, its -wal and -shm files, the key file and the folders made
for them are readable by their owner alone, and a copy of the database alone does not give
the seed of an unfinished table (it is sealed with the server's key). A database made before
seeds were sealed still loads, and its unfinished tables' seeds are sealed when it opens."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from horserace.core.errors import ConfigError
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.sql_storage import SQLiteStorage
from horserace.drivers.server.storage import OVER, PLAYING, TableRow
from tests.server.support import create_table, serving

SEED = 2**200 + 987_654_321  # its decimal text is long enough to find in a file by chance alone


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask, under which files are made readable by everyone unless told not to."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _on_disk(database: Path) -> bytes:
    """Every byte SQLite keeps for the database: the file and its -wal."""
    found = database.read_bytes()
    wal = Path(f"{database}-wal")
    return found + (wal.read_bytes() if wal.exists() else b"")


def _stored_seeds(database: Path) -> dict[str, str]:
    with sqlite3.connect(database) as db:
        return dict(db.execute("SELECT id, seed FROM tables").fetchall())


def test_the_database_its_key_and_the_folders_made_for_them_are_the_owners_alone(
    tmp_path: Path, open_umask: None
) -> None:
    there = tmp_path / "there"
    there.mkdir(mode=0o755)
    database = there / "made" / "for" / "it" / "t.db"
    with serving(database) as client:
        create_table(client, "classic", ["random", "random"], {"rounds": 1})
        assert Path(f"{database}-wal").exists() and Path(f"{database}-shm").exists()
        for file in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            assert _mode(file) == 0o600, file
        assert _mode(Path(f"{database}.key")) == 0o600
    for folder in (there / "made", there / "made" / "for", database.parent):
        assert _mode(folder) == 0o700, folder
    assert _mode(there) == 0o755  # a folder that was already there is left as it was
    database.chmod(0o644)  # an older server's file, readable by everyone
    Path(f"{database}.key").chmod(0o644)
    with serving(database):
        assert _mode(database) == 0o600 and _mode(Path(f"{database}.key")) == 0o600


def test_an_unfinished_tables_seed_is_sealed_with_the_servers_key(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    with serving(database, seed=SEED) as client:
        waiting, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        playing, _, _ = create_table(client, "classic", ["random", "random"], {"rounds": 50})
        assert str(SEED).encode() not in _on_disk(database)
    stored = _stored_seeds(database)
    assert all(seed.startswith("sealed:") for seed in stored.values())
    assert stored[waiting] != stored[playing]  # a fresh nonce each time
    with pytest.raises(ConfigError, match="sealed"):  # the copy alone
        SQLiteStorage(database).load_table(waiting)
    other = ServerKey.generate().seed_seal()
    with pytest.raises(ConfigError, match="another key"):
        SQLiteStorage(database, other).load_table(waiting)
    key = ServerKey.load_or_create(f"{database}.key")
    with sqlite3.connect(database) as db:  # a sealed seed moved to another table opens not
        db.execute("UPDATE tables SET seed = ? WHERE id = ?", (stored[playing], waiting))
    with pytest.raises(ConfigError):
        SQLiteStorage(database, key.seed_seal()).load_table(waiting)
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tables SET seed = ? WHERE id = ?", (stored[waiting], waiting))
    row = SQLiteStorage(database, key.seed_seal()).load_table(waiting)
    assert row is not None and row.seed == SEED
    with serving(database, seed=1) as client:  # the server itself reads them back
        summary = client.get(f"/api/tables/{playing}").json()
        assert summary["status"] in ("playing", "over") and summary["seed_hash"]
        assert client.app.state.hub.tables[waiting].seed == SEED  # type: ignore[attr-defined]


def test_an_older_databases_plain_seeds_still_load_and_are_sealed_when_it_opens(
    tmp_path: Path,
) -> None:
    database = tmp_path / "old.db"
    older = SQLiteStorage(database)  # as a server made before seeds were sealed kept them
    unfinished = TableRow("u1", "classic", {"players": 2}, SEED, "fair", {}, "h" * 64, 1.0)
    over = replace(unfinished, id="o1", seed=SEED + 1, status=OVER)
    older.create_table(replace(unfinished, status=PLAYING))
    older.create_table(over)
    older.close()
    assert _stored_seeds(database) == {"u1": str(SEED), "o1": str(SEED + 1)}
    seal = ServerKey.generate().seed_seal()
    opened = SQLiteStorage(database, seal)
    stored = _stored_seeds(database)
    assert stored["u1"].startswith("sealed:") and stored["o1"] == str(SEED + 1)
    assert {row.id: row.seed for row in opened.list_tables()} == {"u1": SEED, "o1": SEED + 1}
    opened.close()
    assert str(SEED).encode() not in _on_disk(database)  # not even in a free page
