"""A health check that no flood delays: `/healthz` on a port of its own, answered by a thread.

The public port's `/healthz` waits where every client waits: in the listening socket's queue,
then for the event loop, then for the database's lock behind the tables' writes. When 20,000
half-open connections fill the queue faster than one core takes them in, the kernel drops a
new connection's first packet and the client tries again a second later, then three: a
health check took seconds, however the loop ordered its work. `--health-port` gives each
server process a second listening socket that only the health checker knows, served by a
thread of its own. Its answer says what a health check asks: that the event loop still turns
(a heartbeat it stamps every `BEAT_SECONDS`) and that the database answered lately (probed
by another thread every `PROBE_SECONDS`); older than `STALE_SECONDS` either is a 503.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

from horserace.drivers.server.door import (
    BEAT_SECONDS,
    STALE_SECONDS,
    health_response,
    public_health,
)

__all__ = ["BEAT_SECONDS", "STALE_SECONDS", "Health"]

PROBE_SECONDS = 1.0  # how often the database is asked
READ_SECONDS = 2.0  # a health checker that sends nothing for this long is dropped


class Health:
    """The event loop's heartbeat and the database's last answer, read by the health thread."""

    def __init__(self, probe: Callable[[], Any], clock: Callable[[], float] = time.monotonic):
        self.probe = probe
        self.clock = clock
        now = clock()
        self.beat = now
        self.answered = now
        self.error = ""  # the last probe's failure, if it failed
        self.details: dict[str, Any] = {}  # added to a healthy answer (the worker, say)
        self.tables: Callable[[], int] = lambda: 0  # the tables held (the public answer's)
        self.watchers: list[Callable[[], None]] = []  # told when the tables held change
        self._stop = threading.Event()

    def tables_changed(self) -> None:
        """A table came into memory or left it (on the loop): the watchers are told."""
        for watcher in self.watchers:
            watcher()

    async def heartbeat(self) -> None:
        """Stamp the heartbeat while the loop turns (a chore of the server's loop)."""
        while True:
            self.beat = self.clock()
            await asyncio.sleep(BEAT_SECONDS)

    def probe_database(self) -> None:
        """Ask the database every PROBE_SECONDS until stopped (a thread of its own)."""
        while not self._stop.is_set():
            self.probe_once()
            self._stop.wait(PROBE_SECONDS)

    def probe_once(self) -> None:
        try:
            self.probe()
        except Exception as error:  # any database failure is what this reports
            self.error = type(error).__name__
        else:
            self.answered = self.clock()
            self.error = ""

    def answer(self) -> tuple[int, dict[str, Any]]:
        """(status, body): 200 while the loop beats and the database answers, else 503."""
        now = self.clock()
        found = {"loop_seconds": round(now - self.beat, 3)}
        found["database_seconds"] = round(now - self.answered, 3)
        if max(found.values()) < STALE_SECONDS:
            return 200, {"status": "ok", **found, **self.details}
        return 503, {
            "status": "unavailable",
            **found,
            **({"error": self.error} if self.error else {}),
        }

    def public(self) -> tuple[int, dict[str, Any]]:
        """(status, body) of the public port's `/healthz` as the front door answers it, off
        the loop: the route's answer (`status`, `tables`, the worker), from the heartbeat and
        the database's last answer (their ages stay the operator's, at the health port)."""
        return public_health(
            self.beat, self.answered, self.error, self.tables(), self.details, self.clock()
        )

    def public_bytes(self) -> bytes:
        """`public` as a whole HTTP/1.1 response that closes its connection."""
        return health_response(
            self.beat, self.answered, self.error, self.tables(), self.details, self.clock()
        )

    def start(self) -> None:
        """Start the database's prober (a thread); `stop` stops it."""
        threading.Thread(target=self.probe_database, name="health-probe", daemon=True).start()

    def serve(self, host: str, port: int) -> HTTPServer:
        """Start the health port's thread; `stop` stops it."""
        health = self

        class Answer(BaseHTTPRequestHandler):
            timeout = READ_SECONDS

            def do_GET(self) -> None:
                status, body = health.answer() if self.path == "/healthz" else (404, {})
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                """Silent: a check every few seconds is not news."""

        server = HTTPServer((host, port), Answer)
        threading.Thread(target=server.serve_forever, name="health", daemon=True).start()
        self._server = server
        return server

    def stop(self) -> None:
        self._stop.set()
        server: HTTPServer | None = getattr(self, "_server", None)
        if server is not None:
            server.shutdown()
            server.server_close()
