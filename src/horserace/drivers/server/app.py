"""The FastAPI app: the lobby's HTTP routes, one WebSocket per browser, and the static page.

Tokens travel only in request bodies' answers, `Authorization: Bearer` headers and the first
WebSocket message: never in a URL, so shared links and access logs never hold one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from horserace.core.errors import HorseraceError
from horserace.core.files import state_directory
from horserace.drivers.server.catalogue import catalogue
from horserace.drivers.server.cluster import Cluster
from horserace.drivers.server.database_url import is_postgres_url, sqlite_path
from horserace.drivers.server.event_loop import turn_times
from horserace.drivers.server.fair import server_seed
from horserace.drivers.server.health import Health
from horserace.drivers.server.hub import Hub, TableElsewhere
from horserace.drivers.server.limits import (
    ADMITTING,
    AddressBook,
    BodyLimit,
    Limits,
    client_address,
)
from horserace.drivers.server.lobby_routes import add_lobby_routes, hub_of
from horserace.drivers.server.messages import prepare_live_odds
from horserace.drivers.server.ops import (
    METRICS_CONTENT_TYPE,
    Metrics,
    metrics_allowed,
    tune_collector,
)
from horserace.drivers.server.protocol import (
    CreateTable,
    JoinTable,
)
from horserace.drivers.server.published import Sendable, Sliced
from horserace.drivers.server.read_budget import ReadBudget
from horserace.drivers.server.routing import HAND_OVER, PEER, Router
from horserace.drivers.server.seating import TableRefusal
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.sql_storage import SQLStorage, open_storage
from horserace.drivers.server.storage import Page, Storage
from horserace.drivers.server.table import TableMaster
from horserace.drivers.server.table_socket import add_table_socket, spawn_writer
from horserace.drivers.server.tokens import hash_token, new_token, token_matches
from horserace.families.presets import PRESETS
from horserace.families.texts import plain_rules, rules_markdown

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("horserace.drivers.server")
SWITCH_SECONDS = 0.001


def create_app(
    database: str = "sqlite:///horserace.db",
    *,
    bot_delay: float = 0.0,
    seeds: Callable[[], int] = server_seed,
    storage: Callable[[], Storage] | None = None,
    limits: Limits | None = None,
    key_file: str | None = None,
    openapi: bool = False,
    peers: Peers | None = None,
    long_lived: bool = False,
    metrics_token: str | None = None,
    health_at: tuple[str, int] | None = None,
) -> FastAPI:
    """The server for one database. `seeds` draws each new table's seed (tests fix it);
    `bot_delay` is the pause before a bot's move, so people can follow the game; `key_file`
    holds the key that signs published records (made on first start; by default beside an
    SQLite database, else `default_key_path()`); `openapi` serves the API's description
    (`/openapi.json`, `/docs`), which is off unless asked for. `peers` makes this server one
    worker of several over a PostgreSQL database (cluster.py, routing.py). `long_lived`: the
    app is a server process's (`serve`), so Python's collector is set for one
    (`ops.tune_collector`). `metrics_token`: `/metrics` answers only a request that sends
    it as `Authorization: Bearer TOKEN` (none: `/metrics` is not served). `health_at`:
    (HOST, PORT) where a thread answers `/healthz` off the event loop (health.py)."""

    def open_database(key: ServerKey) -> Storage:
        return storage() if storage is not None else open_storage(database, key.seed_seal())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the writer thread and bots thinking in threads give the GIL back to the event loop
        # within a millisecond, not Python's default 5 ms: a 5 ms wait is a visible stall
        sys.setswitchinterval(SWITCH_SECONDS)
        key = open_key(database, key_file)
        stored = open_database(key)
        cluster = None
        if peers is not None:
            cluster = Cluster(database, peers.address)
            if isinstance(stored, SQLStorage):
                stored.owner = cluster.worker  # its writes check that it owns the table
        hub = Hub(
            stored,
            bot_delay=bot_delay,
            seeds=seeds,
            limits=app.state.limits,
            key=key,
            metrics=app.state.metrics,
            cluster=cluster,
        )
        app.state.hub = hub
        hub.resume()
        if long_lived:
            tune_collector()
        loop = asyncio.get_running_loop()
        app.state.metrics.turns = turn_times()
        # a family's odds may need compiling first (seconds): done on a thread, not the loop
        loop.run_in_executor(None, prepare_live_odds)
        chores = [loop.create_task(hub.housekeeping())]
        if cluster is not None:
            chores.append(loop.create_task(hub.keep_tables()))
        # the loop's heartbeat and the database's last answer, read off the loop: by the
        # front door for the public /healthz, and on a port of its own (health.py)
        health = Health(lambda: stored.page_tables(Page(limit=1)))
        health.tables = lambda: len(hub.tables)
        hub.tables.on_change = health.tables_changed
        if cluster is not None:
            health.details = {"worker": cluster.worker, "pid": os.getpid()}
        health.start()
        if health_at is not None:
            health.serve(*health_at)
        app.state.health = health
        chores.append(loop.create_task(health.heartbeat()))
        try:
            yield
        finally:
            health.stop()
            for chore in chores:
                chore.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await chore
            await hub.close()

    app = FastAPI(
        title="horserace",
        lifespan=lifespan,
        docs_url="/docs" if openapi else None,
        redoc_url=None,
        openapi_url="/openapi.json" if openapi else None,
    )
    app.state.metrics = Metrics()
    app.state.limits = limits or Limits()
    app.state.addresses = AddressBook(app.state.limits)
    app.state.admission = asyncio.Semaphore(ADMITTING)
    app.add_middleware(ReadBudget, addresses=app.state.addresses)  # inside the Router: where served
    if peers is not None:
        app.add_middleware(
            Router,
            route=lambda table: hub_of(app).route(table),
            secret=peers.secret,
            worker=lambda: hub_of(app).worker_id(),
        )
        _hand_over(app, peers.secret)
    app.add_middleware(BodyLimit)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(StarletteHTTPException, _slow_refusal)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.spawn_writer = spawn_writer
    _pages(app)
    _operations(app, metrics_token)
    add_lobby_routes(app)
    _lobby(app)
    add_table_socket(app)
    return app


def open_key(database: str, key_file: str | None) -> ServerKey:
    """The key named, else the one beside an SQLite file; a PostgreSQL server's lives in the
    user's state directory (never the working directory, which may be a source tree); an
    in-memory database's records do not outlive it, and neither does its key."""
    if key_file is not None:
        return ServerKey.load_or_create(key_file)
    if is_postgres_url(database):
        return ServerKey.load_or_create(default_key_path())
    path = sqlite_path(database)
    return ServerKey.generate() if path == ":memory:" else ServerKey.load_or_create(path + ".key")


