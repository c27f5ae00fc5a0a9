"""Which database a `--db` URL names: a PostgreSQL server (postgresql://) or an SQLite
file (sqlite:///FILE or a bare path), each checked into a one-line ConfigError."""

from __future__ import annotations

from typing import Final

from horserace.core.errors import ConfigError

SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(url: str) -> bool:
    return url.startswith(SCHEMES)


def postgres_conninfo(url: str) -> str:
    """Check a postgresql:// URL (psycopg reads it; a bad one is a ConfigError)."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    if not is_postgres_url(url):
        raise ConfigError(f"{url!r} is not a PostgreSQL URL (postgresql://USER@HOST:PORT/DB)")
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        raise ConfigError(f"{url!r}: {error}") from None
    return url


def sqlite_path(url: str) -> str:
    """'sqlite:///horserace.db' (relative), 'sqlite:////abs/path.db' or a bare path."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
    elif "://" in url:
        raise ConfigError(
            f"{url!r}: the tables are kept in SQLite (sqlite:///FILE) or PostgreSQL"
            " (postgresql://USER@HOST:PORT/DB)"
        )
    else:
        path = url
    if not path:
        raise ConfigError("the database URL names no file")
    return path
