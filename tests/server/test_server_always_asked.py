"""A person is always asked: the table never answers for a connected person, whatever they
hold. Only their turn clock (the same for every seat) or their own "answer for me" moves for
them, and what others see of either says nothing of their cards."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from horserace.drivers.server.limits import Limits
from horserace.drivers.server.turn_clock import ANSWER_BOUNDS, AnswerPauses
from tests.server.support import Message, Player, create_table, join, serving

SINGLE = (["pass"], ["pay"])


def _seat_steps(record: str, seat: int) -> list[str]:
    """The actions of `seat` in a record, in order."""
    rows = [json.loads(line) for line in record.splitlines()]
    return [row["action"] for row in rows if row.get("actor") == str(seat)]


def _play(ann: Player, act_on: Any) -> list[list[str]]:
    """Ann's side of a game: every time she is asked, `act_on(legal)` says whether she
    answers (with "roll", else her first choice); returns what she was asked each time."""
    asked: list[list[str]] = []
    seen = -1

    def asks(m: Message) -> bool:
        return (
            m["type"] in ("welcome", "update")
            and m["version"] > seen
            and m["state"]["actor"] in (0, "terminal")
        )

    while True:
        state = ann.latest if ann.latest is not None and asks(ann.latest) else ann.until(asks)
        seen = state["version"]
        if state["state"]["actor"] == "terminal":
            return asked
        legal = state["state"]["legal"]
        asked.append(legal)
        if act_on(legal):
            ann.send_act("roll" if "roll" in legal else legal[0], seen)
            assert ann.reply()["type"] == "ack", ann.received[-1]


def test_a_person_with_nothing_to_play_is_asked_and_nothing_answers_for_them(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "t.db", seed=2) as client:  # she pays, holding no Ace or King
        table, _, _ = create_table(
            client, "advanced", ["open", "random", "random", "random"], {"rounds": 1}
        )
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            asked = _play(ann, lambda legal: True)
        record = client.get(f"/api/tables/{table}/record").text
    assert any(legal in SINGLE for legal in asked)  # she held nothing that could answer
    # every move of her seat is one she made (none was made for her before she could)
    assert len(_seat_steps(record, 0)) == len(asked)
    assert sum(1 for m in ann.received if m["type"] == "ack") == len(asked)


def test_answer_for_me_makes_the_one_answer_after_a_pause_from_the_seats_own_stream(
    tmp_path: Path,
) -> None:
    limits = Limits(answer_seconds=0.02)
    with serving(tmp_path / "t.db", seed=5, limits=limits) as client:  # she holds no Joker
        table, _, _ = create_table(
            client, "advanced", ["open", "random", "random", "random"], {"rounds": 1}
        )
        _, token = join(client, table, "Ann")
        held = client.app.state.hub.tables[table]  # type: ignore[attr-defined]
        pauses: list[tuple[int, float]] = []
        drawn = held.pauses.next

        def spied(seat: int) -> float:
            pause = float(drawn(seat))
            pauses.append((seat, pause))
            return pause

        held.pauses.next = spied
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws,
            client.websocket_connect(f"/ws/tables/{table}") as watching,
        ):
            ann, watcher = Player(ws, 0), Player(watching)
            ann.hello(token=token)
            watcher.hello()
            watcher.send_json({"type": "answer_for_me", "on": True})
            assert watcher.until(lambda m: m["type"] == "error")["code"] == "not-seated"
            ann.send_json({"type": "answer_for_me", "on": True})
            assert ann.until(lambda m: m["type"] == "answer_for_me") == {
                "type": "answer_for_me",
                "on": True,
            }
            asked = _play(ann, lambda legal: len(legal) > 1)
            watcher.until(lambda m: m.get("state", {}).get("actor") == "terminal")
        record = client.get(f"/api/tables/{table}/record").text
    made_for_her = [legal for legal in asked if len(legal) == 1]
    assert any(legal in SINGLE for legal in made_for_her)
    assert len(_seat_steps(record, 0)) == len(asked)
    # one pause for each answer made for her, drawn from seat 0's stream in turn
    assert [seat for seat, _ in pauses] == [0] * len(made_for_her)
    again = AnswerPauses(held.seed, median=0.02)
    assert [pause for _, pause in pauses] == [again.next(0) for _ in pauses]
    assert not any(m["type"] == "answer_for_me" for m in watcher.received)  # hers alone


def test_answer_pauses_are_a_persons_and_each_seat_has_its_own_stream() -> None:
    pauses = AnswerPauses(20240601, median=1.6)
    first = [pauses.next(0) for _ in range(2000)]
    low, high = (1.6 * bound for bound in ANSWER_BOUNDS)
    assert all(low <= pause <= high for pause in first)
    assert 1.5 < statistics.median(first) < 1.7  # the median's standard error is about 0.02
    assert len(set(first)) > 1900  # not one pause again and again
    other = AnswerPauses(20240601, median=1.6)
    assert [other.next(1) for _ in range(5)] != first[:5]  # another seat, another stream
    assert [AnswerPauses(20240601, median=1.6).next(0) for _ in range(1)] == first[:1]


def _asked_of(player: Player, seat: int, beyond: int) -> Message:
    return player.until(
        lambda m: (
            m["type"] in ("welcome", "update")
            and m["version"] > beyond
            and m["state"]["actor"] == seat
        )
    )


def _answer(player: Player, beyond: int = -1) -> None:
    """The player's next turn past version `beyond`, answered with its first move."""
    assert player.seat is not None
    asked = player.settled(beyond, people={player.seat})
    player.send_act(asked["state"]["legal"][0], asked["version"])
    assert player.reply()["type"] == "ack", player.received[-1]


