"""What each family's full screen looks like, at 80x24 and 120x40, dark and light: a seeded
table of bots stopped at a fixed step. Update on purpose with `pytest tests/terminal
--snapshot-update` and look at the pictures it writes before committing them."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.terminal.pilot import until
from tests.terminal.tables import still_table

TABLES = {"classic": 150, "basic": 60, "derby": 120}


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("preset", sorted(TABLES))
def test_family_screen(snap_compare: Any, preset: str, size: tuple[int, int], theme: str) -> None:
    app, there = still_table(preset, TABLES[preset], theme=theme)

    async def settled(pilot: Pilot[Any]) -> None:
        await until(pilot, there.is_set)
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=size, run_before=settled)
