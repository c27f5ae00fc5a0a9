"""The WebSocket protocol and the lobby through FastAPI's TestClient: joining, acting, every
typed refusal (which must change nothing), reconnecting with what was missed, the turn timer's
stand-in bot and taking the seat back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.server.support import (
    Player,
    TestClient,
    create_table,
    join,
    serving,
)


def _steps_stored(database: Path, table_id: str) -> int:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()
    return int(row[0])


def _two_people(client: TestClient, turn_seconds: float = 0.0) -> tuple[str, str, str, str]:
    table, host, _ = create_table(
        client, "classic", ["open", "open"], {"rounds": 1}, turn_seconds=turn_seconds
    )
    seat_a, token_a = join(client, table, "Ann")
    seat_b, token_b = join(client, table, "Bob")
    assert (seat_a, seat_b) == (0, 1)
    return table, host, token_a, token_b


def test_every_refusal_is_typed_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    with serving(database) as client:
        table, _, token_a, token_b = _two_people(client)
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws_a,
            client.websocket_connect(f"/ws/tables/{table}") as ws_b,
            client.websocket_connect(f"/ws/tables/{table}") as ws_watch,
        ):
            ann, bob, watcher = Player(ws_a, 0), Player(ws_b, 1), Player(ws_watch)
            # nothing but a hello is heard before the hello
            ann.send_act("roll", 0)
            refused = ann.reply()
            assert refused["code"] == "bad-message"
            assert ann.hello(token="not-a-real-token")["code"] == "unauthorized"
            welcome = ann.hello(token=token_a)
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            assert bob.hello(token=token_b)["seat"] == 1
            assert watcher.hello()["seat"] is None
            settled = bob.settled()
            version = settled["version"]
            assert settled["state"]["actor"] == 1  # the dealer's left rolls the first scratch
            assert settled["state"]["legal"] == ["roll"]

            def refusal(player: Player, action: str, at: int, rid: str | None = None) -> str:
                player.send_act(action, at, rid)
                reply = player.reply()
                assert reply["type"] == "error" and reply["version"] == version, reply
                assert player.ping() == version
                return str(reply["code"])

            assert refusal(ann, "roll", version) == "not-your-turn"
            assert refusal(bob, "pay", version) == "illegal"
            assert refusal(bob, "gallop away", version) == "invalid"
            assert refusal(bob, "roll", version - 1) == "stale"
            assert refusal(watcher, "roll", version) == "not-seated"
            ws_b.send_text("{not json")  # (the raw socket: no JSON at all)
            assert bob.reply()["code"] == "bad-message"
            ws_b.send_json({"type": "act", "action": "roll"})  # no version, no request id
            assert bob.reply()["code"] == "bad-message"
            ws_b.send_json({"type": "teleport"})
            assert bob.reply()["code"] == "bad-message"
            assert _steps_stored(database, table) == version

            bob.send_act("roll", version, "roll-once")
            ack = bob.reply()
            assert ack == {"type": "ack", "request_id": "roll-once", "version": version + 1}
            bob.send_act("roll", version + 1, "roll-once")  # the same request again
            duplicate = bob.reply()
            assert duplicate["code"] == "duplicate" and duplicate["version"] == version + 1
            after = ann.settled(beyond=version)
            assert after["state"]["actor"] == 0 and after["state"]["legal"] == ["roll"]
            assert after["version"] == version + 2  # the roll, then chance's dice
            assert bob.ping() == version + 2
            assert _steps_stored(database, table) == version + 2


def test_every_update_carries_the_next_version(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, token_a, token_b = _two_people(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws_a:
            ann = Player(ws_a, 0)
            first = ann.hello(token=token_a)
            versions = [first["version"]]
            with client.websocket_connect(f"/ws/tables/{table}") as ws_b:
                bob = Player(ws_b, 1)
                bob.hello(token=token_b)
                for _ in range(6):  # three scratch rolls each way
                    for player in (ann, bob):
                        state = player.settled()
                        if state["state"]["legal"]:
                            player.send_act("roll", state["version"])
                            assert player.reply()["type"] == "ack"
            versions += [m["version"] for m in ann.received if m["type"] == "update"]
            assert versions == list(range(versions[0], versions[0] + len(versions)))


def test_reconnect_gets_the_missed_events_and_its_own_view(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, token_a, token_b = _two_people(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws_b:
            bob = Player(ws_b, 1)
            bob.hello(token=token_b)
            with client.websocket_connect(f"/ws/tables/{table}") as ws_a:
                ann = Player(ws_a, 0)
                ann.hello(token=token_a)
                seen = ann.settled()["version"]
            # Ann is gone: Bob rolls the first scratch, chance rolls the dice
            state = bob.settled()
            bob.send_act("roll", state["version"])
            assert bob.reply()["type"] == "ack"
            now = bob.settled()["version"]
            updates = [m for m in bob.received if m["type"] == "update" and m["version"] > seen]
            with client.websocket_connect(f"/ws/tables/{table}") as ws_a:
                back = Player(ws_a, 0).hello(token=token_a, since=seen)
            assert back["version"] == now and not back["resync"]
            assert [step["version"] for step in back["missed"]] == list(range(seen + 1, now + 1))
            assert [step["events"] for step in back["missed"]] == [m["events"] for m in updates]
            assert back["state"]["view"]["seat"] == 0 and back["state"]["legal"] == ["roll"]
            texts = [event["text"] for step in back["missed"] for event in step["events"]]
            assert any("Bob rolls" in text for text in texts)
            with client.websocket_connect(f"/ws/tables/{table}") as ws_a:
                fresh = Player(ws_a, 0).hello(token=token_a)
            assert fresh["missed"] == [] and fresh["state"] == back["state"]


def test_a_dropped_player_is_played_by_a_bot_and_takes_the_seat_back(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, token_a, token_b = _two_people(client, turn_seconds=1.0)
        with client.websocket_connect(f"/ws/tables/{table}") as ws_a:
            ann = Player(ws_a, 0)
            ann.hello(token=token_a)
            with client.websocket_connect(f"/ws/tables/{table}") as ws_b:
                Player(ws_b, 1).hello(token=token_b)
            # Bob dropped on his own turn: after the timer his stand-in rolls for him
            away = ann.until(lambda m: m["type"] == "seats" and m["seats"][1]["away"])
            assert away["seats"][1]["connected"] is False
            ann.until(lambda m: m["type"] == "update" and m["actor"] == 1)
            mine = ann.settled()
            assert mine["state"]["actor"] == 0
            ann.send_act("roll", mine["version"])
            assert ann.reply()["type"] == "ack"
            ann.until(lambda m: m["type"] == "update" and m["actor"] == 1)  # no wait this time
            with client.websocket_connect(f"/ws/tables/{table}") as ws_b:
                bob = Player(ws_b, 1)
                back = bob.hello(token=token_b)
                assert back["seats"][1] == {**back["seats"][1], "away": False, "connected": True}
                last = -1
                for _ in range(6):
                    state = ann.settled(beyond=last)
                    last = state["version"]
                    player = bob if state["state"]["actor"] == 1 else ann
                    assert player.settled(beyond=last - 1)["version"] == last
                    player.send_act("roll", last)
                    assert player.reply()["type"] == "ack"  # nobody moved for Bob
                assert sum(1 for m in bob.received if m["type"] == "ack") == 3


def test_lobby_create_join_leave_start(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, host, summary = create_table(client, "classic", ["open", "open", "random"])
        assert summary["status"] == "waiting" and summary["open_seats"] == [0, 1]
        assert summary["seed"] is None and len(summary["seed_hash"]) == 64
        seat, token = join(client, table, "Ann")
        listed = client.get("/api/tables").json()
        assert [t["id"] for t in listed] == [table] and listed[0]["open_seats"] == [1]
        auth = {"Authorization": f"Bearer {token}"}
        assert client.post(f"/api/tables/{table}/leave", headers=auth).status_code == 200
        assert client.get(f"/api/tables/{table}").json()["open_seats"] == [0, 1]
        assert client.post(f"/api/tables/{table}/leave", headers=auth).status_code == 403
        join(client, table, "Ann")
        assert client.post(f"/api/tables/{table}/start", headers=auth).status_code == 403
        started = client.post(
            f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {host}"}
        )
        assert started.status_code == 200
        seats = started.json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
        assert client.post(f"/api/tables/{table}/join", json={"name": "Cy"}).status_code == 409
        assert client.get(f"/api/tables/{table}/record").status_code == 409
        assert client.get("/api/tables/nope").status_code == 404
        assert seat == 0


def test_lobby_refuses_bad_tables(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        bad = [
            {"preset": "no-such-game"},
            {"preset": "classic", "options": {"players": 1}},
            {"preset": "classic", "options": {"players": 3}, "seats": ["open", "open"]},
            {"preset": "classic", "options": {"players": 2}, "seats": ["open", "wizard"]},
        ]
        for body in bad:
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400, body
        assert client.post("/api/tables", json={"preset": "classic", "x": 1}).status_code == 422
        assert client.get("/api/tables").json() == []
        presets = {p["name"]: p for p in client.get("/api/presets").json()}
        assert {"classic", "advanced", "northwoods", "derby"} <= set(presets)
        assert presets["classic"]["bots"] == ["random", "heuristic", "ev"]
        assert presets["derby"]["bots"] == ["random", "ev"]


def test_unknown_table_socket_is_told_and_closed(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client, client.websocket_connect("/ws/tables/nope") as ws:
        message = Player(ws).next()
        assert message["type"] == "error" and message["message"] == "no such table"


def test_pages_are_served(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        assert "horserace tables" in client.get("/").text
        assert "/static/table.js" in client.get("/table/abc").text
        assert client.get("/static/table.js").status_code == 200
