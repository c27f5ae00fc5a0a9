"""A finished table's record as it is sent: encoded and compressed once, off the event loop,
kept for the next request (the most recently asked, up to KEPT_BYTES), and written a slice at
a time. Each request used to load the record's text from storage, encode it on the event loop
and write it whole: a 3.5 MB record was one `send` of about 1.5 ms of the loop's time, 148
records a second to one client. A record does not change once its game is over, so what is
kept is never stale."""

from __future__ import annotations

import asyncio
import gzip
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from horserace.drivers.server.once import Once
from horserace.drivers.server.records import Archive, RecordCheck

KEPT_BYTES = 64 * 1024 * 1024  # records kept ready to send, encoded and compressed
SLICE = 64 * 1024  # bytes of a record written in one turn of the event loop


@dataclass(frozen=True)
class Sendable:
    """A finished table's record as bytes, plain and gzipped, and the check of it."""

    record: bytes
    gzipped: bytes
    check: RecordCheck

    @classmethod
    def of(cls, archive: Archive) -> Sendable:
        """Encoded and compressed (seconds of CPU for the longest records: call it off the
        event loop; zlib lets go of the interpreter while it compresses)."""
        data = archive.record.encode()
        return cls(data, gzip.compress(data, compresslevel=6, mtime=0), archive.check)

    @property
    def size(self) -> int:
        return len(self.record) + len(self.gzipped)


class Published:
    """The sendable records most recently asked for, at most `kept_bytes` of them; each made
    once however many ask for it at once, and at most as many at once as `heavy` lets (the
    hub's bound on work off the loop): two loops asking for one long record while it was
    being made each made it again, and the threads doing so held the interpreter from the
    event loop for seconds."""

    def __init__(self, heavy: asyncio.Semaphore, kept_bytes: int = KEPT_BYTES) -> None:
        self.heavy = heavy
        self.kept_bytes = kept_bytes
        self._kept: OrderedDict[str, Sendable] = OrderedDict()
        self._bytes = 0
        self._making: Once[Sendable | None] = Once()

    async def sendable(
        self, table_id: str, archived: Callable[[str], Awaitable[Archive | None]]
    ) -> Sendable | None:
        """The table's record ready to send: kept, else made from `archived` off the loop."""
        kept = self.get(table_id)
        if kept is not None:
            return kept
        return await self._making.run(table_id, lambda: self._make(table_id, archived))

    async def _make(
        self, table_id: str, archived: Callable[[str], Awaitable[Archive | None]]
    ) -> Sendable | None:
        archive = await archived(table_id)  # a replay, if one is needed, is bounded there
        if archive is None:
            return None
        async with self.heavy:
            made = await asyncio.to_thread(Sendable.of, archive)
        self.keep(table_id, made)
        return made

    def get(self, table_id: str) -> Sendable | None:
        found = self._kept.get(table_id)
        if found is not None:
            self._kept.move_to_end(table_id)
        return found

    def keep(self, table_id: str, sendable: Sendable) -> None:
        if table_id in self._kept or sendable.size > self.kept_bytes:
            return
        self._kept[table_id] = sendable
        self._bytes += sendable.size
        while self._bytes > self.kept_bytes:
            _, gone = self._kept.popitem(last=False)
            self._bytes -= gone.size


class Sliced(Response):
    """A body of bytes written SLICE at a time, the event loop turning between two slices.
    Written whole, a multi-megabyte record was one `send` into the socket of the length of
    the record (on the loopback the kernel's whole path to the reader, in that one call):
    the other tables' moves waited for it."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        body = self.body
        for at in range(0, len(body), SLICE):
            await send(
                {"type": "http.response.body", "body": body[at : at + SLICE], "more_body": True}
            )
            await asyncio.sleep(0)  # the loop's other work between two slices
        await send({"type": "http.response.body", "body": b""})
