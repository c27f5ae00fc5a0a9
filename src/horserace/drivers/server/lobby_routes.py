"""The lobby's list of tables over HTTP (paged and filtered) and over a WebSocket that pushes
changed tables, so a lobby page never polls."""

from __future__ import annotations

import contextlib
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Response, WebSocket, WebSocketDisconnect

from horserace.core.errors import ConfigError
from horserace.drivers.server.connection import Connection, encode
from horserace.drivers.server.hub import Hub
from horserace.drivers.server.limits import CLOSE_TOO_MANY, client_address
from horserace.drivers.server.lobby import PAGE_DEFAULT, cursor_after, lobby_page
from horserace.drivers.server.storage import Page


def hub_of(app: FastAPI) -> Hub:
    hub = app.state.hub
    assert isinstance(hub, Hub)
    return hub


def _page(status: str, preset: str | None, limit: int, before: str) -> Page:
    try:
        return lobby_page(status, preset, limit, before)
    except ConfigError as error:
        raise HTTPException(400, str(error)) from None


def add_lobby_routes(app: FastAPI) -> None:
    @app.get("/api/tables")
    async def tables(
        response: Response,
        status: Annotated[str, Query(max_length=20)] = "all",
        preset: Annotated[str | None, Query(max_length=40)] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = PAGE_DEFAULT,
        before: Annotated[str, Query(max_length=80)] = "",
    ) -> list[dict[str, Any]]:
        """Newest first, `limit` at a time (`status`: all, live, open, waiting, playing, finished;
        `preset`); the `X-Next-Page` header is the `before` of the next page."""
        page = _page(status, preset, limit, before)
        found = hub_of(app).page(page)
        following = cursor_after(found, page)
        if following is not None:
            response.headers["X-Next-Page"] = following
        return found

    @app.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        """The first page at once (filtered by the same query as `/api/tables`), then a
        `tables-changed` message at most once a second with the tables that changed."""
        async with app.state.admission:  # a burst's handshakes a group at a time
            await websocket.accept()
        address = client_address(websocket.scope)
        book = app.state.addresses
        if not book.open_socket(address):
            await websocket.close(code=CLOSE_TOO_MANY)
            return
        try:
            await _serve_lobby(app, websocket, address)
        finally:
            book.close_socket(address)


async def _serve_lobby(app: FastAPI, websocket: WebSocket, address: str) -> None:
    query = websocket.query_params
    try:
        limit = int(query.get("limit", PAGE_DEFAULT))
        page = lobby_page(query.get("status", "all"), query.get("preset"), limit)
    except (ConfigError, ValueError) as error:
        await websocket.send_text(
            encode({"type": "error", "code": "bad-message", "message": str(error)})
        )
        await websocket.close(code=1008)
        return
    hub = hub_of(app)
    connection = Connection(app.state.addresses.message_buckets_for(address), address)
    found = hub.page(page)
    first = {"type": "tables", "tables": found, "next": cursor_after(found, page)}
    await websocket.send_text(encode(first))
    hub.lobby.listen(connection, page)
    writer = app.state.spawn_writer(websocket, connection)
    try:
        async for _frame in connection.frames(websocket):
            connection.send({"type": "pong", "version": 0})  # anything sent is a ping
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.lobby.leave(connection)
        connection.close()
        with contextlib.suppress(Exception):
            await writer
