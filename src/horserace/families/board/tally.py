"""Monte Carlo over whole games of the dice board game: the tally of each chunk of games, played
by the reference engine or the compiled kernel, and the report the merged tally makes.

Seats are played by a mix of bots (`--bots ev,random,...`); the mix is rotated one seat per
game so that no bot keeps the seat order's advantage, and each bot kind's chip result (final
minus starting chips) is reported with its confidence interval.

Game i of a run with seed S is exactly the single game seeded `derive_seed(S, GAME_STREAM, i)`
(bots from that game seed with BOT_STREAM, as `play` seeds them), so any game of a simulation
can be replayed alone, and the figures do not depend on how many processes ran it. Games are
tallied in fixed chunks of consecutive indices and the chunks are merged in index order, so
`workers=1` and `workers=4` give identical reports, bit for bit.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from horserace.components.board import HORSES
from horserace.core.chance import SeededChance
from horserace.core.chunks import (
    GameTally,
    Plan,
    Planned,
    RunReport,
    Span,
    check_engine,
    check_run,
)
from horserace.core.errors import ConfigError
from horserace.core.events import Event
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.core.stats import Proportion, RunningStats, merge_tally
from horserace.engine import Game, Step, play
from horserace.families import make_bot, parse_bots
from horserace.families.board.odds.race import scratch_phase_odds
from horserace.families.board.rules.config import SCRATCH_LINES, BoardConfig, board_config_dict
from horserace.families.board.rules.events import ChipsPaid, RaceWon
from horserace.families.presets import get_preset

if TYPE_CHECKING:  # the kernels import numba: only a run that uses them loads it
    from horserace.kernels.advanced_numbers import AdvancedSpec
    from horserace.kernels.board_numbers import BoardGameSpec, GameOutcomes
    from horserace.kernels.classic_numbers import ClassicSpec

    KernelSpec = BoardGameSpec | AdvancedSpec | ClassicSpec

__all__ = [
    "CHUNK_GAMES",
    "KERNEL_CHUNK_GAMES",
    "SimulationReport",
    "exact_horse_odds",
    "kernel_spec",
    "plan_games",
]

CHUNK_GAMES = 16  # games per unit of work; fixed, so results never depend on the worker count
KERNEL_CHUNK_GAMES = 20_000  # the same for the compiled kernel, which plays far more a second
ADVANCED_CHUNK_GAMES = 4_000  # the decision kernels' games (Advanced, Classic's) take longer
KERNEL_STREAM = 4  # the kernel's games draw from this stream of the run's seed
LONGEST = 400  # the race length histogram counts longer races in its last bin


@dataclass
class _Tally(GameTally):
    """The figures of some consecutive games; `merge_tally` in index order combines chunks."""

    horse_wins: list[int] = field(default_factory=lambda: [0] * len(HORSES))
    race_length: RunningStats = field(default_factory=RunningStats)
    length_counts: list[int] = field(default_factory=lambda: [0] * (LONGEST + 1))
    paid_per_round: RunningStats = field(default_factory=RunningStats)
    seat_chips: list[RunningStats] = field(default_factory=list)
    pot_left: RunningStats = field(default_factory=RunningStats)
    bot_results: dict[str, RunningStats] = field(default_factory=dict)
    bot_edge: RunningStats = field(default_factory=RunningStats)  # see SimulationReport
    seat_wins: list[int] = field(default_factory=list)  # games won (shared wins count)
    seat_out: list[int] = field(default_factory=list)  # games in which the seat went out

    def __post_init__(self) -> None:
        if not self.seat_chips:
            self.seat_chips = [RunningStats() for _ in range(self.players)]
        self.seat_wins = self.seat_wins or [0] * self.players
        self.seat_out = self.seat_out or [0] * self.players


class _RoundObserver:
    """The `observe` callback: per-round figures read from the events as the engine emits them."""

    def __init__(self, tally: _Tally) -> None:
        self.tally = tally
        self.paid_this_round = 0

    def __call__(self, step: Step) -> None:
        self.take(step.events)

    def take(self, events: tuple[Event, ...]) -> None:
        tally = self.tally
        tally.steps += 1
        for event in events:
            if isinstance(event, ChipsPaid):
                self.paid_this_round += event.paid
            elif isinstance(event, RaceWon):  # the race ends the round
                tally.races += 1
                tally.horse_wins[event.horse - HORSES[0]] += 1
                tally.race_length.add(event.rolls)
                tally.length_counts[min(event.rolls, LONGEST)] += 1
                tally.paid_per_round.add(self.paid_this_round)
                self.paid_this_round = 0


def seat_bots(bots: tuple[str, ...], index: int) -> list[str]:
    """The bot at each seat in game `index`: the mix rotated one seat per game."""
    players = len(bots)
    return [bots[(seat + index) % players] for seat in range(players)]


def _engine_span(
    preset_name: str, config: BoardConfig, seed: int, bots: tuple[str, ...], span: Span
) -> _Tally:
    """Play the span's games through the reference play loop and tally them in index order."""
    preset = get_preset(preset_name)
    rules = preset.rules
    players = rules.players(config)
    tally = _Tally(players)
    for index in range(span.start, span.stop):
        game_seed = derive_seed(seed, GAME_STREAM, index)
        game = Game(preset_name, rules, config, seed=game_seed, chance_mode="seeded")
        kinds = seat_bots(bots, index)
        agents = {
            seat: make_bot(kinds[seat], derive_seed(game_seed, BOT_STREAM, seat), "board")
            for seat in range(players)
        }
        play(game, agents, SeededChance(game_seed), tally=_RoundObserver(tally).take)
        result = rules.result(game.state)
        gains = [0] * players
        for standing in result.standings:
            tally.seat_chips[standing.seat].add(standing.chips)
            tally.seat_wins[standing.seat] += standing.place == 1
            tally.seat_out[standing.seat] += standing.out is not None
            gains[standing.seat] = gain = standing.chips - config.starting_chips
            tally.bot_results.setdefault(kinds[standing.seat], RunningStats()).add(gain)
        first = [kind == bots[0] for kind in kinds]
        if 0 < sum(first) < players:
            mine = [gain for gain, is_first in zip(gains, first, strict=True) if is_first]
            rest = [gain for gain, is_first in zip(gains, first, strict=True) if not is_first]
            tally.bot_edge.add(sum(mine) / len(mine) - sum(rest) / len(rest))
        tally.pot_left.add(result.unclaimed)
        tally.games += 1
    return tally


