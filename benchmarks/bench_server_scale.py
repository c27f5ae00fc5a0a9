"""The browser table's bounded work per message, measured on a real `horserace serve`.

Run: `.venv/bin/python benchmarks/bench_server_scale.py [--clients 500] [--audiences 100 500 2000]`.

1. Catch-up burst: an all-bot table plays to its end (at least `--steps` actions); a second
   table has a person acting as fast as the server answers (the probe). The probe's latency
   (act -> ack) is measured alone, then while `--clients` sockets say hello with `since: 0`
   to the finished table at once; the server's resident memory is sampled throughout. The
   burst's clients run in a process of their own at a lower priority (`nice`), as clients on
   other machines would: on one machine they would otherwise take the server's core and
   delay the probe's own reads. It also prints the share of a core the server got during
   the bursts and how many of the machine's cores were busy meanwhile (everything on it),
   so a slow run can be told from a starved one.
2. Audience: one table with N watchers connected; then 100 more watchers join and leave one
   by one, and the messages the server queued meanwhile (its `horserace_messages_sent`
   metric) are divided by the 200 joins and leaves.

It only prints: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.bench_server import percentile
from benchmarks.server_probe import (
    cpu_seconds,
    loop_turns,
    machine_busy,
    read_metrics,
    start_server,
    stop_server,
    turns_between,
)

CHURN = 100
NICE = 10  # the burst's process yields the cores to the server and the probe


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def finished_table(client: httpx.AsyncClient, base: str, steps: int) -> tuple[str, int]:
    """An all-bot Classic table of at least `steps` actions, played to its end."""
    for rounds in range(max(2, steps // 160), steps, max(2, steps // 400)):
        body = {
            "preset": "classic",
            "options": {"players": 5, "rounds": rounds},
            "seats": ["random"] * 5,
        }
        created = await client.post(f"{base}/api/tables", json=body)
        created.raise_for_status()
        table = created.json()["table"]["id"]
        while True:
            line = (await client.get(f"{base}/api/tables/{table}")).json()
            if line["status"] == "over":
                break
            await asyncio.sleep(0.2)
        if line["version"] >= steps:
            return table, int(line["version"])
    raise RuntimeError("no table was long enough")


async def probe(ws: ClientConnection, stop: asyncio.Event, latencies: list[float]) -> None:
    """The person at the probe table: acts whenever it may, records each act -> ack."""
    latest: dict[str, Any] | None = None
    count = 0
    while not stop.is_set():
        message = json.loads(await ws.recv())
        if message["type"] in ("welcome", "update"):
            latest = message
        if latest is None or not latest["state"]["legal"]:
            continue
        if latest["state"]["status"] != "playing":
            return
        count += 1
        action = latest["state"]["legal"][0]
        sent = time.perf_counter()
        rid = f"p{count}"
        await ws.send(
            json.dumps(
                {"type": "act", "action": action, "version": latest["version"], "request_id": rid}
            )
        )
        while True:
            reply = json.loads(await ws.recv())
            if reply["type"] in ("welcome", "update"):
                latest = reply
            if reply.get("request_id") == rid:
                if reply["type"] == "ack":
                    latencies.append(time.perf_counter() - sent)
                break


async def catch_up(url: str) -> int:
    async with connect(url, proxy=None, open_timeout=120, max_size=None) as ws:
        await ws.send('{"type": "hello", "since": 0}')
        while True:
            text = await ws.recv()
            if str(text).startswith('{"type":"welcome"'):  # the server's compact JSON
                return len(text)


async def catch_ups(url: str, clients: int) -> None:
    """The burst itself (in its own process): prints the seconds all welcomes took, and the
    size of one."""
    started = time.perf_counter()
    sizes = await asyncio.gather(*(catch_up(url) for _ in range(clients)))
    print(f"{time.perf_counter() - started} {sizes[0]}", flush=True)


async def burst_elsewhere(url: str, clients: int) -> tuple[float, int]:
    """`catch_ups` in another process, at a lower priority."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--burst-of",
        str(clients),
        "--url",
        url,
        stdout=asyncio.subprocess.PIPE,
        preexec_fn=lambda: os.nice(NICE),
    )
    out, _ = await process.communicate()
    took, size = out.split()
    return float(took), int(size)


async def probe_table(client: httpx.AsyncClient, base: str) -> tuple[str, str]:
    body = {
        "preset": "classic",
        "options": {"players": 4, "rounds": 20},
        "seats": ["open", "random", "random", "random"],
        "turn_seconds": 0,
        "pace": "quick",  # its bots think a quarter of a second, as a table of people would
    }
    created = await client.post(f"{base}/api/tables", json=body)
    table = created.json()["table"]["id"]
    joined = await client.post(f"{base}/api/tables/{table}/join", json={"name": "P"})
    return table, str(joined.json()["token"])


