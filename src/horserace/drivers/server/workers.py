"""`horserace serve --workers N`: N server processes over one PostgreSQL database, sharing one
listening socket (the kernel hands each new connection to one of them).

The supervisor (this module's `serve_workers`) binds the socket, makes the signing key once,
starts the workers and starts another when one dies; its tables meanwhile move to a live
worker (cluster.py). Each worker also listens on a port of its own at the advertised host
(`--advertise-host`, loopback by default), where the other workers, on this host or others,
forward the requests of the tables it owns (routing.py); they prove they are workers with a
secret derived from the signing key, so every host given the same key file shares it. A
worker whose supervisor is gone stops by itself.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from types import FrameType
from typing import Any

from horserace.drivers.server.guard import Guard, SharedCounts, guarded_protocol
from horserace.drivers.server.limits import MAX_FRAME, Limits
from horserace.drivers.server.ops import event

log = logging.getLogger("horserace.drivers.server")
ENVIRONMENT = "HORSERACE_WORKER"  # a worker's settings, as JSON
RESTART_SECONDS = 0.5
STOP_SECONDS = 10.0
LISTEN_BACKLOG = 4096


@dataclass(frozen=True)
class WorkerSettings:
    database: str
    bot_delay: float
    key_file: str | None
    log_level: str
    openapi: bool
    limits: dict[str, Any]  # the fields of limits.Limits
    metrics_token: str | None = None
    trusted_proxies: str = ""
    secret: str = ""
    listener: int | None = None  # the shared socket's file descriptor, once it is open
    advertise: str = "127.0.0.1"  # the host where other workers reach this one
    peer_port: int = 0  # the port they reach it at (0: any free one)
    counts: int = -1  # the descriptor of the workers' shared connection counts (guard.py)
    workers: int = 1
    index: int = 0  # this worker's row in them
    health_host: str = ""  # where worker N answers /healthz off its loop (health.py) ...
    health_port: int = 0  # ... at this port plus N (no host: nowhere)


def uvicorn_options(
    log_level: str,
    trusted_proxies: str = "",
    connections_per_address: int = Limits.connections_per_address,
    peers_port: str = "",
    shared: SharedCounts | None = None,
    door: bool = False,
) -> dict[str, Any]:
    """How every server process runs uvicorn (one process or many). `X-Forwarded-For` and
    `X-Forwarded-Proto` are believed only from `trusted_proxies` (addresses or networks,
    comma-separated); from anyone else, and from everyone when none are given, the client
    is the address the connection comes from. HTTP connections are guarded (guard.py):
    timeouts for heads and bodies, `connections_per_address` at once (but on `peers_port`,
    HOST:PORT, where the other workers forward their clients; counted with the host's other
    workers when `shared`), descriptors kept. `door`: each connection waits for its request
    head at a front door in a process of its own (door.py), which counts in the row of
    `shared` half its rows after the worker's own (made here, of two rows, if none is given);
    else on a thread of this process."""
    door_row = None
    if door:
        if shared is None:
            shared = SharedCounts(SharedCounts.make(2), 2, 0)
        door_row = shared.row + shared.rows // 2
    guard = Guard(
        connections_per_address,
        trusted=trusted_proxies,
        peers_port=peers_port,
        shared=shared,
        door_row=door_row,
    )
    return {
        "http": guarded_protocol(guard),
        "log_level": log_level,
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": trusted_proxies or "",
        "log_config": None,  # its lines go through the server's JSON logging (ops.py)
        "ws_max_size": MAX_FRAME,  # a larger frame closes the socket with 1009
        "ws_per_message_deflate": False,  # compressing every frame costs more CPU than it saves
        "loop": "horserace.drivers.server.event_loop:BoundedLoop",  # a burst served in slices
        # connections not yet accepted that the kernel queues (at most net.core.somaxconn):
        # a full queue drops a new connection's first packet, and its client waits a second
        "backlog": LISTEN_BACKLOG,
    }


def serve_workers(count: int, host: str, port: int, settings: WorkerSettings) -> None:
    """Run `count` workers until SIGTERM or SIGINT; a worker that dies is started again."""
    from horserace.drivers.server.app import open_key

    key = open_key(settings.database, settings.key_file)  # made once, before workers race to
    listener = socket.create_server((host, port), backlog=LISTEN_BACKLOG)
    listener.set_inheritable(True)
    counts = SharedCounts.make(2 * count)  # a row for each worker, and one for its door
    own = {"secret": key.peer_secret(), "listener": listener.fileno()}
    own |= {"counts": counts, "workers": count}
    shared = WorkerSettings(**{**asdict(settings), **own})
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    workers: list[subprocess.Popen[bytes] | None] = [None] * count
    event(log, "workers starting", count=count, host=host, port=port)
    try:
        while not stopping.is_set():
            for index, worker in enumerate(workers):
                if worker is not None and worker.poll() is None:
                    continue
                if worker is not None:
                    event(log, "worker died; starting another", pid=worker.pid, code=worker.poll())
                workers[index] = _start(shared, index)
            stopping.wait(RESTART_SECONDS)
    finally:
        running = [worker for worker in workers if worker is not None]
        for worker in running:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        for worker in running:
            try:
                worker.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(STOP_SECONDS)
        listener.close()
        os.close(counts)


def _start(settings: WorkerSettings, index: int) -> subprocess.Popen[bytes]:
    """Worker `index` (a fixed `--peer-port` gives it that port plus its index)."""
    port = settings.peer_port + index if settings.peer_port else 0
    own = {**asdict(settings), "peer_port": port, "index": index}
    environment = {**os.environ, ENVIRONMENT: json.dumps(own)}
    assert settings.listener is not None, "the shared socket opens before the workers start"
    return subprocess.Popen(
        [sys.executable, "-m", "horserace.drivers.server.workers"],
        pass_fds=(settings.listener, settings.counts),
        env=environment,
    )


def run_worker(settings: WorkerSettings) -> None:
    """One worker: the shared socket and a private one, the app as one of several."""
    import uvicorn

    from horserace.drivers.server.app import Peers, create_app
    from horserace.drivers.server.ops import configure_logging

    assert settings.listener is not None, "a worker is started with the shared socket"
    shared = socket.socket(fileno=settings.listener)
    private = socket.create_server((settings.advertise, settings.peer_port))
    host = f"[{settings.advertise}]" if ":" in settings.advertise else settings.advertise
    address = f"{host}:{private.getsockname()[1]}"
    configure_logging(settings.log_level)
    limits = Limits(**settings.limits)
    app = create_app(
        settings.database,
        bot_delay=settings.bot_delay,
        key_file=settings.key_file,
        openapi=settings.openapi,
        limits=limits,
        peers=Peers(address, settings.secret),
        long_lived=True,
        metrics_token=settings.metrics_token,
        health_at=(
            (settings.health_host, settings.health_port + settings.index)
            if settings.health_host
            else None
        ),
    )
    counts = None
    if settings.counts >= 0:
        counts = SharedCounts(settings.counts, 2 * settings.workers, settings.index)
    options = uvicorn_options(
        settings.log_level,
        settings.trusted_proxies,
        limits.connections_per_address,
        address,
        counts,
        door=True,
    )
    server = uvicorn.Server(uvicorn.Config(app, **options))
    parent = os.getppid()

    def watch_parent() -> None:
        while not server.should_exit:
            if os.getppid() != parent:  # the supervisor is gone: so is this worker
                server.should_exit = True
                return
            time.sleep(1.0)

    threading.Thread(target=watch_parent, daemon=True).start()
    server.run(sockets=[shared, private])


def main() -> None:
    run_worker(WorkerSettings(**json.loads(os.environ[ENVIRONMENT])))


if __name__ == "__main__":
    main()
