"""Properties of every board preset under random option combinations and random bot mixes:
money conserved at every step, the same seed gives the same record, the record replays."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.drivers.bots import make_bot
from horserace.engine import Game, Step, play, replay
from horserace.families import family
from horserace.families.presets import get_preset
from tests.helpers import new_game


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(["classic", "advanced", "northwoods"]))
    low = 4 if preset == "advanced" else 2
    options: dict[str, Any] = {
        "players": draw(st.integers(low, 12)),
        "rounds": draw(st.integers(1, 2)),
        "starting_chips": draw(st.integers(0, 40)),
        "robertson": preset != "northwoods" and draw(st.booleans()),
        "rotate_dealer": draw(st.booleans()),
        "open_hands": draw(st.booleans()),
    }
    if preset != "northwoods":
        options["trade_window"] = draw(
            st.sampled_from(["none", "before-scratch", "after-each-scratch", "after-scratch"])
        )
    if preset == "advanced":
        options["ante"] = draw(st.integers(1, 3))
        options["repeat_scratch"] = draw(st.sampled_from(["chain", "move"]))
    if preset == "classic":
        options["repeat_scratch"] = draw(st.sampled_from(["move", "reroll", "chain"]))
        options["market"] = draw(st.booleans())
        if draw(st.booleans()):
            options["husted"] = True
            options["open_hands"] = False  # Husted's hands are hidden
            options["ante"] = draw(st.integers(1, 3))
    return preset, options


def played(preset: str, options: dict[str, Any], seed: int, kinds: list[str]) -> Game:
    game = new_game(options, preset=preset, seed=seed)
    players = game.rules.players(game.config)
    total = players * game.config.starting_chips

    def check(step: Step) -> None:
        ledger = game.rules.ledger(step.after)
        assert ledger.total == total, f"step {step.index}: money not conserved"

    agents = {
        seat: make_bot(kinds[seat % len(kinds)], derive_seed(seed, BOT_STREAM, seat), "board")
        for seat in range(players)
    }
    play(game, agents, SeededChance(seed), observe=check)
    return game


@settings(max_examples=30, deadline=None)
@given(
    table=tables(),
    seed=st.integers(0, 2**32),
    kinds=st.lists(st.sampled_from(family("board").bot_kinds), min_size=1, max_size=3),
)
def test_any_table_conserves_money_repeats_and_replays(
    table: tuple[str, dict[str, Any]], seed: int, kinds: list[str]
) -> None:
    preset, options = table
    first = played(preset, options, seed, kinds)
    assert first.over
    again = played(preset, options, seed, kinds)
    assert again.record() == first.record()
    report = replay(first.record(), get_preset)
    assert report.ok, report.problems
