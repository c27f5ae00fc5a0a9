"""`--health-port`: /healthz answered by a thread off the event loop (health.py), so that
nothing queued for the loop delays it, and the public port's by its front door from the same
heartbeat; 503 once the loop's heartbeat or the database's last answer is STALE_SECONDS old."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx

from horserace.drivers.server.app import create_app
from horserace.drivers.server.health import STALE_SECONDS, Health
from horserace.drivers.server.workers import uvicorn_options
from tests.server.serve_process import HOST, free_port, uvicorn_thread

WAIT = 10.0  # the longest any request here waits (a failure, never a pass)


def test_the_health_port_answers_while_the_event_loop_cannot(tmp_path: Path) -> None:
    port = free_port()
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", health_at=(HOST, port))
    blocked, release = threading.Event(), threading.Event()

    @app.get("/hold-the-loop")
    async def hold() -> dict[str, str]:
        blocked.set()
        release.wait(WAIT)  # blocks the event loop itself: nothing else on it runs meanwhile
        return {}

    with uvicorn_thread(app, uvicorn_options("warning")) as base:
        health = f"http://{HOST}:{port}"
        with httpx.Client(trust_env=False, timeout=WAIT) as client:
            first = client.get(f"{health}/healthz")
            assert first.status_code == 200
            assert first.json()["status"] == "ok"
            assert {"loop_seconds", "database_seconds"} <= set(first.json())
            assert client.get(f"{health}/metrics").status_code == 404  # health alone
            holder = threading.Thread(target=lambda: client.get(f"{base}/hold-the-loop"))
            holder.start()
            try:
                assert blocked.wait(WAIT)
                held = client.get(f"{health}/healthz")  # answered while the loop is held
                assert held.status_code == 200 and not release.is_set()
                # the public port's too: its front door answers, from the same heartbeat
                public = client.get(f"{base}/healthz")
                assert public.json() == {"status": "ok", "tables": 0} and not release.is_set()
            finally:
                release.set()
                holder.join(WAIT)


def test_a_stale_heartbeat_or_a_silent_database_is_unhealthy() -> None:
    now = [100.0]
    failing = [False]

    def probe() -> None:
        if failing[0]:
            raise OSError("the database is away")

    health = Health(probe, clock=lambda: now[0])
    health.details = {"worker": 3}
    assert health.answer() == (
        200,
        {"status": "ok", "loop_seconds": 0, "database_seconds": 0, "worker": 3},
    )
    health.tables = lambda: 2
    assert health.public() == (200, {"status": "ok", "tables": 2, "worker": 3})
    assert health.public_bytes().startswith(b"HTTP/1.1 200 OK\r\n")
    now[0] += STALE_SECONDS + 1
    health.probe_once()  # the database answers; the loop has not beaten since
    status, body = health.answer()
    assert (status, body["loop_seconds"], body["database_seconds"]) == (503, STALE_SECONDS + 1, 0)
    assert "worker" not in body
    assert health.public() == (503, {"status": "unavailable", "error": "stale"})
    health.beat = now[0]  # the loop beats again
    failing[0] = True
    health.probe_once()
    assert health.answer()[0] == 200  # its last answer is still fresh
    now[0] += STALE_SECONDS
    health.beat = now[0]
    assert health.answer() == (
        503,
        {
            "status": "unavailable",
            "loop_seconds": 0,
            "database_seconds": STALE_SECONDS,
            "error": "OSError",
        },
    )
