"""`horserace serve --workers 2` over a real PostgreSQL server (conftest.py): every worker
answers for every table (the owner serves it; the other forwards to it) and pushes its
changes to its lobby sockets, and when the owner of
tables in mid-game is killed with SIGKILL, they move to a live worker and play on: every
acknowledged action is in the published record, every watcher picks up where it was, and the
records verify."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from horserace.drivers.server.records import check_published
from tests.server.serve_process import stop_process

HOST = "127.0.0.1"
HORSERACE = Path(sys.executable).parent / "horserace"
DEADLINE = 60.0
BOT_TABLES = 4

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is a POSIX signal")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _workers(url: str) -> dict[int, str]:
    """The live workers' private addresses, by worker id."""
    with psycopg.connect(url) as db:
        if db.execute("SELECT to_regclass('workers')").fetchone() == (None,):
            return {}  # no worker has started yet
        rows = db.execute(
            "SELECT id, address FROM workers WHERE id IN (SELECT objid::bigint FROM pg_locks"
            " WHERE locktype = 'advisory' AND granted AND classid = 26738 AND objsubid = 2)"
        ).fetchall()
    return {int(worker): str(address) for worker, address in rows}


def _owners(url: str) -> dict[str, int]:
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT table_id, worker FROM table_owners").fetchall()
    return {str(table): int(worker) for table, worker in rows}


@contextmanager
def _cluster(url: str, tmp_path: Path) -> Iterator[str]:
    port, log = _free_port(), tmp_path / "server.log"
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
        str(tmp_path / "server.key"),
        "--log-level",
        "warning",
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + DEADLINE
        while len(_workers(url)) < 2:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield f"http://{HOST}:{port}"
    finally:
        stop_process(process)


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with httpx.Client(trust_env=False, timeout=10) as client:  # a new connection: any worker
        response = client.post(base + path, json=body)
    assert response.status_code in (200, 201), response.text
    return dict(response.json())


def _get(base: str, path: str) -> httpx.Response:
    with httpx.Client(trust_env=False, timeout=10) as client:
        return client.get(base + path)


