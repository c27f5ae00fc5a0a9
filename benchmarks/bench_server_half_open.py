"""What the server spends on one half-open connection, and how fast its front door takes
connections in and turns them away, with the door on a thread of the server's process and in
a process of its own (as `serve` runs it), side by side in one run.

1. CPU per connection: the CPU of the server (uvicorn on the bounded loop with its front door,
   the guard, the app, as `serve` runs them; the door's process included) over a window in
   which `--connections` connections each send half a request head and hold it, less the same
   window with none, divided by the connections taken in; in all, and the event loop's thread
   alone.
2. Accepted and turned away a second (`--refusals`, 0 to skip): two addresses hold their cap
   of connections, then `--refusals` sockets each connect from them again and again, each accepted,
   counted over the cap and closed by the door, while the event loop is kept busy (`--busy`:
   the share of each 10 ms it spends computing, as a loop serving many tables does): the
   refusals a second, and the slowest of `/healthz` asked on a new connection five times a
   second meanwhile.

Run: `.venv/bin/python benchmarks/bench_server_half_open.py [--connections 4000]
[--seconds 8] [--refusals 64] [--busy 0.8] [--door thread process] [--profile]`. The attackers
are forked processes; CPU time (not the clock) is counted in 1, so the machine's load changes
that figure little; 2 counts by the clock, and depends on the cores the machine leaves.
`--profile` also prints the functions that took the most time under cProfile (the thread
door's run only).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import multiprocessing
import os
import pstats
import resource
import select
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.bench_server_attacks import health, hold_half_open, server_cpu
from horserace.drivers.server.app import create_app
from horserace.drivers.server.event_loop import BoundedLoop
from horserace.drivers.server.guard import guard_counts
from horserace.drivers.server.tally import CLOSED
from horserace.drivers.server.workers import uvicorn_options

ADDRESSES = 200  # the connections' sources (under the cap of 64 each at 12,800)
CAP = 64  # the default per-address cap (Limits.connections_per_address)
REFUSED_FROM = ("127.0.9.1", "127.0.9.2")  # a process each


def attack(port: int, stop_at: float, connections: int) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    addresses = [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(ADDRESSES)]
    hold_half_open(f"http://127.0.0.1:{port}", stop_at, addresses, connections // ADDRESSES)


def refused(
    address: str, port: int, start_at: float, stop_at: float, sockets: int, told: Any
) -> None:
    """From `address`, hold its cap of connections, then connect `sockets` more again and
    again until `stop_at`: how many the server closed between `start_at` and `stop_at`."""
    held = []
    for _ in range(CAP):
        sock = socket.socket()
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET / HTTP/1.1\r\n")
        held.append(sock)
    poll = select.epoll()
    live: dict[int, socket.socket] = {}

    def one() -> None:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((address, 0))
        sock.connect_ex(("127.0.0.1", port))
        live[sock.fileno()] = sock
        poll.register(sock, select.EPOLLIN | select.EPOLLRDHUP)

    while time.monotonic() < start_at:
        time.sleep(0.01)
    for _ in range(sockets):
        one()
    closed = 0
    while time.monotonic() < stop_at:
        for fd, _ in poll.poll(0.05):
            sock = live.pop(fd)
            poll.unregister(fd)
            sock.close()
            closed += 1
            one()
    told.send(closed)
    for sock in [*live.values(), *held]:
        sock.close()


def probe(base: str, start_at: float, stop_at: float, told: Any) -> None:
    """/healthz's slowest answer after `start_at` (a process of its own: off the server's
    interpreter lock)."""
    samples = health(base, stop_at)
    told.send(max((took for sent, took in samples if sent >= start_at), default=0.0))


def _door_cpu(loop: BoundedLoop) -> float:
    door = loop.door_process
    return 0.0 if door is None or door.process is None else server_cpu(door.process.pid)


def window(
    door: str, connections: int, seconds: float, refusals: int, busy: float, profile: Any
) -> dict[str, float]:
    """CPU of the server process (and its door's), of the event loop's thread, connections
    taken in; with `refusals`, those turned away a second and /healthz's slowest."""
    import uvicorn

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/half-open.db")
        listener = socket.create_server(("127.0.0.1", 0), backlog=4096)
        port = listener.getsockname()[1]
        options = uvicorn_options("warning", door=door == "process")
        server = uvicorn.Server(uvicorn.Config(app, **options))
        loop = BoundedLoop()
        found: dict[str, float] = {}

        def snapshot() -> None:  # just before the attackers let go
            counts = guard_counts()
            found["taken"] = counts["open"] + sum(counts[reason] for reason in CLOSED)

        def stop() -> None:  # just before the server stops (its door's process with it)
            found["door"] = _door_cpu(loop)
            server.should_exit = True

        async def spin() -> None:  # the loop busy `busy` of every 10 ms, as with many tables
            while busy:
                until = time.perf_counter() + busy * 0.01
                while time.perf_counter() < until:
                    pass
                await asyncio.sleep((1 - busy) * 0.01)

        async def serve() -> None:
            loop.call_later(seconds - 0.7, snapshot)
            loop.call_later(seconds, stop)
            spinning = loop.create_task(spin())
            await server.serve(sockets=[listener])
            spinning.cancel()

        context = multiprocessing.get_context("fork")
        attackers, readers, probed = [], [], None
        stop_at = time.monotonic() + seconds - 0.5
        if connections:
            attackers.append(context.Process(target=attack, args=(port, stop_at, connections)))
        if refusals:
            start_at = time.monotonic() + 2.0  # the server up, the cap held
            for address in REFUSED_FROM:
                reader, writer = context.Pipe(duplex=False)
                readers.append(reader)
                arguments = (address, port, start_at, stop_at, refusals, writer)
                attackers.append(context.Process(target=refused, args=arguments))
            probed, told = context.Pipe(duplex=False)
            base = f"http://127.0.0.1:{port}"
            attackers.append(context.Process(target=probe, args=(base, start_at, stop_at, told)))
            found["window"] = stop_at - start_at
        for attacker in attackers:
            attacker.start()
        started, loop_started = time.process_time(), time.thread_time()
        if profile is not None:
            profile.enable()
        loop.run_until_complete(serve())
        if profile is not None:
            profile.disable()
        found["cpu"] = time.process_time() - started + found.get("door", 0.0)
        found["loop"] = time.thread_time() - loop_started
        loop.close()
        if probed is not None:
            found["refused"] = sum(reader.recv() for reader in readers) / found["window"]
            found["health"] = probed.recv()
        for attacker in attackers:
            attacker.join()
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--connections", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--refusals", type=int, default=64)
    parser.add_argument("--busy", type=float, default=0.8)
    parser.add_argument("--door", nargs="+", default=["thread", "process"])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    window("thread", 0, 2.0, 0, 0, None)  # the first start's one-off costs (odds compiled...)
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    for door in args.door:
        idle = window(door, 0, args.seconds, 0, 0, None)
        profile = cProfile.Profile() if args.profile and door == "thread" else None
        busy = window(door, args.connections, args.seconds, 0, 0, profile)
        taken = max(busy["taken"] - idle["taken"], 1)
        each = (busy["cpu"] - idle["cpu"]) / taken
        each_loop = (busy["loop"] - idle["loop"]) / taken
        print(f"[door: {door}] no connections: {idle['cpu']:.2f} s of CPU over {args.seconds:g} s")
        print(f"  {taken:.0f} half-open connections taken in: {busy['cpu']:.2f} s of CPU", end="")
        print(f" ({busy['loop']:.2f} s on the event loop's thread, {busy['door']:.2f} s the door's")
        print(f"  process); per connection: {each * 1e6:.0f} us, the loop {each_loop * 1e6:.0f} us")
        if args.refusals:
            found = window(door, 0, args.seconds, args.refusals, args.busy, None)
            print(
                f"  loop busy {args.busy:.0%}: {found['refused']:,.0f} connections accepted and"
                f" turned away a second; /healthz at most {found['health'] * 1000:.0f} ms"
            )
        if profile is not None:
            pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
