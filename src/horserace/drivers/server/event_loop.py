"""The server's event loop: asyncio's own, taking a bounded number of ready sockets per turn,
the sockets of established connections first, and timing its turns.

asyncio runs every callback that is ready before it looks at its sockets again. When 500
browsers connect at once, one look found hundreds of them ready: their HTTP upgrades and
WebSocket handshakes, then the tasks those woke, each ran as one turn of 50-200 ms that every
other table's messages waited behind. Here a turn serves at most `READY_PER_TURN` ready
sockets. Bounding the turn alone is not enough: epoll hands out ready sockets first come,
first served, so a player's message that arrives behind 500 handshakes still waits for all of
them, a slice a turn. So a look takes up to `LOOK_AT_ONCE` ready sockets and serves those of
connections older than `YOUNG_SECONDS` first; the young ones (a burst's handshakes and
hellos) get the rest of the turn, and at least `YOUNG_AT_LEAST` of it. Nothing is refused
or dropped: a socket left for a later turn is still ready then (epoll reports it again,
taking the ready ones in turn, so none starves).

A guarded HTTP server's listening sockets (the server's) are not the loop's: a front door
thread accepts there and hands the loop only connections whose request head has come
(front_door.py), `HANDED_PER_TURN` a turn, so a flood of connections that never finish a
request costs the loop nothing. (Accepting on the loop, one a turn or 64, was tried before:
every connection taken in cost the loop 140-230 us for its set-up, read and close, and
behind 20,000 half-open connections the other tables' p99 rose 21-fold.) Any other
listening socket: a turn accepts at most `ACCEPTS_PER_TURN` new connections, and one while
ready sockets are left over, each set up in the turn that accepts it; the listening socket
counts as established, so the young sockets of a burst never hold back the accepting.

A turn is the time between two looks at the sockets (every callback that ran between them,
and any garbage collection they caused); `TurnTimes` keeps how long they took, for the
server's metrics and its benchmarks.
"""

from __future__ import annotations

import asyncio
import bisect
import errno
import math
import os
import select
import selectors
import socket
import time
from collections.abc import Callable
from typing import Any

READY_PER_TURN = 8  # ready sockets (reads and writes) one turn of the loop serves
LOOK_AT_ONCE = 512  # ready sockets one look takes, to serve the established ones first
YOUNG_SECONDS = 5.0  # a connection this new is served after the established ones
YOUNG_AT_LEAST = 2  # ready young sockets a turn serves however busy the established ones are
ACCEPTS_PER_TURN = 8  # new connections one turn of the loop accepts
# seconds: the upper bounds of the turn histogram's buckets
TURN_BUCKETS = tuple(ms / 1000 for ms in (1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 100, 200, 500, 1000))


class TurnTimes:
    """How long the loop's turns took: a count per bucket of `TURN_BUCKETS` (and one over
    the last), their number and sum, and the longest."""

    def __init__(self) -> None:
        self.counts = [0] * (len(TURN_BUCKETS) + 1)
        self.total = 0
        self.seconds = 0.0
        self.longest = 0.0

    def add(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(TURN_BUCKETS, seconds)] += 1
        self.total += 1
        self.seconds += seconds
        if seconds > self.longest:
            self.longest = seconds


Ready = list[tuple[selectors.SelectorKey, int]]


