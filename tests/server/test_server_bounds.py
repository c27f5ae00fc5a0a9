"""Every documented bound of every field, both sides: the last value inside is taken (or
refused only for another reason), the first outside is refused with the documented answer.
The lobby's own fields come from `/api/presets` (what the form offers), so a preset added
later is walked too."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from horserace.drivers.server.limits import MAX_BODY, Limits
from horserace.drivers.server.protocol import MAX_VERSION
from horserace.drivers.server.table_socket import MAX_MESSAGE
from tests.server.support import Player, TestClient, create_table, join, serving

ROOMY = Limits(
    tables_per_address=100_000,
    tables_total=100_000,
    requests_per_second=100_000,
    request_burst=100_000,
    message_burst=1_000,
    address_message_burst=1_000,
)
JSON = {"content-type": "application/json"}


def _json(**fields: Any) -> str:
    return json.dumps(fields)


def _sides(low: Any, high: Any, below: Any, above: Any) -> list[tuple[Any, bool]]:
    return [(below, False), (low, True), (high, True), (above, False)]


def test_every_preset_field_is_held_to_the_bounds_the_lobby_form_shows(tmp_path: Path) -> None:
    """players, rounds (or races) and the starting money of every preset: min and max make
    a table, one past either side is refused (400) with the field's bounds in words."""
    with serving(tmp_path / "t.db", limits=ROOMY) as client:
        presets = client.get("/api/presets").json()
        assert len(presets) >= 5
        walked = 0
        for preset in presets:
            for field in preset["fields"].values():
                low, high = field["min"], field["max"]
                for value, inside in _sides(low, high, low - 1, high + 1):
                    body = {"preset": preset["name"], "options": {field["key"]: value}}
                    answer = client.post("/api/tables", json=body)
                    expected = 201 if inside else 400
                    where = (preset["name"], field["key"], value, answer.text)
                    assert answer.status_code == expected, where
                    if not inside:
                        assert field["key"] in answer.json()["detail"], answer.text
                    walked += 1
        assert walked >= 4 * 2 * len(presets)


def _create(client: TestClient, **fields: Any) -> int:
    body = {"preset": "classic", "options": {"players": 2}, **fields}
    return int(client.post("/api/tables", json=body).status_code)


def test_every_lobby_field_is_held_to_its_bounds(tmp_path: Path) -> None:
    """Names, titles, the turn timer, table options, the lobby's page size, the join's seat
    and commitment, the preset's name, the seat list: the bound itself passes validation (a
    value the table then refuses for its own reason gets 400 or 409, never 422), one past it
    is 422."""
    with serving(tmp_path / "t.db", limits=ROOMY) as client:
        table, _, _ = create_table(client, "classic", ["open"] * 4, {"rounds": 1})

        def join_with(**fields: Any) -> int:
            body = {"name": "Ann", **fields}
            return int(client.post(f"/api/tables/{table}/join", json=body).status_code)

        sha = hashlib.sha256(b"x").hexdigest()
        checks: dict[str, tuple[Callable[[Any], int], list[tuple[Any, bool]]]] = {
            "name": (lambda v: join_with(name=v), _sides("A", "B" * 30, "", "C" * 31)),
            "title": (lambda v: _create(client, title=v), _sides("", "t" * 80, None, "t" * 81)),
            "turn_seconds": (
                lambda v: _create(client, turn_seconds=v),
                _sides(0, 86_400, -0.001, 86_400.001),
            ),
            "option number": (
                lambda v: _create(client, options={"players": 2, "ante": v}),
                _sides(-(10**9), 10**9, -(10**9) - 1, 10**9 + 1),
            ),
            "option text": (
                lambda v: _create(client, options={"players": 2, "name": v}),
                _sides("", "x" * 200, None, "x" * 201),
            ),
            "option list": (
                lambda v: _create(client, options={"players": 2, "list": [0] * v}),
                _sides(0, 64, None, 65),
            ),
            "options": (
                lambda v: _create(client, options={f"o{n}": 1 for n in range(v)}),
                _sides(0, 64, None, 65),
            ),
            "preset": (lambda v: _create(client, preset=v), _sides("p", "p" * 40, "", "p" * 41)),
            "seats": (lambda v: _create(client, seats=["open"] * v), _sides(0, 20, None, 21)),
            "limit": (
                lambda v: client.get("/api/tables", params={"limit": v}).status_code,
                _sides(1, 200, 0, 201),
            ),
            "seat": (lambda v: join_with(seat=v), _sides(0, 1_000, -1, 1_001)),
            "commitment": (
                lambda v: join_with(commitment=v),
                _sides(sha, sha, sha[:-1], sha + "0"),
            ),
        }
        for name, (ask, sides) in checks.items():
            for value, inside in sides:
                if value is None:
                    continue  # no bound on that side
                status = ask(value)
                if inside:
                    assert status in (200, 201, 400, 409), (name, value, status)
                else:
                    assert status == 422, (name, value, status)


