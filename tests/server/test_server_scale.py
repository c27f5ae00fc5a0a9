"""Work per message stays bounded: a catch-up sends a snapshot and at most MAX_MISSED steps,
watchers coming and going send nobody the seat list, idle and finished tables leave memory
and come back from storage, and the lobby is paged, filtered and pushed."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from horserace.drivers.server import lobby as lobby_feed
from horserace.drivers.server.hub import Hub
from horserace.drivers.server.table_views import MAX_MISSED
from tests.server.support import (
    UNHELD,
    Player,
    TestClient,
    WebSocketTestSession,
    create_table,
    join,
    serving,
)


def _hub(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


def _finished_table(client: TestClient) -> tuple[str, int]:
    table, _, _ = create_table(client, "classic", ["random", "ev", "random"], {"rounds": 2})
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        watcher = Player(ws)
        watcher.hello()
        last = watcher.until(lambda m: m.get("state", {}).get("status") == "over")
    return table, int(last["version"])


def test_a_catch_up_sends_a_snapshot_and_a_bounded_tail(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, version = _finished_table(client)
        assert version > MAX_MISSED + 10
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            whole = watcher.hello(since=0)
            assert whole["resync"] and len(whole["missed"]) == MAX_MISSED
            assert [m["version"] for m in whole["missed"]] == list(
                range(version - MAX_MISSED + 1, version + 1)
            )
            assert whole["state"]["status"] == "over"
            ws.send_json({"type": "sync", "since": version - 5})
            recent = watcher.until(lambda m: m["type"] == "welcome")
            assert not recent["resync"] and [m["version"] for m in recent["missed"]] == list(
                range(version - 4, version + 1)
            )
            ws.send_json({"type": "sync", "since": version + 3})  # it saw what is no more
            ahead = watcher.until(lambda m: m["type"] == "welcome")
            assert ahead["resync"] and len(ahead["missed"]) == MAX_MISSED
            ws.send_json({"type": "sync", "since": 0})  # a sync from the start: bounded too
            again = watcher.until(lambda m: m["type"] == "welcome")
            assert again["resync"] and again["missed"] == whole["missed"]


def test_watchers_coming_and_going_send_nobody_the_seat_list(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        _, token = join(client, table, "Ann")
        held = _hub(client).tables[table]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            ann.settled(people=[0])
            time.sleep(0.4)  # Ann's own arrival, coalesced, has gone out
            ann.ping()
            before, mark = held.connections.sent, len(ann.received)
            for _ in range(30):
                with client.websocket_connect(f"/ws/tables/{table}") as watch:
                    Player(watch).hello(since=0)
            ann.ping()
            assert held.connections.sent - before <= 30 + 2  # 30 welcomes, 1 pong (+1 count)
            assert [m["type"] for m in ann.received[mark:]] == ["pong"]


def test_a_seat_connecting_is_one_coalesced_seat_list(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        _, token_a = join(client, table, "Ann")
        _, token_b = join(client, table, "Bob")
        with client.websocket_connect(f"/ws/tables/{table}") as ws_a:
            ann = Player(ws_a, 0)
            ann.hello(token=token_a)
            with client.websocket_connect(f"/ws/tables/{table}") as ws_b:
                Player(ws_b, 1).hello(token=token_b)
                seats = ann.until(lambda m: m["type"] == "seats" and m["seats"][1]["connected"])
                assert seats["seats"][0]["connected"]


def test_idle_and_finished_tables_leave_memory_and_come_back(tmp_path: Path) -> None:
    limits = replace(UNHELD, idle_seconds=0.2, over_seconds=0.2, sweep_seconds=0.05)
    with serving(tmp_path / "t.db", limits=limits) as client:
        hub = _hub(client)
        finished, version = _finished_table(client)
        waiting, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        playing, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        _, token = join(client, playing, "Ann")
        with client.websocket_connect(f"/ws/tables/{playing}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            state = ann.settled(people=[0])
            ann.send_act(state["state"]["legal"][0], state["version"])
            assert ann.reply()["type"] == "ack"
            assert playing in hub.tables  # somebody is here: it stays
        deadline = time.monotonic() + 10
        while {finished, waiting, playing} & set(hub.tables) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not {finished, waiting, playing} & set(hub.tables)
        # each comes back from storage when asked for, where it was
        assert client.get(f"/api/tables/{finished}").json()["version"] == version
        assert client.get(f"/api/tables/{finished}/record").status_code == 200
        join(client, waiting, "Bob")
        assert client.get(f"/api/tables/{waiting}").json()["open_seats"] == [1]
        with client.websocket_connect(f"/ws/tables/{playing}") as ws:
            ann = Player(ws, 0)
            ann.tag = "again"  # new request ids: the old ones are remembered as made
            back = ann.hello(token=token, since=state["version"])
            assert back["version"] > state["version"] and not back["resync"]
            state = ann.settled(people=[0])
            ann.send_act(state["state"]["legal"][0], state["version"])
            reply = ann.reply()
            assert reply["type"] == "ack", reply


def test_the_lobby_is_paged_filtered_and_pushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the lobby's changes still go out together, gathered for 0.05 s instead of a second
    monkeypatch.setattr(lobby_feed, "PUSH_SECONDS", 0.05)
    with serving(tmp_path / "t.db") as client:
        made = []
        for seats in (["open", "open"], ["open", "random"], ["random", "random"]) * 2:
            made.append(create_table(client, "classic", seats, {"rounds": 1})[0])
        made.append(create_table(client, "derby", ["open", "random"])[0])
        seen: list[str] = []
        before = ""
        pages = 0
        while True:
            response = client.get("/api/tables", params={"limit": 3, "before": before})
            assert response.status_code == 200 and len(response.json()) <= 3
            seen += [t["id"] for t in response.json()]
            pages += 1
            before = response.headers.get("X-Next-Page", "")
            if not before:
                break
        assert sorted(seen) == sorted(made) and len(seen) == len(set(seen)) and pages == 3
        assert seen[0] == made[-1]  # newest first
        open_ones = client.get("/api/tables", params={"status": "open"}).json()
        assert len(open_ones) == 5 and all(t["open_seats"] for t in open_ones)
        derby = client.get("/api/tables", params={"preset": "derby"}).json()
        assert [t["id"] for t in derby] == [made[-1]]
        assert client.get("/api/tables", params={"status": "lost"}).status_code == 400
        assert client.get("/api/tables", params={"limit": 5000}).status_code == 422

        with client.websocket_connect("/ws/lobby?status=open&limit=2") as lobby:
            first = lobby.receive_json()
            assert first["type"] == "tables" and len(first["tables"]) == 2 and first["next"]
            new, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
            assert _pushed(lobby, new)["matches"]
            join(client, new, "Ann")
            join(client, new, "Bob")  # the last seat: it starts, and is no longer open
            # Ann's join may go out alone first: while a seat is open the line still matches
            line = _pushed(lobby, new)
            while line["open_seats"]:
                assert line["matches"] and line["open_seats"] == [1]
                line = _pushed(lobby, new)
            assert not line["matches"]


def _pushed(lobby: WebSocketTestSession, table: str) -> dict[str, Any]:
    """The next pushed line of `table` (the bot tables made before change too)."""
    for _ in range(50):
        pushed = lobby.receive_json()
        assert pushed["type"] == "tables-changed"
        for line in pushed["tables"]:
            if line["id"] == table:
                return dict(line)
    raise AssertionError("the table was never pushed")
