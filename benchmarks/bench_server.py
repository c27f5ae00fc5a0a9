"""The browser table under load: N tables at once on one `horserace serve`, each with one
person acting over a real WebSocket and bots in the other seats.

Run: `.venv/bin/python benchmarks/bench_server.py [--tables 20 50 100] [--seconds 20]
[--pace 0]`. For each size it starts `horserace serve` on a free 127.0.0.1 port with a fresh
SQLite file (`--bot-delay PACE`), opens the tables, lets them play for `--seconds` (or to their
end; with `--pace` the person also thinks PACE seconds before each action, so every table
moves at a human pace instead of as fast as it can), and
prints the actions applied per second across the server (from the tables' versions) and the
latency of the person's actions (sending `act` -> receiving its `ack`), end to end. The server
is stopped at the end, also on Ctrl-C. It only prints: timings depend on the machine.

The clients run in a process of their own at a lower priority (`nice` 10): on one machine
they share the cores with the server, and a measurement of the server should not be starved
by its own load. Each row gives the share of a core the server got and what the whole machine
was busy with meanwhile (from /proc/stat), so a slow row can be read against what else ran.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.server_probe import (
    cpu_seconds,
    histogram_percentile,
    longest_turn,
    loop_turns,
    machine_busy,
    server_histogram,
    start_server,
    stop_server,
    total_version,
)

MAX_MESSAGES = 2_000_000  # per person: a bound on every receive loop
GRACE_SECONDS = 30.0  # for setting up and winding down, beyond the play window
NICE = 10  # the clients' priority: they yield the cores to the server they measure
Counter = Callable[[], Awaitable[tuple[int, int, int]]]


@dataclass
class Person:
    """One seat played by the benchmark: its socket, and what its actions measured."""

    table: str
    token: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    finished: float | None = None  # when its game was seen over


@dataclass
class Figures:
    tables: int
    held: int
    over: int
    actions: int
    seconds: float
    person_actions: int
    errors: int
    latencies: list[float]
    server_cpu: float | None  # share of one core, over the play window
    client_cpu: float
    machine_cpu: float | None  # cores busy across the machine (everything, the server included)
    server_latency: dict[float, float]  # the server's own histogram over the window: le -> count
    load: tuple[float, float]  # the machine's 1-minute load average at the start and the end
    longest_turn: str  # the bucket of the loop's longest turn in the window, clock / CPU


def aside(work: Callable[[], Figures], nice: int = NICE) -> Figures:
    """`work()` in a forked process of its own at a lower priority; its figures come back
    through a pipe (an error in it is raised here)."""
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)

    def child() -> None:
        os.nice(nice)
        try:
            writer.send((True, work()))
        except BaseException as error:
            writer.send((False, f"{type(error).__name__}: {error}"))
            raise

    process = context.Process(target=child, name="bench-clients")
    process.start()
    writer.close()
    try:
        done, value = reader.recv()
    except EOFError:
        raise RuntimeError(f"the clients' process ended ({process.exitcode})") from None
    finally:
        process.join()
    if not done:
        raise RuntimeError(f"the clients failed: {value}")
    assert isinstance(value, Figures)
    return value


async def open_tables(
    client: httpx.AsyncClient, base: str, count: int, preset: str, options: dict[str, Any], bot: str
) -> list[Person]:
    """Each table: seat 0 open, the rest bots; joining seat 0 starts it. The bots move until
    the person's first turn, then the table waits for them (no turn timer)."""
    players = int(options.get("players", 4))
    people = []
    for index in range(count):
        body = {
            "preset": preset,
            "options": {"players": players, **options},
            "seats": ["open"] + [bot] * (players - 1),
            "title": f"load {index}",
            "turn_seconds": 0,
        }
        created = await client.post(f"{base}/api/tables", json=body)
        created.raise_for_status()
        table = created.json()["table"]["id"]
        joined = await client.post(f"{base}/api/tables/{table}/join", json={"name": "Load"})
        joined.raise_for_status()
        people.append(Person(table, joined.json()["token"]))
    return people


