"""What only a real uvicorn server set up as `serve` sets it up can show (the test client has
no frame limit and never holds back what a socket is sent): a WebSocket frame over the limit
closes the socket with 1009 (message too big) before the server reads it, and one just under
the limit is read and answered; a client that stops reading is closed with 4009 while its
table plays on to the end."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from horserace.drivers.server import connection
from horserace.drivers.server.app import create_app
from horserace.drivers.server.limits import CLOSE_TOO_SLOW, MAX_BODY, MAX_FRAME
from horserace.drivers.server.workers import uvicorn_options
from tests.server.serve_process import uvicorn_thread

HOST = "127.0.0.1"
MESSAGE_TOO_BIG = 1009


@contextmanager
def _uvicorn(database: Path) -> Iterator[str]:
    app = create_app(f"sqlite:///{database}", seeds=lambda: 7)
    with uvicorn_thread(app, uvicorn_options("warning")) as base:
        yield base.replace("http:", "ws:")


def test_a_frame_over_the_limit_closes_with_1009_and_one_under_it_is_answered(
    tmp_path: Path,
) -> None:
    with _uvicorn(tmp_path / "t.db") as base:
        with connect(f"{base}/ws/lobby", max_size=None, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "tables"
            ws.send("x" * (MAX_FRAME + 1))
            assert _close_code(ws) == MESSAGE_TOO_BIG
        created = httpx.post(
            base.replace("ws:", "http:") + "/api/tables",
            json={"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]},
            timeout=10,
        )
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        with connect(f"{base}/ws/tables/{table}", max_size=None, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "pad": "x" * (MAX_FRAME - 100)}))
            reply = json.loads(ws.recv(timeout=10))
            assert (reply["type"], reply["code"]) == ("error", "bad-message")  # read, answered
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            ws.send(json.dumps({"type": "ping", "pad": "x" * MAX_FRAME}))
            assert _close_code(ws) == MESSAGE_TOO_BIG


def test_a_chunked_body_over_the_limit_is_413_on_a_real_server(tmp_path: Path) -> None:
    """A body sent in chunks has no Content-Length: uvicorn hands it over as it comes, and
    the answer is 413 once its bytes pass the limit (just under the limit, it is read)."""
    with _uvicorn(tmp_path / "t.db") as base:
        port = int(base.rsplit(":", 1)[1])
        start = b'{"preset": "classic", "options": {"players": 2}}'
        for size, status in ((MAX_BODY, b"201"), (MAX_BODY + 1, b"413")):
            body = start + b" " * (size - len(start))
            head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            chunks = b"".join(
                b"%x\r\n%s\r\n" % (len(body[at : at + 8192]), body[at : at + 8192])
                for at in range(0, size, 8192)
            )
            request = head + b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
            with socket.create_connection((HOST, port), timeout=10) as raw:
                raw.sendall(request)
                answer = raw.recv(65536)
            assert answer.split(b" ", 2)[1] == status, answer[:200]


def test_a_client_that_stops_reading_is_closed_with_4009_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher's socket takes in a few kilobytes and then nothing (a small receive
    buffer, a short queue in the client): the server's writes to it wait, its messages queue
    up to the backlog (lowered to 30 here), and the connection is closed (4009). Its table
    never waits for it: a game of bots plays to its end meanwhile."""
    monkeypatch.setattr(connection, "MAX_BACKLOG", 30)
    with _uvicorn(tmp_path / "t.db") as base:
        http = base.replace("ws:", "http:")
        body = {
            "preset": "classic",
            "options": {"players": 2, "rounds": 3},
            "seats": ["open", "random"],
            "pace": "instant",
        }
        created = httpx.post(f"{http}/api/tables", json=body, timeout=10).json()
        table, host = created["table"]["id"], created["host_token"]
        port = int(base.rsplit(":", 1)[1])
        small = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        small.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        small.connect((HOST, port))
        url = f"{base}/ws/tables/{table}"
        with connect(url, sock=small, max_size=None, max_queue=2, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            started = httpx.post(
                f"{http}/api/tables/{table}/start",
                headers={"Authorization": f"Bearer {host}"},
                timeout=10,
            )
            assert started.status_code == 200, started.text
            deadline = time.monotonic() + 120
            while httpx.get(f"{http}/api/tables/{table}", timeout=10).json()["status"] != "over":
                assert time.monotonic() < deadline, "the table waited for a client not reading"
                time.sleep(0.2)
            version = httpx.get(f"{http}/api/tables/{table}", timeout=10).json()["version"]
            assert version > 300  # far more steps than the socket could take in
            assert _close_code(ws) == CLOSE_TOO_SLOW


def _close_code(ws: ClientConnection) -> int:
    """The code the server closed the socket with (messages before the close are skipped)."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(1000):
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code
