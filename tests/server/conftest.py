"""A real PostgreSQL server for the storage tests: Debian's `initdb` and `pg_ctl` start a
throw-away cluster (run as the `postgres` user when the tests run as root, since PostgreSQL
refuses root), listening only on 127.0.0.1 on a free port, stopped at the end of the session.
Missing PostgreSQL fails these tests rather than skipping them: `python3 tasks.py test`
installs it with apt-get."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

START_SECONDS = 60


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    pytest.fail(
        "PostgreSQL's initdb/pg_ctl were not found (Debian: apt-get install postgresql;"
        " `python3 tasks.py test` installs it when run as root)"
    )


def _version(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run(command: list[str], what: str, home: Path, log: Path | None = None) -> None:
    done = subprocess.run(
        command, cwd=home, capture_output=True, text=True, timeout=START_SECONDS + 10, check=False
    )
    if done.returncode:
        logged = log.read_text() if log is not None and log.exists() else ""
        pytest.fail(f"{what} failed ({done.returncode}): {done.stdout}\n{done.stderr}\n{logged}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a fresh cluster's `postgres` database (superuser `postgres`, trust auth on
    127.0.0.1 only)."""
    bin_dir = _pg_bin()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    home = Path(tempfile.mkdtemp(prefix="horserace-pg-"))
    if as_postgres:
        shutil.chown(home, "postgres", "postgres")
    home.chmod(0o700)
    data, log = home / "data", home / "server.log"
    port = _free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={home}"
        " -c max_connections=50"
    )
    started = False
    try:
        _run(
            [
                *as_postgres,
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            "initdb",
            home,
        )
        started = True
        _run(
            [
                *as_postgres,
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(log),
                "-w",
                "-t",
                str(START_SECONDS),
                "-o",
                options,
                "start",
            ],
            "pg_ctl start",
            home,
            log,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run(
                [
                    *as_postgres,
                    str(bin_dir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-m",
                    "immediate",
                    "-w",
                    "-t",
                    "30",
                    "stop",
                ],
                cwd=home,
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A new, empty database on the session's server for one test."""
    name = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(postgres_server, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return postgres_server.rsplit("/", 1)[0] + f"/{name}"