class BoundedEpollSelector(selectors.EpollSelector):
    """An epoll selector that reports at most `limit` ready sockets per call, those
    registered `young_seconds` ago or more first, and times the work done between calls."""

    def __init__(
        self,
        limit: int = READY_PER_TURN,
        young_seconds: float = YOUNG_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.limit = limit
        self.young_seconds = young_seconds
        self.clock = clock
        self.behind = False  # the last look left ready sockets for later turns
        self.turns = TurnTimes()  # by the clock
        self.turns_cpu = TurnTimes()  # the loop's own CPU time (a turn the machine paused is
        # long by the clock only)
        self._turn_started: tuple[float, float] | None = None
        # file descriptor -> (its socket's inode, when that socket was first registered)
        self._registered: dict[int, tuple[int, float]] = {}
        self._waiting: dict[int, int] = {}  # ready socket left for later -> looks since

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        """A socket is as old as its first registration: uvicorn stops reading a WebSocket
        after each message until it is handled (asyncio then unregisters the socket) and
        reads on after (registers it again); a new socket that reuses a closed one's file
        descriptor has another inode, so it starts young."""
        key = super().register(fileobj, events, data)
        inode = os.fstat(key.fd).st_ino
        known = self._registered.get(key.fd)
        if known is None or known[0] != inode:
            self._registered[key.fd] = (inode, self.clock())
        return key

    def established(self, sock: socket.socket) -> None:
        """Count a socket not yet registered as established (served before the young)."""
        self._registered[sock.fileno()] = (os.fstat(sock.fileno()).st_ino, -math.inf)

    def select(self, timeout: float | None = None) -> Ready:
        if self._turn_started is not None:
            clock, cpu = self._turn_started
            self.turns.add(time.perf_counter() - clock)
            self.turns_cpu.add(time.thread_time() - cpu)
        # selectors.EpollSelector.select, with epoll's `maxevents` bounded
        if timeout is None:
            wait = -1.0
        elif timeout <= 0:
            wait = 0.0
        else:  # epoll waits in whole milliseconds: at least `timeout`
            wait = math.ceil(timeout * 1e3) * 1e-3
        most = max(1, min(LOOK_AT_ONCE, len(self.get_map())))
        try:
            found = self._selector.poll(wait, most)  # type: ignore[attr-defined]
        except InterruptedError:
            found = []
        finally:
            self._turn_started = (time.perf_counter(), time.thread_time())
        self.behind = len(found) > self.limit
        if self.behind:
            found = self._established_first(found)
        elif self._waiting:
            self._waiting = {}
        ready: Ready = []
        for fd, flags in found:
            events = 0
            if flags & ~select.EPOLLIN:
                events |= selectors.EVENT_WRITE
            if flags & ~select.EPOLLOUT:
                events |= selectors.EVENT_READ
            key = self._key_from_fd(fd)  # type: ignore[attr-defined]
            if key:
                ready.append((key, events & key.events))
        return ready

    def _established_first(self, found: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """`limit` of the ready sockets found: the established ones first, and at least
        YOUNG_AT_LEAST young ones if any are ready; among either, those left for later
        longest first (epoll may report the same sockets in the same order again: without
        this, one that stays ready would be served every turn and the others never)."""
        born = self.clock() - self.young_seconds
        registered, waiting = self._registered, self._waiting
        old: list[tuple[int, int]] = []
        young: list[tuple[int, int]] = []
        for event in found:
            (old if registered.get(event[0], (0, born))[1] < born else young).append(event)
        old.sort(key=lambda event: -waiting.get(event[0], 0))  # stable: else epoll's order
        young.sort(key=lambda event: -waiting.get(event[0], 0))
        youngest = min(len(young), max(YOUNG_AT_LEAST, self.limit - len(old)))
        served = old[: self.limit - youngest] + young[:youngest]
        self._waiting = {
            fd: waiting.get(fd, 0) + 1 for fd, _ in old[self.limit - youngest :] + young[youngest:]
        }
        return served


class BoundedLoop(asyncio.SelectorEventLoop):
    """The loop `serve` runs on (uvicorn's `loop` setting names this class)."""

    def __init__(self) -> None:
        self.bounded: BoundedEpollSelector | None = None
        self.doors: dict[int, Any] = {}  # listening socket's descriptor -> its front door
        self.door_process: Any = None  # the front door's process, if it has one
        self._served: list[tuple[Any, Any]] = []  # its sockets': (protocol factory, server)
        if hasattr(selectors, "EpollSelector"):
            self.bounded = BoundedEpollSelector()
            super().__init__(self.bounded)
        else:  # elsewhere than Linux: asyncio's own selector, unbounded and untimed
            super().__init__()

    def _start_serving(
        self, protocol_factory: Any, sock: socket.socket, sslcontext: Any = None, *rest: Any
    ) -> None:
        """A guarded HTTP server's socket is served by a front door (door.py): in a process
        of its own when the guard has a row for it to count in, else on a thread; it accepts
        and holds each connection until its request head has come. Otherwise the listening
        socket counts as established: a flood's young sockets never hold back the accepting
        of the connections behind them."""
        from horserace.drivers.server.front_door import DoorProcess, FrontDoor
        from horserace.drivers.server.guard import COUNTED, FRONT_DOOR

        probe = protocol_factory()  # uvicorn's protocol, never connected: its guard and app
        guard = getattr(probe, "guard", None)
        app = getattr(getattr(probe, "config", None), "app", None)
        server = rest[0] if rest else None
        if guard is not None and sslcontext is None and guard.door_row is not None:
            if self.door_process is None:
                self.door_process = DoorProcess(self, guard, self._handed, app)
                guard.doors.append(self.door_process)
            self._served.append((protocol_factory, server))
            self.doors[sock.fileno()] = self.door_process
            self.door_process.listen(sock)
            return
        if guard is not None and sslcontext is None and hasattr(os, "eventfd"):
            door = FrontDoor(
                self,
                sock,
                guard,
                lambda handed: self._set_up(
                    protocol_factory, *handed[:3], server, FRONT_DOOR, COUNTED
                ),
                app,
            )
            self.doors[sock.fileno()] = door
            guard.doors.append(door)
            door.start()
            return
        if self.bounded is not None:
            self.bounded.established(sock)
        start = super()._start_serving  # type: ignore[misc]  # asyncio's, not in its stubs
        start(protocol_factory, sock, sslcontext, *rest)

    def _handed(self, handed: tuple[socket.socket, Any, bytes, int]) -> None:
        """A connection the door's process handed over, set up for its listening socket."""
        from horserace.drivers.server.guard import FRONT_DOOR, HANDED

        protocol_factory, server = self._served[handed[3]]
        self._set_up(protocol_factory, *handed[:3], server, FRONT_DOOR, HANDED)

    def _stop_serving(self, sock: socket.socket) -> None:
        door = self.doors.pop(sock.fileno(), None)
        if door is None:
            stop = super()._stop_serving  # type: ignore[misc]  # asyncio's, not in its stubs
            stop(sock)
            return
        if door is self.door_process:
            if not any(other is door for other in self.doors.values()):
                door.stop()  # the last of its sockets
                door.guard.doors.remove(door)
        else:
            door.stop()
            door.guard.doors.remove(door)
        sock.close()

    def _accept_connection(
        self,
        protocol_factory: Any,
        sock: socket.socket,
        sslcontext: Any = None,
        server: Any = None,
        backlog: int = 100,
        *rest: Any,
    ) -> None:
        """asyncio's, but at most `ACCEPTS_PER_TURN` a turn, one while the last look left ready
        sockets for later (the listening socket stays ready while more wait), each set up at
        once rather than by a task; TLS (which the server never terminates) goes to asyncio's."""
        behind = self.bounded is not None and self.bounded.behind
        most = min(backlog, 1 if behind else ACCEPTS_PER_TURN)
        if sslcontext is not None:
            accept = super()._accept_connection  # type: ignore[misc]  # not in its stubs
            accept(protocol_factory, sock, sslcontext, server, most, *rest)
            return
        for _ in range(most):
            try:
                conn, address = sock.accept()
                conn.setblocking(False)
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as error:
                if error.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise
                # out of descriptors: asyncio's own handling (it pauses accepting a second)
                accept = super()._accept_connection  # type: ignore[misc]
                accept(protocol_factory, sock, sslcontext, server, most, *rest)
                return
            self._set_up(protocol_factory, conn, address, b"", server)

    def _set_up(
        self,
        protocol_factory: Any,
        conn: socket.socket,
        address: Any,
        head: bytes,
        server: Any,
        mark: str = "",
        door: str = "",
    ) -> None:
        """A transport and a protocol for a connection accepted; `head`: what a front door
        read of it (given to the protocol once it is made), `mark`: the transport's extra
        that says it came through one, `door`: its value (guard.COUNTED or HANDED)."""
        try:
            protocol = protocol_factory()
            extra: dict[str, Any] = {"peername": address}
            if mark:
                extra[mark] = door
            self._make_socket_transport(  # type: ignore[attr-defined]  # asyncio's
                conn, protocol, extra=extra, server=server
            )
            if head:  # after connection_made, before anything read from the socket
                self.call_soon(protocol.data_received, head)
        except Exception as error:  # as asyncio's: the connection is lost, the loop goes on
            conn.close()
            self.call_exception_handler(
                {
                    "message": "Error on transport creation for incoming connection",
                    "exception": error,
                }
            )


def turn_times() -> tuple[TurnTimes, TurnTimes] | None:
    """The running loop's turn times, by the clock and in CPU time (None on a loop that does
    not keep them)."""
    loop = asyncio.get_running_loop()
    if isinstance(loop, BoundedLoop) and loop.bounded is not None:
        return loop.bounded.turns, loop.bounded.turns_cpu
    return None