def test_bodies_over_the_limit_are_413_with_or_without_a_length(tmp_path: Path) -> None:
    """A body of exactly MAX_BODY bytes is read; one byte more is 413, whether its length
    was given (refused before reading) or not (chunked: refused as the bytes pass it)."""
    with serving(tmp_path / "t.db", limits=ROOMY) as client:
        start = b'{"preset": "classic", "options": {"players": 2}}'

        def body(size: int) -> bytes:
            return start + b" " * (size - len(start))

        def chunks(size: int) -> Any:
            data = body(size)
            for at in range(0, size, 4096):
                yield data[at : at + 4096]

        for size, expected in ((MAX_BODY, 201), (MAX_BODY + 1, 413)):
            sized = client.post("/api/tables", content=body(size), headers=JSON)
            assert sized.status_code == expected, sized.text
            chunked = client.post("/api/tables", content=chunks(size), headers=JSON)
            assert "content-length" not in chunked.request.headers
            assert chunked.status_code == expected, chunked.text
            if expected == 413:
                assert chunked.json() == {"detail": f"request body over {MAX_BODY} bytes"}


def test_every_socket_message_field_is_held_to_its_bounds(tmp_path: Path) -> None:
    """A message's length, an action's text, a request id, chat lines, a revealed seed,
    versions: the bound itself is read (and answered for its own reason), one past it is
    `bad-message`, and the socket stays open."""
    with serving(tmp_path / "t.db", limits=ROOMY) as client:
        table, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            assert ann.hello(token=token)["type"] == "welcome"
            answers = ("error", "pong", "chat", "welcome")

            def answer(message: str) -> dict[str, Any]:
                ws.send_text(message)
                return ann.until(lambda m: m["type"] in answers)

            ping = '{"type": "ping"}'
            long_ping = ping + " " * (MAX_MESSAGE - len(ping))
            assert answer(long_ping)["type"] == "pong"
            assert answer(long_ping + " ")["message"] == "message too long"

            def act(action: str = "roll", request_id: str = "r", version: int = 0) -> str:
                return _json(type="act", action=action, version=version, request_id=request_id)

            inside = [
                act(action="x" * 200),
                act(request_id="r" * 64),
                act(version=MAX_VERSION),
                _json(type="sync", since=MAX_VERSION),
                _json(type="reveal", seed="s" * 64),
                _json(type="chat", text="c"),
                _json(type="chat", text="c" * 200),
            ]
            for message in inside:
                reply = answer(message)
                assert reply.get("code") != "bad-message", (message[:80], reply)
            outside = [
                act(action=""),
                act(action="x" * 201),
                act(request_id=""),
                act(request_id="r" * 65),
                act(version=-1),
                act(version=MAX_VERSION + 1),
                _json(type="sync", since=-1),
                _json(type="sync", since=MAX_VERSION + 1),
                _json(type="reveal", seed=""),
                _json(type="reveal", seed="s" * 65),
                _json(type="chat", text=""),
                _json(type="chat", text="c" * 201),
                _json(type="commit", commitment="a" * 63),
                _json(type="commit", commitment="a" * 65),
            ]
            for message in outside:
                assert answer(message)["code"] == "bad-message", message[:80]
            assert ann.ping() == 0  # still open, nothing changed
