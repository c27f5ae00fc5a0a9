"""The FastAPI app: the lobby's HTTP routes, one WebSocket per browser, and the static page.

Tokens travel only in request bodies' answers, `Authorization: Bearer` headers and the first
WebSocket message: never in a URL, so shared links and access logs never hold one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from horserace.core.errors import HorseraceError
from horserace.families.presets import PRESETS
from horserace.families.texts import rules_markdown
from horserace.server.catalogue import catalogue
from horserace.server.cluster import Cluster
from horserace.server.connection import Connection
from horserace.server.fair import server_seed
from horserace.server.hub import Hub, TableElsewhere
from horserace.server.limits import (
    CLOSE_NO_TABLE,
    CLOSE_TOO_MANY,
    AddressBook,
    BodyLimit,
    Limits,
    TokenBucket,
    client_address,
)
from horserace.server.lobby_routes import add_lobby_routes
from horserace.server.messages import prepare_live_odds
from horserace.server.ops import METRICS_CONTENT_TYPE, Metrics, event
from horserace.server.protocol import (
    CLIENT_MESSAGE,
    Act,
    AddSeed,
    Chat,
    CreateTable,
    ErrorReply,
    Hello,
    JoinTable,
    Pong,
    Skip,
    Sync,
    Undo,
)
from horserace.server.routing import CLOSE_MOVING, Router
from horserace.server.seating import TableRefusal
from horserace.server.signing import ServerKey
from horserace.server.sql_storage import SQLStorage, is_postgres_url, open_storage, sqlite_path
from horserace.server.storage import Page, Storage
from horserace.server.table import TableMaster
from horserace.server.tokens import hash_token, new_token, token_matches

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("horserace.server")
SWITCH_SECONDS = 0.001
MAX_MESSAGE = 4_096  # characters: every client message is small


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
) -> FastAPI:
    """The server for one database. `seeds` draws each new table's seed (tests fix it);
    `bot_delay` is the pause before a bot's move, so people can follow the game; `key_file`
    holds the key that signs published records (made on first start; by default beside an
    SQLite database, else `horserace-server.key`); `openapi` serves the API's description
    (`/openapi.json`, `/docs`), which is off unless asked for. `peers` makes this server one
    worker of several over a PostgreSQL database (cluster.py, routing.py)."""

    def open_database() -> Storage:
        return storage() if storage is not None else open_storage(database)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the writer thread and bots thinking in threads give the GIL back to the event loop
        # within a millisecond, not Python's default 5 ms: a 5 ms wait is a visible stall
        sys.setswitchinterval(SWITCH_SECONDS)
        key = open_key(database, key_file)
        stored = open_database()
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
        loop = asyncio.get_running_loop()
        # a family's odds may need compiling first (seconds): done on a thread, not the loop
        loop.run_in_executor(None, prepare_live_odds)
        chores = [loop.create_task(hub.housekeeping())]
        if cluster is not None:
            chores.append(loop.create_task(hub.keep_tables()))
        try:
            yield
        finally:
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
    if peers is not None:
        app.add_middleware(Router, route=lambda table: _hub(app).route(table), secret=peers.secret)
    app.add_middleware(BodyLimit)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.spawn_writer = _spawn_writer
    _pages(app)
    _operations(app)
    add_lobby_routes(app)
    _lobby(app)
    _socket(app)
    return app


def open_key(database: str, key_file: str | None) -> ServerKey:
    if key_file is not None:
        return ServerKey.load_or_create(key_file)
    if is_postgres_url(database):
        return ServerKey.load_or_create("horserace-server.key")
    path = sqlite_path(database)
    return ServerKey.generate() if path == ":memory:" else ServerKey.load_or_create(path + ".key")


@dataclass(frozen=True)
class Peers:
    """This server is one worker of several: the address where the others reach it, and the
    secret they share (so a forwarded request is believed about its client)."""

    address: str
    secret: str


def _hub(app: FastAPI) -> Hub:
    hub = app.state.hub
    assert isinstance(hub, Hub)
    return hub


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    """422 naming each bad field and why in one line of text (as every other refusal), never
    echoing the input (which may be NaN, huge, or somebody's token)."""
    assert isinstance(error, RequestValidationError)
    found = []
    for item in error.errors()[:5]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        found.append(f"{where}: {item.get('msg', 'invalid')}" if where else item.get("msg", ""))
    return JSONResponse({"detail": "; ".join(found) or "invalid request"}, status_code=422)


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


def _table(app: FastAPI, table_id: str) -> TableMaster:
    try:
        table = _hub(app).find(table_id)
    except TableElsewhere as error:
        raise HTTPException(503, str(error)) from None
    if table is None:
        raise HTTPException(404, "no such table")
    return table


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


def _operations(app: FastAPI) -> None:
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        """200 while the server answers and its database does; 503 otherwise."""
        hub = _hub(app)
        try:
            await asyncio.to_thread(hub.storage.page_tables, Page(limit=1))
        except Exception as error:  # any database failure is what this reports
            return JSONResponse({"status": "unavailable", "error": type(error).__name__}, 503)
        found: dict[str, Any] = {"status": "ok", "tables": len(hub.tables)}
        if hub.cluster is not None:  # one worker of several: which one
            found.update(worker=hub.cluster.worker, pid=os.getpid())
        return JSONResponse(found)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """Prometheus text format: tables by status, sockets, actions, latency, refusals."""
        held = list(_hub(app).tables.values())
        counts = Counter(table.status for table in held)
        sent = sum(table.connections.sent for table in held)
        body = app.state.metrics.exposition(dict(counts), sent)
        return Response(body, media_type=METRICS_CONTENT_TYPE)


def _lobby(app: FastAPI) -> None:
    @app.get("/api/presets")
    async def presets() -> list[dict[str, Any]]:
        return catalogue()

    @app.get("/api/rules/{preset}")
    async def rules(preset: str) -> PlainTextResponse:
        """The rules as `horserace rules` prints them, for the table page's rules panel."""
        if preset not in PRESETS:
            raise HTTPException(404, "no such game")
        return PlainTextResponse(rules_markdown(preset), media_type="text/markdown")

    @app.post("/api/tables", status_code=201)
    async def create(request: CreateTable, address: Paced) -> dict[str, Any]:
        try:
            table, host_token = await _hub(app).create(request, address)
        except HorseraceError as error:
            raise _refused(error) from None
        return {"table": table.summary(), "host_token": host_token}

    @app.get("/api/tables/{table_id}")
    async def table_detail(table_id: str) -> dict[str, Any]:
        return _table(app, table_id).summary()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: JoinTable, address: Paced) -> dict[str, Any]:
        table = _table(app, table_id)
        token = new_token()
        try:
            seat = await table.join(request.name, request.seat, hash_token(token), request.seed)
        except HorseraceError as error:
            raise _refused(error) from None
        return {"seat": seat, "token": token, "table": table.summary()}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(
        table_id: str, address: Paced, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = _table(app, table_id)
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
        table = _table(app, table_id)
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
        table = _table(app, table_id)
        if not token_matches(_bearer(authorization), table.host_hash):
            raise HTTPException(403, "only the host may start the next game")
        try:
            again = await _hub(app).again(table)
        except HorseraceError as error:
            raise _refused(error) from None
        return again.summary()

    @app.get("/api/tables/{table_id}/verify")
    async def verify(table_id: str) -> dict[str, Any]:
        """The check of a finished table's published record, done by the server for the
        page's link (the same check as `horserace verify`), off the event loop."""
        table = _table(app, table_id)
        try:
            checked = await table.checked(_hub(app).key)
        except HorseraceError as error:
            raise _refused(error) from None
        return {
            "verified": checked.verified,
            "problems": list(checked.problems),
            "draws": checked.draws,
            "steps": checked.steps,
            "seed_hash": table.seed_hash,
            "server_key": checked.server_key,
        }

    @app.get("/api/server-key")
    async def server_key() -> dict[str, str]:
        """The public key that signs every published record (check one with `horserace
        verify RECORD --key THIS`)."""
        return {"algorithm": "Ed25519", "server_key": _hub(app).key.public_hex}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> PlainTextResponse:
        table = _table(app, table_id)
        try:
            text = table.published(_hub(app).key)
        except HorseraceError as error:
            raise _refused(error) from None
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{table_id}.jsonl"'},
        )


