"""`horserace serve --workers 2` over a real PostgreSQL server (conftest.py): every worker
answers for every table (the owner serves it; the other forwards to it), holds one address
to one cap of HTTP connections between them, and pushes its
changes to its lobby sockets, and when the owner of
tables in mid-game is killed with SIGKILL, they move to a live worker and play on: every
acknowledged action is in the published record, every watcher picks up where it was, and the
records verify. The cluster is shared by the module's tests; the one that kills a worker comes
last."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
from websockets.sync.client import connect

from horserace.drivers.server.limits import Limits
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
from tests.server.serve_process import HORSERACE, HOST, free_port, stop_process

BOT_TABLES = 4

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is a POSIX signal")


@dataclass
class Cluster:
    url: str  # the database
    base: str  # the cluster's port, any worker behind it


@pytest.fixture(scope="module")
def cluster(postgres_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """`serve --workers 2` over a database of its own, once every worker is up."""
    url = new_database(postgres_server, f"t_{uuid.uuid4().hex}")
    folder = tmp_path_factory.mktemp("workers")
    port, log = free_port(), folder / "server.log"
    command = [
        str(HORSERACE),
        "serve",
        "--workers",
        "2",
        "--host",
        HOST,
        "--port",
        str(port),
        "--db",
        url,
        "--bot-delay",
        "0.03",
        "--key-file",
        str(folder / "server.key"),
        "--log-level",
        "warning",
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + DEADLINE
        while len(live_workers(url)) < 2:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield Cluster(url, f"http://{HOST}:{port}")
    finally:
        stop_process(process)


def test_every_worker_serves_every_table(cluster: Cluster) -> None:
    """The module's first test: the table it makes is the cluster's only one, and no
    connection is open to the cluster before it counts one address's cap."""
    url, base = cluster.url, cluster.base
    _one_cap_for_both_workers(base)
    made = post(
        base,
        "/api/tables",
        {"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]},
    )
    table = made["table"]["id"]
    owner = owners(url)[table]
    # read without bound: with a full queue (16 unread updates) the client would stop reading
    # and wait its close_timeout (10 s) for the server's answer to its close at the end
    held = connect(
        f"ws://{live_workers(url)[owner]}/ws/tables/{table}",
        proxy=None,
        legacy=True,
        max_queue=None,
    )
    held.send(json.dumps({"type": "hello"}))  # somebody is here: the table stays
    assert json.loads(held.recv(timeout=10))["type"] == "welcome"
    for worker, address in live_workers(url).items():  # the owner, and the other
        summary = get(f"http://{address}", f"/api/tables/{table}").json()
        assert summary["id"] == table and summary["status"] == "waiting"
        with connect(f"ws://{address}/ws/tables/{table}", proxy=None) as ws:
            ws.send(json.dumps({"type": "hello"}))
            welcome = json.loads(ws.recv(timeout=10))
            assert welcome["type"] == "welcome" and welcome["table"] == table
        health = get(f"http://{address}", "/healthz").json()
        assert health["worker"] == worker and (health["tables"] >= 1) == (worker == owner)
    other = next(a for w, a in live_workers(url).items() if w != owner)
    with connect(f"ws://{other}/ws/lobby?status=all", proxy=None) as lobby:
        first = json.loads(lobby.recv(timeout=10))
        assert first["type"] == "tables" and [t["id"] for t in first["tables"]] == [table]
        joined = post(f"http://{other}", f"/api/tables/{table}/join", {"name": "Ann"})
        assert joined["seat"] == 0 and joined["table"]["status"] == "playing"
        assert owners(url)[table] == owner  # forwarded, not taken over
        # the owner announces the change; the other worker pushes it to its lobby
        pushed = json.loads(lobby.recv(timeout=10))
        assert pushed["type"] == "tables-changed"
        assert [(t["id"], t["status"]) for t in pushed["tables"]] == [(table, "playing")]
    held.close()


def _one_cap_for_both_workers(base: str) -> None:
    """The workers count one address's HTTP connections together (guard.SharedCounts): of
    CAP + 1 kept-alive connections, answered by both workers, the last is refused."""
    host, port = base.removeprefix("http://").split(":")
    held: list[socket.socket] = []
    answered_by: set[int] = set()
    try:
        for _ in range(Limits.connections_per_address + 1):
            connection = socket.create_connection((host, int(port)), timeout=10)
            held.append(connection)
            # the route's /healthz (the query keeps it from the front door's answer, which
            # closes its connection): the connection stays open, held against the cap
            connection.sendall(b"GET /healthz?held HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            with contextlib.suppress(ConnectionResetError):
                while not answer.endswith(b"}") and (chunk := connection.recv(65536)):
                    answer += chunk
            if answer.startswith(b"HTTP/1.1 200"):
                answered_by.add(json.loads(answer.split(b"\r\n\r\n", 1)[1])["worker"])
            else:
                assert answer == b"" and len(held) == Limits.connections_per_address + 1
        assert len(answered_by) == 2  # spread over both, and still one cap
    finally:
        for connection in held:
            connection.close()


def test_a_table_moves_to_the_worker_its_player_connects_to(cluster: Cluster) -> None:
    """A socket reaching a worker that does not own its table takes the table there when
    nobody is connected to it at its owner (so the player's messages cross one event loop,
    not two); a later socket at the old owner is forwarded, and the table stays."""
    url, base = cluster.url, cluster.base
    body = {"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]}
    table = post(base, "/api/tables", body)["table"]["id"]
    token = post(base, f"/api/tables/{table}/join", {"name": "Ann"})["token"]
    workers, owner = live_workers(url), owners(url)[table]
    other = next(worker for worker in workers if worker != owner)
    with connect(f"ws://{workers[other]}/ws/tables/{table}", proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        player = Follower(base, table, token)
        player._socket, player.reconnects = ws, 0
        while len(player.acked) < 3:
            player.pump(0.05)
        assert owners(url)[table] == other
        assert get(f"http://{workers[other]}", "/healthz").json()["tables"] >= 1
        with connect(f"ws://{workers[owner]}/ws/tables/{table}", proxy=None) as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            welcome = json.loads(watcher.recv(timeout=10))
            assert welcome["type"] == "welcome" and welcome["seat"] is None
        assert owners(url)[table] == other  # somebody plays there: it stays
        while len(player.acked) < 6:
            player.pump(0.05)
    assert player.reconnects == 0 and player.seen == sorted(set(player.seen))


def test_a_killed_workers_tables_move_on_and_nothing_is_lost(cluster: Cluster) -> None:
    """The module's last test (it kills a worker). Tables of the earlier tests left on the
    victim are not this test's: only its own tables are followed and checked."""
    url, base = cluster.url, cluster.base
    # games of one round: the kill comes after the person's third move, long before they end
    person = post(
        base,
        "/api/tables",
        {"preset": "classic", "options": {"players": 2, "rounds": 1}, "seats": ["open", "ev"]},
    )["table"]["id"]
    bots = [
        post(
            base,
            "/api/tables",
            {"preset": "classic", "options": {"players": 3, "rounds": 1}, "seats": ["random"] * 3},
        )["table"]["id"]
        for _ in range(BOT_TABLES)
    ]
    token = post(base, f"/api/tables/{person}/join", {"name": "Ann"})["token"]
    player = Follower(base, person, token)
    watchers = [Follower(base, table) for table in bots]
    followers = [player, *watchers]
    while len(player.acked) < 3:  # the game is well under way
        for follower in followers:
            follower.pump(0.05)
    victim = owners(url)[person]
    health = get(f"http://{live_workers(url)[victim]}", "/healthz").json()
    mine = [person, *bots]
    # a bot table of the victim's that ended before the kill (on a loaded machine, before the
    # person's third move) stays its victim's: it has nothing to move on with
    playing = _not_over(url, mine)
    moved = [t for t, w in owners(url).items() if w == victim and t in playing]
    assert person in moved
    os.kill(health["pid"], signal.SIGKILL)
    acked_before = dict(player.acked)
    play_out(followers)
    owned, live = owners(url), live_workers(url)
    assert victim not in live and all(owned[table] in live for table in moved)
    for table, follower in zip(mine, followers, strict=True):
        assert follower.reconnects >= (1 if table in moved else 0)
    key = get(base, "/api/server-key").json()["server_key"]
    check_followed(base, dict(zip(mine, followers, strict=True)), key)
    check_played_on(base, person, player, acked_before)


def _not_over(url: str, tables: list[str]) -> set[str]:
    """Those of `tables` not over, as the database has them."""
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT id FROM tables WHERE status <> 'over' AND id = ANY(%s)", (tables,)
        ).fetchall()
    return {str(table) for (table,) in rows}