async def play_person(
    person: Person,
    ws: ClientConnection,
    go: asyncio.Event,
    deadline: float,
    seed: int,
    pace: float = 0.0,
    spread: bool = True,
) -> None:
    """Act whenever the table waits for this seat (after `pace` seconds of thought), one
    request at a time; stop at the end of the game or at the deadline. With `spread`, a
    thought takes between half and one and a half times `pace` (`pace` on average), and the
    first one up to a `pace` more, so the tables do not move in step as they would if every
    person took exactly as long (everyone acting in the same millisecond, every two seconds)."""
    choose = random.Random(seed)
    low, high = (0.5, 1.5) if spread else (1.0, 1.0)
    first = pace * choose.random() if spread else 0.0
    await go.wait()
    latest: dict[str, Any] | None = None
    pending: tuple[str, float] | None = None
    acted = -1
    turn_seen: tuple[int, float] | None = None  # (version, when this seat's turn was seen)
    for count in range(MAX_MESSAGES):
        thinking = 0.0
        if pending is None and latest is not None:
            state = latest["state"]
            if state["status"] == "over":
                person.finished = time.perf_counter()
                return
            if state["legal"] and latest["version"] > acted:
                if turn_seen is None or turn_seen[0] != latest["version"]:
                    turn_seen = (
                        latest["version"],
                        time.perf_counter() + pace * choose.uniform(low, high) + first,
                    )
                    first = 0.0
                thinking = turn_seen[1] - time.perf_counter()
            if state["legal"] and latest["version"] > acted and thinking <= 0:
                acted = latest["version"]
                rid = f"load-{count}"
                action = choose.choice(state["legal"])
                message = {"type": "act", "action": action, "version": acted, "request_id": rid}
                pending = (rid, time.perf_counter())
                await ws.send(json.dumps(message))
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return
        try:
            text = await asyncio.wait_for(ws.recv(), min(remaining, max(thinking, 0) or remaining))
        except TimeoutError:
            if thinking > 0 and time.perf_counter() < deadline:
                continue  # done thinking: act now
            return
        message = orjson.loads(text)
        kind = message["type"]
        if kind in ("welcome", "update", "undone"):
            latest = message
        elif pending is not None and message.get("request_id") == pending[0]:
            if kind == "ack":
                person.latencies.append(time.perf_counter() - pending[1])
            else:
                person.errors += 1
            pending = None


