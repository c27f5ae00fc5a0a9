"""A `horserace serve` that a benchmark starts, stops and reads: the process on a free port,
its CPU time and the machine's, and its Prometheus metrics (actions, tables, the latency and
loop-turn histograms). Shared by the server benchmarks so that each measures the same way."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

HOST = "127.0.0.1"
HORSERACE = Path(sys.executable).parent / "horserace"
STARTUP_POLLS = 300  # x 0.1 s


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """user + system time of a process and its live children, such as the workers of
    `serve --workers N` (Linux's /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) or 0.0 for child in children)


def machine_busy() -> float | None:
    """Seconds of CPU the whole machine has spent busy since boot, all cores (Linux's
    /proc/stat: everything but idle and waiting for the disk; None elsewhere)."""
    try:
        ticks = [int(value) for value in Path("/proc/stat").read_text().split()[1:8]]
    except (OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq = ticks
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def start_server(
    database: str, log: Path, bot_delay: float = 0.0, workers: int = 1
) -> tuple[subprocess.Popen[bytes], str]:
    """`horserace serve` on a free port over `database` (a URL); (its process, its URL)."""
    port = _free_port()
    command = [
        str(HORSERACE),
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--db",
        database,
        "--workers",
        str(workers),
        "--bot-delay",
        str(bot_delay),
        "--log-level",
        "warning",
        "--sockets-per-address",
        "100000",  # every benchmark client comes from 127.0.0.1
        "--requests-per-second",
        "100000",
        "--messages-per-address",
        "100000",
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
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
        stop_server(process)
        raise


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


async def total_version(client: httpx.AsyncClient, base: str) -> tuple[int, int, int]:
    """(actions applied at every table, tables held, tables over), from the server's
    Prometheus metrics."""
    metrics = await read_metrics(client, base)
    actions = sum(
        value for name, value in metrics.items() if name.startswith("horserace_actions_total")
    )
    held = sum(value for name, value in metrics.items() if name.startswith("horserace_tables{"))
    return int(actions), int(held), int(metrics.get('horserace_tables{status="over"}', 0))


async def server_histogram(
    client: httpx.AsyncClient, base: str, name: str = "horserace_action_latency_seconds"
) -> dict[float, float]:
    """One of the server's histograms, by default its latency of people's actions (from
    taking the table's lock to queuing the ack; the time in the socket and in the loop's
    queue before is not in it): upper bound in seconds -> how many at most that long, so
    far."""
    metrics = await read_metrics(client, base)
    prefix = name + "_bucket{"
    found = {}
    for name, value in metrics.items():
        if name.startswith(prefix):
            bound = name.split('le="', 1)[1].split('"', 1)[0]
            found[float(bound)] = value
    return found


Turns = tuple[dict[float, float], dict[float, float]]


async def loop_turns(client: httpx.AsyncClient, base: str) -> Turns:
    """The server's event loop turns so far (the time between two looks at its sockets), by
    the clock and in the loop's CPU time, as `server_histogram` gives them."""
    return (
        await server_histogram(client, base, "horserace_loop_turn_seconds"),
        await server_histogram(client, base, "horserace_loop_turn_cpu_seconds"),
    )


def turns_between(before: Turns, after: Turns) -> str:
    """The loop's turns between two readings of `loop_turns`, in words, by the clock and in
    CPU time."""
    if not after[0]:
        return "loop turns: not measured (the server's loop does not time them)"
    clock = _turns_between(before[0], after[0])
    cpu = _turns_between(before[1], after[1])
    return f"loop turns by the clock: {clock}\n  in the loop's CPU time: {cpu}"


def _turns_between(before: dict[float, float], after: dict[float, float]) -> str:
    """How many turns, how many took over 5, 10 and 20 ms, and the bucket of the longest."""
    bounds = sorted(after)
    new = {bound: after[bound] - before.get(bound, 0.0) for bound in bounds}
    total = new[bounds[-1]]
    over = {ms: int(total - new[max(b for b in bounds if b <= ms / 1000)]) for ms in (5, 10, 20)}
    return (
        f"{int(total)}, the longest {_longest(new)} ms;"
        f" over 5 ms: {over[5]}, over 10 ms: {over[10]}, over 20 ms: {over[20]}"
    )


def _longest(new: dict[float, float]) -> str:
    """The bucket of the longest turn, from the turns counted between two readings."""
    bounds = sorted(new)
    total = new[bounds[-1]]
    longest_at = next((b for b in bounds if new[b] >= total), bounds[-1])
    lower = max((b for b in bounds if b < longest_at), default=0.0)
    upper = "over 1000" if longest_at == float("inf") else f"{1000 * longest_at:g}"
    return f"{1000 * lower:g}-{upper}"


def longest_turn(before: Turns, after: Turns) -> str:
    """The bucket of the longest loop turn between two readings, by the clock / in CPU time
    (ms)."""
    if not after[0]:
        return "n/a"
    clock, cpu = (
        _longest({bound: late[bound] - early.get(bound, 0.0) for bound in late})
        for early, late in zip(before, after, strict=True)
    )
    return f"{clock} / {cpu}"


def histogram_percentile(buckets: dict[float, float], share: float) -> float:
    """The upper bound of the bucket that holds the `share` quantile (inf: past the last)."""
    total = buckets.get(float("inf"), 0.0)
    for bound in sorted(buckets):
        if total and buckets[bound] >= share * total:
            return bound
    return float("nan")


async def read_metrics(client: httpx.AsyncClient, base: str) -> dict[str, float]:
    response = await client.get(f"{base}/metrics")
    response.raise_for_status()
    found = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found
