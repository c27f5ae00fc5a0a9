"""The front door: accepts on the listening sockets, counts each connection against its
address's cap and the descriptors, and holds it until its request head has come; only then is
it handed to the event loop, with the bytes read. `GET /healthz` is answered here.

Each connection the loop takes in costs it its set-up (a transport, uvicorn's protocol, a
timer), reads and close: 140-230 us of the loop's CPU each, so 20,000 half-open connections
(half a request head sent, the rest never) held the loop for seconds. A door on a thread of
the server's process took that off the loop, but not off its interpreter's lock: it accepted
and closed 2,000-3,000 connections a second, a flood kept the kernel's queue of connections
not yet accepted full, and a new connection's first packet was dropped (the client sends it
again a second later). So `serve` runs the door in a process of its own (`main`; front_door.py
starts it): it accepts in a tight loop, holds the waiting connections under an epoll of its
own, closes a head that has not come `header_seconds` after its connection was accepted, and
when the descriptors run short closes the oldest connection still waiting to make room. A
connection whose head came goes to the worker over a Unix socket (`socket.send_fds`), the
bytes read with it. The worker tells the door its heartbeat and its database's last answer
every `BEAT_SECONDS`, from its event loop: the door answers `/healthz` from them, and a loop
that stops turning is answered as one (503 after `STALE_SECONDS`), never waited for.

`Door` is the same in a thread (front_door.FrontDoor, used where the server runs in a process
it does not own, e.g. a test's) and in the process: only how it hands a connection on and
whom it counts with differ. Standard library alone: the process starts in milliseconds.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import select
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from horserace.drivers.server.tally import (
    CLOSED,
    RESERVE_AT_LEAST,
    SharedCounts,
    Tally,
    raise_descriptor_limit,
)

HEALTH = b"GET /healthz HTTP/1."  # answered at the door
HEAD_END = re.compile(rb"\n\r?\n")  # the blank line that ends a request head (h11 reads both)
HEAD_AT_MOST = 16 * 1024  # h11's largest head: a longer one is the loop's to refuse (431)
ACCEPTS_AT_ONCE = 256  # accepts between two looks at the held connections
READ_SIZE = 16 * 1024
PAUSE_SECONDS = 0.1  # out of descriptors with none to evict: accepting waits this long
BEAT_SECONDS = 0.5  # how often the event loop stamps its heartbeat (and tells the door)
STALE_SECONDS = 5.0  # a heartbeat or a database answer older than this: unhealthy
COUNTS_SECONDS = 0.25  # the door's process tells the worker what it closed at most this often
OUTBOX_AT_MOST = 1024  # connections handed on but not yet taken: beyond, the oldest is closed
MESSAGE_AT_MOST = HEAD_AT_MOST + READ_SIZE + 1024  # one message over the channel
# over the channel, the first byte of each message: to the worker, a connection (with its
# descriptor) or the door's counts; to the door, a listening socket (with its descriptor) or
# the worker's health
CONNECTION, COUNTS, LISTEN, HEALTHY = b"H", b"C", b"L", b"B"

# a connection whose head came: (its socket, its address (peername), the bytes read, the
# index of the listening socket it came to)
Handed = tuple[socket.socket, Any, bytes, int]


def public_health(
    beat: float, answered: float, error: str, tables: int, details: dict[str, Any], now: float
) -> tuple[int, dict[str, Any]]:
    """(status, body) of the public `/healthz`: 200 while the loop's heartbeat and the
    database's last answer are younger than STALE_SECONDS, with the tables held (and the
    worker); else 503 (their ages stay the operator's, health.py)."""
    if max(now - beat, now - answered) < STALE_SECONDS:
        return 200, {"status": "ok", "tables": tables, **details}
    return 503, {"status": "unavailable", "error": error or "stale"}


def health_response(
    beat: float, answered: float, error: str, tables: int, details: dict[str, Any], now: float
) -> bytes:
    """`public_health` as a whole HTTP/1.1 response that closes its connection."""
    status, body = public_health(beat, answered, error, tables, details, now)
    data = json.dumps(body, separators=(",", ":")).encode()
    reason = "OK" if status == 200 else "Service Unavailable"
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + data


class _Held:
    """A connection waiting for its head: its socket, its address, the listening socket it
    came to, what it sent so far and when its head's time runs out."""

    __slots__ = ("address", "deadline", "head", "index", "sock", "waiting")

    def __init__(self, sock: socket.socket, address: Any, index: int, deadline: float) -> None:
        self.sock = sock
        self.address = address
        self.index = index
        self.deadline = deadline
        self.head = b""
        self.waiting = True  # False once closed or handed on


class Door:
    """The accepting and holding, one `turn` at a time, for any number of listening sockets
    (`listen`) and other descriptors to watch (`watch`). `hand` takes each connection whose
    head came; `health` gives the bytes that answer `GET /healthz` here (None: not here)."""

    def __init__(
        self,
        tally: Tally,
        header_seconds: float,
        hand: Callable[[Handed], None],
        health: Callable[[], bytes | None],
    ) -> None:
        self.tally = tally
        self.header_seconds = header_seconds
        self.hand = hand
        self.health = health
        self.poll = select.epoll()
        self.most_wait = header_seconds  # a turn waits at most this long
        self._watched: dict[int, Callable[[int], None]] = {}  # descriptor -> on its events
        self._listeners: dict[int, tuple[socket.socket, str, int]] = {}  # (it, HOST:PORT, index)
        self._held: dict[int, _Held] = {}  # by descriptor
        # the same, oldest first (one clock for all), with those gone since not yet dropped: a
        # dict's first item is found past every item deleted before it (until it is resized),
        # so asking a dict of 20,000 held connections for its oldest as they time out one by
        # one took time that grew with the square of their number
        self._order: deque[_Held] = deque()
        self._paused_until = 0.0

    @property
    def waiting(self) -> int:
        return len(self._held)

    def listen(self, sock: socket.socket, index: int = 0) -> None:
        sock.setblocking(False)
        name = sock.getsockname()
        local = f"{name[0]}:{name[1]}" if isinstance(name, tuple) else ""
        self._listeners[sock.fileno()] = (sock, local, index)
        self.poll.register(sock.fileno(), select.EPOLLIN)

    def watch(self, descriptor: int, on_events: Callable[[int], None], events: int) -> None:
        self._watched[descriptor] = on_events
        self.poll.register(descriptor, events)

    def turn(self) -> None:
        now = time.monotonic()
        wait = self.most_wait
        if (oldest := self._oldest()) is not None:
            wait = min(wait, max(0.0, oldest.deadline - now))
        if self._paused_until:
            wait = min(wait, max(0.0, self._paused_until - now))
        for fd, events in self.poll.poll(wait, 1024):
            if fd in self._listeners:
                self._accept(fd)
            elif (held := self._held.get(fd)) is not None:
                self._read(held)
            elif (watched := self._watched.get(fd)) is not None:
                watched(events)
        now = time.monotonic()
        self._expire(now)
        if self._paused_until and now >= self._paused_until:
            self._paused_until = 0.0
            for fd in self._listeners:
                self.poll.modify(fd, select.EPOLLIN)

    def close(self) -> None:
        """Close the connections still waiting here, and the epoll."""
        for held in list(self._held.values()):
            self._close(held)
        self.poll.close()

    def evict_oldest(self) -> bool:
        """Close the oldest connection waiting for its head, to make room (False: none)."""
        oldest = self._oldest()
        if oldest is None:
            return False
        self.tally.closed("evicted")
        self._close(oldest)
        return True

    def _oldest(self) -> _Held | None:
        order = self._order
        while order and not order[0].waiting:
            order.popleft()
        return order[0] if order else None

    def _accept(self, fd: int) -> None:
        listener, local, index = self._listeners[fd]
        tally, deadline = self.tally, time.monotonic() + self.header_seconds
        for _ in range(ACCEPTS_AT_ONCE):
            try:
                sock, address = listener.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as error:
                if error.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise
                if self.evict_oldest():  # the process is out of descriptors
                    continue
                self._pause()
                return
            host = host_of(address)
            refused = tally.count_in(host, local)
            if refused == "full" and self.evict_oldest():
                refused = tally.count_in(host, local)
            if refused is not None:
                tally.closed(refused)
                sock.close()
                continue
            sock.setblocking(False)
            held = _Held(sock, address, index, deadline)
            self._held[sock.fileno()] = held
            self._order.append(held)
            self.poll.register(sock.fileno(), select.EPOLLIN | select.EPOLLRDHUP)
            # read at once: a client sends its request as soon as it connects, so by the time
            # it is accepted from a queue its head is there, and a `/healthz` is answered
            # now, not after the reads of every connection accepted before it
            self._read(held)

    def _pause(self) -> None:
        self._paused_until = time.monotonic() + PAUSE_SECONDS
        for fd in self._listeners:
            self.poll.modify(fd, 0)

    def _read(self, held: _Held) -> None:
        try:
            data = held.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # gone before its head came
            self._close(held)
            return
        seen = len(held.head)
        held.head += data
        if HEAD_END.search(held.head, max(0, seen - 2)) or len(held.head) >= HEAD_AT_MOST:
            if held.head.startswith(HEALTH) and self._answer_health(held):
                return
            fd = held.sock.fileno()
            self.poll.unregister(fd)
            del self._held[fd]
            held.waiting = False
            self.hand((held.sock, held.address, held.head, held.index))

    def _answer_health(self, held: _Held) -> bool:
        """`GET /healthz` answered here, so no flood and no busy loop delays it; the
        connection is closed."""
        answer = self.health()
        if answer is None:
            return False
        with contextlib.suppress(OSError):  # a few hundred bytes: the socket's buffer takes them
            held.sock.send(answer)
        self._close(held)
        return True

    def _expire(self, now: float) -> None:
        while (oldest := self._oldest()) is not None:
            if oldest.deadline > now:
                return
            self.tally.closed("header-timeout")
            self._close(oldest)

    def _close(self, held: _Held) -> None:
        del self._held[held.sock.fileno()]
        held.waiting = False
        held.sock.close()  # closing leaves the epoll too
        self.tally.count_out(host_of(held.address))


def host_of(address: Any) -> str:
    """A connection's client address (peername) as the host its cap counts."""
    return str(address[0]) if isinstance(address, tuple) else ""


# --- the door's process ----------------------------------------------------------------------
class Porter:
    """The door's side of its Unix socket to the worker: the listening sockets and the
    worker's health come in; connections (and, now and then, the door's counts) go out, those
    the socket cannot take at once kept in order in an outbox."""

    def __init__(self, channel: socket.socket, tally: Tally, header_seconds: float) -> None:
        self.channel = channel
        channel.setblocking(False)
        self.tally = tally
        self.door = Door(tally, header_seconds, self._hand, self._health)
        self.door.most_wait = COUNTS_SECONDS
        self.door.watch(channel.fileno(), self._on_channel, select.EPOLLIN)
        self.open = True
        self._outbox: deque[Handed] = deque()
        self._writing = False
        now = time.monotonic()
        self._health_state: dict[str, Any] = {"beat": now, "answered": now, "error": "started"}
        self._told: tuple[int, ...] = ()
        self._told_at = 0.0

    def run(self) -> None:
        try:
            while self.open:
                self.door.turn()
                self._tell_counts()
        finally:
            for sock, *_ in self._outbox:
                sock.close()
            self.door.close()

    def _on_channel(self, events: int) -> None:
        if events & select.EPOLLOUT:
            self._flush()
        if events & (select.EPOLLIN | select.EPOLLHUP | select.EPOLLERR):
            self._receive()

    def _receive(self) -> None:
        while self.open:
            try:
                data, fds, _, _ = socket.recv_fds(self.channel, MESSAGE_AT_MOST, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data, fds = b"", []
            if not data:  # the worker is gone: so is its door
                self.open = False
                return
            kind, body = data[:1], data[1:]
            if kind == LISTEN and fds:
                index = int(body)
                self.door.listen(socket.socket(fileno=fds[0]), index)
            elif kind == HEALTHY:
                self._health_state = json.loads(body)
            else:
                for fd in fds:
                    os.close(fd)

    def _health(self) -> bytes:
        state = self._health_state
        return health_response(
            state["beat"],
            state["answered"],
            state.get("error", ""),
            state.get("tables", 0),
            state.get("details", {}),
            time.monotonic(),
        )

    def _hand(self, handed: Handed) -> None:
        self._outbox.append(handed)
        if len(self._outbox) > OUTBOX_AT_MOST:  # the worker takes none: the oldest goes
            sock, address, _, _ = self._outbox.popleft()
            self.tally.closed("evicted")
            sock.close()
            self.tally.count_out(host_of(address))
        if not self._writing:
            self._flush()

    def _flush(self) -> None:
        while self._outbox:
            sock, address, head, index = self._outbox[0]
            host = host_of(address)
            header = json.dumps([index, host, address[1] if isinstance(address, tuple) else 0])
            try:
                message = CONNECTION + header.encode() + b"\n" + head
                socket.send_fds(self.channel, [message], [sock.fileno()])
            except (BlockingIOError, InterruptedError):
                if not self._writing:
                    self._writing = True
                    self.door.poll.modify(self.channel.fileno(), select.EPOLLIN | select.EPOLLOUT)
                return
            except OSError:  # the worker is gone
                self.open = False
                return
            self._outbox.popleft()
            sock.close()  # the worker holds it now (and counts it)
            self.tally.count_out(host)
        if self._writing:
            self._writing = False
            self.door.poll.modify(self.channel.fileno(), select.EPOLLIN)

    def _tell_counts(self) -> None:
        """What the door closed, by why, and the connections waiting here, to the worker's
        metrics: when they changed, at most every COUNTS_SECONDS (a message lost to a full
        socket is made good by the next)."""
        now = time.monotonic()
        counts = (*(self.tally.counts[reason] for reason in CLOSED), self.door.waiting)
        if counts == self._told or now - self._told_at < COUNTS_SECONDS:
            return
        closed = {reason: self.tally.counts[reason] for reason in CLOSED}
        body = json.dumps({"closed": closed, "waiting": self.door.waiting})
        try:
            self.channel.send(COUNTS + body.encode())
        except OSError:
            return
        self._told, self._told_at = counts, now


def main() -> None:
    """The door's process: `python -m horserace.drivers.server.door SETTINGS` (JSON: the
    channel's and the shared counts' descriptors, the counts' rows and this door's row, the
    cap per address, the trusted proxies, the workers' peer HOST:PORT, the head's seconds)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the worker stops first: then its door
    settings = json.loads(sys.argv[1])
    shared = SharedCounts(settings["counts"], settings["rows"], settings["row"])
    # no sockets, database or files here: every descriptor but a few can hold a connection
    # (the worker keeps its own limit, and its reserve, for those)
    tally = Tally(
        settings["per_address"],
        raise_descriptor_limit() - RESERVE_AT_LEAST,
        trusted=settings["trusted"],
        peers_port=settings["peers_port"],
        shared=shared,
    )
    channel = socket.socket(fileno=settings["channel"])
    Porter(channel, tally, settings["header_seconds"]).run()


if __name__ == "__main__":
    main()
