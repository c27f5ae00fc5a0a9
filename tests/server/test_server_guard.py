"""Connection hygiene at a real uvicorn server set up as `serve` sets it up (guard.py): a
connection whose request head does not arrive in time is closed, and one whose body does not;
an address holds at most its share of HTTP connections (across a host's workers too); when
the process is short of descriptors the oldest connection still waiting for a head makes
room for a new one; a WebSocket leaves the count; a request sent in time is answered as
before. The clocks are shortened; every wait is on the server closing a connection, never a
sleep."""

from __future__ import annotations

import json
import os
import re
import resource
import socket
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest
from websockets.sync.client import connect

from horserace.drivers.server.app import create_app
from horserace.drivers.server.guard import Guard, SharedCounts, guarded_protocol
from horserace.drivers.server.workers import uvicorn_options
from tests.server.serve_process import uvicorn_thread

SECONDS = 0.5  # the shortened clocks for heads and bodies
PER_ADDRESS = 4
TOTAL = 6
WAIT = 10.0  # the longest any read here waits for the server (a failure, never a pass)
TOKEN = "the-metrics-token"
CLOSED_SAMPLE = r'horserace_http_connections_closed_total\{reason="([^"]+)"\} (\S+)'


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Guard]]:
    guard = Guard(PER_ADDRESS, TOTAL, "", header_seconds=SECONDS, body_seconds=SECONDS)
    database = tmp_path_factory.mktemp("guard") / "t.db"
    app = create_app(f"sqlite:///{database}", seeds=lambda: 7, metrics_token=TOKEN)
    options = {**uvicorn_options("warning"), "http": guarded_protocol(guard)}
    with uvicorn_thread(app, options) as base:
        yield base, guard


def _open(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=WAIT)


def _closed_by_server(connection: socket.socket) -> bytes:
    """Read until the server closes the connection; what it sent meanwhile."""
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    finally:
        connection.close()
    return received


def _healthy(base: str) -> None:
    with httpx.Client(trust_env=False, timeout=WAIT) as client:
        assert client.get(f"{base}/healthz").status_code == 200


def test_a_head_that_does_not_arrive_in_time_is_closed(served: tuple[str, Guard]) -> None:
    base, guard = served
    before = guard.counts["header-timeout"]
    silent, partial = _open(base), _open(base)
    partial.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # the head's end never comes
    assert _closed_by_server(silent) == b""
    assert _closed_by_server(partial) == b""
    assert guard.counts["header-timeout"] == before + 2
    _healthy(base)


def test_a_body_that_does_not_arrive_in_time_is_closed(served: tuple[str, Guard]) -> None:
    base, guard = served
    before, heads = guard.counts["body-timeout"], guard.counts["header-timeout"]
    slow = _open(base)
    head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    slow.sendall(head + b"Content-Length: 200\r\n\r\n{")  # 199 bytes never follow
    assert _closed_by_server(slow) == b""
    assert guard.counts["body-timeout"] == before + 1
    assert guard.counts["header-timeout"] == heads  # its head came in time


def test_an_address_holds_its_share_of_connections(served: tuple[str, Guard]) -> None:
    base, guard = served
    before = guard.counts["per-address"]
    held = [_open(base) for _ in range(PER_ADDRESS)]
    try:
        one_more = _open(base)
        one_more.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _closed_by_server(one_more) == b""  # refused, not answered
        assert guard.counts["per-address"] == before + 1
    finally:
        for connection in held:  # each ends at its head's deadline
            assert _closed_by_server(connection) == b""


def test_short_of_descriptors_the_oldest_waiting_connection_makes_room(
    served: tuple[str, Guard],
) -> None:
    base, guard = served
    guard.per_address = TOTAL + 2  # one address stands for many here
    evicted = guard.counts["evicted"]
    try:
        waiting = [_open(base) for _ in range(TOTAL)]
        asking = _open(base)
        asking.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = _closed_by_server(asking)
        assert answer.startswith(b"HTTP/1.1 200"), answer
        assert _closed_by_server(waiting[0]) == b""  # the oldest gave way
        assert guard.counts["evicted"] == evicted + 1
        for connection in waiting[1:]:
            assert _closed_by_server(connection) == b""
    finally:
        guard.per_address = PER_ADDRESS