def _hand_over(app: FastAPI, secret: str) -> None:
    @app.post(HAND_OVER + "{table_id}", include_in_schema=False)
    async def hand_over(table_id: str, request: Request) -> JSONResponse:
        """Another worker asks for a table a socket of its wants (only workers know the
        secret): given when nobody is connected to it here."""
        peer = request.headers.get(PEER.decode(), "")
        if not hmac.compare_digest(peer.encode(), secret.encode()):
            raise HTTPException(403, "workers only")
        try:
            worker = int((await request.json())["worker"])
        except (ValueError, KeyError, TypeError):
            raise HTTPException(400, "worker: a worker id") from None
        return JSONResponse({"moved": await hub_of(app).hand_over(table_id, worker)})


def default_key_path() -> Path:
    return state_directory() / "server.key"


@dataclass(frozen=True)
class Peers:
    """This server is one worker of several: the address where the others reach it, and the
    secret they share (so a forwarded request is believed about its client)."""

    address: str
    secret: str


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    """422 naming each bad field and why in one line of text (as every other refusal), never
    echoing the input (which may be NaN, huge, or somebody's token)."""
    assert isinstance(error, RequestValidationError)
    found = []
    for item in error.errors()[:5]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        found.append(f"{where}: {item.get('msg', 'invalid')}" if where else item.get("msg", ""))
    return JSONResponse({"detail": "; ".join(found) or "invalid request"}, status_code=422)


