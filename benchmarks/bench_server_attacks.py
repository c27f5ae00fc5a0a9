"""The server attacked as anyone on the internet could: another table's p99 during each attack,
beside the same tables with no attack in the same run, and `/healthz` throughout.

Run: `.venv/bin/python benchmarks/bench_server_attacks.py [--seconds 15] [--half-open 20000]
[--long-rounds 100] [--only heavy-get flood half-open spoofed] [--server-nice -5]
[--attack-nice 10] [--serve OPTIONS] [--db-folder /dev/shm]`. `--server-nice` (as root)
stands for a machine of the server's own on a shared one: the server and the measuring clients
go before the machine's other work. `--serve` passes more options to `serve` (its limits,
say). `--db-folder /dev/shm` keeps the database in memory: on a shared machine's disk a
commit (each ack waits for one) now and then takes 100-500 ms, in either window, and one
such pause decides a window's p99.

A first server (limits raised) plays a long table of twelve bots to its end (the finished
table the first attack reads); then `horserace serve` starts again on that database with its
default limits, as an operator runs it. The measured clients (from 127.0.0.1) play
`--tables` tables, one person and three bots each, the person thinking `--think` seconds,
and time each `act` to its `ack`; two probers ask `/healthz` five times a second on a new
connection, one at the public port and one at `--health-port`. Each attack runs for
`--seconds` in a process of its own (at `--attack-nice`, from addresses of its own on the
loopback: 127.0.0.2 and up), after a window of the same length
with no attack; each row gives both windows' p99 and their ratio (target: at most 2), and
the slowest `/healthz` during the attack (target: 100 ms), on the public port and on the
server's `--health-port` (answered off the event loop), and the CPU the server process used
in the window (all its threads: what the attack cost it, which the machine's load changes
less than it changes the p99):

- `heavy-get`: four loops GET the finished table's lobby line, record and check;
- `flood`: one address creates twelve-bot tables as fast as it may;
- `half-open`: `--half-open` connections from 400 addresses, each sending half a request
  head and holding it, opened again a second after the server closes it (two processes);
- `spoofed`: one address opens table sockets naming 2,000 addresses in `X-Forwarded-For`.

It only prints: timings depend on the machine, and the load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import multiprocessing
import os
import random
import re
import resource
import select
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.server_probe import hold, start_server, stop_server
from tests.server.serve_process import HOST, METRICS_TOKEN, free_port, start_serve

ATTACK_NICE = 10
ADDRESSES = 400  # the half-open connections' sources: 50 each of 20,000, under the cap of 64
SETTLE_SECONDS = 12.0  # after an attack, before the next window (its half-open connections end)
HEALTH_EVERY = 0.2
HEALTH_TIMEOUT = 5.0
Samples = list[tuple[float, float]]  # (when it was sent, how long its answer took)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --- the measured clients -------------------------------------------------------------------
async def person(base: str, stop_at: float, samples: Samples, seed: int, think: float) -> None:
    """Tables one after another: one person and three bots; the person acts after `think`
    seconds (spread), each act timed to its ack."""
    choose = random.Random(seed)
    body = {"preset": "classic", "options": {"players": 4}, "turn_seconds": 0}
    body["seats"] = ["open", "random", "random", "random"]
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        while time.monotonic() < stop_at:
            made = await http.post(f"{base}/api/tables", json=body)
            if made.status_code != 201:
                await asyncio.sleep(1.0)
                continue
            table = made.json()["table"]["id"]
            joined = await http.post(f"{base}/api/tables/{table}/join", json={"name": "Probe"})
            token = joined.json()["token"]
            url = base.replace("http:", "ws:") + f"/ws/tables/{table}"
            async with connect(url, max_size=None, open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await _play(ws, stop_at, samples, choose, think)


async def _play(
    ws: Any, stop_at: float, samples: Samples, choose: random.Random, think: float
) -> None:
    acted, sent = -1, 0.0
    while time.monotonic() < stop_at:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), stop_at - time.monotonic()))
        except (TimeoutError, WebSocketException):
            return
        if message["type"] == "ack":
            samples.append((sent, time.monotonic() - sent))
            continue
        state = message.get("state")
        if not state:
            continue
        if state["status"] == "over":
            return
        if state["legal"] and message["version"] > acted:
            acted = message["version"]
            await asyncio.sleep(think * choose.uniform(0.5, 1.5))
            sent = time.monotonic()
            act = {"type": "act", "action": choose.choice(state["legal"]), "version": acted}
            await ws.send(json.dumps({**act, "request_id": f"p{acted}"}))


def health(base: str, stop_at: float) -> Samples:
    """/healthz on a new connection every `HEALTH_EVERY` s, with a plain socket (a client
    library's set-up costs more than the answer); a failure counts as the timeout."""
    host, port = base.removeprefix("http://").split(":")
    samples: Samples = []
    while time.monotonic() < stop_at:
        sent = time.monotonic()
        answer = b""
        try:
            with socket.create_connection((host, int(port)), timeout=HEALTH_TIMEOUT) as probe:
                probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
                while chunk := probe.recv(4096):
                    answer += chunk
        except OSError:
            pass
        ok = answer.startswith(b"HTTP/1.1 200") or answer.startswith(b"HTTP/1.0 200")
        samples.append((sent, time.monotonic() - sent if ok else HEALTH_TIMEOUT))
        time.sleep(max(0.0, HEALTH_EVERY - (time.monotonic() - sent)))
    return samples


# --- the attacks, each in a process of its own ----------------------------------------------
def _client(address: str, timeout: float = 30) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(trust_env=False, timeout=timeout, transport=transport)


async def heavy_get(base: str, stop_at: float, table: str) -> dict[str, int]:
    counts = {"answered": 0, "failed": 0}

    async def loop(path: str) -> None:
        async with _client("127.0.0.2") as http:
            while time.monotonic() < stop_at:
                try:
                    answer = await http.get(f"{base}/api/tables/{table}{path}")
                    counts["answered" if answer.status_code == 200 else "failed"] += 1
                except httpx.HTTPError:
                    counts["failed"] += 1

    await asyncio.gather(*(loop(path) for path in ("", "/record", "/verify", "/record")))
    return counts


async def flood(base: str, stop_at: float) -> dict[str, int]:
    counts: dict[str, int] = {}
    body = {"preset": "classic", "options": {"players": 12}, "seats": ["random"] * 12}
    async with _client("127.0.0.3") as http:
        while time.monotonic() < stop_at:
            try:
                status = str((await http.post(f"{base}/api/tables", json=body)).status_code)
            except httpx.HTTPError:
                status = "failed"
            counts[status] = counts.get(status, 0) + 1
    return counts


async def half_open(base: str, stop_at: float, addresses: list[str], each: int) -> dict[str, int]:
    """Plain non-blocking sockets under one epoll (asyncio's streams cost the attacker more
    CPU per connection than the server spends: on a busy machine the flood never came)."""
    return hold_half_open(base, stop_at, addresses, each)


def hold_half_open(base: str, stop_at: float, addresses: list[str], each: int) -> dict[str, int]:
    host, port = base.removeprefix("http://").split(":")
    counts = {"opened": 0, "closed by the server": 0, "refused": 0, "held at most": 0}
    poll = select.epoll()
    sources: dict[int, tuple[socket.socket, str, bool]] = {}  # fd -> (socket, address, sent)
    again: list[tuple[float, str]] = [(0.0, address) for address in addresses for _ in range(each)]

    def open_one(address: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((address, 0))
            sock.connect_ex((host, int(port)))
        except OSError:
            counts["refused"] += 1
            sock.close()
            again.append((time.monotonic() + 0.5, address))
            return
        sources[sock.fileno()] = (sock, address, False)
        poll.register(sock, select.EPOLLOUT | select.EPOLLRDHUP | select.EPOLLIN)

    while time.monotonic() < stop_at:
        now = time.monotonic()
        due = [address for when, address in again if when <= now]
        again[:] = [(when, address) for when, address in again if when > now]
        for address in due:
            open_one(address)
        for fd, flags in poll.poll(0.05):
            sock, address, sent = sources[fd]
            if (
                not sent
                and flags & select.EPOLLOUT
                and not flags & (select.EPOLLERR | select.EPOLLHUP)
            ):
                try:
                    sock.send(b"GET / HTTP/1.1\r\nHost: attacker\r\n")
                except OSError:
                    flags |= select.EPOLLHUP
                else:
                    counts["opened"] += 1
                    sources[fd] = (sock, address, True)
                    poll.modify(sock, select.EPOLLIN | select.EPOLLRDHUP)
                    held = counts["opened"] - counts["closed by the server"]
                    counts["held at most"] = max(counts["held at most"], held)
                    continue
            if flags & (select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLHUP | select.EPOLLERR):
                counts["closed by the server" if sent else "refused"] += 1
                poll.unregister(sock)
                sock.close()
                del sources[fd]
                again.append((time.monotonic() + 1.0, address))  # then open it again
    for sock, _, _ in sources.values():
        sock.close()
    poll.close()
    return counts


async def spoofed(base: str, stop_at: float) -> dict[str, int]:
    """Sockets to a table of its own, each naming another address; the server believes none."""
    counts = {"welcomed": 0, "refused": 0}
    body = {"preset": "classic", "options": {"players": 2}, "seats": ["open", "open"]}
    async with _client("127.0.0.4") as http:
        table = (await http.post(f"{base}/api/tables", json=body)).json()["table"]["id"]
    url = base.replace("http:", "ws:") + f"/ws/tables/{table}"
    async with contextlib.AsyncExitStack() as held:
        for index in range(2_000):
            if time.monotonic() >= stop_at:
                break
            spoof = {"X-Forwarded-For": f"10.{index // 65536}.{index // 256 % 256}.{index % 256}"}
            try:
                ws = await held.enter_async_context(
                    connect(
                        url,
                        additional_headers=spoof,
                        open_timeout=10,
                        max_queue=None,
                        local_addr=("127.0.0.4", 0),
                    )
                )
                await ws.send(json.dumps({"type": "hello"}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                counts["welcomed" if first["type"] == "welcome" else "refused"] += 1
            except (WebSocketException, OSError, TimeoutError):
                counts["refused"] += 1
        await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
    return counts


def _in_process(work: Callable[[], Coroutine[Any, Any, dict[str, int]]], nice: int) -> Any:
    """Run an attack in a forked process at `nice`; a handle whose `result()` waits."""
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)

    def child() -> None:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        writer.send(asyncio.run(work()))

    process = context.Process(target=child)
    process.start()
    writer.close()

    class Handle:
        @staticmethod
        def result() -> dict[str, int]:
            try:
                return dict(reader.recv())
            except EOFError:
                return {"the attack's process failed": process.exitcode or -1}
            finally:
                process.join()

    return Handle()


def start_attack(
    name: str, base: str, seconds: float, table: str, half: int, nice: int
) -> list[Any]:
    stop_at = time.monotonic() + seconds
    if name == "heavy-get":
        return [_in_process(lambda: heavy_get(base, stop_at, table), nice)]
    if name == "flood":
        return [_in_process(lambda: flood(base, stop_at), nice)]
    if name == "spoofed":
        return [_in_process(lambda: spoofed(base, stop_at), nice)]
    addresses = [f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(ADDRESSES)]
    each = max(1, half // len(addresses))
    halves = (addresses[: ADDRESSES // 2], addresses[ADDRESSES // 2 :])
    attack = functools.partial(half_open, base, stop_at)
    return [_in_process(functools.partial(attack, part, each), nice) for part in halves]


async def guard_closed(base: str) -> dict[str, int]:
    """The HTTP connections the server's guard has closed so far, by why (its metrics)."""
    headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        text = (await http.get(f"{base}/metrics", headers=headers)).text
    found = re.findall(r'horserace_http_connections_closed_total\{reason="([^"]+)"\} (\S+)', text)
    return {reason: int(float(value)) for reason, value in found}


# --- the run --------------------------------------------------------------------------------
def long_table(database: str, rounds: int, folder: Path) -> tuple[str, int]:
    """Twelve bots play `rounds` rounds to the end on a server with its limits raised: the
    table's id and its steps."""
    process, base = start_server(database, folder / "setup.log")
    try:
        body = {"preset": "classic", "options": {"players": 12, "rounds": rounds}}
        body["seats"] = ["random"] * 12
        with httpx.Client(trust_env=False, timeout=30) as http:
            table = http.post(f"{base}/api/tables", json=body).json()["table"]["id"]
            while True:
                line = http.get(f"{base}/api/tables/{table}").json()
                if line["status"] == "over":
                    break
                time.sleep(0.5)
            # its record and check, made and stored as the game ended: asked for here, they
            # are in storage before this server stops (a server stopped before it stored
            # them replays the table the first time the record is asked for)
            assert http.get(f"{base}/api/tables/{table}/verify").json()["verified"]
            return table, int(line["version"])
    finally:
        stop_server(process)


def server_cpu(pid: int) -> float:
    """The CPU seconds a process has used so far, all its threads (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    args: argparse.Namespace, base: str, health_base: str, table: str, pid: int
) -> list[str]:
    windows: list[tuple[str, str, float, float, list[Any], float]] = []
    outcomes: list[dict[str, int]] = []  # what the server's guard had closed after each attack
    total = (2 * args.seconds + SETTLE_SECONDS + 2) * len(args.only) + 2
    stop_at = time.monotonic() + total
    acts: Samples = []
    clients = [person(base, stop_at, acts, seed, args.think) for seed in range(args.tables)]
    running = [asyncio.ensure_future(work) for work in clients]
    # /healthz on the public port and on the health port (off the loop), each from a thread
    probes = [
        asyncio.ensure_future(asyncio.to_thread(health, url, stop_at))
        for url in (base, health_base)
    ]
    await asyncio.sleep(1.0)  # the tables under way
    for name in args.only:
        start, cpu = time.monotonic(), server_cpu(pid)
        await asyncio.sleep(args.seconds)
        windows.append((name, "no attack", start, time.monotonic(), [], server_cpu(pid) - cpu))
        start, cpu = time.monotonic(), server_cpu(pid)
        handles = start_attack(name, base, args.seconds, table, args.half_open, args.attack_nice)
        await asyncio.sleep(args.seconds)
        windows.append((name, "attack", start, time.monotonic(), handles, server_cpu(pid) - cpu))
        outcomes.append(await guard_closed(base))
        await asyncio.sleep(SETTLE_SECONDS)  # the attack's leftovers cleared before the next
    loads = os.getloadavg()
    await asyncio.gather(*running)
    checks, private = await asyncio.gather(*probes)
    rows = []
    baseline, closed_before = float("nan"), 0
    for name, kind, start, end, handles, cpu in windows:
        latencies = [took for sent, took in acts if start <= sent < end]
        health_times = [took for sent, took in checks if start <= sent < end]
        port_times = [took for sent, took in private if start <= sent < end]
        p99 = percentile(latencies, 0.99) * 1000
        if kind == "no attack":
            baseline = p99
        outcome: dict[str, int] = {}
        for handle in handles:
            for key, value in (await asyncio.to_thread(handle.result)).items():
                both = (outcome.get(key, 0), value)
                outcome[key] = max(both) if "most" in key else sum(both)
        if kind == "attack":
            closed = sum(outcomes.pop(0).values())
            outcome["guard closed"], closed_before = closed - closed_before, closed
        rows.append(
            f"{name:10} {kind:9} acts {len(latencies):5}"
            + f"  p50 {percentile(latencies, 0.5) * 1000:6.1f} ms  p99 {p99:7.1f} ms"
            + (f"  ({p99 / baseline:4.2f}x)" if kind == "attack" else "          ")
            + f"  server CPU {cpu:5.2f} s"
            + f"  /healthz max {max(health_times, default=float('nan')) * 1000:7.1f} ms"
            + f"  health port max {max(port_times, default=float('nan')) * 1000:6.1f} ms"
            + f"  /healthz over 100 ms: public {_late(checks, start, end)},"
            + f" health port {_late(private, start, end)}"
            + (f"  {outcome}" if outcome else "")
        )
    rows.append(f"load average at the end: {loads[0]:.1f} {loads[1]:.1f} {loads[2]:.1f}")
    return rows


def _late(samples: Samples, start: float, end: float) -> str:
    """How many of `/healthz`'s answers in a window took over 100 ms, of how many, and when
    (seconds into the window)."""
    window = [(sent - start, took) for sent, took in samples if start <= sent < end]
    late = [when for when, took in window if took > 0.1]
    during = f" ({late[0]:.1f}-{late[-1]:.1f} s in)" if late else ""
    return f"{len(late)} of {len(window)}{during}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=15.0, help="each window")
    parser.add_argument("--tables", type=int, default=8, help="the measured tables")
    parser.add_argument("--think", type=float, default=0.3, help="the person's thought, s")
    parser.add_argument("--half-open", type=int, default=20_000)
    parser.add_argument("--long-rounds", type=int, default=100)
    parser.add_argument("--only", nargs="+", default=["heavy-get", "flood", "half-open", "spoofed"])
    parser.add_argument(
        "--server-nice", type=int, default=0, help="the server's and measuring clients' niceness"
    )
    parser.add_argument("--attack-nice", type=int, default=ATTACK_NICE, help="the attackers'")
    parser.add_argument(
        "--serve", default="", help="more options for serve, e.g. '--steps-per-address 50'"
    )
    parser.add_argument(
        "--db-folder",
        default=None,
        help="where the database goes (default: the system's temporary folder); /dev/shm"
        " takes the disk's own pauses out of both windows",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.db_folder) as folder:
        database = f"sqlite:///{folder}/attacks.db"
        table = ""
        if "heavy-get" in args.only:  # the finished table only it reads
            table, steps = long_table(database, args.long_rounds, Path(folder))
            print(f"the finished table: {steps} steps (12 bots, {args.long_rounds} rounds)")
        health_port = free_port()
        arguments = ["--db", database, "--bot-delay", "0", "--log-level", "warning"]
        arguments += ["--health-port", str(health_port), *args.serve.split()]
        process, base = start_serve(arguments, Path(folder) / "serve.log")
        if args.server_nice:  # a machine of its own, on a shared one: the server goes first
            hold(process.pid, args.server_nice)  # all its threads, and its door's process
            os.setpriority(os.PRIO_PROCESS, 0, args.server_nice)  # and the measuring clients
        print(
            f"the server and measuring clients at nice {args.server_nice},"
            f" the attackers at {args.attack_nice}; the database in {folder}"
        )
        try:
            health_base = f"http://{HOST}:{health_port}"
            for line in asyncio.run(measure(args, base, health_base, table, process.pid)):
                print(line, flush=True)
        finally:
            stop_server(process)


if __name__ == "__main__":
    main()
