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
at a front door, off the loop (front_door.py), which counts with the same guard.

With `serve --workers N` the workers of a host share one listening socket, and each would
count only its own connections: one address could hold N times its share. So they count in
`SharedCounts`, a file each maps, where each worker keeps its row of counts per address slot
and an address's count is the sum of the rows.
"""

from __future__ import annotations

import asyncio
import ipaddress
import mmap
import os
import resource
import tempfile
import threading
import zlib
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # from a connection's (or a request's) first byte to its complete head
BODY_SECONDS = 10.0  # from a request's head to the end of its body (64 KB at most)
CONNECTIONS_PER_ADDRESS = 64  # HTTP connections one client address may hold at once
RESERVE_SHARE = 4  # a quarter of the file descriptors stay for sockets, the database, files
RESERVE_AT_LEAST = 64
SLOTS = 1 << 16  # address slots of the shared counts (an address's slot: its CRC-32)

# why the guard closed a connection (the metrics' reasons)
CLOSED = ("per-address", "full", "header-timeout", "body-timeout", "evicted")
FRONT_DOOR = "horserace_front_door"  # a transport's extra: its connection came through one
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def trusted_networks(addresses: str) -> list[Network]:
    """`--trusted-proxies` as networks (`*`: every address)."""
    networks: list[Network] = []
    for item in (part.strip() for part in addresses.split(",")):
        if item == "*":
            networks += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
        elif item:
            networks.append(ipaddress.ip_network(item, strict=False))
    return networks


class SharedCounts:
    """The HTTP connections each worker of a host holds per address slot: a row of `SLOTS`
    counts per worker in a file they all map (made by `make`, inherited by the workers). A
    worker writes only its own row (so no lock: two workers admitting the same address at
    the same instant may each see the other's count a connection short), and clears it when
    it starts, in case it replaces one that died holding connections. Two addresses in one
    slot share its cap."""

    def __init__(self, descriptor: int, workers: int, row: int) -> None:
        self._map = mmap.mmap(descriptor, SLOTS * workers * 4)
        self._counts = memoryview(self._map).cast("I")
        self.rows = workers
        self.row = row
        self._map[row * SLOTS * 4 : (row + 1) * SLOTS * 4] = bytes(SLOTS * 4)

    @staticmethod
    def make(workers: int) -> int:
        """A file of no name for `workers` rows, all zero: its descriptor, which the workers
        inherit (it is gone once the last process holding it ends, killed or not)."""
        if hasattr(os, "memfd_create"):
            descriptor = os.memfd_create("horserace-counts", 0)
        else:
            with tempfile.TemporaryFile() as made:
                descriptor = os.dup(made.fileno())
        os.ftruncate(descriptor, SLOTS * workers * 4)
        os.set_inheritable(descriptor, True)
        return descriptor

    def held(self, address: str) -> int:
        slot = zlib.crc32(address.encode()) % SLOTS
        return sum(self._counts[row * SLOTS + slot] for row in range(self.rows))

    def add(self, address: str, change: int) -> None:
        index = self.row * SLOTS + zlib.crc32(address.encode()) % SLOTS
        self._counts[index] = max(0, self._counts[index] + change)


class Guard:
    """One process's HTTP connections: how many each address holds, and those waiting for a
    request head (oldest first), which give way when the process runs short of descriptors."""

    def __init__(
        self,
        per_address: int = CONNECTIONS_PER_ADDRESS,
        total: int | None = None,
        trusted: str = "",
        header_seconds: float = HEADER_SECONDS,
        body_seconds: float = BODY_SECONDS,
        peers_port: str = "",
        shared: SharedCounts | None = None,
    ) -> None:
        if total is None:
            limit = raise_descriptor_limit()
            total = limit - max(limit // RESERVE_SHARE, RESERVE_AT_LEAST)
        self.per_address = per_address
        self.total = max(total, 1)
        self.trusted = trusted_networks(trusted)
        self.peers_port = peers_port  # HOST:PORT: the other workers' forwarded clients
        self.header_seconds = header_seconds
        self.body_seconds = body_seconds
        self.held: dict[str, int] = {}  # this process's
        self.shared = shared  # the host's workers' (their cap is on these)
        self.open = 0
        # the connections the loop holds waiting for a request head, the oldest first (those
        # waiting for their first head wait at the front door, if there is one: front_door.py)
        self.waiting: dict[GuardedH11, None] = {}
        self.counts = dict.fromkeys(CLOSED, 0)  # what the guard closed, by why
        self.doors: list[Any] = []  # the front doors counting with this guard (their `waiting`)
        self._lock = threading.Lock()  # counts change on the loop and at the front doors

    def exempt(self, address: str, local: str) -> bool:
        """A trusted proxy, or another worker forwarding its clients: not one client."""
        if self.peers_port and local == self.peers_port:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def count_in(self, address: str, local: str = "") -> str | None:
        """Count a new connection in (`local`: the HOST:PORT it reached), or say why not:
        `per-address` (its address holds its share) or `full` (no descriptors to spare: the
        caller makes room or refuses). Any thread may ask (the front door's does)."""
        with self._lock:
            held = self.shared.held(address) if self.shared else self.held.get(address, 0)
            if held >= self.per_address and not self.exempt(address, local):
                return "per-address"
            if self.open >= self.total:
                return "full"
            self.held[address] = self.held.get(address, 0) + 1
            if self.shared:
                self.shared.add(address, 1)
            self.open += 1
            return None

    def closed(self, reason: str) -> None:
        """Count a connection closed (or refused) for `reason` (one of `CLOSED`)."""
        with self._lock:
            self.counts[reason] += 1

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

    def release(self, connection: GuardedH11 | None, address: str) -> None:
        """A connection closed (`None`: one the loop never held)."""
        if connection is not None:
            self.waiting.pop(connection, None)
        with self._lock:
            left = self.held.get(address, 0) - 1
            if left > 0:
                self.held[address] = left
            else:
                self.held.pop(address, None)
            if self.shared:
                self.shared.add(address, -1)
            self.open -= 1


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol under a `Guard` (`guarded_protocol` makes the class)."""

    guard: ClassVar[Guard]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self._timer: asyncio.TimerHandle | None = None
        self._phase = "header"
        if transport.get_extra_info(FRONT_DOOR):  # counted in there, its head read (and to
            self._counted = True  # come in `data_received` next)
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
    return {**guard.counts, "open": guard.open, "waiting": waiting}
