"""A throw-away PostgreSQL server for the tests and benchmarks: Debian's `initdb` and `pg_ctl`
start a fresh cluster in a temporary folder (run as the `postgres` user when we are root,
since PostgreSQL refuses root), listening only on 127.0.0.1 on a free port; it is stopped and
removed at the end."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_SECONDS = 60


class PostgresUnavailable(RuntimeError):
    """PostgreSQL is not installed, or the cluster would not start."""


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    raise PostgresUnavailable(
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
        raise PostgresUnavailable(
            f"{what} failed ({done.returncode}): {done.stdout}\n{done.stderr}\n{logged}"
        )


@contextmanager
def throwaway_postgres(settings: str = "-c max_connections=50") -> Iterator[str]:
    """The URL of a fresh cluster's `postgres` database (superuser `postgres`, trust auth on
    127.0.0.1 only); `settings` are more `-c name=value` server options."""
    bin_dir = _pg_bin()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    home = Path(tempfile.mkdtemp(prefix="horserace-pg-"))
    if as_postgres:
        shutil.chown(home, "postgres", "postgres")
    home.chmod(0o700)
    data, log = home / "data", home / "server.log"
    port = _free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={home} {settings}"
    )
    pg_ctl = [*as_postgres, str(bin_dir / "pg_ctl"), "-D", str(data)]
    started = False
    try:
        initdb = [*as_postgres, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres"]
        _run([*initdb, "--auth=trust", "-E", "UTF8", "--no-sync"], "initdb", home)
        started = True
        wait = ["-w", "-t", str(START_SECONDS)]
        _run([*pg_ctl, "-l", str(log), *wait, "-o", options, "start"], "pg_ctl start", home, log)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run(
                [*pg_ctl, "-m", "immediate", "-w", "-t", "30", "stop"],
                cwd=home,
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(home, ignore_errors=True)


def new_database(server: str, name: str) -> str:
    """Create database `name` on the server at `server` (a URL); its URL."""
    import psycopg

    with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + f"/{name}"
