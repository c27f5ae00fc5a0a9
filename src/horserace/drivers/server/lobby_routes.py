"""The lobby's list of tables over HTTP (paged and filtered) and over a WebSocket that pushes
changed tables, so a lobby page never polls; a table found by its room code; the invite link
as a QR code."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Annotated, Any

from fastapi import (
    FastAPI,
    HTTPException,
    Path,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)

from horserace.core.errors import ConfigError
from horserace.drivers.server.connection import Connection, encode
from horserace.drivers.server.hub import Hub
from horserace.drivers.server.limits import CLOSE_TOO_MANY, client_address
from horserace.drivers.server.lobby import (
    PAGE_DEFAULT,
    cursor_after,
    listed,
    lobby_page,
    rooms_matching,
)
from horserace.drivers.server.storage import WAITING, Page


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
        return listed(found)

    @app.get("/api/rooms/{code}")
    async def room(code: Annotated[str, Path(max_length=20)]) -> dict[str, str]:
        """The table a room code names: one in memory, else one waiting in storage."""
        hub = hub_of(app)
        found = rooms_matching(code, list(hub.tables))
        if not found:
            rows = await asyncio.to_thread(hub.storage.list_tables, (WAITING,))
            found = rooms_matching(code, [row.id for row in rows])
        if not found:
            raise HTTPException(404, "no table has that room code: check the letters")
        return {"table": found[-1]}

    @app.get("/api/tables/{table_id}/qr.svg")
    async def invite_qr(
        table_id: Annotated[str, Path(max_length=40)], request: Request
    ) -> Response:
        """The table's invite link as a QR code, for a phone's camera."""
        import segno  # only the host's invite panel asks for it

        known = await asyncio.to_thread(hub_of(app).summary_of, table_id)  # any worker's table
        if known is None:
            raise HTTPException(404, "no such table")
        link = f"{str(request.base_url).rstrip('/')}/table/{known['id']}"
        drawn = io.BytesIO()
        segno.make(link, error="m").save(drawn, kind="svg", scale=5, title=f"QR code of {link}")
        return Response(
            drawn.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
        )

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
    first = {"type": "tables", "tables": listed(found), "next": cursor_after(found, page)}
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
