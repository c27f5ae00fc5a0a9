"""How many HTTP connections each client address holds, counted by whoever accepts them: the
event loop's guard (guard.py) and the front door (door.py), which may be a process of its own.

Light on purpose (the standard library alone): the front door's process imports it and must
start in milliseconds. The host's processes count in `SharedCounts`, a file each maps, where
each keeps its row of counts per address slot and an address's count is the sum of the rows:
a connection counted in at the door is counted out of the door's row once it is handed to a
worker, and into that worker's row.
"""

from __future__ import annotations

import ipaddress
import mmap
import os
import resource
import tempfile
import threading
import zlib

CONNECTIONS_PER_ADDRESS = 64  # HTTP connections one client address may hold at once
RESERVE_SHARE = 4  # a quarter of the file descriptors stay for sockets, the database, files
RESERVE_AT_LEAST = 64
SLOTS = 1 << 16  # address slots of the shared counts (an address's slot: its CRC-32)

# why the guard closed a connection (the metrics' reasons)
CLOSED = ("per-address", "full", "header-timeout", "body-timeout", "evicted")
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
    """The HTTP connections each process of a host holds per address slot: a row of `SLOTS`
    counts per process in a file they all map (made by `make`, inherited). A process writes
    only its own row (so no lock: two processes admitting the same address at the same
    instant may each see the other's count a connection short), and clears it when it starts,
    in case it replaces one that died holding connections. Two addresses in one slot share
    its cap."""

    def __init__(self, descriptor: int, rows: int, row: int) -> None:
        self._map = mmap.mmap(descriptor, SLOTS * rows * 4)
        self._counts = memoryview(self._map).cast("I")
        self.descriptor = descriptor
        self.rows = rows
        self.row = row
        self._map[row * SLOTS * 4 : (row + 1) * SLOTS * 4] = bytes(SLOTS * 4)

    @staticmethod
    def make(rows: int) -> int:
        """A file of no name for `rows` rows, all zero: its descriptor, which child processes
        inherit (it is gone once the last process holding it ends, killed or not)."""
        if hasattr(os, "memfd_create"):
            descriptor = os.memfd_create("horserace-counts", 0)
        else:
            with tempfile.TemporaryFile() as made:
                descriptor = os.dup(made.fileno())
        os.ftruncate(descriptor, SLOTS * rows * 4)
        os.set_inheritable(descriptor, True)
        return descriptor

    def held(self, address: str) -> int:
        slot = zlib.crc32(address.encode()) % SLOTS
        return sum(self._counts[row * SLOTS + slot] for row in range(self.rows))

    def add(self, address: str, change: int) -> None:
        index = self.row * SLOTS + zlib.crc32(address.encode()) % SLOTS
        self._counts[index] = max(0, self._counts[index] + change)


class Tally:
    """One process's HTTP connections: how many each address holds (against `per_address`,
    over the host's processes when `shared`), how many in all (against `total`, the
    descriptors it may spend on them), and what it closed, by why."""

    def __init__(
        self,
        per_address: int = CONNECTIONS_PER_ADDRESS,
        total: int | None = None,
        trusted: str = "",
        peers_port: str = "",
        shared: SharedCounts | None = None,
    ) -> None:
        if total is None:
            limit = raise_descriptor_limit()
            total = limit - max(limit // RESERVE_SHARE, RESERVE_AT_LEAST)
        self.per_address = per_address
        self.total = max(total, 1)
        self.trusted_proxies = trusted
        self.trusted = trusted_networks(trusted)
        self.peers_port = peers_port  # HOST:PORT: the other workers' forwarded clients
        self.held: dict[str, int] = {}  # this process's
        self.shared = shared  # the host's processes' (the cap is on these)
        self.open = 0
        self.counts = dict.fromkeys(CLOSED, 0)  # what was closed (or refused), by why
        self._lock = threading.Lock()  # counts change on the loop and at a front door's thread

    def exempt(self, address: str, local: str) -> bool:
        """A trusted proxy, or another worker forwarding its clients: not one client."""
        if self.peers_port and local == self.peers_port:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def count_in(self, address: str, local: str = "", capped: bool = True) -> str | None:
        """Count a new connection in (`local`: the HOST:PORT it reached), or say why not:
        `per-address` (its address holds its share) or `full` (no descriptors to spare: the
        caller makes room or refuses). Not `capped`: one a front door already admitted, counted
        in whatever the count. Any thread may ask."""
        with self._lock:
            if capped:
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

    def count_out(self, address: str) -> None:
        """A connection counted in is closed, or handed on."""
        with self._lock:
            left = self.held.get(address, 0) - 1
            if left > 0:
                self.held[address] = left
            else:
                self.held.pop(address, None)
            if self.shared:
                self.shared.add(address, -1)
            self.open -= 1
