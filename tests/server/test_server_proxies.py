"""Forwarded headers are believed only from the proxies `serve --trusted-proxies` names: by
default a client that says it is 2,000 addresses is still one, and its sockets count against
its one address; behind a trusted proxy, each client it names counts for itself."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from horserace.drivers.server.app import create_app
from horserace.drivers.server.limits import CLOSE_TOO_MANY, Limits
from horserace.drivers.server.workers import uvicorn_options
from tests.server.serve_process import uvicorn_thread


def welcomed(ws: ClientConnection) -> bool:
    """Whether the socket is welcomed after its hello (else it was told and closed, 4029)."""
    try:
        ws.send(json.dumps({"type": "hello"}))
        return bool(json.loads(ws.recv(timeout=10))["type"] == "welcome")
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == CLOSE_TOO_MANY
        return False


@pytest.mark.parametrize(("trusted", "expected"), [("", 2), ("127.0.0.1", 5)])
def test_forwarded_for_is_believed_only_from_trusted_proxies(
    tmp_path: Path, trusted: str, expected: int
) -> None:
    limits = Limits(sockets_per_address=2)
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", limits=limits)
    with uvicorn_thread(app, uvicorn_options("warning", trusted)) as base:
        body = {"preset": "classic", "options": {"players": 2}}
        table = httpx.post(f"{base}/api/tables", json=body, timeout=10).json()["table"]["id"]
        count = 0
        with contextlib.ExitStack() as held:  # every socket stays open to the end
            for number in range(5):
                url = base.replace("http:", "ws:") + f"/ws/tables/{table}"
                client = {"X-Forwarded-For": f"10.9.0.{number}"}
                ws = held.enter_context(connect(url, additional_headers=client, open_timeout=10))
                count += welcomed(ws)
    assert count == expected
