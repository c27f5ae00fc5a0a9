"""The server's event loop serves a burst a slice at a time: a turn takes at most
READY_PER_TURN ready sockets, those of established connections first, and accepts at most
ACCEPTS_PER_TURN connections (one while ready sockets are left over, and that one every turn
however many young sockets are ready); every ready socket is served within a few turns, and
the turns are timed for the metrics."""

from __future__ import annotations

import asyncio
import selectors
import socket
import sys
from collections import Counter
from collections.abc import Coroutine, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
import uvicorn

from horserace.drivers.server.event_loop import (
    ACCEPTS_PER_TURN,
    READY_PER_TURN,
    YOUNG_AT_LEAST,
    BoundedEpollSelector,
    BoundedLoop,
    turn_times,
)
from horserace.drivers.server.ops import Metrics
from horserace.drivers.server.workers import uvicorn_options

T = TypeVar("T")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="epoll")


def test_a_select_reports_a_bounded_slice_and_every_ready_socket_in_turn() -> None:
    selector = BoundedEpollSelector()
    pairs = [socket.socketpair() for _ in range(5 * READY_PER_TURN)]
    with closed_after(selector, pairs):
        watched = kept_ready(selector, pairs)
        # nothing is read: every socket stays ready, and still each is reported in turn
        slices = [[key.fd for key, _ in selector.select(0)] for _ in range(5)]
        assert [len(found) for found in slices] == [READY_PER_TURN] * 5
        assert sorted(fd for found in slices for fd in found) == sorted(watched)


def test_established_sockets_are_served_before_a_burst_of_young_ones() -> None:
    """A message from a table's player is not queued behind a burst of new connections: the
    sockets registered a while ago are served first, the young ones get the rest of the
    turn, and at least YOUNG_AT_LEAST of it when the established ones fill it."""
    now = [0.0]
    selector = BoundedEpollSelector(young_seconds=1.0, clock=lambda: now[0])
    pairs: list[tuple[socket.socket, socket.socket]] = []

    def ready_pairs(count: int) -> set[int]:
        made = [socket.socketpair() for _ in range(count)]
        pairs.extend(made)
        return kept_ready(selector, made)

    with closed_after(selector, pairs):
        now[0] = 100.0
        few_old = ready_pairs(3)
        now[0] = 110.0
        for fd in few_old:  # as asyncio does when uvicorn stops and resumes reading
            selector.unregister(fd)
            selector.register(fd, selectors.EVENT_READ)
        burst = ready_pairs(5 * READY_PER_TURN)  # registered just now: young
        for _ in range(4):
            served = {key.fd for key, _ in selector.select(0)}
            assert len(served) == READY_PER_TURN and few_old <= served
        many_old = ready_pairs(READY_PER_TURN)
        now[0] = 120.0  # the burst is established too; then another one comes
        second_burst = ready_pairs(5 * READY_PER_TURN)
        served = {key.fd for key, _ in selector.select(0)}
        assert len(served & second_burst) == YOUNG_AT_LEAST
        assert served - second_burst <= few_old | burst | many_old


def test_a_new_socket_on_a_closed_ones_file_descriptor_is_young() -> None:
    """Registered last behind 11 established sockets, it is served at once (as one of the
    turn's young ones), not after the others as an old one would be."""
    now = [0.0]
    selector = BoundedEpollSelector(young_seconds=1.0, clock=lambda: now[0])
    old, old_peer = socket.socketpair()
    fd = old.fileno()
    selector.register(old, selectors.EVENT_READ)
    selector.unregister(old)
    old.close()
    old_peer.close()
    now[0] = 10.0
    pairs = [socket.socketpair() for _ in range(READY_PER_TURN + 4)]
    with closed_after(selector, pairs):
        reused = next(mine for pair in pairs for mine in pair if mine.fileno() == fd)
        peer = next(
            other for pair in pairs for other in pair if reused in pair and other is not reused
        )
        elders = [pair for pair in pairs if reused not in pair]
        now[0] = 20.0
        kept_ready(selector, elders)
        now[0] = 30.0
        kept_ready(selector, [(reused, peer)])
        now[0] = 30.5  # the elders are 10.5 s old, the reused descriptor's socket 0.5 s
        served = {key.fd for key, _ in selector.select(0)}
        assert fd in served  # a young socket: one of the YOUNG_AT_LEAST of this turn
        assert len(served - {fd}) == READY_PER_TURN - 1


