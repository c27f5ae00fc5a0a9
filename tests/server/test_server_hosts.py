"""`horserace serve` on two hosts sharing only a PostgreSQL database (and the key file): two
processes listening on 127.0.0.2 and 127.0.0.3 with `--advertise-host`, each a host of its
own. Each worker publishes the address it was given; a request or socket that reaches the
host not owning its table is forwarded across; each worker's /metrics carries its own label
and counts only what it did; behind the documented nginx configuration a table's people
reach one host, and the table ends up owned there; and when one host dies with SIGKILL (its
supervisor and worker at once) mid-game, the survivor takes its tables on: every
acknowledged move is in the published record, and every record verifies. The two hosts are
shared by the module's tests; the one that kills a host comes last."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from horserace.drivers.server.signing import ServerKey
from tests.server.cluster_clients import (
    DEADLINE,
    Follower,
    check_followed,
    check_played_on,
    get,
    live_workers,
    owners,
    play_out,
    post,
)
from tests.server.postgres import new_database
from tests.server.serve_process import HORSERACE, METRICS_TOKEN, free_port
from tests.server.test_server_nginx import nginx_in_front

HOSTS = ("127.0.0.2", "127.0.0.3")
MAX_TABLES = 40  # made until one hashes to its creator's host and one to the other

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is a POSIX signal")


@dataclass
class Hosts:
    url: str  # the database
    hosts: list[tuple[subprocess.Popen[bytes], str]]  # each host's process and URL


@pytest.fixture(scope="module")
def two_hosts(postgres_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosts]:
    url = new_database(postgres_server, f"t_{uuid.uuid4().hex}")
    folder = tmp_path_factory.mktemp("hosts")
    with _hosts(url, folder / "server.key", folder) as hosts:
        yield Hosts(url, hosts)


@contextmanager
def _hosts(url: str, key: Path, logs: Path) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:
    """`serve --workers 1 --advertise-host HOST` on each of `HOSTS`, each in a process group
    of its own (so a whole host can be killed at once), started together, once every worker
    is up: (each process, its URL)."""
    ServerKey.load_or_create(key)  # the key file every host is given
    environment = {**os.environ, "HORSERACE_METRICS_TOKEN": METRICS_TOKEN}
    hosts = []
    with ExitStack() as stack:
        for host in HOSTS:
            port, log = free_port(host), logs / f"{host}.log"
            command = [str(HORSERACE), "serve", "--host", host, "--port", str(port)]
            command += ["--advertise-host", host, "--db", url, "--key-file", str(key)]
            command += ["--bot-delay", "0.02", "--log-level", "warning"]
            with log.open("ab") as out:
                process = subprocess.Popen(
                    command,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=environment,
                    start_new_session=True,
                )
            stack.callback(_kill_host, process)
            hosts.append((process, f"http://{host}:{port}"))
        deadline = time.monotonic() + DEADLINE
        while len(live_workers(url)) < len(HOSTS):
            for (process, _), host in zip(hosts, HOSTS, strict=True):
                assert process.poll() is None, (logs / f"{host}.log").read_text()
            assert time.monotonic() < deadline, "the hosts did not start"
            time.sleep(0.1)
        yield hosts


def _kill_host(process: subprocess.Popen[bytes]) -> None:
    """A host's processes (its supervisor and workers) killed at once, as a machine dies."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def _worker_at(url: str, host: str) -> tuple[int, str]:
    """The worker of `host` (its id and advertised address)."""
    found = [(w, a) for w, a in live_workers(url).items() if a.startswith(f"{host}:")]
    assert len(found) == 1, live_workers(url)
    return found[0]


def _actions(address: str) -> tuple[set[str], dict[str, float]]:
    """A worker's /metrics at its own address: the `worker` labels on its samples, and the
    actions it applied by who made them."""
    with httpx.Client(trust_env=False, timeout=10) as client:
        text = client.get(
            f"http://{address}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
        ).text
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    labels = {m.group(1) for line in samples if (m := re.search(r'worker="(\d+)"', line))}
    assert all('worker="' in line for line in samples if "{" in line)
    actions = {
        by.group(1): float(line.rsplit(" ", 1)[1])
        for line in samples
        if line.startswith("horserace_actions_total{") and (by := re.search(r'by="(\w+)"', line))
    }
    return labels, actions


