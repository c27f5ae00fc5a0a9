"""Everyone connected to one table, and what it costs to tell them something.

Each distinct message is encoded once and the same text is queued for everyone who gets it.
A watcher coming or going changes nothing anybody sees but the audience count, which is sent
at most once every `AUDIENCE_SECONDS`; a seat's connection coming or going changes the seat
list, which is sent once for every change made in `SEATS_SECONDS` together. So a table with
thousands of watchers costs a constant number of messages per join or leave on average.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator

from horserace.drivers.server.connection import Connection, encode
from horserace.drivers.server.protocol import Audience as AudienceMessage

AUDIENCE_SECONDS = 5.0
SEATS_SECONDS = 0.25


class Audience:
    def __init__(self) -> None:
        self.connections: set[Connection] = set()
        self.seated: Counter[int] = Counter()  # seat -> its open connections
        self.sent = 0  # messages queued, for the metrics and the benchmark
        self._count_sent = 0  # the watcher count last sent
        self._count_timer: asyncio.TimerHandle | None = None
        self._seats_timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self.connections)

    def __iter__(self) -> Iterator[Connection]:
        return iter(list(self.connections))

    def __contains__(self, connection: object) -> bool:
        return connection in self.connections

    def connected(self, seat: int) -> bool:
        return self.seated[seat] > 0

    def add(self, connection: Connection) -> bool:
        """Count a greeted connection in; true when a seat's connected flag changed."""
        self.connections.add(connection)
        if connection.seat is None:
            return False
        self.seated[connection.seat] += 1
        return self.seated[connection.seat] == 1

    def remove(self, connection: Connection) -> bool:
        if connection not in self.connections:
            return False
        self.connections.discard(connection)
        return self.unseat(connection)

    def unseat(self, connection: Connection) -> bool:
        """The connection stops holding its seat (it left the table, or is gone)."""
        seat = connection.seat
        if seat is None:
            return False
        self.seated[seat] -= 1
        if self.seated[seat] <= 0:
            del self.seated[seat]
            return True
        return False

    def send(self, connection: Connection, text: str) -> None:
        connection.send_text(text)
        self.sent += 1

    def everyone(self, message: dict[str, object], skip: Connection | None = None) -> None:
        text = encode(message)
        for connection in self:
            if connection is not skip and connection.greeted:
                self.send(connection, text)

    def watchers(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def count_changed(self) -> None:
        """A watcher came or went: the count goes out later, once for all such changes."""
        if self._count_timer is None:
            loop = asyncio.get_running_loop()
            self._count_timer = loop.call_later(AUDIENCE_SECONDS, self._send_count)

    def _send_count(self) -> None:
        self._count_timer = None
        count = self.watchers()
        if count != self._count_sent:
            self._count_sent = count
            self.everyone(AudienceMessage(watching=count).model_dump(mode="json"))

    def seats_changed(self, flush: Callable[[], None]) -> None:
        """A seat's connection came or went: `flush` sends the seat list once, soon."""
        if self._seats_timer is None:
            loop = asyncio.get_running_loop()
            self._seats_timer = loop.call_later(SEATS_SECONDS, self._flush_seats, flush)

    def _flush_seats(self, flush: Callable[[], None]) -> None:
        self._seats_timer = None
        flush()

    def seats_sent(self) -> None:
        """The seat list just went out: a pending coalesced one is not needed."""
        if self._seats_timer is not None:
            self._seats_timer.cancel()
            self._seats_timer = None

    def close(self, code: int = 1000) -> None:
        for timer in (self._count_timer, self._seats_timer):
            if timer is not None:
                timer.cancel()
        self._count_timer = self._seats_timer = None
        for connection in self:
            connection.close(code)
