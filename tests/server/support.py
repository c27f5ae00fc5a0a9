"""What the server tests share: an app on a temporary database, lobby calls, and WebSocket
players whose every receive has a deadline (a broken server fails a test, never hangs it)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from pydantic import BaseModel

with warnings.catch_warnings():  # starlette's notice about httpx's successor, not ours to fix
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession

from horserace.drivers.server import protocol
from horserace.drivers.server.app import create_app
from horserace.drivers.server.limits import Limits
from tests.server.serve_process import METRICS_TOKEN

__all__ = [
    "METRICS_TOKEN",
    "UNHELD",
    "Message",
    "Player",
    "TestClient",
    "WebSocketTestSession",
    "close_code",
    "create_table",
    "game_of",
    "join",
    "metrics_text",
    "player_and_watcher",
    "receive",
    "serving",
    "start",
]

SHAPES: dict[str, type[BaseModel]] = {
    "welcome": protocol.Welcome,
    "update": protocol.Update,
    "seats": protocol.Seats,
    "undone": protocol.Undone,
    "ack": protocol.Ack,
    "error": protocol.ErrorReply,
    "committed": protocol.Committed,
    "revealed": protocol.Revealed,
    "pong": protocol.Pong,
}
RECEIVE_SECONDS = 30.0
# The server holds the tables of bots alone one address made to 200 steps a second, and every
# request of a TestClient comes from one address: a game of bots took seconds of waiting for
# that budget in each test that plays one. The tests not about it play theirs unheld
# (test_server_limits keeps the budget and checks it).
UNHELD = Limits(bots_alone_steps_per_address=1_000_000.0)
STATE_TYPES = ("welcome", "update", "undone")
Message = dict[str, Any]


@contextmanager
def serving(
    database: Path, *, seed: int = 20240601, bot_delay: float = 0.0, limits: Limits | None = None
) -> Iterator[TestClient]:
    """The app on `database` with every new table's seed fixed (tables made in one test
    share it); `limits` are the server's defaults, tables of bots alone unheld (UNHELD),
    unless a test lowers or raises them."""
    app = create_app(
        f"sqlite:///{database}",
        bot_delay=bot_delay,
        seeds=lambda: seed,
        limits=UNHELD if limits is None else limits,
        metrics_token=METRICS_TOKEN,
    )
    with TestClient(app) as client:
        yield client


def metrics_text(client: TestClient) -> str:
    """/metrics as the operator reads it (with the metrics token)."""
    response = client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert response.status_code == 200, response.text
    return str(response.text)


def create_table(
    client: TestClient,
    preset: str,
    seats: list[str],
    options: dict[str, Any] | None = None,
    *,
    turn_seconds: float = 0.0,
    companion: bool = False,
) -> tuple[str, str, Message]:
    """(table id, host token, the lobby's summary)."""
    body = {
        "preset": preset,
        "options": {"players": len(seats), **(options or {})},
        "seats": seats,
        "turn_seconds": turn_seconds,
        "companion": companion,
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["table"]["id"], data["host_token"], data["table"]


def start(client: TestClient, table_id: str, host_token: str) -> Message:
    """The host starts the table (bots take the seats still open): its lobby line."""
    started = client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host_token}"}
    )
    assert started.status_code == 200, started.text
    return dict(started.json())


def join(client: TestClient, table_id: str, name: str) -> tuple[int, str]:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert response.status_code == 200, response.text
    data = response.json()
    return data["seat"], data["token"]


def game_of(published: str) -> str:
    """The game in a published record, without what names its table and signs it (two
    tables that played the same game give the same text)."""
    apart = ("chain", "signature", "table", "server_key")
    rows = [json.loads(line) for line in published.splitlines()]
    return "".join(
        json.dumps({k: v for k, v in row.items() if k not in apart}) + "\n" for row in rows
    )


def close_code(ws: WebSocketTestSession, seconds: float = RECEIVE_SECONDS) -> int:
    """Read until the server closes the socket; its close code."""

    async def next_message() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    for _ in range(10_000):
        message = ws.portal.call(next_message)
        if message["type"] == "websocket.close":
            return int(message.get("code", 1000))
    raise AssertionError("the socket stayed open")