def test_nginx_sends_a_tables_people_to_one_host_and_the_table_follows(
    two_hosts: Hosts, tmp_path: Path
) -> None:
    """Tables created on each host; through nginx, every request and socket of a table
    reaches the one host its id hashes to, which owns the table once its person plays there:
    it was made there, or it moved there with its people."""
    url, bases = two_hosts.url, [base for _, base in two_hosts.hosts]
    seen = "add_header X-Upstream $upstream_addr always;"  # which host answered: for the test
    with nginx_in_front(tmp_path, [b.removeprefix("http://") for b in bases], seen) as front:
        body = {"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]}
        kinds: dict[bool, tuple[str, str]] = {}  # moved there or not: (table, its host)
        for made in range(MAX_TABLES):
            creator = HOSTS[made % 2]
            table = post(bases[made % 2], "/api/tables", body)["table"]["id"]
            host = get(front, f"/api/tables/{table}").headers["X-Upstream"].split(":")[0]
            kinds.setdefault(host != creator, (table, host))
            if len(kinds) == 2:
                break
        assert len(kinds) == 2, "no table hashed to the other host than its creator's"
        for table, host in kinds.values():
            joined = httpx.post(
                f"{front}/api/tables/{table}/join", json={"name": "Ann"}, timeout=10
            )
            assert joined.headers["X-Upstream"].startswith(f"{host}:")
            player = Follower(front, table, joined.json()["token"])
            while len(player.acked) < 2:
                player.pump(0.05)
            player.close()
            assert live_workers(url)[owners(url)[table]].startswith(f"{host}:")


def test_two_hosts_forward_across_and_survive_one_killed(two_hosts: Hosts) -> None:
    postgres_url = two_hosts.url
    (first, first_base), (_, second_base) = two_hosts.hosts
    (a_id, a_address), (b_id, b_address) = (_worker_at(postgres_url, h) for h in HOSTS)
    body = {
        "preset": "classic",
        "options": {"players": 2, "rounds": 1},
        "seats": ["open", "ev"],
    }
    person = post(first_base, "/api/tables", body)["table"]["id"]
    bots = post(
        first_base,
        "/api/tables",
        {"preset": "classic", "options": {"players": 3, "rounds": 1}, "seats": ["random"] * 3},
    )["table"]["id"]
    assert owners(postgres_url)[person] == a_id
    held_url = f"ws://{a_address}/ws/tables/{person}"
    with connect(held_url, proxy=None, max_queue=None) as held:  # unread, never blocking
        held.send(json.dumps({"type": "hello"}))  # somebody is here: the table stays
        assert json.loads(held.recv(timeout=10))["type"] == "welcome"
        token = post(second_base, f"/api/tables/{person}/join", {"name": "Ann"})["token"]
        player = Follower(second_base, person, token)  # its socket reaches the other host
        watcher = Follower(second_base, bots)
        _, a_before = _actions(a_address)
        _, b_before = _actions(b_address)
        while len(player.acked) < 3:
            player.pump(0.05)
            watcher.pump(0.01)
    assert owners(postgres_url)[person] == a_id  # forwarded across, not taken over
    a_labels, a_actions = _actions(a_address)
    b_labels, b_actions = _actions(b_address)
    assert (a_labels, b_labels) == ({str(a_id)}, {str(b_id)})
    # each counts its own: the person's moves were all made by the first host
    made_at_a = a_actions["person"] - a_before.get("person", 0)
    assert made_at_a >= len(player.acked) and b_actions.get("person") == b_before.get("person")
    server_key = get(first_base, "/api/server-key").json()["server_key"]
    acked_before, bots_over = dict(player.acked), watcher.over
    _kill_host(first)
    play_out([player, watcher])
    owned, live = owners(postgres_url), live_workers(postgres_url)
    assert set(live) == {b_id} and owned[person] == b_id
    assert bots_over or owned[bots] == b_id
    assert get(second_base, "/api/server-key").json()["server_key"] == server_key
    check_followed(second_base, {person: player, bots: watcher}, server_key)
    check_played_on(second_base, person, player, acked_before)
