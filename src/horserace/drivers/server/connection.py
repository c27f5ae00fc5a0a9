"""One browser's WebSocket as the table sees it: who it is, and a queue of outbound messages.

The table puts messages on the queue while it holds its lock (so every connection sees the
table's changes in order); a writer task per socket sends them, so a slow phone never holds up
the table. A connection that falls too far behind is closed (code 4009) and must reconnect (it
then gets a fresh snapshot). Messages are queued as JSON text, encoded once for everyone who
gets the same one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from horserace.drivers.server.limits import CLOSE_TOO_FAST, CLOSE_TOO_SLOW, TokenBucket

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

MAX_BACKLOG = 2_000


def encode(message: dict[str, Any]) -> str:
    """Compact JSON text: orjson (several times faster than the standard library on views);
    the standard library for what orjson refuses (an integer wider than 64 bits)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


class Connection:
    def __init__(self, buckets: Sequence[TokenBucket] = (), address: str = "") -> None:
        self.seat: int | None = None
        self.host = False
        self.greeted = False
        self.address = address
        self.buckets = buckets  # each message takes one from every bucket (socket, address)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (plain JSON data); never blocks."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue an already encoded message; never blocks."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            self.close(CLOSE_TOO_SLOW)
            return
        self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Ask the writer to end the socket (with `code`) after what is already queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def frames(
        self, websocket: WebSocket, too_fast: dict[str, Any] | None = None
    ) -> AsyncIterator[Mapping[str, Any]]:
        """The socket's frames until it disconnects, this connection closes, or it sends faster
        than one of its buckets allows (its own, its address's): then it is sent `too_fast`
        (if any) and closed (code 4008)."""
        while not self.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            if not all(bucket.allow() for bucket in self.buckets):
                if too_fast is not None:
                    self.send(too_fast)
                self.close(CLOSE_TOO_FAST)
                return
            yield frame
