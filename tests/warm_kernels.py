"""Compile the kernels the tests call into numba's cache before the tests reach them.

On a clean clone the kernels take minutes of CPU to compile, and a test worker that needs a
kernel the other worker is compiling waits for it (tests/compile_once.py), its core idle.
`python3 tasks.py test` starts two of these, one a core, beside ruff, mypy and the tests'
first folders (browsers, servers and terminals, which spend much of their time waiting): each
compiles half of the kernel families by playing a game or a race of each the way the tests do
(a replayed tape and a run), so the tests load them from the cache. A test that arrives while
its kernel is being compiled waits for that compile under the same lock instead of starting
its own: `python -m tests.warm_kernels classic board` (no family: all of them; `--half 0` or
`--half 1`: one of HALVES).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from tests.compile_once import compile_once


def _config(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    from horserace.families.presets import get_preset

    chosen = get_preset(preset)
    return chosen.rules.config_to_dict(chosen.config(options))


def _decided(kernel: Any, spec: Any) -> None:
    """The Classic or Advanced kernel: a game from an empty tape (its random game) and a run."""
    from horserace.kernels.advanced_numbers import bot_kinds

    assert spec is not None
    mix = bot_kinds(["random", "heuristic", "ev", "ev"])
    kernel.replay_tape(spec, mix, [])
    kernel.run_games(spec, 1, 0, 2, mix, threads=1)


def classic() -> None:
    from horserace.kernels import classic_game
    from horserace.kernels.classic_numbers import ClassicSpec

    options = {"players": 4, "husted": True, "open_hands": False, "ante": 1}
    _decided(classic_game, ClassicSpec.from_config(_config("classic", options)))


def advanced() -> None:
    from horserace.kernels import advanced_game
    from horserace.kernels.advanced_numbers import AdvancedSpec

    _decided(advanced_game, AdvancedSpec.from_config(_config("advanced", {"players": 4})))


def board() -> None:
    from horserace.kernels import board_game

    spec = board_game.BoardGameSpec.from_config(_config("classic", {"players": 4}))
    assert spec is not None
    board_game.replay_tape(spec, [])
    board_game.run_games(spec, 1, 0, 2)


def cards() -> None:
    from horserace.families.presets import get_preset
    from horserace.kernels import card_race

    spec = card_race.card_spec(get_preset("basic").config({}))
    assert spec is not None
    card_race.replay_tape(spec, [])
    card_race.run_games(spec, 1, 0, 2)


def derby() -> None:
    from horserace.families.derby.rules.race import start_race
    from horserace.families.derby.rules.track import DEFAULT_TRACK
    from horserace.kernels import derby_race
    from horserace.kernels.derby_fast import run_races

    start = derby_race.race_start(start_race((1, 2, 3, 4)))
    run_races(start, DEFAULT_TRACK, 1, 0, 2)
    derby_race.run_reference(start, DEFAULT_TRACK, 1, 0, 2)
    derby_race.replay_tape(start, DEFAULT_TRACK, [])


def board_race() -> None:
    from horserace.components.board import DEFAULT_BOARD
    from horserace.families.board.race_tally import race_start
    from horserace.kernels.board_race import METHODS, run_races

    for method in METHODS:
        run_races(race_start(DEFAULT_BOARD, [], {}), 1, 0, 2, method)


FAMILIES: dict[str, Callable[[], None]] = {
    "advanced": advanced,
    "derby": derby,
    "board-race": board_race,
    "classic": classic,
    "board": board,
    "cards": cards,
}
# two halves of about the same compile, one a core. CPU seconds from nothing, one process
# compiling the families in turn (a later family loads what an earlier one shares with it):
# derby 14, advanced 53, board-race 2, classic 33, board 8, cards 8; the two halves side by
# side on one empty cache, 64 and 59. The Advanced kernel alone is nearly half, so it goes
# with the cards; the Derby's first in the other half: the suite's first folders (browsers,
# servers, terminals) work out Derby odds on its compiled loop, and a `horserace serve` a test
# starts takes no compile lock: one that finds the loop not yet cached compiles it on its own
# (about 19 s of CPU; 1.3 s from the cache).
HALVES = (("derby", "classic", "board", "board-race"), ("advanced", "cards"))


def main(names: list[str]) -> None:
    if names[:1] == ["--half"]:
        names = list(HALVES[int(names[1])])
    compile_once()
    for name in names or list(FAMILIES):
        FAMILIES[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
