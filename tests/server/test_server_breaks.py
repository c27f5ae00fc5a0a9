"""Races that breathe: at the natural pace the table stops between two races on the results
(the race's end in words, who is still looking, the countdown) until the person here taps
"Next race"; a page that comes back meanwhile is shown them too; at another pace the table
plays straight on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from horserace.drivers.server.seating import PACES
from horserace.families.cards.family import CardsFamily
from tests.server.support import Message, Player, join, serving

SHORT_RACES = {"players": 3, "races": 2, "course_length": 1, "need": 2, "ranks": 4}
QUICK_BEATS = {kind: 0.05 for kind in CardsFamily.race_beats}


def _table(client: Any, pace: str) -> tuple[str, str]:
    response = client.post(
        "/api/tables",
        json={
            "preset": "basic",
            "options": SHORT_RACES,
            "seats": ["open", "random", "random"],
            "pace": pace,
        },
    )
    assert response.status_code == 201, response.text
    table = response.json()["table"]["id"]
    return table, join(client, table, "Ann")[1]


def _turned(message: Message) -> int:
    return sum(1 for event in message.get("events", []) if event["type"] == "card-turned")


def _play_until_break(ann: Player) -> tuple[Message, list[Message]]:
    """Ann says "done" whenever asked, until the table shows the results (or is over)."""
    updates: list[Message] = []
    for _ in range(5_000):
        message = ann.next()
        if message["type"] == "break" or (
            message["type"] == "update" and message["state"]["status"] == "over"
        ):
            return message, updates
        if message["type"] == "update":
            updates.append(message)
        if message["type"] not in ("welcome", "update"):
            continue
        legal = message["state"]["legal"] if message["state"]["actor"] == 0 else []
        if legal:
            ann.send_act("done" if "done" in legal else legal[0], message["version"])
    raise AssertionError("no break")


@contextmanager
def _ann_at(client: Any, pace: str) -> Iterator[tuple[Player, str]]:
    """Ann greeted at a new short card race of `pace` (two bots beside her); the table id."""
    table, token = _table(client, pace)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ann = Player(ws, 0)
        ann.hello(token=token)
        yield ann, table


def test_the_results_wait_for_the_person_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each card still stops the run and is watched, and each bot still pauses before it
    # moves, for 0.05 s instead of the natural pace's 0.7 s and 0.8 s
    monkeypatch.setattr(CardsFamily, "race_beats", MappingProxyType(QUICK_BEATS))
    monkeypatch.setitem(PACES, "natural", 0.05)
    with serving(tmp_path / "t.db") as client, _ann_at(client, "natural") as (ann, table):
        shown, updates = _play_until_break(ann)
        assert shown["type"] == "break", shown
        results = shown["race_break"]
        assert results["race"] == 1 and results["waiting"] == [0]
        assert 25 <= results["seconds"] <= 30
        assert any(
            "wins" in line or "pays" in line or "collect" in line for line in results["lines"]
        ), results
        assert sum(_turned(update) for update in updates) >= 2  # the race was run
        at = shown["version"]
        # a reconnecting page is shown the same results
        with client.websocket_connect(f"/ws/tables/{table}") as again:
            welcome = Player(again).hello()
        assert welcome["version"] == at and welcome["state"]["race_break"]["race"] == 1
        ann.send_json({"type": "next-race"})
        ended = ann.until(lambda m: m["type"] == "break")
        assert ended["race_break"] is None and ended["version"] == at  # nothing moved
        ann.until(lambda m: m["type"] == "update" and m["version"] > at)  # then play goes on


def test_a_quick_table_plays_straight_on(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client, _ann_at(client, "instant") as (ann, _):
        last, updates = _play_until_break(ann)
        assert last["type"] == "update" and last["state"]["status"] == "over"
        assert not any(m["type"] == "break" for m in ann.received)
        assert last["state"]["view"]["race"] == 2  # both races were run, no stop between
        # each race run since Ann's welcome came card by card (on a busy machine her hello
        # can come after the first race was run, its turns then in the welcome's state)
        seen = 2 - ann.received[0]["state"]["view"]["race"] + 1
        assert ann.received[0]["type"] == "welcome"
        assert sum(_turned(update) for update in updates) >= seen >= 1
