"""Friends joining one table: every newcomer's welcome shows the seats as they are now (a
join changes no version, so a welcome kept by version alone would show taken seats as open);
a room code typed in the lobby finds the table; a private table is not listed but is found by
its link and its code; the host's page gets the invite link as a QR code."""

from __future__ import annotations

from pathlib import Path

from horserace.drivers.server.lobby import ROOM_LETTERS, room_code, typed_code
from tests.server.support import Player, create_table, join, serving


def _welcome_seats(client: object, table: str) -> list[tuple[str, str | None]]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:  # type: ignore[attr-defined]
        welcome = Player(ws).hello()
    assert welcome["type"] == "welcome", welcome
    return [(s["kind"], s["name"]) for s in welcome["seats"]]


def test_each_newcomer_sees_the_seats_taken_before_them(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "open", "open"])
        assert _welcome_seats(client, table) == [("open", ""), ("open", ""), ("open", "")]
        join(client, table, "Ann")
        assert _welcome_seats(client, table) == [("human", "Ann"), ("open", ""), ("open", "")]
        join(client, table, "Bo")
        assert _welcome_seats(client, table) == [("human", "Ann"), ("human", "Bo"), ("open", "")]
        assert (
            client.post(f"/api/tables/{table}/join", json={"name": "Cy", "seat": 1}).status_code
            == 409
        )
        assert join(client, table, "Cy")[0] == 2


def test_a_room_code_finds_its_table(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, summary = create_table(client, "classic", ["open", "random"])
        code = summary["room"]
        assert code == room_code(table)
        assert len(code) == 5 and set(code) <= set(ROOM_LETTERS)
        typed = f" {code[:2].lower()}-{code[2:]} "
        assert typed_code(typed) == code
        assert client.get(f"/api/rooms/{typed.strip()}").json() == {"table": table}
        wrong = "".join(ROOM_LETTERS[(ROOM_LETTERS.index(c) + 1) % 23] for c in code)
        assert client.get(f"/api/rooms/{wrong}").status_code == 404


def test_a_private_table_is_found_by_link_and_code_but_not_listed(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        public, _, _ = create_table(client, "classic", ["open", "random"])
        response = client.post(
            "/api/tables",
            json={
                "preset": "classic",
                "options": {"players": 2},
                "seats": ["open", "random"],
                "private": True,
            },
        )
        assert response.status_code == 201, response.text
        hidden = response.json()["table"]
        assert hidden["private"] is True
        assert [t["id"] for t in client.get("/api/tables").json()] == [public]
        with client.websocket_connect("/ws/lobby") as ws:
            first = ws.receive_json()
        assert [t["id"] for t in first["tables"]] == [public]
        assert client.get(f"/api/tables/{hidden['id']}").json()["private"] is True
        assert client.get(f"/api/rooms/{hidden['room']}").json() == {"table": hidden["id"]}
        join(client, hidden["id"], "Ann")


def test_the_invite_link_as_a_qr_code(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        table, _, _ = create_table(client, "classic", ["open", "random"])
        response = client.get(f"/api/tables/{table}/qr.svg")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        svg = response.text
        assert "<svg" in svg and f"http://testserver/table/{table}</title>" in svg
        assert client.get("/api/tables/nope/qr.svg").status_code == 404


def test_the_people_at_a_real_board_have_names(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        body = {
            "preset": "classic",
            "options": {"players": 3},
            "seats": ["open", "open", "open"],
            "companion": True,
            "names": ["Cy", "", "Di"],
        }
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        assert _welcome_seats(client, table) == [("open", "Cy"), ("open", ""), ("open", "Di")]
        too_many = client.post("/api/tables", json={**body, "names": ["A", "B", "C", "D"]})
        assert too_many.status_code == 400 and "4 names" in too_many.text
