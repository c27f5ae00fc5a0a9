"""`horserace serve --workers N` over PostgreSQL at saturation: actions per second with 1 worker
and with more, on one throw-away PostgreSQL server (tests/server/postgres.py).

Run: `.venv/bin/python benchmarks/bench_server_workers.py [--workers 1 2] [--tables 300]
[--seconds 20] [--rounds 2] [--hosts [--pin] [--server-nice -5] [--client-nice 10]]`.
With `--hosts`, each count is of hosts instead: that many `serve --workers 1
--advertise-host 127.0.0.N` processes over the one database (each a host of its own, as on
separate machines), the tables and their people shared out between them. `--pin` stands for
a machine per host on a shared one: host N's server processes are held to core N (of those
this process may use) at `--server-nice` (as root), its clients at `--client-nice`.
Each round measures every worker count once, in turn (so a
change in the machine's load touches both alike), each on a fresh database: N Classic tables
of 4, seat 0 a person over a real WebSocket acting as soon as allowed, the others `random`
bots that move at once (as `bench_server.py` without `--pace`). Actions are counted in the
database (every worker's), the server's CPU is the supervisor's and its workers' (and their
front doors'), of every host. It prints one row per run and the ratio of each worker
count's median actions/s to the first's.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere
from benchmarks.bench_server import (
    HEADER,
    NICE,
    RULE,
    Counter,
    Figures,
    aside,
    row,
    run_load,
)
from benchmarks.server_probe import hold, start_server, stop_server
from tests.server.postgres import new_database, throwaway_postgres

SETTINGS = "-c max_connections=200 -c shared_buffers=128MB"


def database_counter(url: str) -> Counter:
    """(actions stored, tables not over, tables over), read from the database."""

    def count() -> tuple[int, int, int]:
        with psycopg.connect(url) as db:
            actions = db.execute("SELECT count(*) FROM actions").fetchone()
            tables = db.execute(
                "SELECT count(*) FILTER (WHERE status <> 'over'),"
                " count(*) FILTER (WHERE status = 'over') FROM tables"
            ).fetchone()
        assert actions is not None and tables is not None
        return int(actions[0]), int(tables[0]) + int(tables[1]), int(tables[1])

    async def counted() -> tuple[int, int, int]:
        return await asyncio.to_thread(count)

    return counted


def measure(server: str, name: str, workers: int, args: argparse.Namespace) -> Figures:
    url = new_database(server, name)
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as folder:
        log = Path(folder) / "server.log"
        process, base = start_server(url, log, 0.0, workers)
        try:
            return aside(
                lambda: asyncio.run(
                    run_load(
                        base,
                        args.tables,
                        args.seconds,
                        "classic",
                        {"players": 4},
                        "random",
                        process.pid,
                        counter=database_counter(url),
                    )
                )
            )
        finally:
            stop_server(process)


def measure_hosts(server: str, name: str, hosts: int, args: argparse.Namespace) -> Figures:
    """`hosts` serve processes as separate hosts; each host's share of the tables played from
    a client process of its own, all at once. The actions are the database's (every host's),
    over the window of the first host's clients."""
    url = new_database(server, name)
    with tempfile.TemporaryDirectory(prefix="bench-hosts-") as folder:
        started = []
        try:
            for host in range(hosts):
                extra = ["--advertise-host", f"127.0.0.{2 + host}"]
                extra += ["--key-file", f"{folder}/server.key"]
                log = Path(folder) / f"host{host}.log"
                started.append(start_server(url, log, 0.0, 1, extra))
                if args.pin:
                    _pin(started[-1][0].pid, host, args.server_nice)
            share = args.tables // hosts

            def clients(host: tuple[subprocess.Popen[bytes], str]) -> Figures:
                process, base = host

                def load() -> Figures:  # in the clients' process
                    return asyncio.run(
                        run_load(
                            base,
                            share,
                            args.seconds,
                            "classic",
                            {"players": 4},
                            "random",
                            process.pid,
                            counter=database_counter(url),
                        )
                    )

                return aside(load, args.client_nice) if args.pin else aside(load)

            with ThreadPoolExecutor(hosts) as pool:
                found = list(pool.map(clients, started))
            # the actions are every host's (the database's): so is the CPU that made them
            shares = [figures.server_cpu for figures in found]
            total = None if None in shares else sum(share or 0.0 for share in shares)
            return dataclasses.replace(found[0], server_cpu=total)
        finally:
            for process, _ in started:
                stop_server(process)


def _pin(pid: int, host: int, nice: int) -> None:
    """Hold a server process, its workers, their doors and all their threads to one core of
    those this process may use (the host's `host`-th), at `nice`."""
    cores = sorted(os.sched_getaffinity(0))
    hold(pid, nice, cores[host % len(cores)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20.0, help="the play window")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each worker count")
    parser.add_argument("--hosts", action="store_true", help="count hosts, not workers")
    parser.add_argument("--pin", action="store_true", help="with --hosts: a core per host")
    parser.add_argument("--server-nice", type=int, default=0, help="with --pin: the servers'")
    parser.add_argument("--client-nice", type=int, default=NICE, help="with --pin: the clients'")
    args = parser.parse_args()
    kind, run = ("host", measure_hosts) if args.hosts else ("worker", measure)
    rates: dict[int, list[float]] = {count: [] for count in args.workers}
    print(f"{args.tables} Classic tables of 4 at saturation, PostgreSQL, {args.seconds:g} s\n")
    print(f"| {kind}s " + HEADER)
    print("|---" + RULE)
    with throwaway_postgres(SETTINGS) as server:
        for round_ in range(args.rounds):
            for workers in args.workers:
                figures = run(server, f"w{workers}_r{round_}", workers, args)
                rates[workers].append(figures.actions / figures.seconds)
                print(f"| {workers} {row(figures)}", flush=True)
    first = args.workers[0]
    baseline = statistics.median(rates[first])
    print()
    for workers, found in rates.items():
        median = statistics.median(found)
        shown = json.dumps([round(rate) for rate in found])
        print(
            f"{workers} {kind}(s): median {median:,.0f} actions/s {shown},"
            f" {median / baseline:.2f} x {first}"
        )


if __name__ == "__main__":
    main()
