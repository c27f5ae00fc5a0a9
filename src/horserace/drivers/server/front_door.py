"""The front door seen from the event loop: what starts it, and takes from it the connections
whose request head has come (door.py holds them until then, off the loop).

`DoorProcess` (what `serve` runs, `Guard.door_row` set): the door in a process of its own,
started with the loop's first guarded listening socket, each such socket sent to it over a
Unix socket; the connections come back over the same socket, `HANDED_PER_TURN` a turn of the
loop, and the loop tells the door its heartbeat every `BEAT_SECONDS` (the door answers
`/healthz` from it). A door that dies is started again with the same sockets; a worker that
dies closes its end, and its door ends too. `FrontDoor`: the same door on a thread of this
process (a server run inside a process it does not own, e.g. a test's), counting with the
loop's guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from horserace.drivers.server.door import (
    BEAT_SECONDS,
    CONNECTION,
    COUNTS,
    HEALTHY,
    LISTEN,
    MESSAGE_AT_MOST,
    Door,
    Handed,
    host_of,
)
from horserace.drivers.server.guard import Guard
from horserace.drivers.server.tally import CLOSED

log = logging.getLogger("horserace.drivers.server")
HANDED_PER_TURN = 8  # connections the loop sets up in one turn (the rest at the next)
STOP_SECONDS = 5.0


class FrontDoor:
    """One listening socket's door on a thread (`start`, `stop`). `hand` runs on the loop for
    each connection whose head came, with what it sent: it sets the connection up there; a
    `GET /healthz` is answered on the thread when `app` has a `state.health`."""

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
        self.counts: dict[str, int] = {}  # what it closed is counted in the guard itself
        self.held_apart = 0  # ... and what it holds
        self._handed: deque[Handed] = deque()
        self._door = Door(guard, guard.header_seconds, self._handed.append, self._health)
        self._wake = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        self._scheduled = False  # a call to take the handed connections is on the loop
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="front-door", daemon=True)

    def start(self) -> None:
        self._door.listen(self.listener)
        self._door.watch(self._wake, lambda events: None, 1)  # select.EPOLLIN
        self._thread.start()

    def stop(self) -> None:
        """Stop accepting; close the connections still waiting here (from the loop)."""
        self._stopping = True
        os.eventfd_write(self._wake, 1)
        self._thread.join(STOP_SECONDS)
        while self._handed:
            sock, address, _, _ = self._handed.popleft()
            self.guard.release(None, host_of(address))
            sock.close()

    @property
    def waiting(self) -> int:
        return self._door.waiting

    def _health(self) -> bytes | None:
        health = _app_health(self.app)
        return None if health is None else bytes(health.public_bytes())

    def _run(self) -> None:
        try:
            while not self._stopping:
                self._door.turn()
                if self._handed and not self._scheduled:
                    self._scheduled = True
                    with contextlib.suppress(RuntimeError):  # the loop is closed: stop() cleans
                        self.loop.call_soon_threadsafe(self._take)
        finally:
            self._door.close()
            os.close(self._wake)

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


class DoorProcess:
    """The door's process for one event loop's guarded listening sockets (`listen` each);
    `hand(handed, listener_index)` sets a connection up on the loop."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        guard: Guard,
        hand: Callable[[Handed], None],
        app: Any = None,
    ) -> None:
        assert guard.shared is not None and guard.door_row is not None, "a door row to count in"
        self.loop = loop
        self.guard = guard
        self.hand = hand
        self.app = app
        self.listeners: list[socket.socket] = []
        self._said = dict.fromkeys(CLOSED, 0)  # what the door closed, as it last said
        self._before = dict.fromkeys(CLOSED, 0)  # ... and the doors that ended before it
        self.waiting = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._channel: socket.socket | None = None
        self._beat: asyncio.TimerHandle | None = None
        self._stopping = False
        self._start()
        self._tell_health()  # every BEAT_SECONDS from now on, to whichever door runs

    @property
    def held_apart(self) -> int:
        """The connections open at the door (not counted in this process's guard)."""
        return self.waiting

    @property
    def counts(self) -> dict[str, int]:
        """What the door (and those before it) closed, by why."""
        return {reason: self._before[reason] + self._said[reason] for reason in CLOSED}

    def listen(self, listener: socket.socket) -> None:
        self.listeners.append(listener)
        self._send_listener(len(self.listeners) - 1)

    def stop(self) -> None:
        """Close the channel (the door ends with it) and wait for the door."""
        self._stopping = True
        if self._beat is not None:
            self._beat.cancel()
        self._close_channel()
        if self.process is not None:
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_SECONDS)

    # --- the channel ----------------------------------------------------------------------
    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        guard, shared = self.guard, self.guard.shared
        assert shared is not None
        settings = {
            "channel": theirs.fileno(),
            "counts": shared.descriptor,
            "rows": shared.rows,
            "row": guard.door_row,
            "per_address": guard.per_address,
            "trusted": guard.trusted_proxies,
            "peers_port": guard.peers_port,
            "header_seconds": guard.header_seconds,
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "horserace.drivers.server.door", json.dumps(settings)],
            pass_fds=(theirs.fileno(), shared.descriptor),
        )
        theirs.close()
        ours.setblocking(False)
        self._channel = ours
        self.loop.add_reader(ours.fileno(), self._receive)
        for index in range(len(self.listeners)):
            self._send_listener(index)
        self._tell()
        health = _app_health(self.app)
        if health is not None and self._tell not in health.watchers:
            health.watchers.append(self._tell)  # its count of tables kept exact

    def _send_listener(self, index: int) -> None:
        assert self._channel is not None
        self._channel.setblocking(True)  # a few bytes: the socket takes them
        try:
            socket.send_fds(
                self._channel, [LISTEN + str(index).encode()], [self.listeners[index].fileno()]
            )
        finally:
            self._channel.setblocking(False)

    def _close_channel(self) -> None:
        if self._channel is not None:
            self.loop.remove_reader(self._channel.fileno())
            self._channel.close()
            self._channel = None

    def _receive(self) -> None:
        """Up to HANDED_PER_TURN of the connections handed (the rest stay in the socket,
        which stays ready for the next turn), and the door's counts."""
        channel = self._channel
        assert channel is not None
        taken = 0
        while taken < HANDED_PER_TURN:
            try:
                data, fds, _, _ = socket.recv_fds(channel, MESSAGE_AT_MOST, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data, fds = b"", []
            if not data:
                self._door_ended()
                return
            kind = data[:1]
            if kind == CONNECTION and fds:
                header, head = data[1:].split(b"\n", 1)
                index, host, port = json.loads(header)
                sock = socket.socket(fileno=fds[0])
                sock.setblocking(False)
                self.hand((sock, (host, port), head, index))
                taken += 1
            elif kind == COUNTS:
                said = json.loads(data[1:])
                self._said, self.waiting = said["closed"], said["waiting"]
            else:
                for fd in fds:
                    os.close(fd)

    def _door_ended(self) -> None:
        self._close_channel()
        if self._stopping:
            return
        code = self.process.wait() if self.process is not None else None
        fields = {"code": code}  # as ops.event logs (which imports this module's importers)
        log.warning("front door ended; starting another", extra={"fields": fields})
        self._before = self.counts  # a new door counts from zero
        self._said, self.waiting = dict.fromkeys(CLOSED, 0), 0
        self._start()

    def _tell_health(self) -> None:
        """`_tell`, every BEAT_SECONDS: a loop that stops turning stops telling."""
        self._tell()
        self._beat = self.loop.call_later(BEAT_SECONDS, self._tell_health)

    def _tell(self) -> None:
        """The loop's heartbeat (the time of this call), the database's last answer and the
        tables held, to the door."""
        health = _app_health(self.app)
        if self._channel is None or health is None:
            return
        state = {
            "beat": time.monotonic(),
            "answered": health.answered,
            "error": health.error,
            "tables": health.tables(),
            "details": health.details,
        }
        with contextlib.suppress(OSError):  # full (the door is stuck) or gone
            self._channel.send(HEALTHY + json.dumps(state).encode())


def _app_health(app: Any) -> Any:
    """The served app's `state.health` (health.Health), if it has one."""
    return getattr(getattr(app, "state", None), "health", None)
