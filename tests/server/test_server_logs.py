"""`horserace serve` writes one log format: every line on its output is a JSON object, the
web server's own lines (start, requests, errors) included, and a browser that vanishes while
its table is sending to it costs at most one line, never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import time
from asyncio.constants import LOG_THRESHOLD_FOR_CONNLOST_WRITES
from pathlib import Path

import httpx
from websockets.sync.client import connect

from horserace.drivers.server.connection import Connection
from horserace.drivers.server.table_socket import spawn_writer
from tests.server.serve_process import METRICS_TOKEN, serve_running, stop_process

GAME = {
    "preset": "classic",
    "options": {"players": 4, "rounds": 60},
    "seats": ["random"] * 4,
    "pace": "instant",
}


def _vanish(sock: socket.socket) -> None:
    """Close with a reset, as a killed browser's machine does: no close frame, no FIN."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_every_line_is_json_and_a_vanished_socket_is_at_most_one_line(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    arguments = ["--db", f"sqlite:///{tmp_path / 't.db'}", "--bot-delay", "0"]
    with serve_running(arguments, log) as (process, base):
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as http:
            assert http.get("/api/presets").status_code == 200
            assert http.get("/no/such/page").status_code == 404
            assert http.get("/metrics").status_code == 401  # a player on the game port
            operator = {"Authorization": f"Bearer {METRICS_TOKEN}"}  # as HORSERACE_METRICS_TOKEN
            assert "horserace_tables" in http.get("/metrics", headers=operator).text
            table = http.post("/api/tables", json=GAME).json()["table"]["id"]
            port = int(base.rsplit(":", 1)[1])
            watchers = []
            with contextlib.ExitStack() as stack:
                for _ in range(4):  # they read nothing after the welcome: their backlog grows
                    small = socket.create_connection(("127.0.0.1", port))
                    small.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
                    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
                    ws = stack.enter_context(connect(url, sock=small, max_queue=1, open_timeout=10))
                    stack.callback(ws.socket.close)  # runs first: no close handshake then
                    ws.send(json.dumps({"type": "hello"}))
                    assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
                    watchers.append(small)
                for small in watchers:
                    _vanish(small)
            version = http.get(f"/api/tables/{table}").json()["version"]
            deadline = time.monotonic() + 15
            while http.get(f"/api/tables/{table}").json()["version"] < version + 100:
                assert time.monotonic() < deadline, "the table stopped"
                time.sleep(0.05)
        stop_process(process)
    lines = log.read_text().splitlines()
    assert len(lines) >= 5
    for line in lines:
        parsed = json.loads(line)  # every line, the web server's included
        assert {"time", "level", "logger", "message"} <= set(parsed), line
    text = "\n".join(lines)
    assert "Traceback" not in text and METRICS_TOKEN not in text
    assert sum("socket.send()" in line for line in lines) <= 1, text[-3000:]
    requests = [json.loads(line) for line in lines if '"logger": "uvicorn.access"' in line]
    assert {(r["method"], r["path"], r["status"]) for r in requests} >= {
        ("GET", "/api/presets", 200),
        ("GET", "/no/such/page", 404),
    }


class _DyingSocket:
    """A socket whose connection is lost under its first send: as asyncio tells a protocol,
    the loss reaches it at the loop's next turn (call_soon), and every send after that
    raises. Counts the writes made into the dead transport meanwhile."""

    def __init__(self) -> None:
        self.lost = False
        self.told = False
        self.untold_writes = 0

    async def send_text(self, text: str) -> None:
        if self.told:
            raise OSError("the client went away")
        if self.lost:
            self.untold_writes += 1
            return
        self.lost = True
        asyncio.get_running_loop().call_soon(self._tell)

    def _tell(self) -> None:
        self.told = True

    async def close(self, code: int = 1000) -> None:
        await self.send_text("")


def test_a_backlog_is_not_written_into_a_lost_connection() -> None:
    """With 500 messages queued, a connection lost under the first send takes fewer writes
    than asyncio's threshold for logging them (each one past it was a plain warning line)."""

    async def run() -> int:
        dying = _DyingSocket()
        connection = Connection()
        for number in range(500):
            connection.send({"type": "pong", "version": number})
        connection.close()
        writer = spawn_writer(dying, connection)  # type: ignore[arg-type]
        await asyncio.wait_for(writer, 10)
        return dying.untold_writes

    assert asyncio.run(run()) < LOG_THRESHOLD_FOR_CONNLOST_WRITES
