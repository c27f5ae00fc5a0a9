"""Every registered preset can be served: an all-bot table plays to its end on the server
(its views and events go on the wire), and its published record verifies against the seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from horserace.core.record import parse_record
from horserace.drivers.server.bots import bot_family
from horserace.engine import replay
from horserace.families.presets import PRESETS, get_preset
from tests.server.support import Player, create_table, serving

FAMILIES = {"basic": "cards", "scarne": "cards", "calcutta": "cards", "derby": "derby"}
# the end of a game, and the way from one round or race to the next, in two of each (the
# presets' 3 to 8 play the same steps again); a Northwoods game goes on until one seat is left
# in (or 50 rounds): with 40 cents a seat instead of 200 the same rules get there in fewer rounds
SHORTER: dict[str, dict[str, Any]] = {
    "advanced": {"rounds": 2},
    "basic": {"races": 2},
    "calcutta": {"races": 2},
    "classic": {"rounds": 2},
    "derby": {"races": 2, "track": "sprint"},
    "northwoods": {"starting_chips": 40},
    "scarne": {"races": 2},
}


@pytest.mark.usefixtures("quick_derby_odds")  # the table, not its odds
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_an_all_bot_table_of_every_preset_plays_to_the_end(tmp_path: Path, name: str) -> None:
    preset = get_preset(name)
    players = preset.rules.players(preset.config({}))
    kinds = bot_family(preset.rules.family).kinds
    seats = [kinds[seat % len(kinds)] for seat in range(players)]
    with serving(tmp_path / "t.db", seed=77) as client:
        table, _, summary = create_table(client, name, seats, SHORTER.get(name))
        assert summary["status"] == "playing"
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            watcher = Player(ws)
            welcome = watcher.hello()
            # the page draws the board its family names, and counts its money in its words
            assert welcome["family"] == FAMILIES.get(name, "board")
            assert welcome["money"] == ("dollars" if name == "derby" else "chips")
            last = watcher.until(lambda m: m.get("state", {}).get("status") == "over")
        assert last["state"]["result"]["winners"]
        record = parse_record(client.get(f"/api/tables/{table}/record").text)
    report = replay(record, get_preset)
    assert report.ok, report.problems
    assert record.seed == 77 and report.steps_checked == last["version"]
