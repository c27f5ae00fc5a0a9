"""A real PostgreSQL server for the storage tests (tests/server/postgres.py), one for the
session and a fresh database for each test. Missing PostgreSQL fails these tests rather than
skipping them: `python3 tasks.py test` installs it with apt-get."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.server.postgres import PostgresUnavailable, new_database, throwaway_postgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a fresh cluster's `postgres` database (superuser `postgres`, trust auth on
    127.0.0.1 only)."""
    try:
        with throwaway_postgres() as url:
            yield url
    except PostgresUnavailable as error:
        pytest.fail(str(error))


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A new, empty database on the session's server for one test."""
    return new_database(postgres_server, f"t_{uuid.uuid4().hex}")


@pytest.fixture(scope="session", autouse=True)
def live_odds_ready() -> None:
    """A fresh checkout has no compiled kernels yet: compile the live odds' kernel once, before
    any server test times its answers (a server started cold does it on a thread meanwhile)."""
    from horserace.drivers.server.messages import prepare_live_odds

    prepare_live_odds()
