"""The whole-game kernel of the dice board game against the reference engine, on the same chance
tape: the same game seat by seat and chip by chip, the same players out, and the same final
standings (the engine's places, and the winners the simulation report counts from the kernel's
rows), over five hundred random Classic and three hundred random Northwoods tables, 2 to 12
players, on the standard board, on random lanes and on every board file the package ships."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import horserace.families.board as board_family
import horserace.kernels.board_game as board_game
from horserace.components.board import HORSES, Board, load_board
from horserace.core.chunks import Span
from horserace.families.board.tally import _kernel_span
from horserace.kernels.board_game import BoardGameSpec, GameOutcomes, replay_tape
from tests.kernels.engine_tape import EngineGame, engine_game

BATCHES, SEEDS_PER_BATCH = 5, 100  # 500 Classic games against the engine (0.5 s a batch)
# 300 Northwoods games (3.5 s of CPU a batch): each batch's players going out, shared places and
# seat counts are checked below, so a batch less loses none of what a batch shows
NORTHWOODS_BATCHES = 3
BOARD_FILES = sorted((Path(board_family.__file__).parent / "boards").glob("*.toml"))


def shipped_boards() -> list[Board]:
    """Every board file in the package's boards folder, read from disk as `--board` reads it."""
    assert BOARD_FILES, "the package ships no board file"
    return [load_board(path) for path in BOARD_FILES]


SHIPPED = shipped_boards()


def _any_board(pick: random.Random, options: dict[str, Any]) -> None:
    """A shipped board file a third of the time, random lanes a sixth, else the standard one."""
    roll = pick.random()
    if roll < 1 / 3:
        options["board"] = pick.choice(SHIPPED)
    elif roll < 1 / 2:
        lanes = {str(h): pick.randint(1, 15) for h in HORSES}
        options["board"] = {"name": "random", "lanes": lanes}


def classic_options(seed: int) -> dict[str, Any]:
    """A varied Classic table: any seat count, short purses (so payments run short), any board,
    every repeat rule, race start, payout, reset and dealer option."""
    pick = random.Random(seed)
    options: dict[str, Any] = {
        "players": pick.randint(2, 12),
        "rounds": pick.randint(1, 3),
        "starting_chips": pick.choice([0, 3, 10, 40, 100]),
        "repeat_scratch": pick.choice(["move", "reroll", "chain"]),
        "race_starts": pick.choice(["after-last-scratch", "last-scratcher", "dealer-left"]),
        "payout": pick.choice(["share", "split"]),
        "reset": pick.choice(["pass-left", "gather"]),
        "rotate_dealer": pick.random() < 0.8,
    }
    options["first_dealer"] = pick.randrange(options["players"])
    _any_board(pick, options)
    return options


def northwoods_options(seed: int) -> dict[str, Any]:
    """Northwoods tables of 2 to 12 players, purses short enough that players run out of money
    and go out, any board and repeat rule, now and then another race start, payout or dealer."""
    pick = random.Random(seed)
    options: dict[str, Any] = {
        "players": pick.randint(2, 12),
        "rounds": pick.randint(3, 25),
        "starting_chips": pick.choice([20, 45, 60, 100, 200]),
        "repeat_scratch": pick.choice(["reroll", "reroll", "move", "chain"]),
    }
    if pick.random() < 0.25:
        options["race_starts"] = pick.choice(["after-last-scratch", "last-scratcher"])
        options["payout"] = pick.choice(["share", "split"])
        options["rotate_dealer"] = pick.random() < 0.5
    options["first_dealer"] = pick.randrange(options["players"])
    _any_board(pick, options)
    return options


def table_places(chips: list[int], out_round: list[int]) -> list[int]:
    """Each seat's place as RULINGS.md ranks a table: players still in by money, below them the
    players who went out, the later out above the earlier; equal keys share the place."""

    def key(seat: int) -> tuple[int, int]:
        return (1, chips[seat]) if out_round[seat] == 0 else (0, out_round[seat])

    seats = range(len(chips))
    return [1 + sum(key(other) > key(seat) for other in seats) for seat in seats]


