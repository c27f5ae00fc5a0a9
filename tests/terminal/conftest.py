"""The Derby's live odds in the full-screen tests: each test has a `LiveOdds` of its own, worked
out from a few thousand races (`quick_derby_odds`) unless the test reads the precise figures
(marked `precise_derby_odds`), and the positions still waiting for their odds are dropped as it
ends. A Derby board queues its position's precise and refined odds (seconds of CPU each) on a
thread that went on working for the global `LIVE` through the tests that came after, which
never read them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from horserace.families.derby import live_odds


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "precise_derby_odds: the test reads the Derby's precise odds (millions of races)"
    )


@pytest.fixture(autouse=True)
def _derby_odds_of_its_own(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    if request.node.get_closest_marker("precise_derby_odds") is None:
        request.getfixturevalue("quick_derby_odds")
    else:
        monkeypatch.setattr(live_odds, "LIVE", live_odds.LiveOdds())
    yield
    live_odds.LIVE.forget_waiting()  # the test's own, or one it set itself
