"""Connection hygiene: what uvicorn's HTTP/1.1 protocol (h11) leaves to the server.

uvicorn times a connection out only while it is idle between two requests. A client that
sends half its request head, or its body a byte at a time, is held for as long as it likes,
and each such connection holds a file descriptor: at the process's limit `accept` fails
("Too many open files"), and asyncio stops accepting for a second at a time, so `/healthz`
and new sockets wait behind the attacker. `GuardedH11` (uvicorn's protocol with a guard)
closes a connection whose request head is not complete `HEADER_SECONDS` after it began, and
one whose body is not complete `BODY_SECONDS` after its head; holds each client address to
`per_address` HTTP connections at once (a trusted proxy's address excepted); and keeps the
process's HTTP connections a reserve of file descriptors short of its limit (raised to the
hard limit at start), closing the oldest connection still waiting for a request head to make
room for a new one, so a flood of idle connections never crowds out those that ask.
A connection upgraded to a WebSocket leaves the guard: the sockets' own limits take over.
On the server's loop (event_loop.BoundedLoop) a connection waits for its first request head
at a front door, off the loop (door.py): in a process of its own under `serve`, which counts
it in and hands it to the loop (counted in here then), or on a thread counting with this guard.

With `serve --workers N` the workers of a host share one listening socket, and each would
count only its own connections: one address could hold N times its share. So they, and their
doors, count in `SharedCounts` (tally.py), a file each maps, where each process keeps its row
of counts per address slot and an address's count is the sum of the rows.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from horserace.drivers.server.tally import (
    CLOSED,
    CONNECTIONS_PER_ADDRESS,
    SharedCounts,
    Tally,
)

__all__ = ["CLOSED", "FRONT_DOOR", "HANDED", "Guard", "GuardedH11", "SharedCounts"]

HEADER_SECONDS = 10.0  # from a connection's (or a request's) first byte to its complete head
BODY_SECONDS = 10.0  # from a request's head to the end of its body (64 KB at most)
FRONT_DOOR = "horserace_front_door"  # a transport's extra: its connection came through one
COUNTED, HANDED = "counted", "handed"  # ... counted in by it (a thread), or to count in here


class Guard(Tally):
    """One process's HTTP connections (`Tally`), and those waiting for a request head on the
    loop (oldest first), which give way when the process runs short of descriptors."""

    def __init__(
        self,
        per_address: int = CONNECTIONS_PER_ADDRESS,
        total: int | None = None,
        trusted: str = "",
        header_seconds: float = HEADER_SECONDS,
        body_seconds: float = BODY_SECONDS,
        peers_port: str = "",
        shared: SharedCounts | None = None,
        door_row: int | None = None,
    ) -> None:
        super().__init__(per_address, total, trusted, peers_port, shared)
        self.header_seconds = header_seconds
        self.body_seconds = body_seconds
        # the row of `shared` where a front door of its own process counts (door.py), if the
        # loop's listening sockets are served by one; else by a thread (front_door.py)
        self.door_row = door_row
        # the connections the loop holds waiting for a request head, the oldest first (those
        # waiting for their first head wait at the front door: front_door.py)
        self.waiting: dict[GuardedH11, None] = {}
        self.doors: list[Any] = []  # the front doors counting with this guard (their `waiting`)

    def admit(self, connection: GuardedH11, address: str, local: str = "") -> bool:
        """Count a connection the loop accepted in, or say it must be closed; with no room,
        the oldest connection the loop holds that waits for a request head makes room."""
        refused = self.count_in(address, local)
        if refused == "full" and self.waiting:
            self.closed("evicted")
            next(iter(self.waiting)).drop()
            refused = self.count_in(address, local)
        if refused is not None:
            self.closed(refused)
            return False
        self.waiting[connection] = None
        return True

    def take(self, address: str) -> None:
        """Count in a connection a front door's process admitted and handed here; with more
        than `total`, the oldest connection the loop holds waiting for a head makes room."""
        self.count_in(address, capped=False)
        if self.open > self.total and self.waiting:
            self.closed("evicted")
            next(iter(self.waiting)).drop()

    def release(self, connection: GuardedH11 | None, address: str) -> None:
        """A connection closed (`None`: one the loop never held)."""
        if connection is not None:
            self.waiting.pop(connection, None)
        self.count_out(address)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol under a `Guard` (`guarded_protocol` makes the class)."""

    guard: ClassVar[Guard]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self._timer: asyncio.TimerHandle | None = None
        self._phase = "header"
        door = transport.get_extra_info(FRONT_DOOR)
        if door:  # its head read at a front door (to come in `data_received` next), and
            if door == HANDED:  # counted in there: by another process, so here too
                self.guard.take(self._address)
            self._counted = True
            return
        local = f"{self.server[0]}:{self.server[1]}" if self.server else ""
        self._counted = self.guard.admit(self, self._address, local)
        if not self._counted:
            transport.abort()
            return
        self._arm(self.guard.header_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._leave()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._counted:
            return
        if self._timer is None and self.conn.their_state is h11.IDLE:  # a new request begins
            self._phase = "header"
            self._arm(self.guard.header_seconds)
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._counted:  # idle between requests: uvicorn's keep-alive clock, and evictable
            self.guard.waiting[self] = None

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._leave()  # a WebSocket: the sockets' limits take over
        super().handle_websocket_upgrade(event)

    def drop(self) -> None:
        """Close at once (to make room, or out of time)."""
        self._leave()
        self.transport.abort()

    def _follow(self) -> None:
        """After the bytes just read: the head complete starts the body's clock, the whole
        request read stops the clocks."""
        if not self._counted:
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            return
        self.guard.waiting.pop(self, None)
        if state is h11.SEND_BODY:
            if self._phase != "body":
                self._phase = "body"
                self._arm(self.guard.body_seconds)
        else:
            self._phase = "done"
            self._disarm()

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._timer = asyncio.get_running_loop().call_later(seconds, self._late)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _late(self) -> None:
        self._timer = None
        if self._counted and not self.transport.is_closing():
            self.guard.closed(f"{self._phase}-timeout")
            self.drop()

    def _leave(self) -> None:
        self._disarm()
        if self._counted:
            self._counted = False
            self.guard.release(self, self._address)


GUARDS: list[Guard] = []  # this process's guard, once made (read by the metrics)


def guarded_protocol(guard: Guard) -> type[GuardedH11]:
    """The protocol class uvicorn's `http` setting takes, bound to `guard`."""
    GUARDS[:] = [guard]
    return type("GuardedH11", (GuardedH11,), {"guard": guard})


def guard_counts() -> dict[str, Any]:
    """What this process's guard did, and the connections it holds (empty without one)."""
    if not GUARDS:
        return {}
    guard = GUARDS[0]
    waiting = len(guard.waiting) + sum(door.waiting for door in guard.doors)
    counts = dict(guard.counts)
    for door in guard.doors:  # a front door's process counts what it closed on its own
        for reason, count in door.counts.items():
            counts[reason] += count
    held_apart = sum(door.held_apart for door in guard.doors)  # in a door's own process
    return {**counts, "open": guard.open + held_apart, "waiting": waiting}
