"""`horserace serve` (the browser table) and `horserace verify` (the fair-dice check of a record
the server published once its game ended)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from horserace.cli.common import user_errors
from horserace.core.errors import HorseraceError, RecordError
from horserace.core.record import GameRecord, read_record
from horserace.server.fair import seed_hash, verify_record

NOT_VERIFIED = 1


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("verify")(verify)


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option("--db", help="Where tables are kept: sqlite:///FILE or postgresql://...")
    ] = "sqlite:///horserace.db",
    bot_delay: Annotated[
        float,
        typer.Option("--bot-delay", min=0.0, help="Seconds a bot waits before it moves."),
    ] = 0.8,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn's log level.")] = "info",
) -> None:
    """Serve the lobby and the tables: open http://HOST:PORT/ in a browser.

    Every action is written to the database before anyone is told of it; on start the server
    resumes every unfinished table.
    """
    import uvicorn

    from horserace.server.app import create_app
    from horserace.server.postgres_store import is_postgres_url, postgres_conninfo
    from horserace.server.sqlite_store import sqlite_path

    with user_errors():
        if is_postgres_url(db):
            postgres_conninfo(db)
        else:
            sqlite_path(db)
    uvicorn.run(
        create_app(db, bot_delay=bot_delay),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65_536,
    )


def verify(
    record_file: Annotated[Path, typer.Argument(help="A record the server published.")],
    seed_hash_given: Annotated[
        str | None,
        typer.Option("--seed-hash", help="The SHA-256 the lobby showed before play."),
    ] = None,
) -> None:
    """Check a finished table's dice against its revealed seed and the published SHA-256.

    The seed must hash to the SHA-256 shown before play, and replaying the record from that
    seed must draw every roll and card it holds.

    Exit code 0: every chance outcome matches; 1: it does not (the first bad step is named);
    2: the file cannot be read as a record.
    """
    console = Console(highlight=False)
    with user_errors():
        record = _read(record_file)
    if record.chance != "seeded" or record.seed is None:
        console.print(
            f"not verified: this record's chance was {record.chance}, not drawn from a seed"
        )
        raise typer.Exit(NOT_VERIFIED)
    console.print(f"seed {record.seed}, SHA-256 {seed_hash(record.seed)}", markup=False)
    verdict = verify_record(record, seed_hash_given)
    if not verdict.verified:
        console.print(f"[bold red]not verified[/] after {verdict.steps} steps:")
        for problem in verdict.problems:
            console.print(f"  {problem}", markup=False)
        raise typer.Exit(NOT_VERIFIED)
    checked = "matches the published hash; " if seed_hash_given is not None else ""
    console.print(
        f"[green]verified[/]: the seed {checked}all {verdict.draws} chance outcomes of"
        f" {verdict.steps} steps are the ones the seed draws"
    )
    if record.result is None:
        console.print("the game in this record is not finished")


MAX_RECORD_BYTES = 256 * 1024 * 1024


def _read(path: Path) -> GameRecord:
    """The record, or a RecordError for anything that is not one: a number too long to read,
    JSON nested past Python's recursion limit, a file far too big for any game."""
    try:
        if path.is_file() and path.stat().st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{path} is larger than any record ({MAX_RECORD_BYTES} bytes)")
        return read_record(path)
    except HorseraceError:
        raise
    except (ValueError, RecursionError, MemoryError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise RecordError(f"{path} is not a record: {reason}") from None
