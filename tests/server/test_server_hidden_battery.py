"""Hidden cards that nothing betrays, at every preset and house rule that hides cards: a
table with a socket for each person's seat and a spectator's socket, played at the instant
pace by scripted people who each answer after a fixed pause. No frame to anyone carries
another seat's hidden cards (checked on its own and against the engine), every move of a
person's seat is one that person made (the table never answered for them, however little
they held), and nobody without the operator's token reads /metrics."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.conformance.board_matrix import ROWS, Row
from tests.server.hidden import check_frames, next_update
from tests.server.support import Message, Player, TestClient, create_table, join, serving, start

PAUSE = 0.004  # each scripted person's pause before every answer, seconds
HIDDEN_ROWS = [  # every house rule combination; the larger tables (5-12 players) play the
    # same rules and are left to the conformance matrix, for the suite's time
    *(row for row in ROWS if row.hidden_hands and row.options["players"] <= 4),
    Row(  # Classic with hidden hands and its house rules, without Husted's
        "classic-hidden+perry+robertson+schellenberg",
        "classic",
        {
            "players": 4,
            "open_hands": False,
            "market": True,
            "robertson": True,
            "trade_window": "after-each-scratch",
        },
    ),
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for the module: every row's table is made on it."""
    with serving(tmp_path_factory.mktemp("battery") / "t.db", seed=20_260_528) as served:
        yield served


def test_nobody_without_the_operators_token_reads_the_metrics(client: TestClient) -> None:
    for headers in ({}, {"Authorization": "Bearer guess"}):
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code in (401, 404) and "horserace_actions" not in answer.text


def _play(client: TestClient, row: Row) -> tuple[Player, dict[int, Player], str, list[str]]:
    """One round of `row`: a person at every seat but one (the host's start gives it to a
    bot) and a spectator, connected before the start, then every update read by every socket
    in turn; the person to move answers (at random among their legal actions) after PAUSE.
    Returns the sockets, the record and the names."""
    options = {**row.options, "rounds": 1}
    players = int(options["players"])
    table, host, _ = create_table(client, row.preset, ["open"] * players, options)
    rng = random.Random(row.name)
    people: dict[int, Player] = {}
    with ExitStack() as sockets:
        watcher = Player(sockets.enter_context(client.websocket_connect(f"/ws/tables/{table}")))
        watcher.hello()
        for index in range(players - 1):
            seat, token = join(client, table, f"P{index}")
            socket = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
            people[seat] = Player(socket, seat)
            people[seat].hello(token=token)
        start(client, table, host)
        everyone = [watcher, *people.values()]
        pause = threading.Event()  # never set: each answer waits its full pause
        version, over = 0, False
        while not over:
            version += 1
            state = next_update(everyone, version)["state"]
            over = state["status"] == "over"
            mover = people.get(state["actor"]) if not over else None
            if mover is not None:
                pause.wait(PAUSE)
                assert mover.latest is not None
                mover.send_act(rng.choice(mover.latest["state"]["legal"]), version)
        for person in people.values():  # the answer to each one's last act
            replies = [m for m in person.received if m["type"] in ("ack", "error")]
            if len(replies) < person.requests:
                person.reply()
    record = client.get(f"/api/tables/{table}/record").text
    names = [seat["name"] for seat in client.get(f"/api/tables/{table}").json()["seats"]]
    return watcher, people, record, names


def _answered_by_themselves(people: dict[int, Player]) -> None:
    """Every step of a person's seat came after that person's own answer: it is acked to
    them, and no answer of theirs came too late (the table had moved for them)."""
    for seat, person in people.items():
        steps = [m["version"] for m in person.received if _moved(m, seat)]
        acked = [m["version"] for m in person.received if m["type"] == "ack"]
        refused = [m for m in person.received if m["type"] == "error"]
        assert not refused, f"seat {seat}: {refused[:2]}"
        assert steps and steps == acked, f"seat {seat} was answered for"


def _moved(message: Message, seat: int) -> bool:
    return bool(message["type"] == "update" and message["actor"] == seat)


@pytest.mark.parametrize("row", HIDDEN_ROWS, ids=repr)
def test_no_frame_and_no_answer_betrays_a_hidden_card(client: TestClient, row: Row) -> None:
    watcher, people, record, names = _play(client, row)
    _answered_by_themselves(people)
    check_frames([watcher, *people.values()], record, True, names)


def test_the_frame_check_finds_another_seats_card(client: TestClient) -> None:
    """The frames of a real game pass; the same frames with one other seat's card in a
    view, or another seat's private event, do not."""
    row = next(row for row in HIDDEN_ROWS if row.name == "advanced+robertson")  # a short one
    watcher, people, record, names = _play(client, row)
    check_frames([watcher, *people.values()], record, True, names)
    frames = watcher.received
    shown = next(i for i, m in enumerate(frames) if m["type"] == "update")
    leaked = [dict(m) for m in frames]
    state = dict(leaked[shown]["state"])
    view = dict(state["view"])
    view["hands"] = [["A"] if hand is None else hand for hand in view["hands"]]
    leaked[shown] = {**leaked[shown], "state": {**state, "view": view}}
    watcher.received = leaked
    with pytest.raises(AssertionError, match="hand"):
        check_frames([watcher], record, True, names)
    seat = min(people)
    other = people[seat]
    private = next(m for m in other.received if m["type"] == "update" and m["events"])
    peeking = Player(None, seat + 1, recv_json=dict, send_json=lambda m: None)
    event = {**private["events"][0], "type": "card-dealt", "seat": seat}
    peeking.received = [{"type": "update", "version": 1, "events": [event]}]
    with pytest.raises(AssertionError, match="saw"):
        check_frames([peeking], record, True, names)