class Follower:
    """A client of one table that reconnects (with `since`) whenever its socket closes, and
    keeps every update it was sent; as a seated player it makes the first legal move."""

    def __init__(self, base: str, table: str, token: str | None = None) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
        self.token = token
        self.version = 0
        self.seen: list[int] = []  # versions of the steps it was told of, in order
        self.acked: dict[int, str] = {}  # version -> the action this player made
        self.reconnects = -1
        self.over = False
        self._socket: ClientConnection | None = None
        self._sent: str | None = None

    def _open(self) -> ClientConnection:
        while True:
            try:
                ws = connect(self.url, proxy=None, open_timeout=10, legacy=True)
                hello: dict[str, Any] = {"type": "hello", "since": self.version}
                if self.token is not None:
                    hello["token"] = self.token
                ws.send(json.dumps(hello))
                self.reconnects += 1
                return ws
            except (OSError, ConnectionClosed):
                time.sleep(0.2)

    def pump(self, seconds: float = 0.2) -> None:
        """Read what arrives for `seconds` (reconnecting if the socket closes)."""
        if self._socket is None:
            self._socket = self._open()
        try:
            message = json.loads(self._socket.recv(timeout=seconds))
        except TimeoutError:
            return
        except ConnectionClosed:
            self._socket = None
            self._sent = None
            return
        self._take(message)

    def _take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            assert not message["resync"]
            self.seen.extend(step["version"] for step in message["missed"])
        elif kind == "update":
            self.seen.append(message["version"])
        elif kind == "ack":
            assert self._sent is not None
            self.acked[message["version"]] = self._sent
            self._sent = None
        elif kind == "error":
            assert message["code"] in ("stale", "not-your-turn"), message
            self._sent = None
        if "state" in message and message["state"] is not None:
            self.version = message["version"]
            state = message["state"]
            self.over = state["status"] == "over"
            if state["legal"] and self._sent is None and self._socket is not None:
                self._sent = state["legal"][0]
                act = {"type": "act", "action": self._sent, "version": self.version}
                try:
                    self._socket.send(json.dumps({**act, "request_id": f"r{self.version}"}))
                except ConnectionClosed:  # the owner is gone: the next pump reconnects
                    self._socket = self._sent = None

    def close(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                self._socket.close()


def test_every_worker_serves_every_table(postgres_url: str, tmp_path: Path) -> None:
    with _cluster(postgres_url, tmp_path) as base:
        made = _post(
            base,
            "/api/tables",
            {"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]},
        )
        table = made["table"]["id"]
        owner = _owners(postgres_url)[table]
        held = connect(
            f"ws://{_workers(postgres_url)[owner]}/ws/tables/{table}", proxy=None, legacy=True
        )
        held.send(json.dumps({"type": "hello"}))  # somebody is here: the table stays
        assert json.loads(held.recv(timeout=10))["type"] == "welcome"
        for worker, address in _workers(postgres_url).items():  # the owner, and the other
            summary = _get(f"http://{address}", f"/api/tables/{table}").json()
            assert summary["id"] == table and summary["status"] == "waiting"
            with connect(f"ws://{address}/ws/tables/{table}", proxy=None) as ws:
                ws.send(json.dumps({"type": "hello"}))
                welcome = json.loads(ws.recv(timeout=10))
                assert welcome["type"] == "welcome" and welcome["table"] == table
            health = _get(f"http://{address}", "/healthz").json()
            assert health["worker"] == worker and (health["tables"] >= 1) == (worker == owner)
        other = next(a for w, a in _workers(postgres_url).items() if w != owner)
        with connect(f"ws://{other}/ws/lobby?status=all", proxy=None) as lobby:
            first = json.loads(lobby.recv(timeout=10))
            assert first["type"] == "tables" and [t["id"] for t in first["tables"]] == [table]
            joined = _post(f"http://{other}", f"/api/tables/{table}/join", {"name": "Ann"})
            assert joined["seat"] == 0 and joined["table"]["status"] == "playing"
            assert _owners(postgres_url)[table] == owner  # forwarded, not taken over
            # the owner announces the change; the other worker pushes it to its lobby
            pushed = json.loads(lobby.recv(timeout=10))
            assert pushed["type"] == "tables-changed"
            assert [(t["id"], t["status"]) for t in pushed["tables"]] == [(table, "playing")]
        held.close()


def test_a_table_moves_to_the_worker_its_player_connects_to(
    postgres_url: str, tmp_path: Path
) -> None:
    """A socket reaching a worker that does not own its table takes the table there when
    nobody is connected to it at its owner (so the player's messages cross one event loop,
    not two); a later socket at the old owner is forwarded, and the table stays."""
    with _cluster(postgres_url, tmp_path) as base:
        body = {"preset": "classic", "options": {"players": 2}, "seats": ["open", "random"]}
        table = _post(base, "/api/tables", body)["table"]["id"]
        token = _post(base, f"/api/tables/{table}/join", {"name": "Ann"})["token"]
        workers, owner = _workers(postgres_url), _owners(postgres_url)[table]
        other = next(worker for worker in workers if worker != owner)
        with connect(f"ws://{workers[other]}/ws/tables/{table}", proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            player = Follower(base, table, token)
            player._socket, player.reconnects = ws, 0
            while len(player.acked) < 3:
                player.pump(0.05)
            assert _owners(postgres_url)[table] == other
            assert _get(f"http://{workers[other]}", "/healthz").json()["tables"] >= 1
            with connect(f"ws://{workers[owner]}/ws/tables/{table}", proxy=None) as watcher:
                watcher.send(json.dumps({"type": "hello"}))
                welcome = json.loads(watcher.recv(timeout=10))
                assert welcome["type"] == "welcome" and welcome["seat"] is None
            assert _owners(postgres_url)[table] == other  # somebody plays there: it stays
            while len(player.acked) < 6:
                player.pump(0.05)
        assert player.reconnects == 0 and player.seen == sorted(set(player.seen))


def test_a_killed_workers_tables_move_on_and_nothing_is_lost(
    postgres_url: str, tmp_path: Path
) -> None:
    with _cluster(postgres_url, tmp_path) as base:
        person = _post(
            base,
            "/api/tables",
            {"preset": "classic", "options": {"players": 2, "rounds": 2}, "seats": ["open", "ev"]},
        )["table"]["id"]
        bots = [
            _post(
                base,
                "/api/tables",
                {
                    "preset": "classic",
                    "options": {"players": 3, "rounds": 2},
                    "seats": ["random"] * 3,
                },
            )["table"]["id"]
            for _ in range(BOT_TABLES)
        ]
        token = _post(base, f"/api/tables/{person}/join", {"name": "Ann"})["token"]
        player = Follower(base, person, token)
        watchers = [Follower(base, table) for table in bots]
        followers = [player, *watchers]
        while len(player.acked) < 3:  # the game is well under way
            for follower in followers:
                follower.pump(0.05)
        victim = _owners(postgres_url)[person]
        health = _get(f"http://{_workers(postgres_url)[victim]}", "/healthz").json()
        moved = [t for t, w in _owners(postgres_url).items() if w == victim]
        os.kill(health["pid"], signal.SIGKILL)
        acked_before = dict(player.acked)
        deadline = time.monotonic() + DEADLINE
        while not all(follower.over for follower in followers):
            assert time.monotonic() < deadline, "the tables did not finish"
            for follower in followers:
                if not follower.over:
                    follower.pump(0.05)
        for follower in followers:
            follower.close()
        owners, live = _owners(postgres_url), _workers(postgres_url)
        assert victim not in live and all(owners[table] in live for table in moved)
        for table, follower in zip([person, *bots], followers, strict=True):
            assert follower.reconnects >= (1 if table in moved else 0)
        key = _get(base, "/api/server-key").json()["server_key"]
        for table, follower in zip([person, *bots], followers, strict=True):
            assert follower.seen == list(range(1, follower.version + 1))  # no gap, no repeat
            text = _get(base, f"/api/tables/{table}/record").text
            checked = check_published(text, server_key=key, table=table)
            assert checked.verified, checked.problems
            assert checked.steps == follower.version
        rows = [
            json.loads(line)
            for line in _get(base, f"/api/tables/{person}/record").text.splitlines()
        ]
        made = {row["step"] + 1: (row["actor"], row["action"]) for row in rows if "step" in row}
        assert acked_before and all(
            made[version] == ("0", action) for version, action in player.acked.items()
        )
        assert set(acked_before.items()) <= set(player.acked.items())
        assert any(version > max(acked_before) for version in player.acked)  # played on
