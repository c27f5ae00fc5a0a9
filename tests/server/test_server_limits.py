"""Bad input of every kind gets a typed answer and changes nothing; what one client may cost
(bodies, message rates, sockets, tables) is limited, and going past a limit is answered with
429 or a close code, never by the table stopping."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import app as cli_app
from horserace.drivers.server.connection import MAX_BACKLOG, Connection, encode
from horserace.drivers.server.hub import Hub
from horserace.drivers.server.limits import (
    CLOSE_TOO_FAST,
    CLOSE_TOO_MANY,
    CLOSE_TOO_SLOW,
    MAX_BODY,
    Limits,
    serving_limits,
)
from horserace.drivers.server.protocol import CreateTable
from horserace.drivers.server.sql_storage import SQLiteStorage
from horserace.drivers.server.table_moves import CHANCE_RUN
from tests.server.support import Player, close_code, create_table, join, receive, serving

FAMILIES = [
    ("classic", ["open", "random"], {"rounds": 1}),
    ("derby", ["open", "random"], {}),
    ("basic", ["open", "random", "random"], {}),
]


@pytest.mark.usefixtures("quick_derby_odds")  # the table, not its odds
@pytest.mark.parametrize(("preset", "seats", "options"), FAMILIES)
def test_unicode_digits_binary_frames_and_loose_types_get_typed_errors(
    tmp_path: Path, preset: str, seats: list[str], options: dict[str, object]
) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, preset, seats, options)
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            state = ann.settled(people=[0])
            version = state["version"]
            legal = state["state"]["legal"]
            for text in ["bet ²", "²", "roll ٣", "pay 1\n", "x" * 201]:
                ann.send_act(text, version)
                reply = ann.reply()
                assert reply["type"] == "error", reply
                assert reply["code"] in ("bad-message", "invalid"), reply
            ws.send_bytes(b"\x00\x01binary")
            assert ann.reply()["code"] == "bad-message"
            for bad_version in ["1", True, 1.0, -1, 2**60, None]:
                ws.send_json(
                    {"type": "act", "action": legal[0], "version": bad_version, "request_id": "a"}
                )
                assert ann.reply()["code"] == "bad-message", bad_version
            ws.send_text('{"type":"sync","since":"' + "9" * 5000 + '"}')
            assert ann.reply()["code"] == "bad-message"
            ws.send_text("[" * 10_000 + "]" * 10_000)
            assert ann.reply()["code"] == "bad-message"
            assert ann.ping() == version  # nothing changed, and the socket is still open
            ann.send_act(legal[0], version)
            assert ann.reply() == {
                "type": "ack",
                "request_id": f"r0-{ann.requests}",
                "version": version + 1,
            }


def test_request_ids_belong_to_their_seat(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        _, token_a = join(client, table, "Ann")
        _, token_b = join(client, table, "Bob")
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws_a,
            client.websocket_connect(f"/ws/tables/{table}") as ws_b,
        ):
            players = [Player(ws_a, 0), Player(ws_b, 1)]
            players[0].hello(token=token_a)
            players[1].hello(token=token_b)
            used: set[int] = set()
            last = -1
            while used != {0, 1}:  # each seat moves once under the same request id "same"
                state = players[1].settled(beyond=last, people=[0, 1])
                actor, last = state["state"]["actor"], state["version"]
                mover = players[actor]
                legal = mover.settled(beyond=last - 1)["state"]["legal"]
                mover.send_act(legal[0], last, None if actor in used else "same")
                assert mover.reply()["type"] == "ack"
                used.add(actor)
            state = players[1].settled(beyond=last, people=[0, 1])
            mover = players[state["state"]["actor"]]
            legal = mover.settled(beyond=state["version"] - 1)["state"]["legal"]
            mover.send_act(legal[0], state["version"], "same")
            assert mover.reply()["code"] == "duplicate"  # the same seat's id again


def test_lobby_refuses_bad_numbers_names_and_big_bodies(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        base = '{"preset": "classic", "options": {"players": 2}, "turn_seconds": %s}'
        for number in ["NaN", "Infinity", "-Infinity", "1e400", '"60"', "true", "-1", "1e9"]:
            response = client.post(
                "/api/tables", content=base % number, headers={"content-type": "application/json"}
            )
            assert response.status_code == 422, (number, response.text)
        response = client.post(
            "/api/tables",
            content='{"preset": "classic", "options": {"players": NaN}}',
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 422
        response = client.post(
            "/api/tables", json={"preset": "classic", "options": {"players": True}}
        )
        assert response.status_code == 400, response.text
        huge = {"preset": "classic", "title": "x" * (MAX_BODY + 1)}
        assert client.post("/api/tables", json=huge).status_code == 413
        table, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        for name in ["", "Ann\nBob", "tab\there", "\u200b" * 3, "x" * 31, 7, None]:
            response = client.post(f"/api/tables/{table}/join", json={"name": name})
            assert response.status_code == 422, (name, response.text)
            assert response.json()["detail"].startswith("name: "), response.text
        blank = client.post(f"/api/tables/{table}/join", json={"name": "   "})
        assert blank.status_code == 409 and "a name is needed" in blank.json()["detail"]
        response = client.post(f"/api/tables/{table}/join", json={"name": "  Ann Lee  "})
        assert response.status_code == 200
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [s["name"] for s in seats] == ["Ann Lee", ""]
        assert client.get("/api/tables").status_code == 200


def test_flooding_socket_is_closed_and_the_table_plays_on(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=1, message_burst=5, sockets_per_address=3)
    with serving(tmp_path / "t.db", limits=limits) as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as flood:
            for _ in range(20):
                flood.send_json({"type": "ping"})
            assert close_code(flood) == CLOSE_TOO_FAST
        with (
            client.websocket_connect(f"/ws/tables/{table}") as one,
            client.websocket_connect(f"/ws/tables/{table}"),
            client.websocket_connect(f"/ws/tables/{table}"),
            client.websocket_connect(f"/ws/tables/{table}") as fourth,
        ):
            assert close_code(fourth) == CLOSE_TOO_MANY
            ann = Player(one, 0)
            ann.hello(token=token)
            state = ann.settled(people=[0])
            ann.send_act(state["state"]["legal"][0], state["version"])
            assert ann.reply()["type"] == "ack"


def test_more_sockets_do_not_multiply_what_one_address_may_send(tmp_path: Path) -> None:
    """Each socket alone stays far under its own rate, but the address's shared budget (10
    messages here, refilled slowly) ends with the socket that sends the 11th: it is told
    and closed (4008), whichever socket it is (the lobby's count too)."""
    per_socket = Limits(message_burst=100, sockets_per_address=10)
    limits = replace(per_socket, address_message_burst=10, address_messages_per_second=0.01)
    with serving(tmp_path / "t.db", limits=limits) as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        with (
            client.websocket_connect(f"/ws/tables/{table}") as first,
            client.websocket_connect(f"/ws/tables/{table}") as second,
            client.websocket_connect("/ws/lobby") as lobby,
        ):
            assert receive(lobby)["type"] == "tables"
            first.send_json({"type": "hello"})
            assert receive(first)["type"] == "welcome"
            for ws in (first, second, lobby):
                for _ in range(3):
                    ws.send_json({"type": "ping"})
                    assert receive(ws)["type"] in ("pong", "error")  # answered, still open
            second.send_json({"type": "ping"})  # the 11th from this address
            assert receive(second) == {
                "type": "error",
                "code": "rate-limited",
                "message": "too many messages; slow down",
                "version": None,
                "request_id": None,
            }
            assert close_code(second) == CLOSE_TOO_FAST
        assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"  # untouched


def test_tables_per_address_and_lobby_requests_are_limited(tmp_path: Path) -> None:
    """Past either limit, 429; each refusal goes out `refusal_seconds` late, so a client that
    asks again at once is slowed down without a request served for it."""
    limits = Limits(
        tables_per_address=2, requests_per_second=0.01, request_burst=4, refusal_seconds=0.2
    )
    with serving(tmp_path / "t.db", limits=limits) as client:
        body = {"preset": "classic", "options": {"players": 2}}
        assert client.post("/api/tables", json=body).status_code == 201
        assert client.post("/api/tables", json=body).status_code == 201
        third = client.post("/api/tables", json=body)
        assert third.status_code == 429 and "waiting" in third.json()["detail"]
        started = time.monotonic()
        statuses = [client.post("/api/tables", json=body).status_code for _ in range(3)]
        assert statuses == [429, 429, 429]
        assert time.monotonic() - started >= 3 * limits.refusal_seconds  # each one late
        assert len(client.get("/api/tables").json()) == 2


def test_verify_rejects_huge_numbers_and_deep_nesting_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    header = {"format": "horserace-record", "version": 1, "preset": "classic", "config": {}}
    cases = {
        "huge.jsonl": json.dumps({**header, "chance": "seeded"})[:-1]
        + ', "seed": '
        + "9" * 5000
        + "}\n",
        "deep.jsonl": '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
        "binary.jsonl": "\x00\x01\x02",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        result = runner.invoke(cli_app, ["verify", str(path)])
        assert result.exit_code == 2, (name, result.output)
        assert "Traceback" not in result.output
        assert result.output.strip().startswith("error:"), result.output


def test_a_client_that_does_not_read_is_closed_and_never_holds_the_table() -> None:
    """Queuing never waits for a socket: past MAX_BACKLOG unread messages the connection is
    closed (4009) after what it was already sent, and later messages are dropped."""
    connection = Connection()
    for number in range(MAX_BACKLOG + 5):
        connection.send({"type": "pong", "version": number})
    assert connection.closed and connection.close_code == CLOSE_TOO_SLOW
    queued = [connection.queue.get_nowait() for _ in range(connection.queue.qsize())]
    assert len(queued) == MAX_BACKLOG + 1 and queued[-1] is None
    assert queued[-2] == encode({"type": "pong", "version": MAX_BACKLOG - 1})


def test_the_tables_held_in_all_are_bounded(tmp_path: Path) -> None:
    limits = Limits(tables_total=3, tables_per_address=100)
    with serving(tmp_path / "t.db", limits=limits) as client:
        body = {"preset": "classic", "options": {"players": 2}}
        assert [client.post("/api/tables", json=body).status_code for _ in range(3)] == [201] * 3
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 429 and "tables" in refused.json()["detail"]


def test_tables_of_bots_count_against_the_address_and_the_server(tmp_path: Path) -> None:
    """A table of bots alone starts at once, but counts until it is over, as a waiting one
    does: past the address's share, and past the tables the server runs, 429."""
    slow = Limits(tables_per_address=2, steps_per_address=1)  # they stay in play
    bots = {"preset": "classic", "options": {"players": 3}, "seats": ["random"] * 3}
    with serving(tmp_path / "a.db", limits=slow) as client:
        assert client.post("/api/tables", json=bots).status_code == 201
        waiting = {"preset": "classic", "options": {"players": 2}}
        assert client.post("/api/tables", json=waiting).status_code == 201
        refused = client.post("/api/tables", json=bots)
        assert refused.status_code == 429 and "waiting or playing" in refused.json()["detail"]
        statuses = [t["status"] for t in client.get("/api/tables").json()]
        assert sorted(statuses) == ["playing", "waiting"]
    server = replace(slow, tables_per_address=100, tables_running=3)
    with serving(tmp_path / "b.db", limits=server) as client:
        assert [client.post("/api/tables", json=bots).status_code for _ in range(3)] == [201] * 3
        refused = client.post("/api/tables", json=bots)
        assert refused.status_code == 429 and "runs all" in refused.json()["detail"]


def test_tables_of_bots_alone_share_a_budget_of_their_own_with_no_burst(tmp_path: Path) -> None:
    """Nobody plays at a table of bots alone: an address's such tables share a budget apart
    from its tables with people (`bots_alone_steps_per_address`), which starts empty, so a
    flood of them starts at that pace, with no burst: here, at 0.01 a second, one move
    between them and then a wait, while a table with a person's seat from the same address keeps
    the address's own budget, full."""
    limits = Limits(steps_per_address=200, bots_alone_steps_per_address=0.01)
    bots = CreateTable(preset="classic", options={"players": 4}, seats=["random"] * 4)
    people = CreateTable(preset="classic", options={"players": 2}, seats=["open", "random"])

    async def run() -> None:
        hub = Hub(SQLiteStorage(tmp_path / "t.db"), limits=limits)
        try:
            alone, _ = await hub.create(bots, "10.0.0.1")
            seated, _ = await hub.create(people, "10.0.0.1")
            again, _ = await hub.create(bots, "10.0.0.1")
            assert alone.pacer is not None and alone.pacer is again.pacer
            assert seated.pacer is not None and seated.pacer is not alone.pacer
            assert (alone.pacer.rate, seated.pacer.rate) == (0.01, 200)
            assert seated.pacer.wait_seconds() == 0 and seated.pacer.steps == 400
            # the first move is made on nothing saved; then both wait, the budget in debt
            while alone.version + again.version == 0 or alone.pacer.wait_seconds() == 0:
                await asyncio.sleep(0.01)
            assert alone.pacer.wait_seconds() > 60
            assert alone.version + again.version <= 2 * CHANCE_RUN + 2
        finally:
            await hub.close()

    asyncio.run(run())


def test_serve_s_steps_per_address_paces_its_tables_of_bots_alone_too() -> None:
    """`serve --steps-per-address 50` slows every table one address created to 50 steps a
    second: the tables of bots alone, on their budget of their own, at that rate too (they
    kept 200 whatever the option said)."""
    limits = serving_limits(64, 20.0, 200.0, steps_per_address=50.0)
    assert (limits.steps_per_address, limits.bots_alone_steps_per_address) == (50.0, 50.0)
    default = serving_limits(64, 20.0, 200.0)
    assert default.bots_alone_steps_per_address == Limits().bots_alone_steps_per_address


def test_one_address_s_tables_share_its_steps_a_second(tmp_path: Path) -> None:
    """Three bot tables from one address share 20 steps a second (its tables of bots alone's
    budget), while a table from another address plays 50 steps on a budget of its own: in
    2.5 s, where sharing one budget with the three would take 10 s, past the 8 s allowed.
    What the three made meanwhile stays within their one budget (a run of chance's moves,
    at most 64, may overdraw it once per table): a third of what one table alone may make,
    each."""
    limits = Limits(bots_alone_steps_per_address=20, tables_per_address=10)
    bots = CreateTable(preset="classic", options={"players": 4, "rounds": 50}, seats=["random"] * 4)

    async def run() -> tuple[int, float]:
        hub = Hub(SQLiteStorage(tmp_path / "t.db"), limits=limits)
        try:
            flood = [(await hub.create(bots, "10.0.0.1"))[0] for _ in range(3)]
            started = time.monotonic()
            other, _ = await hub.create(bots, "10.0.0.2")
            while other.version < 50:
                assert time.monotonic() - started < 8, "the other address's table stalled"
                await asyncio.sleep(0.01)
            return sum(table.version for table in flood), time.monotonic() - started
        finally:
            await hub.close()

    made, seconds = asyncio.run(run())
    assert made <= 40 + 20 * seconds + 3 * CHANCE_RUN, (made, seconds)
