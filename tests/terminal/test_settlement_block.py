"""A round's settlement in one block: the race's result is held at the payout, not at the
crossing (the payout used to come after the popup closed, under the next round's first
question), with the pots' lines and a row a seat: what it collects, its chips, and the round's
gain or loss."""

from __future__ import annotations

import re

from horserace.terminal.screen import to_plain
from tests.terminal.pilot import holding, press, run, until
from tests.terminal.tables import table

ROW = re.compile(r"^(P\d)\s+(-|\d+)\s+(\d+)\s+([+±-]\d+)$")


def test_the_race_is_held_with_its_payout_and_every_seats_money() -> None:
    app, game, screen = table("advanced", options={"players": 4, "rounds": 2})
    screen.auto_continue = None  # held until Enter, as `play` has it

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: holding(app) is not None)
            held = holding(app)
            assert held is not None and held.heading == "The race is run"
            body = to_plain(held.body, 76).splitlines()
            payout = game.steps[-1].events  # the step held: the payout, the round not over
            kinds = [event["type"] for event in payout]
            assert "pot-shared" in kinds and "round-started" not in kinds
            assert any("crosses the finish line" in line for line in body)
            assert any(line.startswith("Horse ") and " wins: pot " in line for line in body)
            collects = [0] * 4
            for event in payout:
                if event["type"] in ("payout", "jockey-pot-won"):
                    collects[event["seat"]] += event["amount"]
            chips = game.rules.view(game.state, None).chips
            start = game.config.starting_chips
            rows = [match.groups() for line in body if (match := ROW.match(line.strip()))]
            assert rows == [
                (
                    f"P{seat + 1}",
                    str(collects[seat]) if collects[seat] else "-",
                    str(chips[seat]),
                    f"{'+' if chips[seat] > start else '-' if chips[seat] < start else '±'}"
                    f"{abs(chips[seat] - start)}",
                )
                for seat in range(4)
            ]
            assert sum(collects) > 0
            await press(pilot, "ctrl+c")

    run(scenario)
