"""Where the server's signing key lives when no --key-file is given: beside an SQLite file,
else (PostgreSQL) in the user's state directory, never the working directory; made once with
mode 0600 and read back by every later start (and every worker)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from horserace.core.files import state_directory
from horserace.drivers.server.app import default_key_path, open_key

POSTGRES = "postgresql://horserace@127.0.0.1:5432/horserace"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_postgresql_servers_key_is_made_in_the_state_directory_with_mode_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    key = open_key(POSTGRES, None)
    path = tmp_path / "state" / "horserace" / "server.key"
    assert default_key_path() == path
    assert path.is_file() and _mode(path) == 0o600
    assert _mode(path.parent) == 0o700
    assert list(work.iterdir()) == []  # nothing in the working directory
    assert open_key(POSTGRES, None).public_hex == key.public_hex  # read back, not made again
    assert open_key("postgres://elsewhere/db", None).public_hex == key.public_hex


def test_without_xdg_state_home_the_key_goes_under_local_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert state_directory() == tmp_path / ".local" / "state" / "horserace"
    open_key(POSTGRES, None)
    assert _mode(tmp_path / ".local" / "state" / "horserace" / "server.key") == 0o600


def test_an_sqlite_servers_key_sits_beside_its_file_and_a_named_key_file_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    beside = open_key(f"sqlite:///{tmp_path / 't.db'}", None)
    assert _mode(tmp_path / "t.db.key") == 0o600
    named = open_key(POSTGRES, str(tmp_path / "keys" / "k"))
    assert _mode(tmp_path / "keys" / "k") == 0o600
    assert named.public_hex != beside.public_hex
    memory = open_key("sqlite:///:memory:", None)  # its records end with it, and so does its key
    assert memory.public_hex not in (beside.public_hex, named.public_hex)
    assert not (tmp_path / "state").exists()
