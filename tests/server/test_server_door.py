"""The front door in a process of its own, as `serve` runs it (door.py, front_door.py): it
answers `/healthz` at the public port while the worker's process is stopped (a door on the
worker's thread cannot: it stops with it), holds half-open connections in its own process and
hands a connection on with the bytes it read once its head is complete, reports what it holds
and closed in the worker's metrics, is started again when it dies, and ends with its worker.
Every wait is on an answer or a process's end, with a deadline (a failure, never a pass)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from horserace.drivers.server.door import Door, Handed
from horserace.drivers.server.tally import Tally
from tests.server.serve_process import METRICS_TOKEN, serve_running

WAIT = 10.0  # the longest any wait here lasts (a failure, never a pass)
HALF_OPEN = 20


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    folder = tmp_path_factory.mktemp("door")
    with serve_running(["--db", f"sqlite:///{folder / 't.db'}"], folder / "serve.log") as running:
        yield running


def _door(worker: int) -> int:
    """The pid of the worker's front door (its child), once it has one."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        children = Path(f"/proc/{worker}/task/{worker}/children").read_text().split()
        for child in children:
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except (FileNotFoundError, ProcessLookupError):  # ended since it was listed
                continue
            if b"horserace.drivers.server.door" in command:
                return int(child)
        time.sleep(0.05)
    raise AssertionError("no front door's process")


def _ended(pid: int) -> bool:
    """Wait (up to WAIT) until the process `pid` is gone or a zombie. A process reaped between
    the open of its stat file and the read raises ProcessLookupError: it has ended too."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def _descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=WAIT)


def _read_all(connection: socket.socket) -> bytes:
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def _metrics(base: str) -> str:
    headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    with httpx.Client(trust_env=False, timeout=WAIT) as client:
        return client.get(f"{base}/metrics", headers=headers).text


def test_healthz_is_answered_while_the_worker_is_stopped(
    served: tuple[subprocess.Popen[bytes], str],
) -> None:
    process, base = served
    os.kill(process.pid, signal.SIGSTOP)  # its event loop, and every thread of it, stopped
    try:
        with _connect(base) as probe:
            probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = _read_all(probe)
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n"), answer
        assert answer.endswith(b'{"status":"ok","tables":0}')
    finally:
        os.kill(process.pid, signal.SIGCONT)


def test_half_open_connections_wait_in_the_doors_process(
    served: tuple[subprocess.Popen[bytes], str],
) -> None:
    process, base = served
    door = _door(process.pid)
    worker_before, door_before = _descriptors(process.pid), _descriptors(door)
    held = [_connect(base) for _ in range(HALF_OPEN)]
    try:
        for connection in held:
            connection.sendall(b"GET /api/server-key HTTP/1.1\r\n")
        deadline = time.monotonic() + WAIT
        while _descriptors(door) < door_before + HALF_OPEN:  # accepted, by the door
            assert time.monotonic() < deadline, "the door did not take the connections in"
            time.sleep(0.05)
        assert _descriptors(process.pid) < worker_before + HALF_OPEN // 2  # not the worker
        waiting = r'horserace_http_connections\{state="waiting"\} (\S+)'
        while float(re.findall(waiting, _metrics(base))[0]) < HALF_OPEN:  # told to the worker
            assert time.monotonic() < deadline, "the worker's metrics miss the door's"
            time.sleep(0.05)
        finishing = held.pop()
        finishing.sendall(b"Host: x\r\nConnection: close\r\n\r\n")  # the head's second half
        answer = _read_all(finishing)
        assert answer.startswith(b"HTTP/1.1 200") and b"server: uvicorn" in answer, answer
        assert b'"server_key"' in answer  # served by the worker, the bytes read first included
    finally:
        for connection in held:
            connection.close()


def test_a_door_that_dies_is_started_again(
    served: tuple[subprocess.Popen[bytes], str],
) -> None:
    process, base = served
    first = _door(process.pid)
    os.kill(first, signal.SIGKILL)
    assert _ended(first)
    deadline = time.monotonic() + WAIT
    while (second := _door(process.pid)) == first:
        assert time.monotonic() < deadline, "no new door"
        time.sleep(0.05)
    with httpx.Client(trust_env=False, timeout=WAIT) as client:
        assert client.get(f"{base}/api/server-key").status_code == 200
        assert client.get(f"{base}/healthz").json()["status"] == "ok"
    assert second != first and process.poll() is None


def test_a_door_ends_with_its_worker(served: tuple[subprocess.Popen[bytes], str]) -> None:
    """(The module's last test: its server ends here.)"""
    process, _ = served
    door = _door(process.pid)
    process.kill()  # kill -9: the worker closes nothing itself
    process.wait(WAIT)
    assert _ended(door)


def test_the_oldest_connection_still_waiting_makes_room() -> None:
    """The door's own turns, driven here: with room for three connections, the oldest gave
    its place when a fourth came, but the oldest still waiting for its head, not one handed
    on before (nor one closed meanwhile), and each closed connection is counted out."""
    handed: list[Handed] = []
    tally = Tally(per_address=100, total=3)
    door = Door(tally, WAIT, handed.append, lambda: None)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        door.listen(listener)
        port = listener.getsockname()[1]

        def arrive(head: bytes) -> socket.socket:
            connection = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            connection.sendall(head)

            def seen() -> int:
                return door.waiting + len(handed) + sum(tally.counts.values())

            before = seen()
            deadline = time.monotonic() + WAIT
            while seen() == before:  # taken in (and read), one turn or two
                assert time.monotonic() < deadline, "the door did not take it in"
                door.turn()
            return connection

        first = arrive(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # complete: handed on at once
        gone = arrive(b"GET / HTTP/1.1\r\n")
        gone.close()
        while door.waiting:  # its close seen
            door.turn()
        second = arrive(b"GET / HTTP/1.1\r\n")
        third = arrive(b"GET / HTTP/1.1\r\n")
        assert (len(handed), door.waiting, tally.open) == (1, 2, 3)
        fourth = arrive(b"GET / HTTP/1.1\r\n")  # no room: the oldest waiting goes
        assert second.recv(1) == b""
        assert (door.waiting, tally.open, tally.counts["evicted"]) == (2, 3, 1)
        third.sendall(b"Host: x\r\n\r\n")
        while len(handed) < 2:
            door.turn()
        assert [index for *_, index in handed] == [0, 0] and handed[1][2].endswith(b"\r\n\r\n")
        for connection in (first, third, fourth):
            connection.close()
        for sock, *_ in handed:
            sock.close()
        door.close()