async def _slow_refusal(request: Request, error: Exception) -> Response:
    """A 429 goes out `refusal_seconds` late: a client that asks again as soon as it is
    refused is slowed to one refusal a pause, which costs a timer, not a request served
    (one connection asking as fast as it was refused had ~100 refusals a second)."""
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 429:
        await asyncio.sleep(request.app.state.limits.refusal_seconds)
    return await http_exception_handler(request, error)


def _addresses(app: FastAPI) -> AddressBook:
    book = app.state.addresses
    assert isinstance(book, AddressBook)
    return book


def _paced(request: Request) -> str:
    """A dependency of every lobby request that changes something: its client's address,
    once the address's request bucket allows one more (429 otherwise)."""
    address = client_address(request.scope)
    if not _addresses(request.app).request_allowed(address):
        raise HTTPException(429, "too many requests from this address; slow down")
    return address


Paced = Annotated[str, Depends(_paced)]


async def _table(app: FastAPI, table_id: str) -> TableMaster:
    """The live table (read back off the event loop if it left memory), for a request
    that changes it."""
    try:
        table = await hub_of(app).load(table_id)
    except TableElsewhere as error:
        raise HTTPException(503, str(error)) from None
    if table is None:
        raise HTTPException(404, "no such table")
    return table


async def _sendable(app: FastAPI, table_id: str) -> Sendable:
    """A finished table's record and check, as stored when it ended, ready to send."""
    try:
        found = await hub_of(app).sendable(table_id)
    except TableElsewhere as error:
        raise HTTPException(503, str(error)) from None
    except HorseraceError as error:
        raise _refused(error) from None
    if found is None:
        raise HTTPException(404, "no such table")
    return found


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.startswith("Bearer "):
        raise HTTPException(401, "send your token as 'Authorization: Bearer TOKEN'")
    return authorization.removeprefix("Bearer ").strip()


def _refused(error: HorseraceError) -> HTTPException:
    if isinstance(error, TableRefusal) and error.code == "rate-limited":
        return HTTPException(429, str(error))
    status = 409 if isinstance(error, TableRefusal) else 400
    return HTTPException(status, str(error))


def _pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")


def _operations(app: FastAPI, metrics_token: str | None) -> None:
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        """200 while the server answers and its database does; 503 otherwise."""
        hub = hub_of(app)
        try:
            await asyncio.to_thread(hub.storage.page_tables, Page(limit=1))
        except Exception as error:  # any database failure is what this reports
            return JSONResponse({"status": "unavailable", "error": type(error).__name__}, 503)
        found: dict[str, Any] = {"status": "ok", "tables": len(hub.tables)}
        if hub.cluster is not None:  # one worker of several: which one
            found.update(worker=hub.cluster.worker, pid=os.getpid())
        return JSONResponse(found)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(authorization: Annotated[str | None, Header()] = None) -> Response:
        """Prometheus text format: tables by status, sockets, actions, latency, refusals;
        only to the operator (the token), never to a player on the game port."""
        if metrics_token is None:
            raise HTTPException(404, "metrics are off: start the server with a metrics token")
        if not metrics_allowed(metrics_token, authorization):
            raise HTTPException(
                401,
                "send the metrics token as 'Authorization: Bearer TOKEN'",
                headers={"WWW-Authenticate": "Bearer"},
            )
        hub = hub_of(app)
        held = list(hub.tables.values())
        counts = Counter(table.status for table in held)
        sent = sum(table.connections.sent for table in held)
        worker = hub.cluster.worker if hub.cluster is not None else None
        body = app.state.metrics.exposition(dict(counts), sent, worker)
        return Response(body, media_type=METRICS_CONTENT_TYPE)


