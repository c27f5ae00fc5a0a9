"""Monte Carlo over Classic: the statistics helpers, the simulation's figures, and the CLI."""

from __future__ import annotations

import json
import math
import random
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import GAME_STREAM, derive_seed
from horserace.core.stats import Z95, Proportion, RunningStats
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.runner import simulate_games
from horserace.engine import play
from horserace.families.board.odds.race import scratch_phase_odds
from horserace.families.board.rules.config import SCRATCH_LINES
from horserace.families.board.tally import (
    CHUNK_GAMES,
    KERNEL_CHUNK_GAMES,
    SimulationReport,
    exact_horse_odds,
)
from horserace.kernels import board_game
from tests.helpers import bots_for, new_game

SHORT_BOARD = Path(__file__).parents[2] / "src/horserace/families/board/boards/short-board.toml"


# --- running mean and variance ---------------------------------------------------------------


def _samples() -> list[list[float]]:
    rng = random.Random(11)
    return [
        [rng.gauss(3.0, 2.0) for _ in range(500)],
        [float(rng.randrange(100)) for _ in range(37)],
        [1e9 + rng.random() for _ in range(200)],  # offset: E[x²] - E[x]² would fail
        [5.0, 7.0],
    ]


@pytest.mark.parametrize("values", _samples())
def test_welford_matches_numpy(values: list[float]) -> None:
    stats = RunningStats.of(values)
    assert stats.count == len(values)
    assert stats.mean == pytest.approx(float(np.mean(values)), rel=1e-12)
    assert stats.variance == pytest.approx(float(np.var(values, ddof=1)), rel=1e-6)
    assert stats.std == pytest.approx(float(np.std(values, ddof=1)), rel=1e-6)


@pytest.mark.parametrize("values", _samples())
def test_merged_parts_match_numpy_on_the_whole(values: list[float]) -> None:
    cut1, cut2 = len(values) // 3, len(values) // 2
    merged = RunningStats()
    for part in (values[:cut1], values[cut1:cut2], [], values[cut2:]):
        merged.merge(RunningStats.of(part))
    assert merged.count == len(values)
    assert merged.mean == pytest.approx(float(np.mean(values)), rel=1e-12)
    assert merged.variance == pytest.approx(float(np.var(values, ddof=1)), rel=1e-6)


def test_normal_interval_is_mean_plus_minus_196_standard_errors() -> None:
    values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]  # mean 5, sample variance 32/7
    interval = RunningStats.of(values).ci95()
    assert interval is not None
    half = 1.96 * math.sqrt(32 / 7) / math.sqrt(8)
    assert interval == pytest.approx((5 - half, 5 + half), rel=1e-12)
    assert RunningStats.of([3.0]).ci95() is None
    assert RunningStats().ci95() is None
    assert RunningStats.of([3.0]).to_json() == {"count": 1, "mean": 3.0, "std": None, "ci95": None}


# --- proportions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    interval = Proportion(successes, trials).wilson95()
    assert interval == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges() -> None:
    assert Proportion(0, 0).wilson95() == (0.0, 1.0)
    low, high = Proportion(20, 20).wilson95()
    assert high == 1.0 and 0.83 < low < 0.84
    with pytest.raises(ValueError):
        Proportion(3, 2)
    assert Z95 == 1.96


# --- the simulation ------------------------------------------------------------------------------


def _small(games: int = 2 * CHUNK_GAMES + 3, seed: int = 5, workers: int = 1) -> SimulationReport:
    report: SimulationReport = simulate_games(
        "classic", {"players": 3, "rounds": 2}, games, seed, workers=workers, engine="reference"
    )
    return report


def _without_timing(report: SimulationReport) -> dict[str, Any]:
    data = report.to_json()
    del data["elapsed_seconds"], data["workers"]
    return data


def test_same_seed_gives_the_same_report_and_another_seed_does_not() -> None:
    first, again = _small(), _small()
    assert first == again
    assert _without_timing(first) == _without_timing(again)
    assert _small(seed=6) != first


