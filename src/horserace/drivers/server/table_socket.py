"""A table's WebSocket: the route, the loop that reads a browser's messages under its rate
limit, and what each message of the protocol asks of the table (hello first, then acts, syncs,
undos, skips, chat, and the seeds' commitments and reveals); a writer task per socket sends
what the table queues."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from horserace.drivers.server.connection import Connection
from horserace.drivers.server.hub import TableElsewhere
from horserace.drivers.server.limits import (
    CLOSE_NO_TABLE,
    CLOSE_TOO_MANY,
    WRITES_UNTOLD,
    AddressBook,
    client_address,
)
from horserace.drivers.server.lobby_routes import hub_of
from horserace.drivers.server.ops import Metrics, event
from horserace.drivers.server.protocol import (
    CLIENT_MESSAGE,
    Act,
    AnswerForMe,
    Chat,
    CommitSeed,
    ErrorReply,
    Hello,
    NextRace,
    Pong,
    RevealSeed,
    Skip,
    StandIn,
    Sync,
    Undo,
)
from horserace.drivers.server.routing import CLOSE_MOVING
from horserace.drivers.server.table import TableMaster
from horserace.drivers.server.tokens import token_matches

log = logging.getLogger("horserace.drivers.server")
MAX_MESSAGE = 4_096  # characters: every client message is small


def add_table_socket(app: FastAPI) -> None:
    """The route of a table's sockets: `/ws/tables/ID`."""

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        async with app.state.admission:  # a burst's handshakes a group at a time
            await websocket.accept()
        address = client_address(websocket.scope)
        book = app.state.addresses
        assert isinstance(book, AddressBook)
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
        table = await hub_of(app).load(table_id)
    except TableElsewhere:
        await websocket.close(code=CLOSE_MOVING)
        return
    if table is None:
        await websocket.send_json(_error("bad-message", "no such table"))
        await websocket.close(code=CLOSE_NO_TABLE)
        return
    connection = Connection(app.state.addresses.message_buckets_for(address), address)
    writer = spawn_writer(websocket, connection)
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


def spawn_writer(websocket: WebSocket, connection: Connection) -> asyncio.Task[None]:
    return asyncio.get_running_loop().create_task(_write(websocket, connection))


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send queued messages in order; a None in the queue closes the socket. A backlog is
    sent a few messages at a time, the loop turning between them: a connection that was
    lost under a send is told to the socket within that turn, so the next send fails and
    ends this writer, instead of a whole backlog being written into a dead transport
    (asyncio logs each such write after the `WRITES_UNTOLD`th)."""
    with contextlib.suppress(Exception):
        sent = 0
        while True:
            message = await connection.queue.get()
            if message is None:
                await websocket.close(code=connection.close_code)
                return
            await websocket.send_text(message)
            sent += 1
            if sent % WRITES_UNTOLD == 0 and not connection.queue.empty():
                await asyncio.sleep(0)


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
    elif isinstance(message, NextRace):
        await table.next_race(connection)
    elif isinstance(message, StandIn):
        await table.stand_in(connection, message.seat, message.on)
    elif isinstance(message, Chat):
        await table.say(connection, message.text)
    elif isinstance(message, CommitSeed):
        await table.commit_seed(connection, message.commitment)
    elif isinstance(message, RevealSeed):
        await table.reveal_seed(connection, message.seed)
    elif isinstance(message, AnswerForMe):
        await table.answer_for_me(connection, message.on)
    else:
        connection.send(Pong(version=table.version).model_dump(mode="json"))
