"""The players' seeds, committed to and then revealed: a commitment only from a seat and only
before play; a reveal only once play is to start (every commitment closed and shown), and
only of the seed committed to; play waits for the reveals, and a player who does not reveal
in time (or leaves) is left out; the record holds the commitments and the seeds, and
`verify` checks them and the dice they key."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from horserace.drivers.server.limits import Limits
from horserace.drivers.server.records import check_published
from horserace.drivers.server.signing import ServerKey
from tests.server.support import Message, Player, TestClient, create_table, join, serving

SEED = 4_242_424_242
FAST = Limits(  # pings to follow the game
    messages_per_second=10_000,
    message_burst=10_000,
    address_messages_per_second=10_000,
    address_message_burst=10_000,
)
ANN, BO = "ann's lucky 7", "bo-1f3a"


def _commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def _answer(player: Player, message: Message) -> Message:
    player.send_json(message)
    return player.until(lambda m: m["type"] in ("committed", "revealed", "error"))


def _reveal_state(player: Player) -> Message:
    """The state shown once play is to start: the commitments, awaiting the reveals."""
    seats = player.until(lambda m: m["type"] == "seats" and m.get("state") is not None)
    return dict(seats["state"])


def _rows(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def _first_rolls(record: str, count: int = 10) -> list[str]:
    return [row["action"] for row in _rows(record) if row.get("actor") == "chance"][:count]


def _current(player: Player) -> Message:
    """The newest message this player received that carries the table's state (a `seats`
    message carries it at the start)."""
    return next(m for m in reversed(player.received) if m.get("state") is not None)


def _play_out(client: TestClient, table: str, *players: Player) -> str:
    """Every seated player moves whenever it may, until the game is over; the record. A
    ping reads everything queued before its answer, so each player's state is current; when
    none of them may move, the next step the table sends is waited for (pinging on, a loaded
    machine's chance steps outlasted 20,000 pings)."""
    for _ in range(20_000):
        for player in players:
            player.ping()
        latest = _current(players[0])
        if latest["state"]["status"] == "over":
            return str(client.get(f"/api/tables/{table}/record").text)
        moved = False
        for player in players:
            mine = _current(player)
            if mine["state"]["legal"] and mine["version"] == latest["version"]:
                player.send_act(mine["state"]["legal"][0], mine["version"])
                player.reply()
                moved = True
        if not moved:
            players[0].state()
    raise AssertionError("the game did not end")


def test_commit_then_reveal_keys_the_dice_and_cheats_are_refused(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db", seed=SEED, limits=FAST) as client:
        table, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
        joined = client.post(
            f"/api/tables/{table}/join", json={"name": "Ann", "commitment": _commitment(ANN)}
        )
        assert joined.status_code == 200
        bad = client.post(f"/api/tables/{table}/join", json={"name": "Bo", "commitment": "abc"})
        assert bad.status_code == 422
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws_ann,
            client.websocket_connect(f"/ws/tables/{table}") as ws_bo,
            client.websocket_connect(f"/ws/tables/{table}") as ws_watch,
        ):
            ann, bo, watcher = Player(ws_ann, 0), Player(ws_bo, 1), Player(ws_watch)
            ann.hello(token=joined.json()["token"])
            watcher.hello()
            commit = {"type": "commit", "commitment": _commitment("mine")}
            assert _answer(watcher, commit)["code"] == "not-seated"
            assert _answer(ann, {"type": "commit", "commitment": "Z" * 64})["code"] == "bad-message"
            # a reveal before the commitments are closed would let others choose after it
            early = _answer(ann, {"type": "reveal", "seed": ANN})
            assert early["code"] == "waiting" and "commitment" in early["message"]
            _, bo_token = join(client, table, "Bo")  # the last seat: play is to start
            bo.hello(token=bo_token)
            shown = _reveal_state(ann)
            assert shown["reveal"] == {"commitments": {"0": _commitment(ANN)}, "revealed": []}
            assert shown["legal"] == [] and bo.latest is not None
            assert bo.latest["state"]["reveal"]["commitments"] == {"0": _commitment(ANN)}
            # too late to commit; nobody moves until the seeds are in
            assert _answer(bo, {"type": "commit", "commitment": _commitment(BO)})["code"] == (
                "illegal"
            )
            ann.send_act("roll", ann.ping())
            assert ann.reply()["code"] == "waiting"
            # a seed that is not the one committed to, and a seat that committed to none
            wrong = _answer(ann, {"type": "reveal", "seed": "ann's lucky 8"})
            assert wrong["code"] == "illegal" and "does not match" in wrong["message"]
            assert _answer(bo, {"type": "reveal", "seed": ANN})["code"] == "illegal"
            assert _answer(watcher, {"type": "reveal", "seed": ANN})["code"] == "not-seated"
            assert _answer(ann, {"type": "reveal", "seed": ANN}) == {"type": "revealed", "seat": 0}
            assert watcher.until(lambda m: m["type"] == "revealed")["seat"] == 0
            started = _reveal_state(ann)
            assert started["reveal"] is None and started["status"] == "playing"
            late = _answer(ann, {"type": "reveal", "seed": ANN})
            assert late["code"] == "illegal"  # the dice are set
            assert not any(ANN in json.dumps(m) for m in watcher.received + bo.received)
            record = _play_out(client, table, ann, bo)
    header = _rows(record)[0]
    assert header["commitments"] == {"0": _commitment(ANN)}
    assert header["player_seeds"] == {"0": ANN}
    checked = check_published(record, table=table)
    assert checked.verified and checked.draws > 10


def test_a_player_who_does_not_reveal_in_time_is_left_out(tmp_path: Path) -> None:
    """Both commit; only Ann reveals. After `reveal_seconds` play starts with the server's
    seed and Ann's; the record lists Bo's commitment with no seed, and verifies."""
    records = []
    limits = replace(FAST, reveal_seconds=0.3)
    with serving(tmp_path / "t.db", seed=SEED, limits=limits) as client:
        for reveal_bo in (False, True):
            table, _, _ = create_table(client, "classic", ["open", "open"], {"rounds": 1})
            _, ann_token = join(client, table, "Ann")
            with (
                client.websocket_connect(f"/ws/tables/{table}") as ws_ann,
                client.websocket_connect(f"/ws/tables/{table}") as ws_bo,
            ):
                ann, bo = Player(ws_ann, 0), Player(ws_bo, 1)
                ann.hello(token=ann_token)
                committed = _answer(ann, {"type": "commit", "commitment": _commitment(ANN)})
                assert committed == {"type": "committed", "seat": 0, "commitment": _commitment(ANN)}
                joined = client.post(
                    f"/api/tables/{table}/join",
                    json={"name": "Bo", "commitment": _commitment(BO)},
                )
                bo_token = joined.json()["token"]
                bo.hello(token=bo_token)
                assert _reveal_state(ann)["reveal"]["commitments"] == {
                    "0": _commitment(ANN),
                    "1": _commitment(BO),
                }
                _answer(ann, {"type": "reveal", "seed": ANN})
                if reveal_bo:
                    _answer(bo, {"type": "reveal", "seed": BO})
                assert _reveal_state(ann)["reveal"] is None  # play starts (at the deadline)
                records.append(_play_out(client, table, ann, bo))
    left_out, both = (_rows(record)[0] for record in records)
    assert (
        left_out["commitments"]
        == both["commitments"]
        == {
            "0": _commitment(ANN),
            "1": _commitment(BO),
        }
    )
    assert left_out["player_seeds"] == {"0": ANN}
    assert both["player_seeds"] == {"0": ANN, "1": BO}
    assert all(check_published(record).verified for record in records)
    assert _first_rolls(records[0]) != _first_rolls(records[1])


def test_a_player_who_leaves_is_not_awaited_and_a_restart_keeps_the_reveals(
    tmp_path: Path,
) -> None:
    """A table stopped while the seeds are awaited awaits them again after the restart (the
    commitments and the seeds already revealed are stored); a committed player who leaves is
    not awaited."""
    database = tmp_path / "t.db"
    with serving(database, seed=SEED) as client:
        table, _, _ = create_table(client, "classic", ["open", "open", "open"], {"rounds": 1})
        tokens = []
        for name, seed in (("Ann", ANN), ("Bo", BO), ("Cy", "cy")):
            body = {"name": name, "commitment": _commitment(seed)}
            tokens.append(client.post(f"/api/tables/{table}/join", json=body).json()["token"])
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            welcome = ann.hello(token=tokens[0])
            assert welcome["state"]["reveal"]["revealed"] == []
            assert _answer(ann, {"type": "reveal", "seed": ANN})["type"] == "revealed"
    with (
        serving(database, seed=SEED, limits=FAST) as client,
        client.websocket_connect(f"/ws/tables/{table}") as ws_ann,
        client.websocket_connect(f"/ws/tables/{table}") as ws_bo,
    ):
        ann, bo = Player(ws_ann, 0), Player(ws_bo, 1)
        assert ann.hello(token=tokens[0])["state"]["reveal"]["revealed"] == [0]
        bo.hello(token=tokens[1])
        assert _answer(bo, {"type": "reveal", "seed": BO})["type"] == "revealed"
        left = client.post(
            f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {tokens[2]}"}
        )
        assert left.status_code == 200
        assert _reveal_state(ann)["reveal"] is None  # Cy is not awaited
        record = _play_out(client, table, ann, bo)
    header = _rows(record)[0]
    assert header["player_seeds"] == {"0": ANN, "1": BO} and len(header["commitments"]) == 3
    assert check_published(record).verified


def test_verify_checks_every_seed_against_its_commitment(tmp_path: Path) -> None:
    """A record whose seeds do not match its commitments, or name a seed nobody committed to,
    fails even under the server's own signature."""
    with serving(tmp_path / "t.db", seed=SEED, limits=FAST) as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        body = {"name": "Ann", "commitment": _commitment(ANN)}
        token = client.post(f"/api/tables/{table}/join", json=body).json()["token"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            _answer(ann, {"type": "reveal", "seed": ANN})
            record = _play_out(client, table, ann)
    server = ServerKey.load_or_create(str(tmp_path / "t.db") + ".key")
    rows = _rows(record)
    bare = [{k: v for k, v in row.items() if k not in ("chain", "signature")} for row in rows]

    def resigned(header: dict[str, Any]) -> str:
        lines = [header, *bare[1:]]
        return "".join(json.dumps(row) + "\n" for row in server.sign(lines))

    assert check_published(resigned(dict(bare[0]))).verified
    swapped = check_published(resigned({**bare[0], "player_seeds": {"0": "another seed"}}))
    assert swapped.problems == ("seat 1's seed does not hash to its commitment",)
    unasked = {**bare[0], "player_seeds": {"0": ANN, "1": "a seed"}}
    assert check_published(resigned(unasked)).problems == (
        "seat 2's seed was not committed to before play",
    )
    dropped = check_published(resigned({**bare[0], "player_seeds": {}}))
    assert not dropped.verified and "the dice give" in dropped.problems[0]