async def burst(base: str, pid: int, clients: int, steps: int, bursts: int, probes: int) -> None:
    ws_url = base.replace("http://", "ws://") + "/ws/tables/"
    async with httpx.AsyncClient(trust_env=False, timeout=120) as client:
        finished, version = await finished_table(client, base, steps)
        people = [await probe_table(client, base) for _ in range(probes)]
        sockets = [await connect(ws_url + table, proxy=None) for table, _ in people]
        latencies: list[list[float]] = [[] for _ in people]
        stop = asyncio.Event()
        tasks = []
        for ws, (_, token), found in zip(sockets, people, latencies, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": token}))
            tasks.append(asyncio.create_task(probe(ws, stop, found)))
        turns = [await loop_turns(client, base)]
        await asyncio.sleep(5)
        turns.append(await loop_turns(client, base))
        alone = [lat for found in latencies for lat in found]
        marks = [len(found) for found in latencies]
        rss = [rss_mb(pid)]
        before_rss = rss[0]
        took: list[float] = []
        sizes: list[int] = []
        busy = [(time.perf_counter(), cpu_seconds(pid), machine_busy(), os.getloadavg()[0])]
        for _ in range(bursts):
            gathering = asyncio.ensure_future(burst_elsewhere(ws_url + finished, clients))
            while not gathering.done():
                rss.append(rss_mb(pid))
                await asyncio.sleep(0.05)
            seconds, size = await gathering
            took.append(seconds)
            sizes.append(size)
        busy.append((time.perf_counter(), cpu_seconds(pid), machine_busy(), os.getloadavg()[0]))
        turns.append(await loop_turns(client, base))
        during = [lat for found, mark in zip(latencies, marks, strict=True) for lat in found[mark:]]
        stop.set()
        for task in tasks:
            task.cancel()
        for ws in sockets:
            await ws.close()
    print(f"finished table: {version} steps; {clients} clients say hello since 0 at once,")
    print(f"{bursts} times; {probes} other tables with a person acting as fast as answered")
    spans = ", ".join(f"{t:.2f}" for t in took)
    print(f"all {clients} welcomes received in {spans} s; each {sizes[0] / 1000:.1f} kB")
    print(f"server memory: {before_rss:.0f} MB before, {max(rss):.0f} MB at most during")
    (start, cpu_start, machine_start, load_start), (end, cpu_end, machine_end, load_end) = busy
    if None not in (cpu_start, cpu_end, machine_start, machine_end):
        assert cpu_start is not None and cpu_end is not None
        assert machine_start is not None and machine_end is not None
        seconds = end - start
        print(
            f"during the bursts ({seconds:.1f} s): the server got"
            f" {100 * (cpu_end - cpu_start) / seconds:.0f}% of a core, the machine was busy"
            f" {(machine_end - machine_start) / seconds:.2f} of {os.cpu_count()} cores,"
            f" load average {load_start:.1f}-{load_end:.1f}"
        )
    windows = (("alone (5 s)", alone, turns[0:2]), ("during the bursts", during, turns[1:3]))
    for name, values, (first, last) in windows:
        ms = [1000 * percentile(values, q) for q in (0.5, 0.99)]
        print(
            f"other tables, {name}: {len(values)} actions, p50 {ms[0]:.1f} ms, p99 {ms[1]:.1f} ms"
        )
        print("  " + turns_between(first, last))


async def audience(base: str, sizes: list[int]) -> None:
    ws_url = base.replace("http://", "ws://") + "/ws/tables/"
    async with httpx.AsyncClient(trust_env=False, timeout=120) as client:
        body = {"preset": "classic", "options": {"players": 2}, "seats": ["open", "open"]}
        table = (await client.post(f"{base}/api/tables", json=body)).json()["table"]["id"]
        held: list[ClientConnection] = []
        print("\n| watchers | messages per join or leave (welcome included) |")
        print("|---|---|")
        try:
            for size in sizes:
                while len(held) < size:
                    ws = await connect(ws_url + table, proxy=None, open_timeout=60)
                    await ws.send(json.dumps({"type": "hello"}))
                    await ws.recv()
                    held.append(ws)
                before = (await read_metrics(client, base))["horserace_messages_sent"]
                for _ in range(CHURN):
                    async with connect(ws_url + table, proxy=None) as ws:
                        await ws.send(json.dumps({"type": "hello"}))
                        await ws.recv()
                after = (await read_metrics(client, base))["horserace_messages_sent"]
                print(f"| {size} | {(after - before) / (2 * CHURN):.2f} |", flush=True)
        finally:
            for ws in held:
                await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--probes", type=int, default=10)
    parser.add_argument("--audiences", type=int, nargs="+", default=[100, 500, 2000])
    parser.add_argument("--burst-of", type=int, help=argparse.SUPPRESS)  # the burst's process
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.burst_of:
        asyncio.run(catch_ups(args.url, args.burst_of))
        return
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        process, base = start_server(f"sqlite:///{folder}/t.db", Path(folder) / "server.log")
        try:
            asyncio.run(
                burst(base, process.pid, args.clients, args.steps, args.bursts, args.probes)
            )
            asyncio.run(audience(base, args.audiences))
        finally:
            stop_server(process)


if __name__ == "__main__":
    main()
