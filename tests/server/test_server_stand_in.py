"""Nobody stalls the table: the host lets a bot play the seat of a person who is not here (and
gives it back), never the seat of one who is; a person steps away (a bot plays their turns)
and comes back; nobody else may hand a seat over."""

from __future__ import annotations

from pathlib import Path

from tests.server.support import Message, Player, create_table, join, serving

# A bot plays an away seat as fast as the address's step budget lets it: a table of two rounds
# could end while a slow test reads the bot's first move, leaving Ann no turn to come back to.
ROUNDS = 100


def _away(message: Message) -> list[bool]:
    return [seat["away"] for seat in message["seats"]]


def _back(message: Message) -> bool:
    """The seats as they are once Ann is back (the table also sends the seats when somebody
    connects, and one of those may still be on the way)."""
    return message["type"] == "seats" and not message["seats"][0]["away"]


def test_the_host_hands_an_absent_seat_to_a_bot_and_back(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, host_token, _ = create_table(client, "classic", ["open", "open"], {"rounds": 2})
        _, ann_token = join(client, table, "Ann")
        join(client, table, "Bo")  # Bo never comes: without a clock the table would wait
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws_ann,
            client.websocket_connect(f"/ws/tables/{table}") as ws_host,
        ):
            ann, host = Player(ws_ann, 0), Player(ws_host)
            ann.hello(token=ann_token)
            host.hello(host_token=host_token)
            waiting = host.settled(people=[1])  # Bo's turn: nothing moves
            ann.send_json({"type": "stand_in", "seat": 1, "on": True})
            refused = ann.until(lambda m: m["type"] == "error")
            assert refused["code"] == "not-host"
            host.send_json({"type": "stand_in", "seat": 0, "on": True})
            assert host.until(lambda m: m["type"] == "error")["code"] == "illegal"  # Ann is here

            host.send_json({"type": "stand_in", "seat": 1, "on": True})
            seats = host.until(lambda m: m["type"] == "seats")
            assert _away(seats) == [False, True]
            moved = host.until(lambda m: m["type"] == "update" and m["actor"] == 1)
            assert moved["version"] > waiting["version"]  # a bot made Bo's move

            host.send_json({"type": "stand_in", "seat": 1, "on": False})
            assert _away(host.until(lambda m: m["type"] == "seats")) == [False, False]


def test_a_person_steps_away_and_comes_back(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": ROUNDS})
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            mine = ann.settled(people=[0])
            ann.send_json({"type": "stand_in", "seat": 0, "on": True})
            assert _away(ann.until(lambda m: m["type"] == "seats")) == [True, False]
            played = ann.until(lambda m: m["type"] == "update" and m["actor"] == 0)
            assert played["version"] > mine["version"] and ann.requests == 0  # not sent by Ann
            ann.send_json({"type": "stand_in", "seat": 0, "on": False})
            assert _away(ann.until(_back)) == [False, False]
            back = ann.settled(beyond=played["version"], people=[0])
            assert back["state"]["legal"]  # her own turn is hers again


def test_a_person_who_stepped_away_stays_away_across_a_reload(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": ROUNDS})
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            ann.settled(people=[0])
            ann.send_json({"type": "stand_in", "seat": 0, "on": True})
            assert _away(ann.until(lambda m: m["type"] == "seats")) == [True, False]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # the page reloaded
            ann = Player(ws, 0)
            welcome = ann.hello(token=token)
            assert _away(welcome) == [True, False]  # still away: the bot plays on
            played = ann.until(lambda m: m["type"] == "update" and m["actor"] == 0)
            assert played["version"] > welcome["version"] and ann.requests == 0
            ann.send_json({"type": "stand_in", "seat": 0, "on": False})  # "I'm back"
            assert _away(ann.until(_back)) == [False, False]
            back = ann.settled(beyond=played["version"], people=[0])
            assert back["state"]["legal"]
