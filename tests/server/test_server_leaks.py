"""Whole games with hidden hands, people and bots together, and every message each connection
received scanned: no other seat's cards, no seed before the end, no token anywhere.

Each message is also compared with what the engine allows that seat at that version, rebuilt
independently from the record the server publishes at the end.
"""

from __future__ import annotations

import inspect
import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from horserace.core.events import Event, PublicEvent
from horserace.core.record import parse_record
from horserace.core.types import CHANCE
from horserace.drivers.server.jsonable import to_jsonable
from horserace.drivers.server.messages import events_for
from horserace.drivers.server.tokens import hash_token
from horserace.engine import Step, replay
from horserace.families import family
from horserace.families.board.rules import events as board_events
from horserace.families.board.rules import house_events
from horserace.families.presets import get_preset
from tests.server.support import Message, Player, create_table, join, serving

SEED = 987_654_321_123
PRIVATE_KINDS = {
    cls.kind
    for module in (board_events, house_events)
    for _, cls in inspect.getmembers(module, inspect.isclass)
    if issubclass(cls, Event) and not issubclass(cls, PublicEvent) and cls.kind != "event"
}
# the last open seat of each is left for the host's start to fill with a bot
CASES = [
    ("advanced", {"rounds": 2}, ["open", "open", "ev", "open", "heuristic", "open"]),
    ("classic", {"rounds": 2, "open_hands": False}, ["open", "random", "open", "open", "open"]),
]


def test_the_private_event_kinds_are_known() -> None:
    assert {"card-dealt", "card-kept"} <= PRIVATE_KINDS


def _check_structure(message: Message, seat: int | None, hidden: bool) -> None:
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


@pytest.mark.parametrize(("preset", "options", "seats"), CASES)
def test_no_message_leaks_cards_seed_or_tokens(
    tmp_path: Path, preset: str, options: dict[str, Any], seats: list[str]
) -> None:
    rng = random.Random(5)
    with serving(tmp_path / "t.db", seed=SEED) as client:
        table, host, summary = create_table(client, preset, seats, options)
        hidden = not summary["config"]["open_hands"]
        people: list[Player] = []
        secrets = [host, hash_token(host)]
        with ExitStack() as sockets:
            watcher = Player(sockets.enter_context(client.websocket_connect(f"/ws/tables/{table}")))
            watcher.hello()
            for _ in range(seats.count("open") - 1):
                seat, token = join(client, table, f"N{len(people)}")
                secrets += [token, hash_token(token)]
                socket = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
                person = Player(socket, seat)
                people.append(person)
                assert person.hello(token=token)["seat"] == seat
            started = client.post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {host}"}
            )
            assert started.status_code == 200
            everyone = [watcher, *people]
            version, over = 0, False
            while not over:
                version += 1
                for player in everyone:
                    update = player.until(lambda m: m["type"] == "update")
                    assert update["version"] == version
                    over = update["state"]["status"] == "over"
                if version == 50:
                    lobby = client.get("/api/tables").text
                    assert str(SEED) not in lobby
                    assert not any(secret in lobby for secret in secrets)
                for player in people:
                    assert player.latest is not None
                    legal = player.latest["state"]["legal"]
                    if legal:
                        player.send_act(rng.choice(legal), version)
            for index, player in enumerate(people):  # a late reconnect that missed everything
                with client.websocket_connect(f"/ws/tables/{table}") as ws_again:
                    again = Player(ws_again, player.seat)
                    again.hello(token=secrets[2 + 2 * index], since=0)
                    player.received += again.received
        record = client.get(f"/api/tables/{table}/record").text
        final = client.get(f"/api/tables/{table}").json()
    names = [row["name"] for row in final["seats"]]
    _check_all(everyone, record, hidden, secrets, names)


def _check_all(
    everyone: list[Player], record_text: str, hidden: bool, secrets: list[str], names: list[str]
) -> None:
    record = parse_record(record_text)
    assert record.seed == SEED
    steps: list[Step] = []
    report = replay(record, get_preset, observe=steps.append)
    assert report.ok and report.game is not None
    rules = report.game.rules
    assert any(step.actor is not CHANCE for step in steps)
    for player in everyone:
        seat = player.seat
        for message in player.received:
            text = json.dumps(message)
            assert not any(secret in text for secret in secrets), message["type"]
            over = message.get("state", {}).get("status") == "over"
            assert over or str(SEED) not in text, f"the seed leaked in a {message['type']}"
            _check_structure(message, seat, hidden)
            if message["type"] == "update":
                step = steps[message["version"] - 1]
                assert message["state"]["view"] == to_jsonable(rules.view(step.after, seat))
                expected = events_for(step.events, seat, names)
                assert message["events"] == expected
                # the log's lines are the family's news for this seat, as a terminal prints them
                assert message["news"] == family(rules.family).news(step, names, seat)
                legal = rules.legal_actions(step.after, seat) if seat is not None else []
                wanted = [a.text for a in legal] if rules.actor(step.after) == seat else []
                assert message["state"]["legal"] == wanted
            for missed in message.get("missed", []):
                step = steps[missed["version"] - 1]
                assert missed["events"] == events_for(step.events, seat, names)
                assert missed["news"] == family(rules.family).news(step, names, seat)
        if seat is not None:
            assert any(m["type"] == "ack" for m in player.received)
            assert any(m.get("missed") for m in player.received)
