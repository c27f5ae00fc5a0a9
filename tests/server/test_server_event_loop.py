"""The server's event loop serves a burst a slice at a time: a turn takes at most
READY_PER_TURN ready sockets and accepts at most ACCEPTS_PER_TURN connections, every ready
socket is served within a few turns, and the turns are timed for the metrics."""

from __future__ import annotations

import asyncio
import selectors
import socket
import sys
from collections import Counter

import pytest
import uvicorn

from horserace.drivers.server.event_loop import (
    ACCEPTS_PER_TURN,
    READY_PER_TURN,
    BoundedEpollSelector,
    BoundedLoop,
    turn_times,
)
from horserace.drivers.server.ops import Metrics
from horserace.drivers.server.workers import uvicorn_options

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="epoll")


def test_a_select_reports_a_bounded_slice_and_every_ready_socket_in_turn() -> None:
    selector = BoundedEpollSelector()
    pairs = [socket.socketpair() for _ in range(5 * READY_PER_TURN)]
    try:
        for mine, theirs in pairs:
            selector.register(mine, selectors.EVENT_READ)
            theirs.send(b"x")
        # nothing is read: every socket stays ready, and still each is reported in turn
        slices = [[key.fd for key, _ in selector.select(0)] for _ in range(5)]
        assert [len(found) for found in slices] == [READY_PER_TURN] * 5
        assert sorted(fd for found in slices for fd in found) == sorted(
            mine.fileno() for mine, _ in pairs
        )
    finally:
        selector.close()
        for mine, theirs in pairs:
            mine.close()
            theirs.close()


def test_a_burst_of_connections_is_accepted_and_read_a_slice_per_turn() -> None:
    """60 clients connect at once and each sends a line: no turn of the loop accepts more
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

    loop = BoundedLoop()
    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
    assert sum(accepted.values()) == sum(read.values()) == clients
    assert max(accepted.values()) <= ACCEPTS_PER_TURN
    assert max(read.values()) <= READY_PER_TURN
    assert len(accepted) >= clients // ACCEPTS_PER_TURN


def test_serve_runs_on_the_bounded_loop_and_its_metrics_give_the_turns() -> None:
    config = uvicorn.Config(lambda: None, **uvicorn_options("warning"))
    assert config.get_loop_factory() is BoundedLoop

    async def exposed() -> str:
        metrics = Metrics()
        metrics.turns = turn_times()
        for _ in range(5):
            await asyncio.sleep(0)
        return metrics.exposition({}, 0).decode()

    loop = BoundedLoop()
    try:
        text = loop.run_until_complete(exposed())
    finally:
        loop.close()
    lines = dict(line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
    for name in ("horserace_loop_turn_seconds", "horserace_loop_turn_cpu_seconds"):
        assert float(lines[f"{name}_count"]) >= 5
        assert float(lines[f'{name}_bucket{{le="+Inf"}}']) == float(lines[f"{name}_count"])
        assert 0 < float(lines[name.replace("_seconds", "_longest_seconds")]) < 60
    assert "horserace_loop_turn_seconds" not in Metrics().exposition({}, 0).decode()