def _kernel_games(spec: KernelSpec, base: int, bots: tuple[str, ...], span: Span) -> GameOutcomes:
    """The span's games on the kernel that plays `spec`'s games (Advanced, or Classic with its
    house rules, with their bots, or the games without decisions)."""
    from horserace.kernels import advanced_game, board_game, classic_game

    if isinstance(spec, advanced_game.AdvancedSpec | classic_game.ClassicSpec):
        mix = advanced_game.bot_kinds(bots)
        assert mix is not None, "kernel_spec gives a decision kernel only for compiled bots"
        if isinstance(spec, classic_game.ClassicSpec):
            return classic_game.run_games(spec, base, span.start, span.stop, mix)
        return advanced_game.run_games(spec, base, span.start, span.stop, mix)
    return board_game.run_games(spec, base, span.start, span.stop)


def _kernel_span(spec: KernelSpec, seed: int, bots: tuple[str, ...], span: Span) -> _Tally:
    """The span's games on the compiled kernel, tallied with the engine path's figures."""
    outcomes = _kernel_games(spec, derive_seed(seed, KERNEL_STREAM), bots, span)
    players = spec.players
    tally = _Tally(players)
    games = span.stop - span.start
    used = np.arange(spec.rounds)[None, :] < outcomes.races[:, None]
    winners = outcomes.winner[used]
    tally.games, tally.races = games, int(winners.size)
    tally.horse_wins = [int(count) for count in np.bincount(winners, minlength=13)[2:13]]
    tally.race_length = RunningStats.of_array(outcomes.rolls[used])
    lengths = np.bincount(np.minimum(outcomes.rolls[used], LONGEST), minlength=LONGEST + 1)
    tally.length_counts = [int(count) for count in lengths]
    tally.paid_per_round = RunningStats.of_array(outcomes.paid[used])
    tally.seat_chips = [RunningStats.of_array(outcomes.chips[:, s]) for s in range(players)]
    tally.pot_left = RunningStats.of_array(outcomes.pot_left)
    # the table's ranking: players still in above those out, the later out above the earlier
    still_in = outcomes.out_round == 0
    key = np.where(still_in, outcomes.chips + (1 << 40), outcomes.out_round)
    winners = key == key.max(axis=1, keepdims=True)
    tally.seat_wins = [int(count) for count in winners.sum(axis=0)]
    tally.seat_out = [int(count) for count in (~still_in).sum(axis=0)]
    gains = outcomes.chips - spec.starting_chips
    # game i seats bots[(seat + i) % players]: the same rotation as the engine path
    at = (np.arange(players)[None, :] + np.arange(span.start, span.stop)[:, None]) % len(bots)
    seated = {
        kind: np.isin(at, [index for index, name in enumerate(bots) if name == kind])
        for kind in sorted(set(bots))
    }
    for kind, mask in seated.items():
        tally.bot_results[kind] = RunningStats.of_array(gains[mask])
    first = seated[bots[0]]
    mixed = (first.sum(axis=1) > 0) & (first.sum(axis=1) < players)
    if mixed.any():
        mine = (gains * first).sum(axis=1) / np.maximum(first.sum(axis=1), 1)
        rest = (gains * ~first).sum(axis=1) / np.maximum((~first).sum(axis=1), 1)
        tally.bot_edge = RunningStats.of_array((mine - rest)[mixed])
    return tally


