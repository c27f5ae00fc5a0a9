"""What one address may read of the API: each GET of `/api/` costs a token of the address's
read bucket, and each whole READ_BYTES_PER_TOKEN of its answer one more, taken as the bytes go out
(the bucket may go into debt: a record's size is known once it is read). A request the bucket
does not allow is answered 429, `refusal_seconds` late, before any work is done for it.

Reads are cheap one at a time, but not free: one address asking in four loops for a finished
table's lobby line, check and multi-megabyte record got 546 answers a second, about a
millisecond of the server's CPU each, and a record's megabytes to write. People read far
less: the lobby and the table page are pushed their changes over WebSockets, so a page reads
a few times as it opens.

With `--workers N` each worker keeps its own buckets (a request is counted where it is
served, under the client address a forwarding worker vouches for)."""

from __future__ import annotations

import asyncio

from horserace.drivers.server.limits import (
    AddressBook,
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    answer_json,
    client_address,
)

READ_BYTES_PER_TOKEN = 256 * 1024
READ_METHODS = frozenset({"GET", "HEAD"})
TOO_MANY = b'{"detail":"too many reads from this address; slow down"}'


class ReadBudget:
    """ASGI middleware: the address's read bucket, charged for every API read."""

    def __init__(self, app: ASGIApp, addresses: AddressBook) -> None:
        self.app = app
        self.addresses = addresses

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method") not in READ_METHODS
            or not str(scope.get("path", "")).startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return
        bucket = self.addresses.reads_of(client_address(scope))
        if not bucket.allow():
            await asyncio.sleep(self.addresses.limits.refusal_seconds)
            await answer_json(send, 429, TOO_MANY, (b"retry-after", b"1"))
            return

        sent = 0  # bytes of the answer so far: each whole READ_BYTES_PER_TOKEN costs one

        async def charged_send(message: Message) -> None:
            nonlocal sent
            if message["type"] == "http.response.body":
                before, sent = sent, sent + len(message.get("body", b""))
                bucket.charge(sent // READ_BYTES_PER_TOKEN - before // READ_BYTES_PER_TOKEN)
            await send(message)

        await self.app(scope, receive, charged_send)
