"""Hidden cards that nothing betrays, at the presets and house rules that hide cards: a table
with a socket for each person's seat and a spectator's socket, played at the instant pace by
scripted people who each answer after a fixed pause. No frame to anyone carries another seat's
hidden cards (checked on its own and against the engine), every move of a person's seat is one
that person made (the table never answered for them, however little they held), and nobody
without the operator's token reads /metrics.

The rows are few but together reach every moment (each kind of event, and each kind of move a
person or chance makes in each phase) that one round of every house rule combination with
hidden hands reaches (the conformance matrix's 19 such rows of 2-4 players): each move of the
server's code that shows or hides a card is met, and the file checks that they still are."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from horserace.core.types import CHANCE
from horserace.engine import Step
from tests.conformance.board_matrix import ROWS, Row
from tests.server.hidden import check_frames, next_update, replayed
from tests.server.support import Message, Player, TestClient, create_table, join, serving, start

PAUSE = 0.004  # each scripted person's pause before every answer, seconds
KEPT = (  # the rows whose rounds together reach MOMENTS (a greedy cover of all 19 rows')
    "classic+husted+perry+robertson",  # hidden hands betting, drawing, trading
    "classic+husted-3p",  # the whole pack dealt: no stub to draw from
    "advanced+perry+robertson",  # the draft, the face cards, trades before the scratches
    "advanced+classic-scratch+perry+robertson",  # a King played in the race
)
HIDDEN_ROWS = [
    *(row for row in ROWS if row.name in KEPT),
    Row(  # Classic with hidden hands and its house rules, without Husted's: the market
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
MOMENTS = {  # what one round of each hidden-hands row of the matrix reached, by preset
    "classic": {
        *("betting check", "betting fold", "betting meet", "betting raise", "betting wager"),
        *("deal chance", "draw chance", "draw discard", "payout chance"),
        *("race accept", "race buy", "race chance", "race decline", "race jack", "race offer"),
        *("race pair", "race pass", "race roll"),
        *("scratch accept", "scratch chance", "scratch decline", "scratch offer"),
        *("scratch pass", "scratch roll"),
        *("event card-bought", "event card-dealt", "event cards-discarded", "event cards-drawn"),
        *("event checked", "event chips-paid", "event dice-rolled", "event face-card-played"),
        *("event folded", "event four-dice-rolled", "event game-over", "event horse-advanced"),
        *("event horse-scratched", "event horse-went-back", "event market-dealt"),
        *("event market-opened", "event pair-chosen", "event payout", "event pot-carried"),
        *("event pot-shared", "event race-won", "event trade-answered", "event trade-offered"),
        "event trade-passed",
    },
    "advanced": {
        *("deal chance", "draft keep", "payout chance"),
        *("race ace", "race chance", "race joker", "race king", "race pair", "race pass"),
        *("race pay", "race roll"),
        *("scratch accept", "scratch ace", "scratch chance", "scratch decline", "scratch king"),
        *("scratch offer", "scratch pass", "scratch pay", "scratch roll"),
        *("event ace-played", "event card-dealt", "event card-kept", "event cards-discarded"),
        *("event chips-paid", "event dice-rolled", "event four-dice-rolled", "event game-over"),
        *("event horse-advanced", "event horse-scratched", "event jockey-pot-filled"),
        *("event jockey-pot-won", "event joker-played", "event king-played"),
        *("event packets-passed", "event pair-chosen", "event payout", "event penalty-owed"),
        *("event pot-carried", "event pot-shared", "event race-won", "event trade-answered"),
        *("event trade-offered", "event trade-passed"),
    },
}
Played = tuple[Player, dict[int, Player], str, list[str]]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for the module: every row's table is made on it."""
    with serving(tmp_path_factory.mktemp("battery") / "t.db", seed=20_260_528) as served:
        yield served


@pytest.fixture(scope="module")
def played(client: TestClient) -> Iterator[dict[str, Played]]:
    """Each row's round, played once for the module however many tests read it."""
    yield {}


def _round(client: TestClient, played: dict[str, Played], row: Row) -> Played:
    if row.name not in played:
        played[row.name] = _play(client, row)
    return played[row.name]


def test_nobody_without_the_operators_token_reads_the_metrics(client: TestClient) -> None:
    for headers in ({}, {"Authorization": "Bearer guess"}):
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code in (401, 404) and "horserace_actions" not in answer.text


def _play(client: TestClient, row: Row) -> Played:
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
def test_no_frame_and_no_answer_betrays_a_hidden_card(
    client: TestClient, played: dict[str, Played], row: Row
) -> None:
    watcher, people, record, names = _round(client, played, row)
    _answered_by_themselves(people)
    check_frames([watcher, *people.values()], record, True, names)


def _moments(steps: list[Step]) -> set[str]:
    """The kinds of event, and of move by each phase (a person's by its first word, chance's
    as "chance"), in a game's steps."""
    found = {f"event {event.kind}" for step in steps for event in step.events}
    for step in steps:
        phase: Any = step.before.phase
        move = "chance" if step.actor is CHANCE else step.action.text.split()[0]
        found.add(f"{phase.value} {move}")
    return found


def test_the_rows_reach_every_moment(client: TestClient, played: dict[str, Played]) -> None:
    """Fewer rows prove as much only while they still meet every moment the whole matrix
    met: a change of rules, bots or seeds that loses one fails here (pick rows again)."""
    for preset, wanted in MOMENTS.items():
        reached: set[str] = set()
        for row in (row for row in HIDDEN_ROWS if row.preset == preset):
            reached |= _moments(replayed(_round(client, played, row)[2])[1])
        assert reached >= wanted, sorted(wanted - reached)


def test_the_frame_check_finds_another_seats_card(
    client: TestClient, played: dict[str, Played]
) -> None:
    """The frames of a real game pass; the same frames with one other seat's card in a
    view, or another seat's private event, do not."""
    row = HIDDEN_ROWS[-1]
    watcher, people, record, names = _round(client, played, row)
    check_frames([watcher, *people.values()], record, True, names)
    frames = watcher.received
    shown = next(i for i, m in enumerate(frames) if m["type"] == "update")
    leaked = [dict(m) for m in frames]
    state = dict(leaked[shown]["state"])
    view = dict(state["view"])
    view["hands"] = [["A"] if hand is None else hand for hand in view["hands"]]
    leaked[shown] = {**leaked[shown], "state": {**state, "view": view}}
    shown_all = Player(None, None, recv_json=dict, send_json=lambda m: None)
    shown_all.received = leaked  # (the round's own players stay as they were, for the others)
    with pytest.raises(AssertionError, match="hand"):
        check_frames([shown_all], record, True, names)
    seat = min(people)
    other = people[seat]
    private = next(m for m in other.received if m["type"] == "update" and m["events"])
    peeking = Player(None, seat + 1, recv_json=dict, send_json=lambda m: None)
    event = {**private["events"][0], "type": "card-dealt", "seat": seat}
    peeking.received = [{"type": "update", "version": 1, "events": [event]}]
    with pytest.raises(AssertionError, match="saw"):
        check_frames([peeking], record, True, names)
