"""A server makes every family's live odds ready on a thread at start-up, so that the first
table to ask for them does not wait for a kernel to compile on the event loop."""

from __future__ import annotations

from horserace.drivers.server.messages import prepare_live_odds
from horserace.families import families


def test_preparing_the_odds_compiles_the_derby_kernel() -> None:
    from horserace.kernels import derby_fast

    prepare_live_odds()
    assert derby_fast.run_fast.signatures  # compiled (or loaded from the cache) for the odds' types
    assert {each.name for each in families()} == {"board", "cards", "derby"}
