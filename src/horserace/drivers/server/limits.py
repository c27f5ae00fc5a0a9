"""What one client may cost the server: request bodies, message rates, sockets and tables per
address. Every limit is checked before any work is done for the request it limits."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from horserace.drivers.server.fair import REVEAL_SECONDS
from horserace.drivers.server.turn_clock import ANSWER_SECONDS

MAX_BODY = 64 * 1024  # bytes of an HTTP request body
MAX_FRAME = 64 * 1024  # bytes of a WebSocket frame (uvicorn refuses larger ones with 1009)
# New sockets in their handshake at once: 500 clients connecting together are let in 32 at a
# time, so each of the loop's turns holds a group's handshakes, not all of them, and the other
# tables' messages are read between groups.
ADMITTING = 32
# Messages written to one socket between two turns of the loop: a connection lost under a
# send is told to its socket at the next turn, and asyncio logs each write into a lost
# connection from its 5th (LOG_THRESHOLD_FOR_CONNLOST_WRITES) on.
WRITES_UNTOLD = 4
MAX_ADDRESSES = 100_000  # addresses whose buckets are kept

# WebSocket close codes (4000-4999 are the application's own)
CLOSE_TOO_FAST = 4008  # more messages than the rate allows
CLOSE_TOO_SLOW = 4009  # the client did not read what it was sent
CLOSE_TOO_MANY = 4029  # this address holds too many sockets already
CLOSE_NO_TABLE = 4404

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a body longer than `limit` bytes is answered 413 before it is read
    (by its Content-Length), or as soon as the bytes received pass the limit (a chunked body
    has none): the app is then told the client went away, and whatever it answers is
    dropped, so the answer is 413 whichever way the body came."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            too_long = not value.isdigit() or len(value) > 12 or int(value) > self.limit
            if name == b"content-length" and too_long:
                await _too_large(send, self.limit)
                return
        received = 0
        started = False  # the app's answer has begun
        answered = False  # the 413 went out instead

        async def limited_receive() -> Message:
            nonlocal received, answered
            if received > self.limit:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    if not started:
                        answered = True
                        await _too_large(send, self.limit)
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if answered:
                return  # the 413 was the answer
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited_receive, watched_send)


async def _too_large(send: Send, limit: int) -> None:
    body = b'{"detail":"request body over %d bytes"}' % limit
    await answer_json(send, 413, body, (b"connection", b"close"))


async def answer_json(send: Send, status: int, body: bytes, *headers: tuple[bytes, bytes]) -> None:
    """A whole JSON answer sent by a middleware itself, before or instead of the app."""
    listed = [(b"content-type", b"application/json"), *headers]
    await send({"type": "http.response.start", "status": status, "headers": listed})
    await send({"type": "http.response.body", "body": body})


@dataclass
class TokenBucket:
    """`rate` messages a second on average, bursts of up to `burst`."""

    rate: float
    burst: float
    tokens: float | None = None  # full when first asked
    stamp: float = field(default_factory=time.monotonic)

    def _refill(self) -> float:
        now = time.monotonic()
        held = self.burst if self.tokens is None else self.tokens
        self.tokens = min(self.burst, held + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def allow(self, cost: float = 1.0) -> bool:
        held = self._refill()
        if held < cost:
            return False
        self.tokens = held - cost
        return True

    def charge(self, cost: float) -> None:
        """Spend `cost` though the bucket may go into debt (what is known only once the work
        is done, as the bytes of an answer); nothing more is allowed until time pays it off."""
        self.tokens = self._refill() - cost


class StepBudget:
    """The steps a second that the tables one address created may take together (bots,
    chance and stand-ins move only while it allows; a person's move is never held back but
    is counted). A move is made while the budget is not in debt, and its steps are then
    taken from it, so a run of chance's moves may put it into debt, which time pays off."""

    def __init__(self, rate: float, burst: float, saved: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.steps = burst if saved is None else saved  # what may still be spent now
        self.stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.steps = min(self.burst, self.steps + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait_seconds(self) -> float:
        """How long the next automatic move must wait: 0 while the budget is not in debt."""
        self._refill()
        return 0.0 if self.steps >= 0 else -self.steps / self.rate

    def spend(self, steps: int) -> None:
        self._refill()
        self.steps -= steps


@dataclass(frozen=True)
class Limits:
    """The server's limits; tests and benchmarks lower or raise them."""

    messages_per_second: float = 20.0  # per WebSocket
    message_burst: float = 60.0
    address_messages_per_second: float = 200.0  # per address, over all its WebSockets
    address_message_burst: float = 400.0
    requests_per_second: float = 20.0  # HTTP lobby requests that change something, per address
    request_burst: float = 40.0
    # what one address may read of the API a second (GETs; read_budget.py): a request costs 1,
    # and each READ_BYTES_PER_TOKEN of its answer 1 more
    reads_per_second: float = 50.0
    read_burst: float = 100.0
    sockets_per_address: int = 64
    connections_per_address: int = 64  # HTTP connections at once, per address (guard.py)
    tables_per_address: int = 20  # tables an address created that are not over yet
    steps_per_address: float = 200.0  # steps a second of all the tables one address created
    # steps a second of the tables of bots alone one address created, on a budget of their
    # own that starts empty and saves up a quarter of a second's: a flood of such tables
    # starts at that pace, with no burst of steps the moment they are made
    bots_alone_steps_per_address: float = 200.0
    refusal_seconds: float = 0.5  # a 429 is answered this late (a client asking at once waits)
    tables_running: int = 5_000  # tables not over yet, held at once
    tables_total: int = 20_000  # tables held in memory at once
    idle_seconds: float = 600.0  # a table nobody watches and nothing moves leaves memory
    over_seconds: float = 60.0  # a finished table nobody watches leaves memory
    sweep_seconds: float = 10.0  # how often housekeeping looks
    claim_seconds: float = 1.0  # how often a worker looks for the tables of dead workers
    reveal_seconds: float = REVEAL_SECONDS  # how long the players' committed seeds are awaited
    answer_seconds: float = ANSWER_SECONDS  # the median pause before an "answer for me"


def serving_limits(
    sockets_per_address: int,
    requests_per_second: float,
    messages_per_address: float,
    tables_per_address: int = Limits.tables_per_address,
    steps_per_address: float = Limits.steps_per_address,
    connections_per_address: int = Limits.connections_per_address,
    reads_per_second: float = Limits.reads_per_second,
) -> Limits:
    """The limits `serve` sets from its options (bursts of twice each rate; the steps a second
    hold for an address's tables of bots alone too, on their budget of their own)."""
    return Limits(
        sockets_per_address=sockets_per_address,
        requests_per_second=requests_per_second,
        request_burst=2 * requests_per_second,
        reads_per_second=reads_per_second,
        read_burst=2 * reads_per_second,
        address_messages_per_second=messages_per_address,
        address_message_burst=2 * messages_per_address,
        tables_per_address=tables_per_address,
        steps_per_address=steps_per_address,
        bots_alone_steps_per_address=steps_per_address,
        connections_per_address=connections_per_address,
    )


class AddressBook:
    """Per-address counters: live sockets, and buckets of lobby requests, of API reads and of
    WebSocket messages for each client address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.sockets: dict[str, int] = {}
        self.buckets: dict[str, TokenBucket] = {}
        self.message_buckets: dict[str, TokenBucket] = {}
        self.read_buckets: dict[str, TokenBucket] = {}

    def open_socket(self, address: str) -> bool:
        held = self.sockets.get(address, 0)
        if held >= self.limits.sockets_per_address:
            return False
        self.sockets[address] = held + 1
        return True

    def close_socket(self, address: str) -> None:
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)

    def request_allowed(self, address: str) -> bool:
        limits = self.limits
        bucket = _bucket(self.buckets, address, limits.requests_per_second, limits.request_burst)
        return bucket.allow()

    def reads_of(self, address: str) -> TokenBucket:
        """The address's bucket of API reads (read_budget.py)."""
        limits = self.limits
        return _bucket(self.read_buckets, address, limits.reads_per_second, limits.read_burst)

    def message_buckets_for(self, address: str) -> tuple[TokenBucket, TokenBucket]:
        """A new socket's message budgets: its own, and its address's, shared by every
        socket from there (a client that opens more sockets may not send more)."""
        limits = self.limits
        own = TokenBucket(limits.messages_per_second, limits.message_burst)
        rate, burst = limits.address_messages_per_second, limits.address_message_burst
        return own, _bucket(self.message_buckets, address, rate, burst)


def _bucket(
    buckets: dict[str, TokenBucket], address: str, rate: float, burst: float
) -> TokenBucket:
    """The address's bucket (full when first asked for)."""
    bucket = buckets.get(address)
    if bucket is None:
        if len(buckets) > MAX_ADDRESSES:  # forget them all rather than grow forever
            buckets.clear()
        bucket = buckets[address] = TokenBucket(rate, burst)
    return bucket


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
