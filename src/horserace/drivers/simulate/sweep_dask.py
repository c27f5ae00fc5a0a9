"""A sweep on a Dask cluster: the scheduler's address checked, the scheduler reached and a
worker waited for before any point is sent, each a ConfigError (one line) when it fails.

The address is read before connecting (a malformed one made the Dask client fail half-built,
then hang for twice its timeout as the program ended, and print a traceback), and the
scheduler is asked who it is over a plain connection before a client is made, so no client is
ever left half-built. A scheduler with no worker would hold the points forever: the sweep
waits `wait_workers` seconds for one, saying so, then gives up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from horserace.core.errors import ConfigError
from horserace.drivers.simulate.sweep_pool import Finish, P, error_text


def check_address(address: str) -> None:
    """A ConfigError unless `address` reads as a Dask scheduler's: [SCHEME://]HOST:PORT with a
    scheme Dask knows (inproc://..., a scheduler in this process, as tests start)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    example = "e.g. tcp://HOST:8786"
    if not address.strip():
        raise ConfigError(f"--scheduler needs the Dask scheduler's address, {example}")
    scheme, location = parse_address(address.strip(), strict=False)
    if scheme not in backends:
        known = ", ".join(sorted(backends))
        raise ConfigError(
            f"--scheduler {address}: unknown scheme {scheme!r} (known: {known}), {example}"
        )
    if scheme == "inproc":
        return
    try:
        host, port = parse_host_port(location)
    except ValueError:
        host, port = "", 0
    if not host or not 0 < port < 65536:
        raise ConfigError(f"--scheduler {address}: not a host and a port, {example}")


async def _identity(address: str, timeout: float) -> dict[str, Any]:
    from distributed.core import rpc

    async with rpc(address, timeout=timeout) as scheduler:  # type: ignore[no-untyped-call]
        found: dict[str, Any] = await scheduler.identity()
    return found


def reach(address: str, timeout: float) -> int:
    """The number of workers the scheduler at `address` has, or a ConfigError if it cannot be
    reached in `timeout` seconds (or is no scheduler)."""
    check_address(address)
    try:
        found = asyncio.run(_identity(address, timeout))
    except Exception as error:  # whatever stops the connection: refused, TLS not set up...
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    if found.get("type") != "Scheduler":
        raise ConfigError(f"{address} is a Dask {found.get('type')}, not a scheduler")
    return len(found.get("workers", {}))


def on_dask(
    task: Callable[[P], Any],
    points: Sequence[P],
    retries: int,
    finish: Finish[P],
    notice: Callable[[str], None] | None,
    address: str,
    timeout: float,
    wait_workers: float,
) -> bool:
    """Every point a task on the cluster (sent in the order given), retried there; each
    outcome to `finish`. True if Ctrl-C ended it early."""
    from distributed import Client, as_completed

    workers = reach(address, timeout)
    if workers == 0 and notice is not None:
        notice(
            f"waiting up to {wait_workers:g} s (--wait-workers) for a worker to join the Dask"
            f" scheduler at {address}"
        )
    try:
        client = Client(  # type: ignore[no-untyped-call]
            address, timeout=f"{timeout}s", set_as_default=False
        )
    except (OSError, TimeoutError, ValueError) as error:
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    with client:
        _wait_for_a_worker(client, address, wait_workers)
        run = time.time_ns()  # task keys unique to this run: nothing comes from a cache
        futures = {
            client.submit(task, p, retries=retries, key=f"point-{run}-{p.index}"): p for p in points
        }
        try:
            for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                point = futures[future]
                if future.status == "finished":
                    finish(point, future.result(), None, 1)
                else:
                    finish(point, None, error_text(future.exception()), retries + 1)
        except KeyboardInterrupt:
            client.cancel(list(futures))  # type: ignore[no-untyped-call]
            return True
    return False


def _wait_for_a_worker(client: Any, address: str, seconds: float) -> None:
    try:
        client.wait_for_workers(1, timeout=seconds if seconds > 0 else 0.001)
    except TimeoutError:
        raise ConfigError(
            f"no worker joined the Dask scheduler at {address} in {seconds:g} s; start one"
            f" (dask worker {address}) or wait longer (--wait-workers)"
        ) from None
