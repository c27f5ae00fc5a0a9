"""`horserace serve` (the browser table) and `horserace verify` (the fair-dice check of a record
the server published once its game ended)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from horserace.core.errors import ConfigError, RecordError
from horserace.core.files import read_text
from horserace.drivers.server.limits import Limits, serving_limits
from horserace.terminal.errors import fail, user_errors

NOT_VERIFIED = 1


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("verify")(verify)


def serve(
    host: Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=0, max=65535, help="Port to listen on.")
    ] = 8000,
    db: Annotated[
        str,
        typer.Option(
            "--db", metavar="URL", help="Where tables are kept: sqlite:///FILE or postgresql://..."
        ),
    ] = "sqlite:///horserace.db",
    bot_delay: Annotated[
        float,
        typer.Option(
            "--bot-delay", metavar="SECONDS", min=0.0, help="Seconds a bot waits before it moves."
        ),
    ] = 0.8,
    log_level: Annotated[
        str, typer.Option("--log-level", metavar="LEVEL", help="debug, info, warning or error.")
    ] = "info",
    key_file: Annotated[
        str | None,
        typer.Option(
            "--key-file",
            metavar="FILE",
            help="The key that signs published records (made if missing, mode 0600).",
            show_default="FILE.key beside an SQLite --db FILE; for PostgreSQL, server.key in"
            " $XDG_STATE_HOME/horserace or else in ~/.local/state/horserace",
        ),
    ] = None,
    openapi: Annotated[
        bool,
        typer.Option("--openapi", help="Serve the API description at /docs.", show_default="off"),
    ] = False,
    metrics_token: Annotated[
        str | None,
        typer.Option(
            "--metrics-token",
            metavar="TOKEN",
            envvar="HORSERACE_METRICS_TOKEN",
            help="/metrics answers only 'Authorization: Bearer TOKEN' (best given in the"
            " environment, where other users' ps cannot read it).",
            show_default="none: /metrics is off",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="Server processes sharing the port (more than one needs a postgresql:// --db;"
            " each table is played by one of them, and moves on if it dies).",
        ),
    ] = 1,
    advertise_host: Annotated[
        str | None,
        typer.Option(
            "--advertise-host",
            metavar="ADDRESS",
            help="Where the workers of other hosts reach this host's workers (each listens"
            " there on a port of its own; the hosts share the PostgreSQL --db and the --key-file)."
            " Given, serve is one host of several, even with --workers 1.",
            show_default="127.0.0.1, this host alone",
        ),
    ] = None,
    peer_port: Annotated[
        int,
        typer.Option(
            "--peer-port",
            metavar="PORT",
            min=0,
            max=65535,
            help="The first worker's port at --advertise-host (the next worker's is one more,"
            " and so on); 0: any free port.",
        ),
    ] = 0,
    health_port: Annotated[
        int | None,
        typer.Option(
            "--health-port",
            metavar="PORT",
            min=1,
            max=65535,
            help="Also answer /healthz at --host on this port (worker N's: this plus N), from a"
            " thread off the event loop, so no flood of the public port delays it: for the"
            " health checker alone.",
            show_default="none: /healthz on the public port only",
        ),
    ] = None,
    sockets_per_address: Annotated[
        int,
        typer.Option(
            "--sockets-per-address", min=1, help="WebSockets one client address may hold."
        ),
    ] = Limits.sockets_per_address,
    requests_per_second: Annotated[
        float,
        typer.Option(
            "--requests-per-second",
            min=0.1,
            help="Lobby requests that change something, per address (bursts of twice this).",
        ),
    ] = Limits.requests_per_second,
    reads_per_second: Annotated[
        float,
        typer.Option(
            "--reads-per-second",
            min=0.1,
            help="API reads (GETs) per address, bursts of twice this; each 256 KiB of an"
            " answer (a long game's record) counts as one more.",
        ),
    ] = Limits.reads_per_second,
    messages_per_address: Annotated[
        float,
        typer.Option(
            "--messages-per-address",
            min=0.1,
            help="WebSocket messages a second one client address may send over all its sockets"
            " (bursts of twice this); each socket alone may send 20.",
        ),
    ] = Limits.address_messages_per_second,
    connections_per_address: Annotated[
        int,
        typer.Option(
            "--connections-per-address",
            min=1,
            help="HTTP connections one client address may hold at once (a trusted proxy's"
            " excepted); a request's head must arrive within 10 s and its body 10 s after.",
        ),
    ] = Limits.connections_per_address,
    tables_per_address: Annotated[
        int,
        typer.Option(
            "--tables-per-address",
            min=1,
            help="Tables one client address may have created that are not over yet (tables of"
            " bots alone too).",
        ),
    ] = Limits.tables_per_address,
    steps_per_address: Annotated[
        float,
        typer.Option(
            "--steps-per-address",
            min=0.1,
            help="Steps a second all the tables one client address created may take together"
            " (bots and dice wait for the budget; bursts of twice this).",
        ),
    ] = Limits.steps_per_address,
    trusted_proxies: Annotated[
        str,
        typer.Option(
            "--trusted-proxies",
            metavar="ADDRESSES",
            help="Addresses or networks (comma-separated, e.g. 127.0.0.1,10.0.0.0/8) of reverse"
            " proxies whose X-Forwarded-For names the client.",
            show_default="none",
        ),
    ] = "",
) -> None:
    """Serve the lobby and the tables: open http://HOST:PORT/ in a browser.

    Every action is written to the database before anyone is told of it; on start the server
    resumes every unfinished table. /healthz answers whether it and its database are up,
    /metrics gives Prometheus metrics to whoever holds the metrics token; the server's own
    logs are JSON lines on stderr.
    """
    import uvicorn

    from horserace.drivers.server.app import create_app
    from horserace.drivers.server.database_url import (
        is_postgres_url,
        postgres_conninfo,
        sqlite_path,
    )
    from horserace.drivers.server.ops import configure_logging
    from horserace.drivers.server.workers import WorkerSettings, serve_workers, uvicorn_options

    levels = ("debug", "info", "warning", "error")
    with user_errors():
        if log_level not in levels:
            raise ConfigError(f"--log-level is one of {', '.join(levels)}")
        if is_postgres_url(db):
            postgres_conninfo(db)
        elif workers > 1 or advertise_host is not None:
            raise ConfigError(
                "--workers above 1 and --advertise-host share one PostgreSQL database:"
                " --db postgresql://..."
            )
        else:
            sqlite_path(db)
    configure_logging(log_level)
    limits = serving_limits(
        sockets_per_address,
        requests_per_second,
        messages_per_address,
        tables_per_address,
        steps_per_address,
        connections_per_address,
        reads_per_second,
    )
    if workers > 1 or advertise_host is not None:
        settings = WorkerSettings(
            db,
            bot_delay,
            key_file,
            log_level,
            openapi,
            asdict(limits),
            metrics_token,
            trusted_proxies,
            advertise=advertise_host or "127.0.0.1",
            peer_port=peer_port,
            health_host=host if health_port is not None else "",
            health_port=health_port or 0,
        )
        serve_workers(workers, host, port, settings)
        return
    uvicorn.run(
        create_app(
            db,
            bot_delay=bot_delay,
            key_file=key_file,
            openapi=openapi,
            limits=limits,
            long_lived=True,
            metrics_token=metrics_token,
            health_at=None if health_port is None else (host, health_port),
        ),
        host=host,
        port=port,
        **uvicorn_options(log_level, trusted_proxies, connections_per_address, door=True),
    )


def verify(
    record_file: Annotated[Path, typer.Argument(help="A record the server published.")],
    seed_hash_given: Annotated[
        str | None,
        typer.Option(
            "--seed-hash",
            metavar="HEX",
            help="The SHA-256 the lobby showed before play.",
            show_default="none: not checked",
        ),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            metavar="HEX",
            help="The server's public key (GET /api/server-key), in hex.",
            show_default="none: the key the record names",
        ),
    ] = None,
    table: Annotated[
        str | None,
        typer.Option(
            "--table",
            metavar="ID",
            help="The id of the table the record must be of.",
            show_default="none: any table",
        ),
    ] = None,
) -> None:
    """Check a record the server published: its signature, its hash chain, the table and seed
    it names, its options, every action and event, every roll of the dice and the standings.

    A record that was changed, cut short, spliced from two, signed by another key or made at
    another table is rejected. Give `--key` (the server's published key), or the check can
    only say that the record is signed by the key it names.

    Exit code 0: verified; 1: not verified (the first problem is named); 2: the file cannot be
    read.
    """
    from horserace.drivers.server.records import check_published

    console = Console(highlight=False)
    with user_errors():
        text = _read_text(record_file)
    checked = check_published(text, server_key=key, table=table, published_hash=seed_hash_given)
    if not checked.readable:
        fail(f"{record_file}: {checked.problems[0]}")
    if not checked.verified:
        console.print(f"[bold red]not verified[/] after {checked.steps} steps:")
        for problem in checked.problems:
            console.print(f"  {problem}", markup=False)
        raise typer.Exit(NOT_VERIFIED)
    console.print(
        f"[green]verified[/]: table {checked.table}, signed by {checked.server_key};"
        f" the chain is whole and all {checked.draws} rolls and cards of {checked.steps}"
        " steps are the ones the seeds draw; the standings follow",
        markup=True,
    )
    if key is None:
        console.print("(compare the signing key with the one the server publishes: --key)")


MAX_RECORD_BYTES = 64 * 1024 * 1024


def _read_text(path: Path) -> str:
    """The record's text, or a RecordError for a file that cannot be one."""
    if path.is_file() and path.stat().st_size > MAX_RECORD_BYTES:
        raise RecordError(f"{path} is larger than any record ({MAX_RECORD_BYTES} bytes)")
    return read_text(path, "record", RecordError)
