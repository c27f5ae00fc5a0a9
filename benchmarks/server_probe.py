"""A `horserace serve` that a benchmark starts, stops and reads: the process on a free port,
its CPU time and the machine's, and its Prometheus metrics (actions, tables, the latency and
loop-turn histograms). Shared by the server benchmarks so that each measures the same way."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from tests.server.serve_process import METRICS_TOKEN, start_serve, stop_process


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


def descendants(pid: int) -> list[int]:
    """A process and every process it started, theirs too (a supervisor's workers and each
    worker's front door; Linux's /proc)."""
    found = [pid]
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            for child in children:
                found += descendants(int(child))
    return found


def hold(pid: int, nice: int, core: int | None = None) -> None:
    """Every thread of a server process and of the processes it started at `nice` (0: left
    as it is), and on `core` if given. On Linux a niceness set by pid is one thread's: the
    process's other threads, and processes it started before, keep theirs."""
    for process in descendants(pid):
        with contextlib.suppress(OSError):  # a thread or process that ended meanwhile
            for thread in os.listdir(f"/proc/{process}/task"):
                if core is not None:
                    os.sched_setaffinity(int(thread), {core})
                if nice:
                    os.setpriority(os.PRIO_PROCESS, int(thread), nice)


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
    database: str, log: Path, bot_delay: float = 0.0, workers: int = 1, extra: Sequence[str] = ()
) -> tuple[subprocess.Popen[bytes], str]:
    """`horserace serve` on a free port over `database` (a URL), the per-address limits
    raised (every benchmark client comes from 127.0.0.1); (its process, its URL)."""
    arguments = ["--db", database, "--workers", str(workers), "--bot-delay", str(bot_delay)]
    arguments += ["--log-level", "warning", "--sockets-per-address", "100000"]
    arguments += ["--requests-per-second", "100000", "--messages-per-address", "100000"]
    arguments += ["--tables-per-address", "100000", "--steps-per-address", "1000000"]
    arguments += ["--connections-per-address", "100000", *extra]
    return start_serve(arguments, log)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    stop_process(process, 10)


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
    authorization = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    response = await client.get(f"{base}/metrics", headers=authorization)
    response.raise_for_status()
    found = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found
