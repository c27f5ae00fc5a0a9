"""`horserace serve` as a real process on a free localhost port: play over a real WebSocket,
kill it with SIGKILL, restart it on the same database, and find the table exactly where the
last acknowledged action left it (the same version, the same per-seat state, the same events
for whoever reconnects)."""

from __future__ import annotations

import json
import os
import signal
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from subprocess import Popen
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.serve_process import serve_running
from tests.server.support import Message, Player

PEOPLE = (0, 2)
RECEIVE_SECONDS = 30


def _server(database: Path, log: Path) -> AbstractContextManager[tuple[Popen[bytes], str]]:
    return serve_running(
        ["--db", f"sqlite:///{database}", "--bot-delay", "0", "--log-level", "warning"], log
    )


def _player(ws: ClientConnection, seat: int | None, tag: str, log: Path) -> Player:
    def recv() -> Message:
        try:
            return dict(json.loads(ws.recv(timeout=RECEIVE_SECONDS)))
        except TimeoutError:
            raise AssertionError("no message; the server said: " + log.read_text()) from None

    player = Player(None, seat, recv_json=recv, send_json=lambda m: ws.send(json.dumps(m)))
    player.tag = tag
    return player


def _ws(base: str, table: str) -> ClientConnection:
    url = base.replace("http://", "ws://") + f"/ws/tables/{table}"
    return connect(url, proxy=None, open_timeout=10)


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with httpx.Client(trust_env=False, timeout=10) as client:
        response = client.post(base + path, json=body)
    assert response.status_code in (200, 201), response.text
    return dict(response.json())


def _play(people: dict[int, Player], actions: int) -> int:
    """Make `actions` rolls, each by whoever's turn it is; the last acknowledged version."""
    acked, watcher = -1, people[PEOPLE[0]]
    for _ in range(actions):
        state = watcher.settled(beyond=acked, people=PEOPLE)
        mover = people[state["state"]["actor"]]
        mine = mover.settled(beyond=acked, people=PEOPLE)
        assert mine["version"] == state["version"] and mine["state"]["legal"]
        mover.send_act(mine["state"]["legal"][0], mine["version"])
        reply = mover.reply()
        assert reply["type"] == "ack", reply
        acked = reply["version"]
    return acked


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is a POSIX signal")
def test_a_killed_server_resumes_every_table_where_it_was(tmp_path: Path) -> None:
    database, log = tmp_path / "tables.db", tmp_path / "server.log"
    with _server(database, log) as (process, base), ExitStack() as sockets:
        created = _post(
            base,
            "/api/tables",
            {
                "preset": "classic",
                "options": {"players": 3, "rounds": 3},  # no game ends within a few rolls
                "seats": ["open", "random", "open"],
                "turn_seconds": 0,
            },
        )
        table = created["table"]["id"]
        tokens = {}
        for name in ("Ann", "Cy"):
            joined = _post(base, f"/api/tables/{table}/join", {"name": name})
            tokens[joined["seat"]] = joined["token"]
        people = {
            seat: _player(sockets.enter_context(_ws(base, table)), seat, "first", log)
            for seat in PEOPLE
        }
        for seat, player in people.items():
            assert player.hello(token=tokens[seat])["seat"] == seat
        acked = _play(people, 7)
        before = {seat: p.settled(beyond=acked - 1, people=PEOPLE) for seat, p in people.items()}
        version = before[0]["version"]
        assert version >= acked and before[2]["version"] == version
        history = {m["version"]: m["events"] for m in people[0].received if m["type"] == "update"}
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    with _server(database, log) as (process, base), ExitStack() as sockets:
        since = version - 3
        ann = _player(sockets.enter_context(_ws(base, table)), 0, "second", log)
        back = ann.hello(token=tokens[0], since=since)
        assert back["version"] == version
        assert back["state"] == before[0]["state"]
        missed = [step["events"] for step in back["missed"]]
        assert missed == [history[v] for v in range(since + 1, version + 1)]
        cy = _player(sockets.enter_context(_ws(base, table)), 2, "second", log)
        cy_back = cy.hello(token=tokens[2], since=version)
        assert cy_back["state"] == before[2]["state"] and cy_back["missed"] == []
        # one more acknowledged action, and the kill right after its acknowledgement
        acked = _play({0: ann, 2: cy}, 1)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    with _server(database, log) as (process, base), _ws(base, table) as ws:
        again = _player(ws, 0, "third", log)
        welcome = again.hello(token=tokens[0], since=acked - 1)
        assert welcome["version"] >= acked
        assert welcome["missed"][0]["version"] == acked
        settled = again.settled(beyond=acked - 1, people=PEOPLE)
        assert settled["version"] > acked  # chance went on from the seed where it stopped
        with httpx.Client(trust_env=False) as client:
            summary = client.get(f"{base}/api/tables/{table}").json()
        assert summary["status"] == "playing" and summary["version"] == settled["version"]
