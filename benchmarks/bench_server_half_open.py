"""What the server spends on one half-open connection: the CPU of a server process (uvicorn on
the bounded loop with its front door, the guard, the app, as `serve` runs them) over a window
in which `--connections` connections each send half a request head and hold it, less the same
window with none (after a first, discarded, that pays the first start's one-off costs),
divided by the connections it took in; in all, and the event loop's thread alone (the front
door's thread takes the rest).

Run: `.venv/bin/python benchmarks/bench_server_half_open.py [--connections 4000]
[--seconds 8] [--profile]`. The attacker is `bench_server_attacks.py`'s, in a forked process;
CPU time (not the clock) is counted, so the machine's load changes the figure little.
`--profile` also prints the functions that took the most time under cProfile (inflated by
the profiler, and by the machine's other work when the process is descheduled).
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import pstats
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.bench_server_attacks import hold_half_open
from horserace.drivers.server import guard
from horserace.drivers.server.app import create_app
from horserace.drivers.server.event_loop import BoundedLoop
from horserace.drivers.server.workers import uvicorn_options

ADDRESSES = 200  # the connections' sources (under the cap of 64 each at 12,800)


def attack(port: int, stop_at: float, connections: int) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    addresses = [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(ADDRESSES)]
    hold_half_open(f"http://127.0.0.1:{port}", stop_at, addresses, connections // ADDRESSES)


def window(
    connections: int, seconds: float, profile: cProfile.Profile | None
) -> tuple[float, float, int]:
    """(CPU seconds this process spent serving, those of its event loop's thread alone,
    connections the guard took in)."""
    import uvicorn

    admitted = [0]
    count_in = guard.Guard.count_in

    def counted(self: guard.Guard, *args: str) -> str | None:
        refused = count_in(self, *args)
        admitted[0] += refused is None
        return refused

    guard.Guard.count_in = counted  # type: ignore[method-assign,assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            app = create_app(f"sqlite:///{folder}/half-open.db")
            listener = socket.create_server(("127.0.0.1", 0), backlog=2048)
            port = listener.getsockname()[1]
            server = uvicorn.Server(uvicorn.Config(app, **uvicorn_options("warning")))
            loop = BoundedLoop()

            async def serve() -> None:
                loop.call_later(seconds, lambda: setattr(server, "should_exit", True))
                await server.serve(sockets=[listener])

            stop_at = time.monotonic() + seconds - 0.5
            attacker = None
            if connections:
                context = multiprocessing.get_context("fork")
                attacker = context.Process(target=attack, args=(port, stop_at, connections))
                attacker.start()
            started, loop_started = time.process_time(), time.thread_time()
            if profile is not None:
                profile.enable()
            loop.run_until_complete(serve())
            if profile is not None:
                profile.disable()
            used = time.process_time() - started
            loop_used = time.thread_time() - loop_started
            loop.close()
            if attacker is not None:
                attacker.join()
            return used, loop_used, admitted[0]
    finally:
        guard.Guard.count_in = count_in  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--connections", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    window(0, 2.0, None)  # the first start's one-off costs (odds compiled on a thread, caches)
    idle, idle_loop, _ = window(0, args.seconds, None)
    profile = cProfile.Profile() if args.profile else None
    busy, busy_loop, taken = window(args.connections, args.seconds, profile)
    each, each_loop = ((busy - idle) / max(taken, 1), (busy_loop - idle_loop) / max(taken, 1))
    print(f"no connections: {idle:.2f} s of CPU over {args.seconds:g} s", end="")
    print(f" ({idle_loop:.2f} s on the event loop's thread)")
    print(f"{taken} half-open connections taken in: {busy:.2f} s of CPU", end="")
    print(f" ({busy_loop:.2f} s on the event loop's thread)")
    print(
        f"per connection: {each * 1e6:.0f} us, on the event loop's thread {each_loop * 1e6:.0f} us"
    )
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
