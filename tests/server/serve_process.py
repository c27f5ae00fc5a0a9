"""`horserace serve` as a real process on a free localhost port, started as a user starts it:
one way to start it, wait until it answers and stop it, for the tests that kill it or drive it
from a browser and for the server benchmarks."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"
HORSERACE = Path(sys.executable).parent / "horserace"
STARTUP_POLLS = 300  # x 0.1 s
METRICS_TOKEN = "the-operators-metrics-token"  # given as an operator gives it: in the environment


def free_port(host: str = HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def start_serve(arguments: list[str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`horserace serve --host HOST --port <free> *arguments`, its output appended to `log`,
    once its /healthz answers: (the process, its base URL). If it stops or does not answer,
    it is stopped and the error carries its log."""
    port = free_port()
    command = [str(HORSERACE), "serve", "--host", HOST, "--port", str(port), *arguments]
    with log.open("ab") as out:
        environment = {**os.environ, "HORSERACE_METRICS_TOKEN": METRICS_TOKEN}
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment)
    base = f"http://{HOST}:{port}"
    try:
        with httpx.Client(trust_env=False, timeout=5) as client:
            for _ in range(STARTUP_POLLS):
                if process.poll() is not None:
                    raise RuntimeError("the server stopped: " + log.read_text())
                try:
                    if client.get(f"{base}/healthz").status_code == 200:
                        return process, base
                except httpx.TransportError:
                    time.sleep(0.1)
        raise RuntimeError("the server did not start: " + log.read_text())
    except BaseException:
        stop_process(process, 10)
        raise


@contextmanager
def serve_running(arguments: list[str], log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`start_serve` for the length of a `with`; stopped at its end."""
    process, base = start_serve(arguments, log)
    try:
        yield process, base
    finally:
        stop_process(process, 10)


def stop_process(process: subprocess.Popen[bytes], seconds: float = 20.0) -> None:
    """SIGTERM, then SIGKILL if it has not stopped within `seconds`."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def uvicorn_thread(app: Any, options: dict[str, Any]) -> Iterator[str]:
    """`app` served by uvicorn with `options` in a thread of this process, on a free port,
    for the length of a `with`: its base URL (http://)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        yield f"http://{HOST}:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