def _socket(app: FastAPI) -> None:
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        address = client_address(websocket.scope)
        book = _addresses(app)
        if not book.open_socket(address):
            await websocket.send_json(_error("rate-limited", "too many sockets from this address"))
            await websocket.close(code=CLOSE_TOO_MANY)
            app.state.metrics.closed.labels(str(CLOSE_TOO_MANY)).inc()
            return
        gauge = app.state.metrics.connections
        gauge.inc()
        try:
            await _serve_socket(app, websocket, table_id, address)
        finally:
            gauge.dec()
            book.close_socket(address)


async def _serve_socket(app: FastAPI, websocket: WebSocket, table_id: str, address: str) -> None:
    try:
        table = _hub(app).find(table_id)
    except TableElsewhere:
        await websocket.close(code=CLOSE_MOVING)
        return
    if table is None:
        await websocket.send_json(_error("bad-message", "no such table"))
        await websocket.close(code=CLOSE_NO_TABLE)
        return
    limits: Limits = app.state.limits
    connection = Connection(TokenBucket(limits.messages_per_second, limits.message_burst), address)
    writer = _spawn_writer(websocket, connection)
    metrics: Metrics = app.state.metrics
    try:
        too_fast = _error("rate-limited", "too many messages; slow down")
        async for frame in connection.frames(websocket, too_fast):
            text = frame.get("text")
            if not isinstance(text, str):
                connection.send(_error("bad-message", "send JSON in text frames", None))
                continue
            await _handle(table, connection, text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        table.disconnect(connection)
        connection.close()
        if connection.close_code != 1000:
            metrics.closed.labels(str(connection.close_code)).inc()
            event(log, "socket closed", table=table.id, code=connection.close_code, by=address)
        with contextlib.suppress(Exception):
            await writer


def _spawn_writer(websocket: WebSocket, connection: Connection) -> asyncio.Task[None]:
    return asyncio.get_running_loop().create_task(_write(websocket, connection))


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send queued messages in order; a None in the queue closes the socket."""
    with contextlib.suppress(Exception):
        while True:
            message = await connection.queue.get()
            if message is None:
                await websocket.close(code=connection.close_code)
                return
            await websocket.send_text(message)


def _error(code: str, message: str, version: int | None = None) -> dict[str, Any]:
    return ErrorReply.model_validate(
        {"code": code, "message": message, "version": version}
    ).model_dump(mode="json")


async def _handle(table: TableMaster, connection: Connection, text: str) -> None:
    if len(text) > MAX_MESSAGE:
        connection.send(_error("bad-message", "message too long", table.version))
        return
    try:
        message = CLIENT_MESSAGE.validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        reason = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "")
        connection.send(_error("bad-message", f"not a message of this protocol ({reason})"))
        return
    if not connection.greeted:
        if not isinstance(message, Hello):
            connection.send(_error("bad-message", "say hello first", table.version))
            return
        connection.seat, connection.host = None, False
        if message.token is not None:
            token = message.token
            seat = table.seat_of(lambda stored: token_matches(token, stored))
            if seat is None:
                connection.send(_error("unauthorized", "that token holds no seat here"))
                return
            connection.seat = seat
        if message.host_token is not None:
            if not token_matches(message.host_token, table.host_hash):
                connection.send(_error("unauthorized", "that is not this table's host token"))
                return
            connection.host = True
        await table.connect(connection, message.since)
        return
    if isinstance(message, Hello):
        connection.send(_error("bad-message", "already greeted", table.version))
    elif isinstance(message, Act):
        await table.act(connection, message)
    elif isinstance(message, Sync):
        await table.resync(connection, message.since)
    elif isinstance(message, Undo):
        await table.undo(connection, message)
    elif isinstance(message, Skip):
        await table.skip(connection)
    elif isinstance(message, Chat):
        await table.say(connection, message.text)
    elif isinstance(message, AddSeed):
        await table.add_seed(connection, message.seed)
    else:
        connection.send(Pong(version=table.version).model_dump(mode="json"))
