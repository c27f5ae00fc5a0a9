"""The forwarding middleware of a worker: its HTTP client to other workers closes with the app."""

from __future__ import annotations

import asyncio

import httpx

from horserace.drivers.server.limits import Message, Receive, Scope, Send
from horserace.drivers.server.routing import Router


async def _lifespan_app(scope: Scope, receive: Receive, send: Send) -> None:
    """An app that starts and stops, as the ASGI server drives it."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _nowhere(table: str) -> str | None:
    return None


def test_the_forwarding_client_closes_when_the_app_shuts_down() -> None:
    async def run() -> tuple[httpx.AsyncClient, list[str]]:
        router = Router(_lifespan_app, _nowhere, "secret")
        client = httpx.AsyncClient()
        router._client = client  # as the first forwarded request leaves it
        inbox = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
        sent: list[str] = []

        async def receive() -> Message:
            return inbox.pop(0)

        async def send(message: Message) -> None:
            sent.append(message["type"])
            if message["type"] == "lifespan.startup.complete":
                assert not client.is_closed  # open while the app runs

        await router({"type": "lifespan"}, receive, send)
        return client, sent

    client, sent = asyncio.run(run())
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert client.is_closed
