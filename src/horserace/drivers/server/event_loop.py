"""The server's event loop: asyncio's own, taking a bounded number of ready sockets per turn,
and timing its turns.

asyncio runs every callback that is ready before it looks at its sockets again. When 500
browsers connect at once, one look found hundreds of them ready: their HTTP upgrades and
WebSocket handshakes, then the tasks those woke, each ran as one turn of 50-200 ms that every
other table's messages waited behind. Here a turn takes at most `READY_PER_TURN` ready
sockets (epoll reports the others at the next turns, taking them in turn, so none starves)
and accepts at most `ACCEPTS_PER_TURN` new connections: a burst is served a slice at a time
with the other tables' messages read between slices. Nothing is refused or dropped: a socket
left for the next turn is still ready then.

A turn is the time between two looks at the sockets (every callback that ran between them,
and any garbage collection they caused); `TurnTimes` keeps how long they took, for the
server's metrics and its benchmarks.
"""

from __future__ import annotations

import asyncio
import bisect
import math
import select
import selectors
import socket
import time
from typing import Any

READY_PER_TURN = 8  # ready sockets (reads and writes) one turn of the loop serves
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


class BoundedEpollSelector(selectors.EpollSelector):
    """An epoll selector that reports at most `limit` ready sockets per call (epoll keeps the
    others ready and moves each socket it reports to the back of its ready list, so every
    ready socket is reported within a few calls), and times the work done between calls."""

    def __init__(self, limit: int = READY_PER_TURN) -> None:
        super().__init__()
        self.limit = limit
        self.turns = TurnTimes()  # by the clock
        self.turns_cpu = TurnTimes()  # the loop's own CPU time (a turn the machine paused is
        # long by the clock only)
        self._turn_started: tuple[float, float] | None = None

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
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
        most = max(1, min(self.limit, len(self.get_map())))
        ready: list[tuple[selectors.SelectorKey, int]] = []
        try:
            found = self._selector.poll(wait, most)  # type: ignore[attr-defined]
        except InterruptedError:
            found = []
        finally:
            self._turn_started = (time.perf_counter(), time.thread_time())
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


class BoundedLoop(asyncio.SelectorEventLoop):
    """The loop `serve` runs on (uvicorn's `loop` setting names this class)."""

    def __init__(self) -> None:
        self.bounded: BoundedEpollSelector | None = None
        if hasattr(selectors, "EpollSelector"):
            self.bounded = BoundedEpollSelector()
            super().__init__(self.bounded)
        else:  # elsewhere than Linux: asyncio's own selector, unbounded and untimed
            super().__init__()

    def _accept_connection(
        self,
        protocol_factory: Any,
        sock: socket.socket,
        sslcontext: Any = None,
        server: Any = None,
        backlog: int = 100,
        *rest: Any,
    ) -> None:
        # asyncio accepts up to the listening socket's backlog (uvicorn's: 2,048) in one turn;
        # the listening socket stays ready while more wait, so the rest come at the next turns
        accepts = min(backlog, ACCEPTS_PER_TURN)
        accept = super()._accept_connection  # type: ignore[misc]  # asyncio's, not in its stubs
        accept(protocol_factory, sock, sslcontext, server, accepts, *rest)


def turn_times() -> tuple[TurnTimes, TurnTimes] | None:
    """The running loop's turn times, by the clock and in CPU time (None on a loop that does
    not keep them)."""
    loop = asyncio.get_running_loop()
    if isinstance(loop, BoundedLoop) and loop.bounded is not None:
        return loop.bounded.turns, loop.bounded.turns_cpu
    return None
