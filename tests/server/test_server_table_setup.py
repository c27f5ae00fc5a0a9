"""What the table page relies on from the server: house rules that bring their own options
(Husted's hidden hands, whatever the request says), the form's catalogue, the start's state for
everybody watching, names in words, a log that forgets undone moves, the next game with the
same seats, chat, the bots' pace and a spectator's skip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.server.support import Player, create_table, join, serving


def test_husted_keeps_hands_hidden_and_refuses_open_hands(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        refused = client.post(
            "/api/tables",
            json={
                "preset": "classic",
                "options": {"players": 3, "husted": True, "open_hands": True},
                "seats": ["open", "random", "random"],
            },
        )
        assert refused.status_code == 400
        assert "Husted house rule needs open_hands = false" in refused.json()["detail"]
        table, _, summary = create_table(
            client, "classic", ["open", "random", "random"], {"husted": True}
        )
        assert summary["config"]["open_hands"] is False and summary["config"]["ante"] == 1
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            dealt = ann.settled(people=[0])  # the deal is over when a seat is to move
            hands = dealt["state"]["view"]["hands"]
            assert hands[0] is not None and sum(hands[0]) > 0
            assert hands[1] is None and hands[2] is None
        catalogue = {p["name"]: p for p in client.get("/api/presets").json()}
        classic = catalogue["classic"]
        assert [h["name"] for h in classic["house_rules"]] == [
            "robertson",
            "perry",
            "schellenberg",
            "husted",
        ]
        assert ["robertson", "perry"] in catalogue["advanced"]["house_combinations"]
        assert all("husted" not in c for c in catalogue["advanced"]["house_combinations"])
        assert catalogue["northwoods"]["house_combinations"] == [[]]
        assert catalogue["derby"]["fields"]["money"]["key"] == "starting_money"
        assert catalogue["advanced"]["fields"]["players"]["min"] == 4
        rules = client.get("/api/rules/calcutta")
        assert rules.status_code == 200 and "Calcutta" in rules.text
        assert client.get("/api/rules/nonsense").status_code == 404


def test_a_blank_name_is_refused_in_words(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "random"])
        blank = client.post(f"/api/tables/{table}/join", json={"name": "   "})
        assert blank.status_code == 409 and "a name is needed" in blank.json()["detail"]
        assert client.get(f"/api/tables/{table}").json()["open_seats"] == [0]


def test_the_companion_start_offers_the_first_entry_and_undo_forgets_its_moves(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "t.db") as client:
        table, host_token, _ = create_table(
            client, "classic", ["open", "open"], {"rounds": 1}, companion=True
        )
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            host = Player(ws)
            welcome = host.hello(host_token=host_token)
            assert welcome["state"]["status"] == "waiting" and welcome["state"]["legal"] == []
            started = client.post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {host_token}"}
            )
            assert started.status_code == 200
            seats = host.until(lambda m: m["type"] == "seats" and m["status"] == "playing")
            assert seats["state"]["status"] == "playing"
            assert seats["state"]["actor"] == "chance" and seats["state"]["legal"]
            version = seats["version"]
            for text in seats["state"]["legal"][:1] * 2:
                host.send_act(text, version)
                version = host.reply()["version"]
            host.send_json({"type": "undo", "version": version})
            undone = host.until(lambda m: m["type"] == "undone")
            host.send_json({"type": "sync", "since": 0})
            again = host.until(lambda m: m["type"] == "welcome")
            assert not again["resync"] and again["version"] == undone["version"]
            assert len(again["missed"]) == 1  # the first deal only: the second is gone


def test_play_again_keeps_the_seats_and_their_tokens(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, host_token, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        seat, token = join(client, table, "Ann")
        auth = {"Authorization": f"Bearer {host_token}"}
        early = client.post(f"/api/tables/{table}/again", headers=auth)
        assert early.status_code == 409 and "over" in early.json()["detail"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, seat)
            ann.hello(token=token)
            state = ann.latest
            assert state is not None
            while state["state"]["status"] != "over":
                if state["state"]["legal"]:
                    ann.send_act(state["state"]["legal"][0], state["version"])
                state = ann.until(lambda m: m["type"] == "update")
            assert client.post(f"/api/tables/{table}/again").status_code == 401
            made = client.post(f"/api/tables/{table}/again", headers=auth)
            assert made.status_code == 201, made.text
            moved = ann.until(lambda m: m["type"] == "next")
        new = made.json()
        assert moved["table"] == new["id"] != table and new["status"] == "playing"
        assert [(s["name"], s["kind"]) for s in new["seats"]] == [
            ("Ann", "human"),
            ("Bram (bot)", "bot"),
        ]
        assert client.post(f"/api/tables/{table}/again", headers=auth).json()["id"] == new["id"]
        with client.websocket_connect(f"/ws/tables/{new['id']}") as ws:
            assert Player(ws, seat).hello(token=token)["seat"] == seat  # the same token


def test_chat_is_for_seats_rate_limited_and_sent_to_newcomers(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "open"])
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            ann.send_json({"type": "chat", "text": "<b>hi</b>\x07 all"})
            line = ann.until(lambda m: m["type"] == "chat")
            assert (line["name"], line["text"], line["seat"]) == ("Ann", "<b>hi</b>  all", 0)
            ann.send_json({"type": "chat", "text": "two"})
            ann.send_json({"type": "chat", "text": "three"})
            ann.send_json({"type": "chat", "text": "four"})
            assert ann.until(lambda m: m["type"] == "error")["code"] == "rate-limited"
            with client.websocket_connect(f"/ws/tables/{table}") as other:
                watcher = Player(other)
                welcome = watcher.hello()
                assert [c["text"] for c in welcome["chat"]] == ["<b>hi</b>  all", "two", "three"]
                watcher.send_json({"type": "chat", "text": "me too"})
                assert watcher.until(lambda m: m["type"] == "error")["code"] == "not-seated"


@pytest.mark.usefixtures("quick_derby_odds")  # the table, not its odds
def test_a_spectator_skips_a_slow_bots_race_to_its_end(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db", bot_delay=3600.0) as client:
        table, _, summary = create_table(client, "classic", ["random", "random"], {"rounds": 2})
        assert summary["status"] == "playing" and summary["race"] == 1
        people, _, _ = create_table(client, "classic", ["open", "random"])
        with client.websocket_connect(f"/ws/tables/{people}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.send_json({"type": "skip"})
            assert "only bots" in watcher.until(lambda m: m["type"] == "error")["message"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.send_json({"type": "skip"})
            watcher.until(lambda m: m["type"] == "update" and m["state"]["view"]["round"] == 2)
        after = client.get(f"/api/tables/{table}").json()
        assert after["race"] == 2 and after["status"] == "playing"  # the next round waits again
        paced = client.post(
            "/api/tables",
            json={"preset": "derby", "seats": ["random"] * 8, "pace": "instant"},
        )
        assert paced.status_code == 201 and paced.json()["table"]["pace"] == "instant"


def test_chat_is_kept_with_the_table_and_published_with_its_record(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    with serving(database) as client:
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        seat, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, seat)
            ann.hello(token=token)
            ann.send_json({"type": "chat", "text": "good luck, bot"})
            ann.until(lambda m: m["type"] == "chat")
    with serving(database) as client:  # the server restarted: the chat is still there
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, seat)
            welcome = ann.hello(token=token)
            assert [(c["name"], c["text"]) for c in welcome["chat"]] == [("Ann", "good luck, bot")]
            state = ann.latest
            assert state is not None
            while state["state"]["status"] != "over":
                if state["state"]["legal"]:
                    ann.send_act(state["state"]["legal"][0], state["version"])
                state = ann.until(lambda m: m["type"] == "update")
        text = client.get(f"/api/tables/{table}/record").text
        header = json.loads(text.splitlines()[0])
        assert [line["text"] for line in header["chat"]] == ["good luck, bot"]
        checked = client.get(f"/api/tables/{table}/verify").json()
        assert checked["verified"], checked  # the chat is inside the signed record
