"""Every point of a sweep's grid is checked before anything runs: an unknown axis, a value
given twice, a bad preset, bots or engine value, or a point the run would refuse, is one line
naming the axis (or the point) and what it accepts, and exit code 2. The axes are named as
`simulate` names its options (chips, not starting_chips, which still works)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from horserace.core.errors import ConfigError
from horserace.drivers.cli import sweep_cmd
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.sweep import Sweep, expand, parse_grid

AXES = (
    "preset, players, rounds, chips, repeat_scratch, ante, trade_window, board, house, bots, engine"
)


def _refused(grid: list[str], preset: str | None = "classic") -> str:
    with pytest.raises(ConfigError) as caught:
        expand(preset, parse_grid(grid), 10, 1)
    return str(caught.value)


def test_bots_and_engine_values_are_checked_before_running() -> None:
    assert _refused(["players=2,3", "bots=random,alien"]) == (
        "grid axis bots: unknown bot kind 'alien' in 'alien'; accepted: random, heuristic, ev"
        " (one per seat joined by +, e.g. ev+random)"
    )
    assert "unknown bot kind 'robot' in 'ev+robot'" in _refused(["bots=ev+robot"])
    assert _refused(["engine=auto,warp"]) == (
        "grid axis engine: unknown engine 'warp'; accepted: auto, kernel, reference"
    )
    assert _refused(["house=none,wild"]).startswith("grid axis house: unknown house rule 'wild'")


def test_a_point_the_run_would_refuse_is_refused_before_running() -> None:
    """Values fine alone, refused together: Northwoods takes no Robertson dice, three bots do
    not fit two seats."""
    assert _refused(["preset=classic,northwoods", "house=none,robertson"], preset=None) == (
        "grid point preset=northwoods house=robertson: Robertson's four dice are for Classic and"
        " Advanced, not Northwoods"
    )
    assert _refused(["players=2,4", "bots=ev+random+heuristic"]) == (
        "grid point players=2 bots=ev+random+heuristic: 3 bots for 2 seats: name at most one"
        " per seat"
    )


def test_a_value_given_twice_in_an_axis_is_refused() -> None:
    assert _refused(["players=4,4"]) == "grid axis players gives '4' twice: each value once"
    assert _refused(["players=4,04"]) == (
        "grid axis players gives '04' twice (as '4'): each value once"
    )
    assert _refused(["bots=ev,random,ev"]) == "grid axis bots gives 'ev' twice: each value once"


def test_chips_is_the_axis_of_simulates_chips_option_and_starting_chips_still_works() -> None:
    chips = expand("classic", parse_grid(["chips=50,80"]), 10, 1)
    old = expand("classic", parse_grid(["starting_chips=50,80"]), 10, 1)
    assert [p.options for p in chips] == [p.options for p in old]
    assert [p.options for p in chips] == [{"starting_chips": 50}, {"starting_chips": 80}]
    assert chips[0].name == "chips=50"
    report = Sweep().run_local(chips[1:], 1)[0].report
    assert report is not None and report.config["starting_chips"] == 80
    assert _refused(["chips=50", "starting_chips=60"]) == (
        "grid axes chips and starting_chips set the same option: give one"
    )


def test_an_unknown_axis_lists_the_axes_a_user_types() -> None:
    assert _refused(["speed=1"]) == f"unknown grid axis 'speed'; the axes: {AXES}"
    assert _refused(["deck_count=1"]) == f"unknown grid axis 'deck_count'; the axes: {AXES}"


def test_a_bad_preset_reads_clearly() -> None:
    presets = "classic, advanced, northwoods, derby, basic, scarne, calcutta"
    assert _refused([], "nope") == f"unknown preset 'nope'; the sweep's presets: {presets}"
    assert _refused(["preset=classic,nope"], None) == (
        f"grid axis preset: unknown preset 'nope'; the sweep's presets: {presets}"
    )


def test_the_house_rules_defaults_stay_under_the_other_axes_whatever_their_order() -> None:
    """Perry's trading window defaults to after-scratch: a trade_window axis named before the
    house axis still sets it."""
    grid = ["trade_window=before-scratch", "house=perry"]
    (point,) = expand("classic", parse_grid(grid), 10, 1)
    assert point.options["trade_window"] == "before-scratch"


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (["bots=random,alien"], "error: grid axis bots: unknown bot kind 'alien'"),
        (["engine=kernel,warp"], "error: grid axis engine: unknown engine 'warp'"),
        (["players=4,4"], "error: grid axis players gives '4' twice"),
        (["speed=1"], "error: unknown grid axis 'speed'; the axes: preset, players,"),
    ],
)
def test_the_command_says_it_in_one_line_before_any_point_runs(
    grid: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("a point ran")

    monkeypatch.setattr(sweep_cmd, "_run", never)
    args = ["sweep", "classic", "--games", "5", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, *[f"--grid={item}" for item in grid]])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert result.stdout == ""
