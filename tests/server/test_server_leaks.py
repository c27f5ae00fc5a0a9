"""Whole games with hidden hands, people and bots together, and every message each connection
received scanned: no other seat's cards, no seed before the end, no token anywhere.

Each message is also compared with what the engine allows that seat at that version, rebuilt
independently from the record the server publishes at the end.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from horserace.drivers.server.tokens import hash_token
from tests.server.hidden import PRIVATE_KINDS, check_frames, next_update, replayed
from tests.server.support import Player, create_table, join, serving, start

SEED = 987_654_321_123
# the last open seat of each is left for the host's start to fill with a bot
CASES = [
    ("advanced", {"rounds": 2}, ["open", "open", "ev", "open", "heuristic", "open"]),
    ("classic", {"rounds": 2, "open_hands": False}, ["open", "random", "open", "open", "open"]),
]


def test_the_private_event_kinds_are_known() -> None:
    assert {"card-dealt", "card-kept"} <= PRIVATE_KINDS


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
            start(client, table, host)
            everyone = [watcher, *people]
            version, over = 0, False
            while not over:
                version += 1
                over = next_update(everyone, version)["state"]["status"] == "over"
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
    replayed(record_text, SEED)
    for player in everyone:
        for message in player.received:
            text = json.dumps(message)
            assert not any(secret in text for secret in secrets), message["type"]
            over = message.get("state", {}).get("status") == "over"
            assert over or str(SEED) not in text, f"the seed leaked in a {message['type']}"
        if player.seat is not None:
            assert any(m["type"] == "ack" for m in player.received)
            assert any(m.get("missed") for m in player.received)
    check_frames(everyone, record_text, hidden, names)