def test_workers_do_not_change_the_report() -> None:
    seen: list[int] = []
    single = _small()
    parallel = simulate_games(
        "classic",
        {"players": 3, "rounds": 2},
        2 * CHUNK_GAMES + 3,
        5,
        workers=2,
        progress=seen.append,
        engine="reference",
    )
    assert parallel.workers == 2
    assert parallel == single
    assert _without_timing(parallel) == _without_timing(single)
    assert seen == sorted(seen) and seen[-1] == parallel.games


def test_progress_counts_every_chunk_in_one_process() -> None:
    seen: list[int] = []
    games = 2 * CHUNK_GAMES + 5
    options = {"players": 2, "rounds": 1}
    simulate_games("classic", options, games, 1, progress=seen.append, engine="reference")
    assert seen == [CHUNK_GAMES, 2 * CHUNK_GAMES, games]


def test_game_i_is_the_single_game_seeded_from_the_game_stream() -> None:
    seed, players = 42, 4
    options = {"players": players, "rounds": 3}
    report = simulate_games("classic", options, 1, seed, engine="reference")
    assert report.engine == "reference"
    game_seed = derive_seed(seed, GAME_STREAM, 0)
    game = new_game({"players": players, "rounds": 3}, seed=game_seed)
    play(game, bots_for(players, game_seed), SeededChance(game_seed))
    result = game.rules.result(game.state)
    chips = {standing.seat: standing.chips for standing in result.standings}
    assert [stats.mean for stats in report.seat_chips] == [chips[s] for s in range(players)]
    assert report.pot_left.mean == result.unclaimed
    assert report.steps == len(game.steps)


def test_counts_and_chips_are_conserved() -> None:
    report = simulate_games("classic", {"players": 5, "rounds": 3, "starting_chips": 40}, 30, 9)
    assert report.games == 30
    assert report.races == 30 * 3 == report.race_length.count == report.paid_per_round.count
    assert sum(p.successes for p in report.horse_wins.values()) == report.races
    assert all(p.trials == report.races for p in report.horse_wins.values())
    assert [s.count for s in report.seat_chips] == [30] * 5
    held = sum(stats.mean for stats in report.seat_chips)
    assert held == pytest.approx(5 * 40 - report.pot_left.mean, rel=1e-12)
    assert report.race_length.mean >= 1 and report.paid_per_round.mean > 0


@pytest.mark.parametrize("repeat", ["move", "reroll"])
def test_horse_win_rates_agree_with_the_exact_odds(repeat: str) -> None:
    options = {"players": 3, "rounds": 1, "repeat_scratch": repeat}
    report = simulate_games("classic", options, 300, 2024)
    remaining_all = {horse: DEFAULT_BOARD.advances_to_finish(horse) for horse in HORSES}
    exact = scratch_phase_odds(
        remaining_all, set(), SCRATCH_LINES, reroll_repeats=repeat == "reroll"
    )
    assert exact_horse_odds("classic", options) == exact
    n = report.races
    for horse, wins in report.horse_wins.items():
        sigma = math.sqrt(exact[horse] * (1 - exact[horse]) / n)
        assert abs(wins.rate - exact[horse]) <= 4 * sigma, (horse, wins.rate, exact[horse])


def test_the_exact_odds_follow_the_board_and_the_repeat_rule() -> None:
    move = exact_horse_odds("classic", {})
    reroll = exact_horse_odds("classic", {"repeat_scratch": "reroll"})
    assert sum(move.values()) == pytest.approx(1.0)
    assert sum(reroll.values()) == pytest.approx(1.0)
    assert move != reroll
    assert move[2] == pytest.approx(move[12]) and move[7] < move[2]


@pytest.mark.parametrize(
    ("preset", "options", "games", "seed", "workers"),
    [
        ("classic", {}, 0, 1, 1),
        ("classic", {}, 1, -1, 1),
        ("classic", {}, 1, 1, 0),
        ("classic", {"players": 13}, 1, 1, 1),
        ("nope", {}, 1, 1, 1),
    ],
)
def test_bad_runs_are_config_errors(
    preset: str, options: dict[str, Any], games: int, seed: int, workers: int
) -> None:
    with pytest.raises(ConfigError):
        simulate_games(preset, options, games, seed, workers=workers)


# --- the command -------------------------------------------------------------------------------