def kernel_spec(config: BoardConfig, bots: tuple[str, ...] = ()) -> KernelSpec | None:
    """The compiled kernel's settings for `config` played by `bots`, or None when only the
    engine plays it: the games without decisions, and Advanced and Classic with the house rules
    and the bots they compile."""
    from horserace.kernels.advanced_game import AdvancedSpec, bot_kinds
    from horserace.kernels.board_game import BoardGameSpec
    from horserace.kernels.classic_numbers import ClassicSpec

    plain = board_config_dict(config)
    decided = AdvancedSpec.from_config(plain) or ClassicSpec.from_config(plain)
    if decided is not None:
        return decided if bot_kinds(bots) is not None else None
    return BoardGameSpec.from_config(plain)


@dataclass(frozen=True, kw_only=True)
class SimulationReport(RunReport):
    """What a simulation found (`bots`: the bot at each seat in the first game, rotated one
    seat a game)."""

    players: int
    horse_wins: dict[int, Proportion]  # per horse 2..12: races won out of all races
    race_length: RunningStats  # race rolls per race (rolls of scratched horses included)
    length_counts: tuple[int, ...]  # races of each length 0..LONGEST (the last: or longer)
    paid_per_round: RunningStats  # chips paid into the pot per round (scratch and race penalties)
    seat_chips: tuple[RunningStats, ...]  # final chips per seat, over games
    pot_left: RunningStats  # chips left in the pot when a game ends
    bot_results: dict[str, RunningStats]  # per bot kind: final minus starting chips, per seat-game
    # per game with two kinds or more: the first kind's mean gain minus the others' (chips left
    # in the pot lower every seat's gain alike, so this, not a kind's own gain, is its edge)
    bot_edge: RunningStats = field(default_factory=RunningStats)
    seat_wins: tuple[Proportion, ...] = ()  # games each seat won, by the table's ranking
    seat_out: tuple[Proportion, ...] = ()  # games each seat went out of (Northwoods)
    kernel: str | None = None  # the compiled kernel that played the games, if one did

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed_seconds if self.elapsed_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain ints, floats, strings and lists; every interval is [low, high]."""
        return {
            **self.run_json(players=self.players, kernel=self.kernel),
            "horses": [
                {"horse": horse, **wins.to_json()} for horse, wins in self.horse_wins.items()
            ],
            "race_length": self.race_length.to_json(),
            "paid_per_round": self.paid_per_round.to_json(),
            "seats": [
                {
                    "seat": seat,
                    "name": f"P{seat + 1}",
                    **chips.to_json(),
                    "wins": self.seat_wins[seat].to_json(),
                    "went_out": self.seat_out[seat].to_json(),
                }
                for seat, chips in enumerate(self.seat_chips)
            ],
            "pot_left": self.pot_left.to_json(),
            "bots": list(self.bots),
            "bot_results": {kind: stats.to_json() for kind, stats in self.bot_results.items()},
            "bot_edge": {"first": self.bots[0], **self.bot_edge.to_json()},
        }


def _board_config(preset_name: str, options: Mapping[str, Any]) -> BoardConfig:
    config = get_preset(preset_name).config(options)
    if not isinstance(config, BoardConfig):
        raise ConfigError(f"{preset_name!r} is not a dice board game")
    return config


def plan_games(
    preset_name: str,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    workers: int,
    *,
    bots: tuple[str, ...] = ("random",),
    engine: str = "auto",
) -> Planned[_Tally]:
    """`games` seeded games of a board preset between `bots`, ready to run.

    `bots` names one kind per seat (a shorter list repeats round the table). `engine` is
    "auto" (the compiled kernel when the game has no decisions, else the rules engine),
    "kernel" or "reference". Kernel game i draws from stream i of the run's kernel seed, so
    its figures too are the same whatever the number of workers (not the engine's games).
    Bad options raise ConfigError before any game is played.
    """
    config = _board_config(preset_name, options)
    check_run(games, seed, workers)
    check_engine(engine)
    players = config.players
    mix = tuple(parse_bots(",".join(bots), players, "board"))
    spec = kernel_spec(config, mix) if engine != "reference" else None
    if engine == "kernel" and spec is None:
        raise ConfigError(
            "the compiled kernels play games without decisions, Advanced Mode (with Robertson's"
            " rule, Perry's trading, both or none) and Classic with any of Husted's,"
            " Robertson's, Schellenberg's and Perry's rules; use --engine reference"
        )

    def report(total: _Tally, workers: int, started: float) -> SimulationReport:
        return SimulationReport(
            preset=preset_name,
            seed=seed,
            config=get_preset(preset_name).rules.config_to_dict(config),
            players=players,
            games=total.games,
            races=total.races,
            steps=total.steps,
            horse_wins={
                horse: Proportion(wins, total.races)
                for horse, wins in zip(HORSES, total.horse_wins, strict=True)
            },
            race_length=total.race_length,
            length_counts=tuple(total.length_counts),
            paid_per_round=total.paid_per_round,
            seat_chips=tuple(total.seat_chips),
            pot_left=total.pot_left,
            bots=mix,
            bot_results=dict(sorted(total.bot_results.items())),
            bot_edge=total.bot_edge,
            seat_wins=tuple(Proportion(wins, total.games) for wins in total.seat_wins),
            seat_out=tuple(Proportion(out, total.games) for out in total.seat_out),
            engine="kernel" if spec is not None else "reference",
            kernel=spec.name if spec is not None else None,
            workers=workers,
            elapsed_seconds=time.perf_counter() - started,
        )

    if spec is not None:
        return Planned(
            Plan(partial(_kernel_span, spec, seed, mix), merge_tally),
            ADVANCED_CHUNK_GAMES if spec.name in ("advanced", "classic") else KERNEL_CHUNK_GAMES,
            report,
            threaded=True,
        )
    plan = Plan(partial(_engine_span, preset_name, config, seed, mix), merge_tally)
    return Planned(plan, CHUNK_GAMES, report)


def exact_horse_odds(preset_name: str, options: Mapping[str, Any]) -> dict[int, float]:
    """Each horse's exact chance to win a race, before the scratch rolls (the theory to compare
    with `SimulationReport.horse_wins`; every race of a Classic game has this distribution)."""
    config = _board_config(preset_name, options)
    remaining_all = {horse: config.board.advances_to_finish(horse) for horse in HORSES}
    return scratch_phase_odds(
        remaining_all, set(), SCRATCH_LINES, reroll_repeats=config.repeat_scratch != "move"
    )
