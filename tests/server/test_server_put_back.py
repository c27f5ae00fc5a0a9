"""A move that cannot be stored is put back as it was, the dice included: nobody is told of
it, the version stays, and the table tries again by itself, with the very dice and bot moves
it would have had (checked against a twin table of the same seed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from horserace.drivers.server import table_driver
from horserace.drivers.server.storage import Storage
from tests.server.support import Player, TestClient, create_table, game_of, join, serving


class Failing:
    """The storage, but from the tenth write of chance's steps at `table` (mid-game, with
    everyone connected and waiting) two writes fail: the group writer's batch, then the
    table's steps alone, so the table hears of it."""

    def __init__(self, storage: Storage, table: str) -> None:
        self.table, self.chance_writes, self.failed = table, 0, 0
        self.original = storage.append_steps

    def __call__(self, rows: Any) -> None:
        if any(t == self.table and r.actor == "chance" for t, r, _ in rows):
            self.chance_writes += 1
            if self.chance_writes >= 10 and self.failed < 2:
                self.failed += 1
                raise OSError("disk full")
        self.original(rows)


def _play(client: TestClient, table: str, token: str) -> str:
    """Ann's first legal move at each of her turns to the end: the game as published."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ann = Player(ws, 0)
        ann.hello(token=token)
        over = ann.play_to_the_end()
        versions = [m["version"] for m in ann.received if m["type"] == "update"]
        assert versions == list(range(versions[0], over["version"] + 1))  # none told twice
    return game_of(client.get(f"/api/tables/{table}/record").text)


def test_a_chance_step_that_cannot_be_stored_is_put_back_and_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the table still waits before it tries again: 0.05 s here, not the server's second
    monkeypatch.setattr(table_driver, "RETRY_SECONDS", 0.05)
    monkeypatch.setattr(table_driver.TableDriver, "_retry_seconds", 0.05)
    with serving(tmp_path / "t.db") as client:
        tables = [create_table(client, "classic", ["open", "random"], {"rounds": 1})[0]]
        tables.append(create_table(client, "classic", ["open", "random"], {"rounds": 1})[0])
        twin = _play(client, tables[0], join(client, tables[0], "Ann")[1])
        hub = client.app.state.hub  # type: ignore[attr-defined]
        failing = Failing(hub.writer.storage, tables[1])
        hub.writer.storage.append_steps = failing
        broken = _play(client, tables[1], join(client, tables[1], "Ann")[1])
        assert failing.failed == 2
        assert broken == twin


def test_a_persons_move_that_cannot_be_stored_is_answered_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """A typed error (`unavailable`), the table where it was, and the same move (the same
    request id) taken when sent again."""
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        _, token = join(client, table, "Ann")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        original = hub.writer.storage.append_steps
        failures = []

        def failing(rows: Any) -> None:
            if any(t == table and r.request_id is not None for t, r, _ in rows):
                failures.append(len(rows))
                if len(failures) <= 2:  # the batch, then the move alone
                    raise OSError("disk full")
            original(rows)

        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            before = ann.settled(people=[0])
            hub.writer.storage.append_steps = failing
            ann.send_act(before["state"]["legal"][0], before["version"], "r-1")
            refused = ann.reply()
            assert (refused["code"], refused["version"]) == ("unavailable", before["version"])
            assert ann.ping() == before["version"]
            ws.send_json({"type": "sync", "since": before["version"]})  # the same table
            shown = ann.until(lambda m: m["type"] == "welcome")
            assert shown["state"] == before["state"] and shown["missed"] == []
            ann.send_act(before["state"]["legal"][0], before["version"], "r-1")
            assert ann.reply()["type"] == "ack"
        assert len(failures) == 3
