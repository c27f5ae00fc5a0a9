"""The front door: a thread that owns a listening socket and keeps every connection off the
event loop until its request head has come.

Each connection the loop takes in costs it its set-up (a transport, uvicorn's protocol, a
timer), reads and close: 140-230 us of the loop's CPU each, so 20,000 half-open connections
(half a request head sent, the rest never) held the loop for seconds and every table waited
behind them. Here a thread accepts in a tight loop (each `accept` and `recv` gives Python's
lock back), counts each connection against its address's cap and the process's descriptors
(`Guard.count_in`), closes at once what they refuse, and holds the others under an epoll of
its own, reading, until the blank line that ends a request head: only then is the socket
handed to the loop, with the bytes read, a batch of them per wake-up of the loop. A head
that has not come `header_seconds` after the connection was accepted is closed here, and
when the descriptors run short the oldest connection still waiting for its head makes room
for a new one. So a half-open connection costs the loop nothing: accepted, held, timed out
or evicted and closed, all on this thread. A plain `GET /healthz` is answered here too, from
the loop's heartbeat and the database's last answer (health.py), so a health check waits
neither for the loop nor for the database behind the tables' writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import re
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from horserace.drivers.server.guard import Guard

HEALTH = b"GET /healthz HTTP/1."  # answered at the door (an app's `state.health`)
HEAD_END = re.compile(rb"\n\r?\n")  # the blank line that ends a request head (h11 reads both)
HEAD_AT_MOST = 16 * 1024  # h11's largest head: a longer one is the loop's to refuse (431)
ACCEPTS_AT_ONCE = 256  # accepts between two looks at the held connections
READ_SIZE = 16 * 1024
PAUSE_SECONDS = 0.1  # out of descriptors with none to evict: accepting waits this long
HANDED_PER_TURN = 8  # connections the loop sets up in one turn (the rest at the next)

# a connection whose head came: (its socket, its address (peername), the bytes read)
Handed = tuple[socket.socket, Any, bytes]


class _Held:
    """A connection waiting for its head: its socket, its address, what it sent so far and
    when its head's time runs out."""

    __slots__ = ("address", "deadline", "head", "sock")

    def __init__(self, sock: socket.socket, address: Any, deadline: float) -> None:
        self.sock = sock
        self.address = address
        self.deadline = deadline
        self.head = b""


class FrontDoor:
    """One listening socket's accepting thread (`start`, `stop`). `hand` runs on the loop for
    each connection whose head came, with what it sent: it sets the connection up there; a
    `GET /healthz` is answered here when `app` has a `state.health`."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        listener: socket.socket,
        guard: Guard,
        hand: Callable[[Handed], None],
        app: Any = None,
    ) -> None:
        self.loop = loop
        self.app = app  # the ASGI app served: its `state.health` answers /healthz here
        self.listener = listener
        self.guard = guard
        self.hand = hand
        name = listener.getsockname()
        self.local = f"{name[0]}:{name[1]}" if isinstance(name, tuple) else ""
        self._poll = select.epoll()
        self._wake = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        self._held: dict[int, _Held] = {}  # by descriptor, oldest first (one clock for all)
        self._handed: deque[Handed] = deque()
        self._scheduled = False  # a call to take the handed connections is on the loop
        self._stopping = False
        self._paused_until = 0.0
        self._thread = threading.Thread(target=self._run, name="front-door", daemon=True)

    def start(self) -> None:
        self._poll.register(self.listener.fileno(), select.EPOLLIN)
        self._poll.register(self._wake, select.EPOLLIN)
        self._thread.start()

    def stop(self) -> None:
        """Stop accepting; close the connections still waiting here (from the loop)."""
        self._stopping = True
        os.eventfd_write(self._wake, 1)
        self._thread.join(5.0)
        while self._handed:
            sock, address, _ = self._handed.popleft()
            self.guard.release(None, _host(address))
            sock.close()

    @property
    def waiting(self) -> int:
        return len(self._held)

    # --- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stopping:
                self._turn()
        finally:
            for held in list(self._held.values()):
                self._close(held)
            self._poll.close()
            os.close(self._wake)

    def _turn(self) -> None:
        now = time.monotonic()
        wait = self.guard.header_seconds
        if self._held:
            wait = max(0.0, next(iter(self._held.values())).deadline - now)
        if self._paused_until:
            wait = min(wait, max(0.0, self._paused_until - now))
        listener = self.listener.fileno()
        for fd, _ in self._poll.poll(wait, 1024):
            if fd == listener:
                self._accept()
            elif fd != self._wake:
                held = self._held.get(fd)
                if held is not None:
                    self._read(held)
        now = time.monotonic()
        self._expire(now)
        if self._paused_until and now >= self._paused_until:
            self._paused_until = 0.0
            self._poll.modify(listener, select.EPOLLIN)
        if self._handed and not self._scheduled:
            self._scheduled = True
            with contextlib.suppress(RuntimeError):  # the loop is closed: stop() cleans up
                self.loop.call_soon_threadsafe(self._take)

    def _accept(self) -> None:
        guard, deadline = self.guard, time.monotonic() + self.guard.header_seconds
        for _ in range(ACCEPTS_AT_ONCE):
            try:
                sock, address = self.listener.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as error:
                if error.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise
                if self._held:  # the process is out of descriptors: the oldest waiting goes
                    guard.closed("evicted")
                    self._close(next(iter(self._held.values())))
                    continue
                self._pause()
                return
            refused = guard.count_in(_host(address), self.local)
            if refused == "full" and self._held:
                guard.closed("evicted")
                self._close(next(iter(self._held.values())))
                refused = guard.count_in(_host(address), self.local)
            if refused is not None:
                guard.closed(refused)
                sock.close()
                continue
            sock.setblocking(False)
            held = _Held(sock, address, deadline)
            self._held[sock.fileno()] = held
            self._poll.register(sock.fileno(), select.EPOLLIN | select.EPOLLRDHUP)

    def _pause(self) -> None:
        self._paused_until = time.monotonic() + PAUSE_SECONDS
        self._poll.modify(self.listener.fileno(), 0)

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
            self._poll.unregister(fd)
            del self._held[fd]
            self._handed.append((held.sock, held.address, held.head))

    def _answer_health(self, held: _Held) -> bool:
        """`GET /healthz` answered here, from the app's `Health` (the loop's heartbeat and
        the database's last answer), so no flood delays it; the connection is closed."""
        health = getattr(getattr(self.app, "state", None), "health", None)
        if health is None:
            return False
        with contextlib.suppress(OSError):  # a few hundred bytes: the socket's buffer takes them
            held.sock.send(health.public_bytes())
        self._close(held)
        return True

    def _expire(self, now: float) -> None:
        while self._held:
            oldest = next(iter(self._held.values()))
            if oldest.deadline > now:
                return
            self.guard.closed("header-timeout")
            self._close(oldest)

    def _close(self, held: _Held) -> None:
        del self._held[held.sock.fileno()]
        held.sock.close()  # closing leaves the epoll too
        self.guard.release(None, _host(held.address))

    # --- the loop --------------------------------------------------------------------------
    def _take(self) -> None:
        """Set up a batch of the connections whose heads came; the rest at the next turn."""
        for _ in range(min(HANDED_PER_TURN, len(self._handed))):
            self.hand(self._handed.popleft())
        if self._handed:
            self.loop.call_soon(self._take)
            return
        self._scheduled = False
        if self._handed:  # handed between the last pop and now
            self._scheduled = True
            self.loop.call_soon(self._take)


def _host(address: Any) -> str:
    return str(address[0]) if isinstance(address, tuple) else ""