def test_requests_in_time_and_websockets_pass(served: tuple[str, Guard]) -> None:
    base, _ = served
    with httpx.Client(trust_env=False, timeout=WAIT) as client:
        for _ in range(PER_ADDRESS + 2):  # one kept-alive connection, many requests
            assert client.get(f"{base}/healthz").status_code == 200
        created = client.post(
            f"{base}/api/tables",
            json={"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]},
        )
        assert created.status_code == 201, created.text
    table = created.json()["table"]["id"]
    url = f"{base.replace('http:', 'ws:')}/ws/tables/{table}"
    with ExitStack() as stack:
        for _ in range(PER_ADDRESS + 1):
            ws = stack.enter_context(connect(url, open_timeout=WAIT))
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=WAIT))["type"] == "welcome"
        _healthy(base)  # the WebSockets are not HTTP connections any more


def test_the_metrics_count_what_the_guard_closed(served: tuple[str, Guard]) -> None:
    base, guard = served
    late = _open(base)
    assert _closed_by_server(late) == b""  # one more head out of time, at least
    with httpx.Client(trust_env=False, timeout=WAIT) as client:
        text = client.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    closed = {found.group(1): float(found.group(2)) for found in re.finditer(CLOSED_SAMPLE, text)}
    assert closed == {reason: float(count) for reason, count in guard.counts.items()}
    assert closed["header-timeout"] >= 1  # this test's own, whichever ran before it here
    assert 'horserace_http_connections{state="open"}' in text


def test_the_descriptor_limit_is_raised_and_a_reserve_kept() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 1024), hard))  # so the raise shows
    try:
        guard = Guard()
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
        assert guard.total == hard - max(hard // 4, 64)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class _Connection:
    """What a guard asks of a connection it holds: a key, and `drop` when it gives way."""

    def drop(self) -> None:
        raise AssertionError("nothing is evicted here")


def test_the_workers_of_a_host_hold_an_address_to_one_share_between_them() -> None:
    """Two workers' guards over one file of shared counts: an address at its cap on one is
    refused on the other; its connections released on either, it is admitted again; another
    address is not held back; a worker started again in a dead one's row starts from zero."""
    counts = SharedCounts.make(2)
    first, second = (
        Guard(PER_ADDRESS, 1000, shared=SharedCounts(counts, 2, row)) for row in (0, 1)
    )
    held = [_Connection() for _ in range(PER_ADDRESS)]
    for index, connection in enumerate(held):  # spread over both, as the kernel spreads them
        assert (first, second)[index % 2].admit(connection, "10.0.0.1")  # type: ignore[arg-type]
    for guard in (first, second):
        assert not guard.admit(_Connection(), "10.0.0.1")  # type: ignore[arg-type]
    assert first.admit(_Connection(), "10.0.0.2")  # type: ignore[arg-type]
    first.release(held[0], "10.0.0.1")  # type: ignore[arg-type]
    assert second.admit(_Connection(), "10.0.0.1")  # type: ignore[arg-type]
    assert (first.counts["per-address"], second.counts["per-address"]) == (1, 1)
    restarted = Guard(PER_ADDRESS, 1000, shared=SharedCounts(counts, 2, 1))  # the second died
    assert first.shared is not None and first.shared.held("10.0.0.1") == PER_ADDRESS // 2 - 1
    assert restarted.admit(_Connection(), "10.0.0.1")  # type: ignore[arg-type]
    os.close(counts)


def test_a_connection_waits_for_its_head_at_the_front_door_not_on_the_loop(
    served: tuple[str, Guard],
) -> None:
    """Half-open connections are held by the front door's thread (front_door.py): counted
    there, and no protocol on the loop holds them; once a head is complete it is served on
    the loop as any request, the bytes sent before included."""
    base, guard = served
    assert len(guard.doors) == 1
    door = guard.doors[0]
    held = [_open(base) for _ in range(PER_ADDRESS - 1)]
    for connection in held:
        connection.sendall(b"GET /api/server-key HTTP/1.1\r\n")
    finishing = held.pop()  # accepted after the others (the listening queue's order)
    finishing.sendall(b"Host: x\r\nConnection: close\r\n\r\n")
    answer = _closed_by_server(finishing)
    assert answer.startswith(b"HTTP/1.1 200") and b"server: uvicorn" in answer, answer
    assert door.waiting == len(held)
    on_the_loop = {protocol.client[1] for protocol in guard.waiting if protocol.client}
    assert on_the_loop.isdisjoint(connection.getsockname()[1] for connection in held)
    for connection in held:
        assert _closed_by_server(connection) == b""  # their heads' time ran out at the door