def test_a_persons_clock_runs_out_and_a_bot_plays_that_one_turn_for_them(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    with serving(database) as client:
        table, _, _ = create_table(
            client, "classic", ["open", "open"], {"rounds": 1}, turn_seconds=1.0
        )
        _, token_a = join(client, table, "Ann")
        _, token_b = join(client, table, "Bob")
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws_a,
            client.websocket_connect(f"/ws/tables/{table}") as ws_b,
            client.websocket_connect(f"/ws/tables/{table}") as watching,
        ):
            ann, bob, watcher = Player(ws_a, 0), Player(ws_b, 1), Player(watching)
            ann.hello(token=token_a)
            bob.hello(token=token_b)
            watcher.hello()
            _answer(bob)  # Bob plays first, and at once: his clock is not the one that runs out
            asked = _asked_of(ann, 0, -1)
            deadline = asked["state"]["deadline"]
            assert deadline is not None  # everyone is shown when her clock runs out
            timed_out = ann.until(lambda m: m["type"] == "update" and m["actor"] == 0)
            said = "Ann's time ran out: a bot plays this turn."
            assert timed_out["news"][0] == said
            for other in (bob, watcher):
                update = other.until(lambda m: m["type"] == "update" and m["actor"] == 0)
                assert update["news"][0] == said and update["version"] == timed_out["version"]
                seen = other.until(lambda m: m["type"] in ("welcome", "update"))
                assert seen["type"] == "update"  # no seat change: she keeps her seat
            told = [m for m in ann.received if m["type"] == "seats"]
            assert all(m["seats"][0]["kind"] == "human" for m in told)
            assert not any(m["seats"][0]["away"] for m in told)
            _answer(bob, timed_out["version"])
            # her next turn is hers again, on a fresh clock
            mine = _asked_of(ann, 0, timed_out["version"])
            assert mine["state"]["deadline"] > deadline
            ann.send_act(mine["state"]["legal"][0], mine["version"])
            ack = ann.reply()
            assert ack["type"] == "ack"
            answered = [m for m in ann.received if m.get("version") == ack["version"]]
            assert answered[0]["type"] == "update" and said not in answered[0]["news"]
    with serving(database) as client:  # the log says it after a restart too
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            missed = Player(ws).hello(since=0)["missed"]
        lines = [line for step in missed for line in step["news"]]
        assert lines.count(said) >= 1
