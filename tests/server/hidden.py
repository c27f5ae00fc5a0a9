"""What every frame a connection receives may hold of the hidden cards: its own seat's, and
nobody else's. Shared by the leak tests: each frame is checked on its own (only one's own
cards in its events and view) and against the engine (the view, events and log lines the
rules give that seat at that version, rebuilt from the record the server publishes)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

from horserace.core.events import Event, PublicEvent
from horserace.core.record import parse_record
from horserace.core.types import CHANCE
from horserace.drivers.server.jsonable import to_jsonable
from horserace.drivers.server.messages import events_for
from horserace.engine import Step, replay
from horserace.families import family
from horserace.families.board.rules import events as board_events
from horserace.families.board.rules import house_events
from horserace.families.presets import get_preset
from tests.server.support import Message, Player

PRIVATE_KINDS = {
    cls.kind
    for module in (board_events, house_events)
    for _, cls in inspect.getmembers(module, inspect.isclass)
    if issubclass(cls, Event) and not issubclass(cls, PublicEvent) and cls.kind != "event"
}


def check_structure(message: Message, seat: int | None, hidden: bool) -> None:
    """What must hold whatever the server's code says: only one's own cards."""
    events: list[Any] = list(message.get("events", []))
    for missed in message.get("missed", []):
        events += missed["events"]
    for event in events:
        if event["type"] in PRIVATE_KINDS:
            assert event.get("seat") == seat, f"seat {seat} saw {event}"
    state = message.get("state")
    if state is None or not hidden:
        return
    view = state["view"]
    assert view["seat"] == seat
    for owner, hand in enumerate(view["hands"]):
        if owner != seat:
            assert hand is None, f"seat {seat} saw seat {owner}'s hand"
    if seat is None:
        assert view["packet"] is None


def next_update(everyone: Sequence[Player], version: int) -> Message:
    """The update of `version` as every socket reads it (each reads every update in order);
    the last socket's."""
    update: Message = {}
    for player in everyone:
        update = player.until(lambda m: m["type"] == "update")
        assert update["version"] == version
    return update


def replayed(record_text: str, seed: int | None = None) -> tuple[Any, list[Step]]:
    """The rules and every step of a published record, replayed through the engine."""
    record = parse_record(record_text)
    assert seed is None or record.seed == seed
    steps: list[Step] = []
    report = replay(record, get_preset, observe=steps.append)
    assert report.ok and report.game is not None
    assert any(step.actor is not CHANCE for step in steps)
    return report.game.rules, steps


def check_frames(
    everyone: Sequence[Player], record_text: str, hidden: bool, names: list[str]
) -> None:
    """Every frame of every connection: only its own cards, and exactly what the engine
    gives its seat at that version (view, events, log lines, legal actions)."""
    rules, steps = replayed(record_text)
    news = family(rules.family).news
    for player in everyone:
        seat = player.seat
        for message in player.received:
            check_structure(message, seat, hidden)
            if message["type"] == "update":
                step = steps[message["version"] - 1]
                assert message["state"]["view"] == to_jsonable(rules.view(step.after, seat))
                assert message["events"] == events_for(step.events, seat, names)
                assert message["news"] == news(step, names, seat), json.dumps(message)[:300]
                legal = rules.legal_actions(step.after, seat) if seat is not None else []
                wanted = [a.text for a in legal] if rules.actor(step.after) == seat else []
                assert message["state"]["legal"] == wanted
            for missed in message.get("missed", []):
                step = steps[missed["version"] - 1]
                assert missed["events"] == events_for(step.events, seat, names)
                assert missed["news"] == news(step, names, seat)