def test_json_output_is_one_object_with_every_figure() -> None:
    args = ["simulate", "classic", "--games", "4", "--players", "3", "--rounds", "2"]
    args += ["--seed", "7", "--json", "--board", str(SHORT_BOARD), "--repeat-scratch", "reroll"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("seed", "games", "races", "horses", "race_length", "paid_per_round", "seats"):
        assert key in data
    assert (data["seed"], data["games"], data["races"], data["players"]) == (7, 4, 8, 3)
    assert data["config"]["board"]["name"] == "short"
    assert data["config"]["repeat_scratch"] == "reroll"
    assert [entry["horse"] for entry in data["horses"]] == list(HORSES)
    assert sum(entry["exact"] for entry in data["horses"]) == pytest.approx(1.0)
    low, high = data["race_length"]["ci95"]
    assert low <= data["race_length"]["mean"] <= high
    assert len(data["seats"]) == 3


def test_tables_show_simulation_beside_theory_and_a_drawn_seed() -> None:
    result = CliRunner().invoke(app, ["simulate", "classic", "--games", "3", "--rounds", "1"])
    assert result.exit_code == 0, result.stderr
    for text in ("exact %", "race length", "paid into the pot", "P4", "drawn"):
        assert text in result.stdout


@pytest.mark.parametrize(
    "extra",
    [
        ["--games", "0"],
        ["--games", "2", "--players", "13"],
        ["--games", "2", "--board", "/no/such/board.toml"],
        ["--games", "2", "--repeat-scratch", "sometimes"],
        ["--games", "2", "--workers", "0"],
        ["--games", "2", "--seed", "-3"],
    ],
)
def test_bad_options_exit_2_with_one_line(extra: list[str]) -> None:
    result = CliRunner().invoke(app, ["simulate", "classic", *extra])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")


def test_unknown_preset_and_bad_board_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "derby-9", "--games", "2"])
    assert result.exit_code == 2 and "error: no such command 'derby-9'" in result.stderr
    board = tmp_path / "board.toml"
    board.write_text('name = "bad"\n[lanes]\n2 = 0\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", "classic", "--games", "2", "--board", str(board)])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert len(result.stderr.splitlines()) == 1


def test_kernel_and_engine_runs_name_their_engine_and_draw(tmp_path: Path) -> None:
    picture = tmp_path / "classic.png"
    args = ["simulate", "classic", "--games", "300", "--seed", "3", "--json"]
    result = CliRunner().invoke(app, [*args, "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["engine"] == "kernel"
    assert picture.read_bytes()[:4] == b"\x89PNG"
    result = CliRunner().invoke(app, [*args[:3], "4", *args[4:], "--engine", "reference"])
    assert json.loads(result.stdout)["engine"] == "reference"


def test_the_kernel_refuses_games_with_decisions() -> None:
    # every house rule the command line offers is compiled; seats that go out are not
    table = {"players": 4, "elimination": True, "trade_window": "after-scratch"}
    with pytest.raises(ConfigError, match="--engine reference"):
        simulate_games("classic", table, 3, 1, engine="kernel", bots=("random",))
    wrong = CliRunner().invoke(app, ["simulate", "classic", "--games", "3", "--engine", "warp"])
    assert wrong.exit_code == 2 and wrong.stderr.startswith("error: ")


def test_kernel_reports_do_not_depend_on_the_workers() -> None:
    games = 2 * KERNEL_CHUNK_GAMES + 11
    options = {"players": 3, "rounds": 2}
    one = simulate_games("classic", options, games, 8)
    two = simulate_games("classic", options, games, 8, workers=2)
    assert one == two and one.engine == "kernel" and one.games == games
    assert sum(one.length_counts) == one.races == 2 * games


def test_kernel_reports_do_not_depend_on_the_threads() -> None:
    games = KERNEL_CHUNK_GAMES + 7
    one = simulate_games("northwoods", {"players": 4}, games, 3)
    assert simulate_games("northwoods", {"players": 4}, games, 3, threads=3) == one
    with pytest.raises(ConfigError, match="--threads or --workers"):
        simulate_games("classic", {}, 10, 3, threads=2, workers=2)
    with pytest.raises(ConfigError, match="threads"):
        simulate_games("classic", {}, 10, 3, threads=0)
    with pytest.raises(ConfigError, match="only the dice board's compiled whole games"):
        simulate_games("classic", {}, 10, 3, threads=2, engine="reference")
    with pytest.raises(ConfigError, match="only the dice board's compiled whole games"):
        simulate_games("basic", {}, 10, 3, threads=2)


def test_a_run_on_threads_plays_its_kernel_blocks_on_that_many_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--threads reaches the kernel through the runner: the blocks of a chunk are played on
    the kernel's threads with two, on the run's own thread with one."""
    seen: list[str] = []
    play_games = board_game.play_games

    def recording(*args: Any) -> None:
        seen.append(threading.current_thread().name)
        play_games(*args)

    monkeypatch.setattr(board_game, "play_games", recording)
    games = 2 * board_game.BLOCK_GAMES + 5
    simulate_games("classic", {"players": 3, "rounds": 2}, games, 6)
    assert len(seen) == 1 and not seen[0].startswith("horserace-kernel")
    seen.clear()
    simulate_games("classic", {"players": 3, "rounds": 2}, games, 6, threads=2)
    assert len(seen) == 3 and all(name.startswith("horserace-kernel") for name in seen)
    assert len(set(seen)) <= 2


def test_simulate_threads_on_the_command_line() -> None:
    args = ["simulate", "classic", "-n", "9000", "--seed", "4", "--json"]
    one, two = (CliRunner().invoke(app, [*args, "--threads", n]) for n in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, two.output
    figures = [json.loads(result.stdout) for result in (one, two)]
    assert [report.pop("threads") for report in figures] == [1, 2]  # the run says how it ran
    for report in figures:
        del report["elapsed_seconds"]
    assert figures[0] == figures[1] and figures[0]["engine"] == "kernel"
    for wrong in (["--threads", "0"], ["--threads", "2", "--workers", "2"]):
        result = CliRunner().invoke(app, [*args, *wrong])
        assert result.exit_code == 2 and result.stderr.startswith("error: --threads"), wrong
    result = CliRunner().invoke(app, [*args, "--engine", "reference", "--threads", "2"])
    assert result.exit_code == 2 and result.stderr.startswith("error: --threads splits only")
    for other in (["derby", "-n", "5"], ["race", "--races", "50"]):
        result = CliRunner().invoke(app, ["simulate", *other, "--threads", "2"])
        assert result.exit_code == 2, (other, result.output)
        assert "no such option: --threads" in result.stderr, other
        help_text = CliRunner().invoke(app, ["simulate", other[0], "--help"]).stdout
        assert "--workers" in help_text and "--threads" not in help_text, other
    for offered in ("classic", "northwoods", "advanced"):
        assert "--threads" in CliRunner().invoke(app, ["simulate", offered, "--help"]).stdout


def test_northwoods_wins_and_outs_follow_the_tables_ranking() -> None:
    for engine in ("reference", "kernel"):
        report = simulate_games("northwoods", {"players": 3, "rounds": 12}, 40, 5, engine=engine)
        wins = sum(w.successes for w in report.seat_wins)
        assert report.games <= wins <= report.games * 3  # every game has a winner (or shares)
        assert any(out.successes for out in report.seat_out)  # players do go out
        seats = report.to_json()["seats"]
        assert all(0 <= s["went_out"]["successes"] <= 40 for s in seats)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_bot_kinds_edge_is_its_gain_beyond_the_others_not_beyond_zero(engine: str) -> None:
    """Chips left in Classic's pot lower every seat's gain alike, so with no decision to make
    each kind's own gain is below zero while the edge of one kind over the other is not."""
    games = 4000 if engine == "kernel" else 60
    report = simulate_games(
        "classic", {"players": 6}, games, 11, bots=("ev", "random"), engine=engine
    )
    ev, rand, edge = report.bot_results["ev"], report.bot_results["random"], report.bot_edge
    assert edge.count == games
    # three seats of each kind every game: the mean of the games' edges is the gap of the means
    assert edge.mean == pytest.approx(ev.mean - rand.mean, abs=1e-9)
    assert report.to_json()["bot_edge"]["first"] == "ev"
    if engine == "kernel":
        per_seat_loss = report.pot_left.mean / 6
        assert per_seat_loss > 0.5
        assert ev.mean < 0 and rand.mean < 0
        assert abs(edge.mean) < 4 * edge.std / math.sqrt(games)  # no decisions: no edge
