"""Hundreds of random and mutated messages against a live server, one table per family: every
message is answered (exactly one ack, error, welcome or pong), no socket is dropped, every
table can still be played to its end afterwards, and chips are conserved at every step of the
record the server kept."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from horserace.core.record import parse_record
from horserace.drivers.server.limits import Limits
from horserace.engine import Step, replay
from horserace.families.presets import get_preset
from tests.server.support import Player, WebSocketTestSession, create_table, join, receive, serving

# every kind of reply (ack, welcome, pong and each error code) came by the 77th message of each
# table, and every kind of lobby refusal (each status, and each field's check) by the 575th
# request, of the 1,000 each once sent
MESSAGES = 300  # per table
LOBBY_REQUESTS = 600
REPLIES = ("ack", "error", "welcome", "pong", "committed", "revealed")
ODD_TEXT = ["²", "٣", "\u0000", "\n", "🐎", "\u202e", " ", "-1", "1e999", "NaN", "{}", "null"]
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    2**53 + 1,
    10**400,
    "1",
    "",
    "x" * 300,
    [],
    {},
    [1, [2]],
    {"type": "ping"},
    float("inf"),
]
FAMILIES = [  # Classic and Derby in one round or race, played to its end after the messages
    ("classic", ["open", "random"], {"rounds": 1}),
    ("derby", ["open", "random"], {"races": 1}),
    ("basic", ["open", "random", "random"], {}),  # its 4 races: in 1, no move of the seat acked
]


def _mutate(message: dict[str, Any], rng: random.Random) -> str | bytes:
    """A message one or two edits away from a good one, as text (or a binary frame)."""
    changed = dict(message)
    for _ in range(rng.randint(1, 2)):
        key = rng.choice([*changed, "type", "extra", "since", "token"])
        how = rng.randrange(6)
        if how == 0:
            changed.pop(key, None)
        elif how == 1:
            changed[key] = rng.choice(ODD_VALUES)
        elif how == 2 and isinstance(changed.get(key), str):
            text = str(changed[key])
            at = rng.randint(0, len(text))
            changed[key] = text[:at] + rng.choice(ODD_TEXT) + text[at:]
        elif how == 3:
            kinds = ["act", "hello", "sync", "undo", "ping", "commit", "reveal", "ACT", "", "x"]
            changed["type"] = rng.choice(kinds)
        elif how == 4:
            changed[key] = rng.randint(-(2**70), 2**70)
        else:
            changed[key] = {"nested": [changed.get(key)] * 3}
    try:
        text = json.dumps(changed)
    except (TypeError, ValueError):
        text = json.dumps({k: str(v) for k, v in changed.items()})
    if rng.random() < 0.1:
        return text[: rng.randrange(len(text))]  # cut short
    if rng.random() < 0.05:
        return text.encode()
    return text


def _garbage(rng: random.Random) -> str | bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        return "[" * rng.randrange(1, 5000) + "]" * rng.randrange(0, 5000)
    if kind == 2:
        return "".join(rng.choice(ODD_TEXT) for _ in range(rng.randrange(1, 20)))
    if kind == 3:
        return '{"type":"sync","since":' + "9" * rng.randrange(1, 6000) + "}"
    return json.dumps(rng.choice(ODD_VALUES[:-1]))


def _ledger_totals(record_text: str) -> set[int]:
    record = parse_record(record_text)
    rules = get_preset(record.preset).rules
    totals: set[int] = set()

    def observe(step: Step) -> None:
        totals.add(rules.ledger(step.before).total)
        totals.add(rules.ledger(step.after).total)

    report = replay(record, get_preset, observe=observe)
    assert report.ok, report.problems
    return totals


def _player(ws: WebSocketTestSession, seat: int | None) -> Player:
    """A player whose every receive has a 10 s deadline: an unanswered message fails fast."""
    return Player(None, seat, recv_json=lambda: receive(ws, 10), send_json=ws.send_json)


@pytest.mark.usefixtures("quick_derby_odds")  # the table, not its odds
@pytest.mark.parametrize(("preset", "seats", "options"), FAMILIES)
def test_random_and_mutated_messages_are_all_answered_and_change_nothing_wrong(
    tmp_path: Path, preset: str, seats: list[str], options: dict[str, Any]
) -> None:
    rng = random.Random(f"fuzz-{preset}")
    limits = Limits(
        messages_per_second=1e6,
        message_burst=1e6,
        address_messages_per_second=1e6,
        address_message_burst=1e6,
    )
    with serving(tmp_path / "t.db", limits=limits) as client:
        table, _, _ = create_table(client, preset, seats, options)
        _, token = join(client, table, "Ann")
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws_seat,
            client.websocket_connect(f"/ws/tables/{table}") as ws_watch,
        ):
            sockets = {0: ws_seat, None: ws_watch}
            players = {seat: _player(ws, seat) for seat, ws in sockets.items()}
            players[0].hello(token=token)
            players[None].hello()
            answered = 0
            seen: set[str] = set()
            for number in range(MESSAGES):
                seat = 0 if rng.random() < 0.8 else None
                player, ws = players[seat], sockets[seat]
                latest = player.latest
                assert latest is not None
                state = latest["state"]
                good: dict[str, Any]
                if state["legal"] and state["actor"] == seat:
                    action = rng.choice(state["legal"])
                    good = {
                        "type": "act",
                        "action": action,
                        "version": latest["version"],
                        "request_id": f"f{number}",
                    }
                else:
                    good = rng.choice(
                        [
                            {"type": "sync", "since": latest["version"]},
                            {"type": "ping"},
                            {"type": "undo", "version": latest["version"]},
                            {"type": "commit", "commitment": "ab" * 32},  # refused: in play
                            {"type": "reveal", "seed": f"seed {number}"},  # refused: none made
                        ]
                    )
                roll = rng.random()
                frame: str | bytes = (
                    json.dumps(good)
                    if roll < 0.35
                    else (_mutate(good, rng) if roll < 0.85 else _garbage(rng))
                )
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
                reply = player.until(lambda m: m["type"] in REPLIES)
                seen.add(reply["code"] if reply["type"] == "error" else reply["type"])
                answered += 1
            assert answered == MESSAGES
            assert {"ack", "welcome", "pong", "bad-message"} < seen, seen  # and a refusal
            # the table still plays: the seat makes legal moves until the game ends
            ann = players[0]
            for _ in range(5_000):
                latest = ann.latest
                assert latest is not None
                if latest["state"]["status"] == "over":
                    break
                if latest["state"]["actor"] == 0 and latest["state"]["legal"]:
                    ann.send_act(latest["state"]["legal"][0], latest["version"])
                    assert ann.reply()["type"] in ("ack", "error")
                else:
                    ann.state()
            assert ann.latest is not None and ann.latest["state"]["status"] == "over"
        record = client.get(f"/api/tables/{table}/record").text
    assert len(_ledger_totals(record)) == 1  # the same chips in play at every step


def _body(rng: random.Random) -> str | bytes:
    good: dict[str, Any] = rng.choice(
        [
            {"preset": "classic", "options": {"players": 2, "rounds": 1}, "seats": ["open", "ev"]},
            {"preset": "derby", "seats": ["open", "random"], "turn_seconds": 30},
            {"name": "Ann", "seat": 0, "commitment": "0f" * 32},
            {"name": "Bob"},
        ]
    )
    roll = rng.random()
    if roll < 0.2:
        return json.dumps(good)
    return _mutate(good, rng) if roll < 0.85 else _garbage(rng)


def test_random_and_mutated_lobby_requests_get_4xx_never_5xx(tmp_path: Path) -> None:
    rng = random.Random("fuzz-lobby")
    limits = Limits(requests_per_second=1e6, request_burst=1e6, tables_per_address=10_000)
    with serving(tmp_path / "t.db", limits=limits) as client:
        table, host, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        paths = [
            "/api/tables",
            f"/api/tables/{table}/join",
            f"/api/tables/{table}/leave",
            f"/api/tables/{table}/start",
            "/api/tables/nope/join",
        ]
        headers = [{}, {"Authorization": f"Bearer {host}"}, {"Authorization": "Bearer x"}]
        statuses: set[int] = set()
        for _ in range(LOBBY_REQUESTS):
            body = _body(rng)
            response = client.post(
                rng.choice(paths),
                content=body,
                headers={"content-type": "application/json", **rng.choice(headers)},
            )
            assert response.status_code < 500, (body, response.text)
            if response.status_code >= 400:  # a typed refusal: one sentence saying why
                assert isinstance(response.json()["detail"], str), response.text
            statuses.add(response.status_code)
        for query in ["?status=x", "?limit=0", "?limit=abc", "?before=%00", "?preset=" + "x" * 99]:
            assert client.get("/api/tables" + query).status_code in (400, 422)
        assert {200, 201, 400, 422} <= statuses, statuses
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["status"] in ("waiting", "playing", "over")
        assert client.get("/healthz").json()["status"] == "ok"
