"""A table stopped mid-game (the server shut down) resumes on the next start and ends exactly
as the same table would have ended without a stop: the same rolls from the seed, the same bot
choices (each bot move is rebuilt from the seed, the seat and the step)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.server.support import Player, create_table, game_of, serving

SEATS = ["ev", "heuristic", "random", "ev"]  # Advanced: draft picks and answers to decide


def _finish(client_path: Path, table: str, bot_delay: float) -> str:
    with serving(client_path, seed=99, bot_delay=bot_delay) as client:
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            watcher.until(lambda m: m.get("state", {}).get("status") == "over")
        return game_of(client.get(f"/api/tables/{table}/record").text)


def test_a_stopped_table_resumes_and_ends_as_it_would_have(tmp_path: Path) -> None:
    options = {"rounds": 1}
    with serving(tmp_path / "whole.db", seed=99) as client:
        whole_table, _, _ = create_table(client, "advanced", SEATS, options)
    whole = _finish(tmp_path / "whole.db", whole_table, 0.0)

    with serving(tmp_path / "stopped.db", seed=99, bot_delay=0.002) as client:
        table, _, _ = create_table(client, "advanced", SEATS, options)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            watcher.hello()
            stopped_at = watcher.until(lambda m: m["type"] == "update" and m["version"] >= 60)
    with sqlite3.connect(tmp_path / "stopped.db") as db:
        status, version = db.execute(
            "SELECT status, version FROM tables WHERE id = ?", (table,)
        ).fetchone()
    assert status == "playing" and stopped_at["version"] <= version
    assert version < len(whole.splitlines()) - 2  # header and result lines aside
    assert _finish(tmp_path / "stopped.db", table, 0.0) == whole


def test_an_all_bot_table_stopped_before_it_started_starts_on_the_next_start(
    tmp_path: Path,
) -> None:
    """A table of bots alone is stored as playing from the start; one left 'waiting' by an
    older server that stopped between storing it and starting it is started on resume."""
    with serving(tmp_path / "t.db", seed=99) as client:
        table, _, summary = create_table(client, "classic", ["random", "ev"], {"rounds": 1})
        assert summary["status"] == "playing"
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT status FROM tables WHERE id = ?", (table,)).fetchone() == (
            "playing",
        )
        db.execute("DELETE FROM actions WHERE table_id = ?", (table,))
        db.execute("UPDATE tables SET status = 'waiting', version = 0 WHERE id = ?", (table,))
    record = _finish(tmp_path / "t.db", table, 0.0)
    assert '"result"' in record.splitlines()[-1]
