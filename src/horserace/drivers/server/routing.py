"""Requests for a table that another worker owns go to that worker (cluster.py): an HTTP
request is sent on and its answer sent back; a WebSocket is joined to one opened to the owner,
frame for frame, and closed when either side closes. So a client connected to any worker sees
every table, and each table still has exactly one writer. A socket first asks the owner for
its table: an owner where nobody is connected to it gives it (hub.hand_over), and the socket
is then served where it arrived, one event loop instead of two.

A forwarded request carries the cluster's secret and the client's address, so the owner
counts it against the client (not against the worker that forwarded it) and never forwards
it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from horserace.drivers.server.limits import (
    MAX_FRAME,
    WRITES_UNTOLD,
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    answer_json,
)

log = logging.getLogger("horserace.drivers.server")
MOVING = b'{"detail":"the table is moving to another worker; retry"}'  # its owner did not answer
PEER = b"x-horserace-peer"  # the cluster's secret: this request was forwarded by a worker
CLIENT = b"x-horserace-client"  # the address of the client the request came from
TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/([^/]+)")
CLOSE_MOVING = 1012  # "service restart": the page reconnects, and finds the table's new owner
HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"host"}
NOT_FORWARDED = HOP_BY_HOP | {
    b"content-length",
    b"sec-websocket-key",
    b"sec-websocket-version",
    b"sec-websocket-extensions",
    b"sec-websocket-accept",
    PEER,
    CLIENT,
}
FORWARD_SECONDS = 30.0

HAND_OVER = "/_workers/hand-over/"  # + table id: the owner gives the table to the asker
Route = Callable[[str], Awaitable[str | None]]


class Router:
    """ASGI middleware: `route(table_id)` names the owner's address, or None to serve here."""

    def __init__(
        self, app: ASGIApp, route: Route, secret: str, worker: Callable[[], int] | None = None
    ) -> None:
        self.app = app
        self.route = route
        self.secret = secret.encode()
        self.worker = worker  # this worker's id: a socket's table may move here
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":  # the forwarding client closes with the app
            await self.app(scope, receive, self._closing(send))
            return
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        peer = headers.get(PEER)
        if peer is not None:
            if hmac.compare_digest(peer, self.secret):  # forwarded by a worker: serve here
                client = headers.get(CLIENT, b"unknown").decode("latin-1")
                scope = {**scope, "client": (client, 0)}
            else:  # somebody else's header: ignore it
                scope = {**scope, "headers": [h for h in scope["headers"] if h[0] != PEER]}
        else:
            found = TABLE_PATH.match(scope["path"])
            address = await self.route(found.group(1)) if found else None
            if address is not None and found is not None:
                if scope["type"] == "http":
                    await self._http(address, scope, receive, send)
                elif not await self._take(found.group(1), address):
                    await self._socket(address, scope, receive, send)
                else:
                    await self.app(scope, receive, send)  # the table is this worker's now
                return
        await self.app(scope, receive, send)

    def _headers(self, scope: Scope) -> list[tuple[str, str]]:
        kept = [
            (name.decode("latin-1"), value.decode("latin-1"))
            for name, value in scope.get("headers", ())
            if name not in NOT_FORWARDED
        ]
        client = scope.get("client")
        kept.append((PEER.decode(), self.secret.decode()))
        kept.append((CLIENT.decode(), str(client[0]) if client else "unknown"))
        return kept

    def _forwarder(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(trust_env=False, timeout=FORWARD_SECONDS)
        return self._client

    async def _take(self, table_id: str, address: str) -> bool:
        """A socket for a table another worker owns: ask the owner for the table (it gives
        it when nobody is connected to it there), so this socket's messages are served here
        instead of crossing two event loops for the rest of the game."""
        if self.worker is None:
            return False
        try:
            answer = await self._forwarder().post(
                f"http://{address}{HAND_OVER}{table_id}",
                headers={PEER.decode(): self.secret.decode()},
                json={"worker": self.worker()},
            )
            return answer.status_code == 200 and answer.json().get("moved") is True
        except (httpx.HTTPError, ValueError):
            return False

    async def _http(self, address: str, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        query = scope.get("query_string", b"").decode("latin-1")
        url = f"http://{address}{scope['path']}" + (f"?{query}" if query else "")
        forwarder = self._forwarder()
        asked = forwarder.build_request(
            scope["method"], url, headers=self._headers(scope), content=body
        )
        try:
            answer = await forwarder.send(asked, stream=True)
        except httpx.HTTPError as error:
            log.warning("forwarding to %s failed: %s", address, type(error).__name__)
            await answer_json(send, 503, MOVING)
            return
        headers = [
            (name.encode("latin-1"), value.encode("latin-1"))
            for name, value in answer.headers.multi_items()
            if name.encode("latin-1") not in HOP_BY_HOP | {b"content-length"}
        ]
        try:  # the owner's bytes as they come, as it sent them (a gzipped record stays so)
            await send(
                {"type": "http.response.start", "status": answer.status_code, "headers": headers}
            )
            async for piece in answer.aiter_raw():
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        except httpx.HTTPError as error:  # the answer has begun: the client sees it cut
            log.warning("forwarding from %s broke off: %s", address, type(error).__name__)
        finally:
            await answer.aclose()

    async def _socket(self, address: str, scope: Scope, receive: Receive, send: Send) -> None:
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        url = f"ws://{address}{scope['path']}"
        try:
            upstream = await connect(
                url,
                additional_headers=self._headers(scope),
                max_size=MAX_FRAME,
                compression=None,
                open_timeout=10,
                proxy=None,
            )
        except Exception as error:  # the owner is gone or not answering: find the new one
            log.warning("forwarding a socket to %s failed: %s", address, type(error).__name__)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_MOVING})
            return
        await send({"type": "websocket.accept"})
        inbound = asyncio.ensure_future(_client_to_owner(receive, upstream))
        outbound = asyncio.ensure_future(_owner_to_client(upstream, send))
        try:
            await asyncio.wait((inbound, outbound), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (inbound, outbound):
                task.cancel()
            for task in (inbound, outbound):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await upstream.close()

    def _closing(self, send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "lifespan.shutdown.complete":
                await self.close()
            await send(message)

        return sending

    async def close(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()


async def _client_to_owner(receive: Receive, upstream: ClientConnection) -> None:
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        if message["type"] == "websocket.receive":
            data: Any = message.get("text")
            await upstream.send(data if data is not None else message.get("bytes") or b"")


async def _owner_to_client(upstream: ClientConnection, send: Send) -> None:
    try:
        sent = 0
        async for data in upstream:
            frame: Message = {"type": "websocket.send"}
            frame["text" if isinstance(data, str) else "bytes"] = data
            await send(frame)
            sent += 1
            if sent % WRITES_UNTOLD == 0:  # a lost client is told before the next sends
                await asyncio.sleep(0)
    except ConnectionClosed:
        pass
    code = upstream.close_code
    if code is None or code in (1005, 1006, 1011):  # the owner went away: find the new one
        code = CLOSE_MOVING
    with contextlib.suppress(Exception):
        await send({"type": "websocket.close", "code": code})