def report_winners(spec: BoardGameSpec, outcomes: GameOutcomes, monkeypatch: Any) -> list[int]:
    """Games won per seat as the simulation report counts them from the kernel's rows
    (`families/board/tally.py`), here for the one game in `outcomes`."""
    monkeypatch.setattr(board_game, "run_games", lambda *args, **kwargs: outcomes)
    tally = _kernel_span(spec, 0, ("random",) * spec.players, Span(0, 1))
    return list(tally.seat_wins)


def kernel_matches(played: EngineGame, monkeypatch: Any) -> GameOutcomes:
    """The kernel's game on the engine's tape is the engine's game: chips, pot, races, who went
    out and when, and the final standings."""
    spec = BoardGameSpec.from_config(played.config)
    assert spec is not None
    outcomes, used = replay_tape(spec, played.tape)
    races = int(outcomes.races[0])
    assert used == len(played.tape)
    assert outcomes.chips[0].tolist() == played.chips
    assert int(outcomes.pot_left[0]) == played.pot
    assert outcomes.winner[0, :races].tolist() == played.winners
    assert outcomes.rolls[0, :races].tolist() == played.rolls
    assert outcomes.paid[0, :races].tolist() == played.paid
    assert outcomes.out_round[0].tolist() == played.out_round
    chips, out_round = outcomes.chips[0].tolist(), outcomes.out_round[0].tolist()
    assert table_places(chips, out_round) == played.places
    won = [int(place == 1) for place in played.places]
    assert report_winners(spec, outcomes, monkeypatch) == won
    return outcomes


@pytest.mark.parametrize("batch", range(BATCHES))
def test_classic_kernel_plays_the_engines_game_seat_by_seat(batch: int, monkeypatch: Any) -> None:
    boards: set[str] = set()
    for seed in range(batch * SEEDS_PER_BATCH, (batch + 1) * SEEDS_PER_BATCH):
        options = classic_options(seed)
        kernel_matches(engine_game("classic", options, seed), monkeypatch)
        board = options.get("board")
        boards.add(board.name if isinstance(board, Board) else "")
    assert {board.name for board in SHIPPED} <= boards  # every shipped board file played


@pytest.mark.parametrize("batch", range(NORTHWOODS_BATCHES))
def test_northwoods_kernel_plays_the_engines_game_and_ranks_the_table_alike(
    batch: int, monkeypatch: Any
) -> None:
    went_out, shared, seats = 0, 0, set()
    for seed in range(batch * SEEDS_PER_BATCH, (batch + 1) * SEEDS_PER_BATCH):
        played = engine_game("northwoods", northwoods_options(seed), seed)
        kernel_matches(played, monkeypatch)
        went_out += sum(1 for r in played.out_round if r)
        shared += len(set(played.places)) < len(played.places)
        seats.add(len(played.places))
    assert went_out > 100  # the batch really tests elimination
    assert shared > 5  # and places shared by players out in the same round, or level on money
    assert min(seats) <= 3 and max(seats) >= 11


def test_the_table_ranks_the_later_out_above_the_earlier_and_level_keys_together() -> None:
    """The ranking the equality tests hold the kernel to, on a table written out by hand."""
    chips = [0, 7, 0, 7, 0, 3]
    out_round = [2, 0, 4, 0, 4, 0]
    assert table_places(chips, out_round) == [6, 1, 4, 1, 4, 3]


def test_a_table_where_everyone_goes_out_ranks_the_last_out_first(monkeypatch: Any) -> None:
    """Three players on a cent each: one goes out, and the next round the two left both end it
    with nothing (the pot split into no whole cent for them), so nobody is still in and the
    table's winners are the players who went out last, as the engine ranks them."""
    everyone_out = 0
    for seed in range(300):
        options = {"players": 3, "starting_chips": 1, "payout": "split", "rounds": 10}
        played = engine_game("northwoods", options, seed)
        kernel_matches(played, monkeypatch)
        everyone_out += all(played.out_round) and len(set(played.out_round)) > 1
    assert everyone_out >= 10
