"""Clients of `serve --workers` over PostgreSQL, for the tests of workers on one host and on
several: the live workers and the tables' owners as the database has them, one-off requests,
and a table's follower that reconnects and plays on through a worker's death."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
import psycopg
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from horserace.drivers.server.records import check_published

DEADLINE = 60.0  # seconds for the tables to finish once a worker or host is gone


def live_workers(url: str) -> dict[int, str]:
    """The live workers' private addresses, by worker id."""
    with psycopg.connect(url) as db:
        if db.execute("SELECT to_regclass('workers')").fetchone() == (None,):
            return {}  # no worker has started yet
        rows = db.execute(
            "SELECT id, address FROM workers WHERE id IN (SELECT objid::bigint FROM pg_locks"
            " WHERE locktype = 'advisory' AND granted AND classid = 26738 AND objsubid = 2)"
        ).fetchall()
    return {int(worker): str(address) for worker, address in rows}


def owners(url: str) -> dict[str, int]:
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT table_id, worker FROM table_owners").fetchall()
    return {str(table): int(worker) for table, worker in rows}


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with httpx.Client(trust_env=False, timeout=10) as client:  # a new connection: any worker
        response = client.post(base + path, json=body)
    assert response.status_code in (200, 201), response.text
    return dict(response.json())


def get(base: str, path: str) -> httpx.Response:
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
            except (OSError, ConnectionClosed, InvalidHandshake):  # InvalidHandshake: a
                # connection closed before its answer (sent to the worker just killed)
                time.sleep(0.2)

    def pump(self, seconds: float = 0.2) -> None:
        """Wait up to `seconds` for a message, then read every one already come (reconnecting
        if the socket closes). One message a call fell behind a bot table's pace (with two
        followers pumped in turn, at most one message each per wait): a socket moved or
        reconnected more than a catch-up's worth of steps behind was told to resync."""
        timeout = seconds
        if self._socket is None:
            self._socket = self._open()
        while self._socket is not None:
            try:
                message = json.loads(self._socket.recv(timeout=timeout))
            except TimeoutError:
                return
            except ConnectionClosed:
                self._socket = None
                self._sent = None
                return
            self._take(message)
            timeout = 0  # what has come already, without waiting

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


def play_out(followers: list[Follower]) -> None:
    """Pump every follower until its table is over (within DEADLINE), then close them."""
    deadline = time.monotonic() + DEADLINE
    while not all(follower.over for follower in followers):
        assert time.monotonic() < deadline, "the tables did not finish"
        for follower in followers:
            if not follower.over:
                follower.pump(0.05)
    for follower in followers:
        follower.close()


def check_followed(base: str, followed: dict[str, Follower], server_key: str) -> None:
    """Each follower was told of every step once, in order (no gap, no repeat), and its
    table's published record verifies and has as many steps as the follower saw."""
    for table, follower in followed.items():
        assert follower.seen == list(range(1, follower.version + 1))  # no gap, no repeat
        text = get(base, f"/api/tables/{table}/record").text
        checked = check_published(text, server_key=server_key, table=table)
        assert checked.verified, checked.problems
        assert checked.steps == follower.version


def check_played_on(base: str, table: str, player: Follower, acked_before: dict[int, str]) -> None:
    """Every move acknowledged to seat 0's `player` is in the published record at its version,
    what was acknowledged before the death still is, and the player moved again after it."""
    rows = [json.loads(line) for line in get(base, f"/api/tables/{table}/record").text.splitlines()]
    made = {row["step"] + 1: (row["actor"], row["action"]) for row in rows if "step" in row}
    assert acked_before
    assert all(made[version] == ("0", action) for version, action in player.acked.items())
    assert set(acked_before.items()) <= set(player.acked.items())
    assert any(version > max(acked_before) for version in player.acked)  # played on
