"""One browser's WebSocket as the table sees it: who it is, and a queue of outbound messages.

The table puts messages on the queue while it holds its lock (so every connection sees the
table's changes in order); a writer task per socket sends them, so a slow phone never holds up
the table. A connection that falls too far behind is closed and must reconnect (it then gets
what it missed).
"""

from __future__ import annotations

import asyncio
from typing import Any

MAX_BACKLOG = 2_000


class Connection:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.host = False
        self.greeted = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (already plain JSON data); never blocks."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        """Ask the writer to end the socket after what is already queued."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)