def receive(ws: WebSocketTestSession, seconds: float = RECEIVE_SECONDS) -> Message:
    """The next message, or a failure after `seconds`."""

    async def next_message() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    if message["type"] == "websocket.close":
        raise AssertionError(f"the server closed the socket ({message.get('code')})")
    return dict(json.loads(message["text"]))


@contextmanager
def player_and_watcher(
    client: TestClient, table: str, seat: int, token: str
) -> Iterator[tuple[Player, Player]]:
    """Two sockets at one table, both greeted: the seat's (with its token) and a watcher's."""
    with (
        client.websocket_connect(f"/ws/tables/{table}") as ws,
        client.websocket_connect(f"/ws/tables/{table}") as watching,
    ):
        player, watcher = Player(ws, seat), Player(watching)
        player.hello(token=token)
        watcher.hello()
        yield player, watcher


class Player:
    """One WebSocket: a seat's (with its token) or a spectator's; keeps all it received.
    `ws` is TestClient's session, or anything with `recv_json` / `send_json` given instead."""

    def __init__(
        self,
        ws: WebSocketTestSession | None,
        seat: int | None = None,
        *,
        recv_json: Callable[[], Message] | None = None,
        send_json: Callable[[Message], None] | None = None,
    ) -> None:
        self.ws = ws
        if ws is not None:
            session = ws
            recv_json = recv_json or (lambda: receive(session))
            send_json = send_json or session.send_json
        assert recv_json is not None and send_json is not None
        self._recv = recv_json
        self._send = send_json
        self.seat = seat
        self.received: list[Message] = []
        self.latest: Message | None = None  # the last message that carried the table's state
        self.requests = 0
        self.tag = "r"  # request ids are TAG SEAT - N

    def send_json(self, message: Message) -> None:
        self._send(message)

    def hello(self, token: str | None = None, since: int | None = None, **more: Any) -> Message:
        message: Message = {"type": "hello", **more}
        if token is not None:
            message["token"] = token
        if since is not None:
            message["since"] = since
        self._send(message)
        return self.until(lambda m: m["type"] in ("welcome", "error"))

    def next(self) -> Message:
        message = self._recv()
        shape = SHAPES.get(message.get("type", ""))
        if shape is not None:  # what the server sends has the documented shape
            shape.model_validate(message)
        self.received.append(message)
        if message["type"] in STATE_TYPES:
            self.latest = message
        return message

    def settled(self, beyond: int = -1, people: Collection[int] | None = None) -> Message:
        """The first state past version `beyond` at which the table waits for a seat (one of
        `people`, when given), not for chance: nothing moves then until somebody acts."""

        def waits(message: Message) -> bool:
            actor = message["state"]["actor"]
            mover = isinstance(actor, int) and (people is None or actor in people)
            return message["version"] > beyond and mover

        if self.latest is not None and waits(self.latest):
            return self.latest
        return self.until(lambda m: m["type"] in STATE_TYPES and waits(m))

    def until(self, predicate: Callable[[Message], bool], limit: int = 20_000) -> Message:
        for _ in range(limit):
            message = self.next()
            if predicate(message):
                return message
        raise AssertionError(f"no such message in {limit}")

    def state(self) -> Message:
        """The next message that carries the table's state."""
        return self.until(lambda m: m["type"] in STATE_TYPES)

    def send_act(self, action: str, version: int, request_id: str | None = None) -> str:
        self.requests += 1
        rid = request_id or f"{self.tag}{self.seat}-{self.requests}"
        self._send({"type": "act", "action": action, "version": version, "request_id": rid})
        return rid

    def reply(self) -> Message:
        """The answer to the last request: its ack or its error."""
        return self.until(lambda m: m["type"] in ("ack", "error"))

    def play_to_the_end(self) -> Message:
        """Make the first legal move whenever it is this seat's turn, until the game is over."""
        state = self.latest if self.latest is not None else self.state()
        for _ in range(20_000):
            if state["state"]["status"] == "over":
                return state
            if state["state"]["actor"] == self.seat and state["state"]["legal"]:
                self.send_act(state["state"]["legal"][0], state["version"])
            state = self.state()
        raise AssertionError("the game did not end")

    def ping(self) -> int:
        self._send({"type": "ping"})
        return int(self.until(lambda m: m["type"] == "pong")["version"])