def _lobby(app: FastAPI) -> None:
    @app.get("/api/presets")
    async def presets() -> list[dict[str, Any]]:
        return catalogue()

    @app.get("/api/rules/{preset}")
    async def rules(preset: str) -> PlainTextResponse:
        """The rules for the table page's rules panel: `horserace rules` without what is
        about the command line (flags, files, commands)."""
        if preset not in PRESETS:
            raise HTTPException(404, "no such game")
        return PlainTextResponse(plain_rules(rules_markdown(preset)), media_type="text/markdown")

    @app.post("/api/tables", status_code=201)
    async def create(request: CreateTable, address: Paced) -> dict[str, Any]:
        try:
            table, host_token = await hub_of(app).create(request, address)
        except HorseraceError as error:
            raise _refused(error) from None
        return {"table": table.summary(), "host_token": host_token}

    @app.get("/api/tables/{table_id}")
    async def table_detail(table_id: str) -> dict[str, Any]:
        """The lobby line: the live table's, else its stored row's (never a replay)."""
        found = await hub_of(app).summary(table_id)
        if found is None:
            raise HTTPException(404, "no such table")
        return found

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: JoinTable, address: Paced) -> dict[str, Any]:
        table = await _table(app, table_id)
        token = new_token()
        try:
            token_hash = hash_token(token)
            seat = await table.join(request.name, request.seat, token_hash, request.commitment)
        except HorseraceError as error:
            raise _refused(error) from None
        return {"seat": seat, "token": token, "table": table.summary()}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(
        table_id: str, address: Paced, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await _table(app, table_id)
        token = _bearer(authorization)
        seat = table.seat_of(lambda stored: token_matches(token, stored))
        if seat is None:
            raise HTTPException(403, "that token holds no seat at this table")
        await table.leave(seat)
        return table.summary()

    @app.post("/api/tables/{table_id}/start")
    async def start(
        table_id: str, address: Paced, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await _table(app, table_id)
        if not token_matches(_bearer(authorization), table.host_hash):
            raise HTTPException(403, "only the host may start the table")
        try:
            await table.start()
        except HorseraceError as error:
            raise _refused(error) from None
        return table.summary()

    @app.post("/api/tables/{table_id}/again", status_code=201)
    async def again(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The host's "play again": the next game with the same seats (and tokens)."""
        table = await _table(app, table_id)
        if not token_matches(_bearer(authorization), table.host_hash):
            raise HTTPException(403, "only the host may start the next game")
        try:
            again = await hub_of(app).again(table)
        except HorseraceError as error:
            raise _refused(error) from None
        return again.summary()

    @app.get("/api/tables/{table_id}/verify")
    async def verify(table_id: str) -> dict[str, Any]:
        """The check of a finished table's published record, done by the server for the
        page's link (the same check as `horserace verify`) when the game ended."""
        checked = (await _sendable(app, table_id)).check
        line = await hub_of(app).summary(table_id)
        return {
            "verified": checked.verified,
            "problems": list(checked.problems),
            "draws": checked.draws,
            "steps": checked.steps,
            "seed_hash": line["seed_hash"] if line is not None else None,
            "server_key": checked.server_key,
        }

    @app.get("/api/server-key")
    async def server_key() -> dict[str, str]:
        """The public key that signs every published record (check one with `horserace
        verify RECORD --key THIS`)."""
        return {"algorithm": "Ed25519", "server_key": hub_of(app).key.public_hex}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        """The published record, as stored when the game ended (gzipped for a client that
        accepts it: about a quarter of the bytes to write), a slice a turn of the loop."""
        sendable = await _sendable(app, table_id)
        headers = {
            "Content-Disposition": f'attachment; filename="{table_id}.jsonl"',
            "Vary": "Accept-Encoding",
        }
        body = sendable.record
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            body, headers["Content-Encoding"] = sendable.gzipped, "gzip"
        return Sliced(body, media_type="application/x-ndjson", headers=headers)