async def run_load(
    base: str,
    count: int,
    seconds: float,
    preset: str,
    options: dict[str, Any],
    bot: str,
    server_pid: int,
    pace: float = 0.0,
    counter: Counter | None = None,
    spread: bool = True,
) -> Figures:
    """`counter` gives (actions applied, tables held, tables over); by default the server's
    metrics (one process's: several workers count theirs in the database)."""
    fresh = httpx.Limits(max_keepalive_connections=0)  # each table made on a new connection
    async with (
        httpx.AsyncClient(trust_env=False, timeout=60) as client,
        httpx.AsyncClient(trust_env=False, timeout=60, limits=fresh) as maker,
    ):
        count_now = counter or (lambda: total_version(client, base))
        people = await open_tables(maker, base, count, preset, options, bot)
        url = base.replace("http://", "ws://") + "/ws/tables/"
        sockets: list[ClientConnection] = []
        try:
            for person in people:
                ws = await connect(url + person.table, proxy=None, open_timeout=30)
                sockets.append(ws)
                await ws.send(json.dumps({"type": "hello", "token": person.token}))
            go = asyncio.Event()
            before, _, _ = await count_now()
            histogram_before = await server_histogram(client, base)
            turns_before = await loop_turns(client, base)
            load_before = os.getloadavg()[0]
            cpu_before = cpu_seconds(server_pid)
            machine_before = machine_busy()
            client_before = time.process_time()
            started = time.perf_counter()
            deadline = started + seconds
            tasks = [
                asyncio.create_task(play_person(person, ws, go, deadline, index, pace, spread))
                for index, (person, ws) in enumerate(zip(people, sockets, strict=True))
            ]
            go.set()
            playing = asyncio.gather(*tasks)
            # the closing count: at the deadline, or once every game is over
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(playing), seconds)
            ended = time.perf_counter()
            cpu_after = cpu_seconds(server_pid)
            machine_after = machine_busy()
            client_cpu = time.process_time() - client_before
            after, held, over = await count_now()
            histogram = await server_histogram(client, base)
            turns_after = await loop_turns(client, base)
            load_after = os.getloadavg()[0]
            await asyncio.wait_for(playing, GRACE_SECONDS)
            if all(person.finished is not None for person in people):
                ended = max(p.finished for p in people if p.finished is not None)
        finally:
            for ws in sockets:
                await ws.close()
    elapsed = ended - started
    server_cpu = None
    if cpu_before is not None and cpu_after is not None:
        server_cpu = (cpu_after - cpu_before) / elapsed
    machine_cpu = None
    if machine_before is not None and machine_after is not None:
        machine_cpu = (machine_after - machine_before) / elapsed
    latencies = [lat for person in people for lat in person.latencies]
    return Figures(
        tables=count,
        held=held,
        over=over,
        actions=after - before,
        seconds=elapsed,
        person_actions=len(latencies),
        errors=sum(person.errors for person in people),
        latencies=latencies,
        server_cpu=server_cpu,
        client_cpu=client_cpu / elapsed,
        machine_cpu=machine_cpu,
        server_latency={le: histogram[le] - histogram_before.get(le, 0) for le in histogram},
        load=(load_before, load_after),
        longest_turn=longest_turn(turns_before, turns_after),
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(args: argparse.Namespace, count: int, options: dict[str, Any]) -> Figures:
    with tempfile.TemporaryDirectory(prefix="bench-server-", dir=args.db_dir) as folder:
        database, log = Path(folder) / "tables.db", Path(folder) / "server.log"
        process, base = start_server(f"sqlite:///{database}", log, args.pace)
        try:
            return aside(
                lambda: asyncio.run(
                    run_load(
                        base,
                        count,
                        args.seconds,
                        args.preset,
                        options,
                        args.bot,
                        process.pid,
                        args.pace,
                        spread=not args.lockstep,
                    )
                )
            )
        finally:
            stop_server(process)


HEADER = (
    "| tables | held | window | actions/s (server) | person actions"
    " | person latency p50 / p95 / p99 (ms) | server's own p50 / p99 (ms) | errors"
    " | server CPU | CPU per action | client CPU | machine busy | load average"
    " | longest loop turn, clock / CPU (ms) |"
)
RULE = "|---" * HEADER.count(" | ") + "|---|"


def row(figures: Figures) -> str:
    ms = [1000 * percentile(figures.latencies, q) for q in (0.50, 0.95, 0.99)]
    own = [1000 * histogram_percentile(figures.server_latency, q) for q in (0.50, 0.99)]
    cpu = "n/a" if figures.server_cpu is None else f"{100 * figures.server_cpu:.0f}%"
    rate = figures.actions / figures.seconds
    busy = (
        "n/a" if figures.machine_cpu is None else f"{figures.machine_cpu:.2f} of {os.cpu_count()}"
    )
    each = (
        "n/a"
        if figures.server_cpu is None or not rate
        else f"{1000 * figures.server_cpu / rate:.2f} ms"
    )
    return (
        f"| {figures.tables} | {figures.held} ({figures.over} over) | {figures.seconds:.1f} s"
        f" | {figures.actions / figures.seconds:,.0f} | {figures.person_actions}"
        f" | {ms[0]:.1f} / {ms[1]:.1f} / {ms[2]:.1f} | <= {own[0]:g} / <= {own[1]:g}"
        f" | {figures.errors} | {cpu} | {each} | {100 * figures.client_cpu:.0f}% | {busy}"
        f" | {figures.load[0]:.1f}-{figures.load[1]:.1f} | {figures.longest_turn} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--seconds", type=float, default=20.0, help="the play window")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--options", default='{"players": 4}', help="the preset's options, JSON")
    parser.add_argument("--bot", default="random", help="the bot kind in the other seats")
    parser.add_argument("--db-dir", default=None, help="where the database goes (a temp folder)")
    parser.add_argument(
        "--pace", type=float, default=0.0, help="seconds each bot and person takes per move"
    )
    parser.add_argument(
        "--lockstep",
        action="store_true",
        help="every person thinks exactly --pace seconds, so the tables move in step",
    )
    args = parser.parse_args()
    options = dict(json.loads(args.options))
    if any(count < 1 for count in args.tables) or args.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    where = args.db_dir or tempfile.gettempdir()
    print(f"{args.preset} {options}, seat 0 a person over a WebSocket, the others {args.bot}")
    thought = "in step" if args.lockstep else "people think 0.5-1.5 x pace"
    print(f"pace {args.pace:g} s ({thought}), SQLite in {where}, play window {args.seconds:g} s\n")
    print(HEADER)
    print(RULE)
    for count in args.tables:
        print(row(measure(args, count, options)), flush=True)


if __name__ == "__main__":
    main()
