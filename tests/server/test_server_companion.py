"""Companion mode: the host enters what the real dice and cards showed, and the moves of the
people at the real board; the host may undo the last entry (with the bots' moves after it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.server.support import Message, Player, TestClient, create_table, serving


@contextmanager
def _host(client: TestClient, seats: list[str]) -> Iterator[tuple[str, Player, Message]]:
    table, host, _ = create_table(client, "classic", seats, {"rounds": 1}, companion=True)
    started = client.post(f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {host}"})
    assert started.status_code == 200
    assert [s["kind"] for s in started.json()["seats"]] == [
        "open" if kind == "open" else "bot" for kind in seats
    ]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        player = Player(ws)
        welcome = player.hello(host_token=host)
        assert welcome["host"] and welcome["companion"] and welcome["seat"] is None
        yield table, player, welcome


def _enter(host: Player, text: str, version: int) -> Message:
    host.send_act(text, version)
    reply = host.reply()
    assert reply["type"] == "ack", reply
    return next(  # the update comes just before its acknowledgement
        m for m in host.received if m["type"] == "update" and m["version"] == reply["version"]
    )


def _deal_everything(host: Player, state: Message) -> Message:
    while state["state"]["actor"] == "chance":
        legal = state["state"]["legal"]
        assert legal and all(text.startswith("deal ") for text in legal)
        state = _enter(host, legal[-1], state["version"])
    return state


def test_the_host_enters_chance_and_seat_moves_and_undoes(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client, _host(client, ["open", "open"]) as started:
        table, host, welcome = started
        state = _deal_everything(host, welcome)
        assert state["state"]["actor"] == 1 and state["state"]["legal"] == ["roll"]
        state = _enter(host, "roll", state["version"])
        assert state["state"]["actor"] == "chance" and "3+4" in state["state"]["legal"]
        before_dice = state
        state = _enter(host, "3+4", state["version"])
        assert any("rolls 3+4" in event["text"] for event in state["events"])
        host.send_json({"type": "undo", "version": state["version"] - 1})
        assert host.reply()["code"] == "stale"
        host.send_json({"type": "undo", "version": state["version"]})
        undone = host.until(lambda m: m["type"] == "undone")
        assert undone["version"] == state["version"] + 1
        assert undone["state"] == before_dice["state"]
        state = _enter(host, "5+6", undone["version"])
        assert any("rolls 5+6" in event["text"] for event in state["events"])
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.send_json({"type": "undo", "version": state["version"]})
            assert watcher.reply()["code"] == "not-host"
            watcher.send_act("roll", state["version"])
            assert watcher.reply()["code"] == "not-seated"
        record = client.get(f"/api/tables/{table}").json()
        assert record["version"] == state["version"]


def test_undo_takes_back_the_bots_moves_after_the_last_entry(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client, _host(client, ["open", "random"]) as started:
        _, host, welcome = started
        state = _deal_everything(host, welcome)
        assert state["state"]["actor"] == 1
        state = host.until(lambda m: m["type"] == "update" and m["actor"] == 1)
        assert state["state"]["actor"] == "chance"  # the bot rolled by itself
        assert "2+2" in state["state"]["legal"]
        state = _enter(host, "2+2", state["version"])  # the dice of the bot's roll
        assert state["state"]["actor"] == 0 and state["state"]["legal"] == ["roll"]
        state = _enter(host, "roll", state["version"])
        state = _enter(host, "1+2", state["version"])
        state = host.until(lambda m: m["type"] == "update" and m["actor"] == 1)  # the bot
        assert state["state"]["actor"] == "chance"
        host.send_json({"type": "undo", "version": state["version"]})
        undone = host.until(lambda m: m["type"] == "undone")
        assert undone["state"]["actor"] == "chance"  # the dice of seat 0's roll, to enter again
        assert undone["state"]["view"]["race_rolls"] == 0


def test_a_companion_table_without_entries_has_nothing_to_undo(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client, _host(client, ["open", "open"]) as started:
        _, host, welcome = started
        host.send_json({"type": "undo", "version": welcome["version"]})
        assert host.reply()["code"] == "nothing-to-undo"