def test_a_burst_of_connections_is_accepted_and_read_a_slice_per_turn() -> None:
    """Clients connect at once and each sends a line: no turn of the loop accepts more
    than ACCEPTS_PER_TURN of them or reads more than READY_PER_TURN, and all are served."""
    clients = 60
    accepted: Counter[int] = Counter()
    read: Counter[int] = Counter()

    async def main() -> None:
        times = turn_times()
        assert times is not None
        clock, _ = times

        class Echo(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted[clock.total] += 1
                self.transport = transport

            def data_received(self, data: bytes) -> None:
                read[clock.total] += 1
                assert isinstance(self.transport, asyncio.WriteTransport)
                self.transport.write(data)

        loop = asyncio.get_running_loop()
        server = await loop.create_server(Echo, "127.0.0.1", 0, backlog=1024)
        port = server.sockets[0].getsockname()[1]
        blocking = [socket.create_connection(("127.0.0.1", port)) for _ in range(clients)]
        for index, client in enumerate(blocking):
            client.sendall(b"%d\n" % index)
        while sum(read.values()) < clients:
            await asyncio.sleep(0.01)
        for index, client in enumerate(blocking):
            assert client.recv(16) == b"%d\n" % index
            client.close()
        server.close()
        await server.wait_closed()

    on_the_bounded_loop(main())
    assert sum(accepted.values()) == sum(read.values()) == clients
    assert max(accepted.values()) <= ACCEPTS_PER_TURN
    assert max(read.values()) <= READY_PER_TURN
    assert len(accepted) >= clients // ACCEPTS_PER_TURN


def test_new_connections_come_in_one_every_turn_while_the_open_sockets_are_behind() -> None:
    """Young sockets that stay ready (never read) keep the loop behind: meanwhile 12 clients
    that connect at once are accepted one a turn, in 12 turns running (the listening socket
    counts as established: it is not one of the young ones served a few a turn)."""
    clients = 12
    accepted: Counter[int] = Counter()
    behind_then: list[bool] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, BoundedLoop) and loop.bounded is not None
        selector = loop.bounded

        class Count(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted[selector.turns.total] += 1
                behind_then.append(selector.behind)

        busy = [socket.socketpair() for _ in range(3 * READY_PER_TURN)]
        for mine, theirs in busy:
            theirs.send(b"x")
            loop.add_reader(mine, lambda: None)  # ready in every turn: never read
        server = await loop.create_server(Count, "127.0.0.1", 0, backlog=1024)
        port = server.sockets[0].getsockname()[1]
        blocking = [socket.create_connection(("127.0.0.1", port)) for _ in range(clients)]
        while sum(accepted.values()) < clients:
            await asyncio.sleep(0)
        for mine, theirs in busy:
            loop.remove_reader(mine)
            mine.close()
            theirs.close()
        for client in blocking:
            client.close()
        server.close()
        await server.wait_closed()

    on_the_bounded_loop(main())
    assert sum(accepted.values()) == clients and all(behind_then)
    assert max(accepted.values()) == 1
    first = min(accepted)
    assert sorted(accepted) == list(range(first, first + clients))


def test_serve_runs_on_the_bounded_loop_and_its_metrics_give_the_turns() -> None:
    config = uvicorn.Config(lambda: None, **uvicorn_options("warning"))
    assert config.get_loop_factory() is BoundedLoop

    async def exposed() -> str:
        metrics = Metrics()
        metrics.turns = turn_times()
        for _ in range(5):
            await asyncio.sleep(0)
        return metrics.exposition({}, 0).decode()

    text = on_the_bounded_loop(exposed())
    lines = dict(line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    for name in ("horserace_loop_turn_seconds", "horserace_loop_turn_cpu_seconds"):
        assert float(lines[f"{name}_count"]) >= 5
        assert float(lines[f'{name}_bucket{{le="+Inf"}}']) == float(lines[f"{name}_count"])
        assert 0 < float(lines[name.replace("_seconds", "_longest_seconds")]) < 60
    assert "horserace_loop_turn_seconds" not in Metrics().exposition({}, 0).decode()


def on_the_bounded_loop(work: Coroutine[Any, Any, T]) -> T:
    """`work` run to its end on a fresh BoundedLoop, closed afterwards."""
    loop = BoundedLoop()
    try:
        return loop.run_until_complete(work)
    finally:
        loop.close()


Pair = tuple[socket.socket, socket.socket]


def kept_ready(selector: BoundedEpollSelector, pairs: Sequence[Pair]) -> set[int]:
    """Each pair's first socket watched, with a byte waiting that nobody reads (so it stays
    ready); their file descriptors."""
    for mine, theirs in pairs:
        selector.register(mine, selectors.EVENT_READ)
        theirs.send(b"x")
    return {mine.fileno() for mine, _ in pairs}


@contextmanager
def closed_after(selector: BoundedEpollSelector, pairs: list[Pair]) -> Iterator[None]:
    """The selector and every socket of `pairs` (as it stands at the end) closed afterwards."""
    try:
        yield
    finally:
        selector.close()
        for mine, theirs in pairs:
            mine.close()
            theirs.close()
