"""A report can take long (a stumbling card table's exact odds: half a minute), so the progress
shows it being made instead of a finished bar that seems to hang."""

from __future__ import annotations

from typing import Any

import pytest

from horserace.drivers.simulate.runner import REPORT_STAGE, simulate_games
from horserace.families.cards.odds import book


def test_the_report_is_announced_before_it_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    exact = book.win_by_count

    def noted(config: Any) -> Any:
        seen.append("exact odds")
        return exact(config)

    monkeypatch.setattr(book, "win_by_count", noted)

    def stage(what: str, total: int) -> Any:
        seen.append(f"{what} ({total})")
        return lambda done: None

    simulate_games("scarne", {"players": 3}, 4, 1, bots=("blind",), stage_progress=stage)
    assert seen == [f"{REPORT_STAGE} (0)", "exact odds"]
