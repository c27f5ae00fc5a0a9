"""Monte Carlo over Derby: whole games through the reference engine, and paired races on the
odds kernel to measure how often mud and accelerators change the result.

Game i of a run with seed S is exactly the single game seeded `derive_seed(S, GAME_STREAM, i)`
(bots seeded from it with BOT_STREAM), tallied in fixed chunks merged in index order, so the
report does not depend on the number of worker processes.

"How often do mud and accelerators change the winner?" is measured on paired races: the kernel
draws every race's d20s from a stream of their own, so the same races can be run again on the
same track with its mud and/or accelerator spaces paved over, on exactly the same d20s. A race
counts as changed when the paved track gives it another winner (or another podium). The paired
races are a stage of the run (`core.chunks.Stage`): once the games are in, they run on the same
workers in chunks of PAIRED_CHUNK races, race i the same whatever the chunk, merged in index
order, so they too are the same whatever the number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from horserace.core.chance import SeededChance
from horserace.core.chunks import (
    GameTally,
    Plan,
    Planned,
    RunReport,
    Span,
    Stage,
    check_engine,
    check_run,
)
from horserace.core.errors import ConfigError
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.core.stats import Proportion, RunningStats, counts_by_value, merge_tally
from horserace.engine import Agent, Game, Step, play
from horserace.families import checked_bot_kinds
from horserace.families.derby.bots import make_derby_bot
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.model import DerbyConfig
from horserace.families.derby.rules.race import DERBY_HORSES, PODIUM, start_race
from horserace.families.derby.rules.track import DerbyTrack
from horserace.families.derby.sampled_odds import simulate_races
from horserace.families.presets import get_preset

__all__ = [
    "CHUNK_GAMES",
    "PAIRED_CHUNK",
    "PAVED",
    "DerbyReport",
    "PairedReport",
    "paired_races",
    "plan_derby",
]

CHUNK_GAMES = 8
PAIRED_CHUNK = 2_500  # paired races a chunk: a few milliseconds of the kernel's, on 4 tracks
PAVED = {"no mud": (True, False), "no accelerators": (False, True), "neither": (True, True)}
PAIRED_STREAM = 3


@dataclass
class PairedTally:
    """Paired races counted: those whose winner (podium) a paved track changed, by variant, and
    the turns they took on the track and on each variant."""

    races: int = 0
    winner: dict[str, int] = field(default_factory=dict)
    podium: dict[str, int] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)


@dataclass
class _Tally(GameTally):
    SAME = ("players", "paired")  # not merged chunk by chunk: the stage after them fills it

    runs: list[int] = field(default_factory=lambda: [0] * len(DERBY_HORSES))
    placed: list[list[int]] = field(
        default_factory=lambda: [[0] * len(DERBY_HORSES) for _ in "123"]
    )
    turns: RunningStats = field(default_factory=RunningStats)
    turn_counts: dict[int, int] = field(default_factory=dict)  # races by their turns
    seat_money: list[RunningStats] = field(default_factory=list)
    bank_gain: RunningStats = field(default_factory=RunningStats)
    wagered: RunningStats = field(default_factory=RunningStats)
    paired: PairedTally | None = None

    def __post_init__(self) -> None:
        if not self.seat_money:
            self.seat_money = [RunningStats() for _ in range(self.players)]


class _Observer:
    def __init__(self, tally: _Tally) -> None:
        self.tally = tally
        self.wagered = 0

    def __call__(self, step: Step) -> None:
        tally = self.tally
        tally.steps += 1
        for event in step.events:
            if isinstance(event, ev.RaceStarted):
                for horse in event.runners:
                    tally.runs[horse - 1] += 1
            elif isinstance(event, ev.WagerPlaced):
                self.wagered += event.amount
            elif isinstance(event, ev.RaceFinished):
                tally.races += 1
                tally.turns.add(event.turns)
                tally.turn_counts[event.turns] = tally.turn_counts.get(event.turns, 0) + 1
                tally.wagered.add(self.wagered)
                self.wagered = 0
                for place, horse in enumerate(event.podium):
                    tally.placed[place][horse - 1] += 1


def _agents(bots: Sequence[str], players: int, game_seed: int) -> dict[int, Agent]:
    return {
        seat: make_derby_bot(bots[seat % len(bots)], derive_seed(game_seed, BOT_STREAM, seat))
        for seat in range(players)
    }


def _engine_span(config: DerbyConfig, bots: tuple[str, ...], seed: int, span: Span) -> _Tally:
    """The span's games through the reference play loop, tallied in index order."""
    rules = get_preset("derby").rules
    tally = _Tally(config.players)
    for index in range(span.start, span.stop):
        game_seed = derive_seed(seed, GAME_STREAM, index)
        game = Game("derby", rules, config, seed=game_seed, chance_mode="seeded")
        start_bank = game.state.bank
        agents = _agents(bots, config.players, game_seed)
        play(game, agents, SeededChance(game_seed), observe=_Observer(tally))
        for seat, money in enumerate(game.state.ledger.balances[: config.players]):
            tally.seat_money[seat].add(money)
        tally.bank_gain.add(game.state.bank - start_bank)
        tally.games += 1
    return tally


@dataclass(frozen=True)
class PairedReport:
    """The same races (same d20s) on the track and on paved versions of it."""

    races: int
    field: int
    winner_changed: dict[str, Proportion]  # by paved variant ("no mud", ...)
    podium_changed: dict[str, Proportion]
    mean_turns: dict[str, float]  # "track" and each variant

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": "kernel",  # the paired races run on the compiled race kernel
            "races": self.races,
            "field": self.field,
            "winner_changed": {k: p.to_json() for k, p in self.winner_changed.items()},
            "podium_changed": {k: p.to_json() for k, p in self.podium_changed.items()},
            "mean_turns": self.mean_turns,
        }


def paired_span(track: DerbyTrack, field: int, seed: int, span: Span) -> PairedTally:
    """Paired races span.start.. of `field` horses from the start line, on the track and on
    each paved version, every version on the same d20s (race i the same whatever the span)."""
    runners = tuple(range(1, field + 1))
    races = span.stop - span.start
    base = simulate_races(start_race(runners), track, races, seed, first=span.start)
    tally = PairedTally(races, turns={"track": int(base.turns.sum())})
    for name, (mud, accelerators) in PAVED.items():
        paved_track = track.without(mud=mud, accelerators=accelerators)
        paved = simulate_races(start_race(runners), paved_track, races, seed, first=span.start)
        tally.winner[name] = int(np.count_nonzero(paved.podium[:, 0] != base.podium[:, 0]))
        tally.podium[name] = int(np.count_nonzero((paved.podium != base.podium).any(axis=1)))
        tally.turns[name] = int(paved.turns.sum())
    return tally


def paired_report(tally: PairedTally, field: int) -> PairedReport:
    races = tally.races
    return PairedReport(
        races,
        field,
        {name: Proportion(count, races) for name, count in tally.winner.items()},
        {name: Proportion(count, races) for name, count in tally.podium.items()},
        {name: turns / races for name, turns in tally.turns.items()},
    )


def paired_races(track: DerbyTrack, field: int, races: int, seed: int) -> PairedReport:
    """Race `field` horses from the start line `races` times on the track and on each paved
    version, every version on the same d20s; count the races whose winner or podium differs."""
    return paired_report(paired_span(track, field, seed, Span(0, races)), field)


def _with_paired(tally: _Tally, paired: PairedTally) -> _Tally:
    tally.paired = paired
    return tally


@dataclass(frozen=True, kw_only=True)
class DerbyReport(RunReport):
    """What a Derby simulation found: whole games on the rules engine (the bots choose horses
    and wagers)."""

    players: int
    horse_runs: tuple[int, ...]  # races run, per horse 1..20
    horse_places: tuple[tuple[Proportion, ...], ...]  # per horse: Win, Place, Show of races run
    turns: RunningStats  # turns per race
    turn_counts: tuple[int, ...]  # races of each length in turns, 0 up to the longest
    runners: int  # horses in each race; from the start line each wins 1 in `runners`
    wagered: RunningStats  # dollars wagered per race, all seats
    seat_money: tuple[RunningStats, ...]
    bank_gain: RunningStats  # the bank's gain per game (negative: it paid out more)
    paired: PairedReport | None

    def to_json(self) -> dict[str, Any]:
        horses = [
            {
                "horse": horse,
                "runs": runs,
                **{name: places[k].to_json() for k, name in enumerate(("win", "place", "show"))},
            }
            for horse, runs, places in zip(
                DERBY_HORSES, self.horse_runs, self.horse_places, strict=True
            )
            if runs
        ]
        return {
            **self.run_json(bots=list(self.bots), players=self.players),
            "horses": horses,
            "turns_per_race": self.turns.to_json(),
            "wagered_per_race": self.wagered.to_json(),
            "seats": [
                {
                    "seat": seat,
                    "name": f"P{seat + 1}",
                    "bot": self.bots[seat % len(self.bots)],
                    **money.to_json(),
                }
                for seat, money in enumerate(self.seat_money)
            ],
            "bank_gain_per_game": self.bank_gain.to_json(),
            "paired": None if self.paired is None else self.paired.to_json(),
        }


def plan_derby(
    preset_name: str,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    workers: int,
    *,
    bots: Sequence[str] = ("random",),
    paired: int = 0,
    engine: str = "auto",
) -> Planned[_Tally]:
    """`games` seeded Derby games between bots (kinds cycle over the seats), ready to run; its
    report races `paired` paired races for the mud/accelerator comparison when `paired` > 0.
    The games have decisions, so the rules engine plays them: `engine` "auto" or "reference"
    (as the other families take it), "kernel" a ConfigError saying why."""
    preset = get_preset(preset_name)
    config = preset.config(options)
    if not isinstance(config, DerbyConfig):
        raise ConfigError(f"{preset_name!r} is not a Derby preset")
    check_run(games, seed, workers)
    if engine == "kernel":
        raise ConfigError(
            "no compiled kernel plays Derby games: the bots choose horses and wagers, which only"
            " the rules engine does; use --engine auto or reference (the paired races run on the"
            " race kernel either way)"
        )
    check_engine(engine)
    if isinstance(paired, bool) or not isinstance(paired, int) or paired < 0:
        raise ConfigError(f"paired must be a whole number >= 0, not {paired!r}")
    checked_bot_kinds(bots, "derby")

    def report(total: _Tally, workers: int, started: float) -> DerbyReport:
        pairs = None if total.paired is None else paired_report(total.paired, field_size)
        places = tuple(
            tuple(Proportion(total.placed[k][h], total.runs[h]) for k in range(PODIUM))
            for h in range(len(DERBY_HORSES))
        )
        return DerbyReport(
            preset=preset_name,
            seed=seed,
            config=preset.rules.config_to_dict(config),
            bots=tuple(bots),
            players=config.players,
            games=total.games,
            races=total.races,
            steps=total.steps,
            horse_runs=tuple(total.runs),
            horse_places=places,
            turns=total.turns,
            turn_counts=counts_by_value(total.turn_counts),
            runners=field_size - config.scratches,
            wagered=total.wagered,
            seat_money=tuple(total.seat_money),
            bank_gain=total.bank_gain,
            paired=pairs,
            workers=workers,
            elapsed_seconds=time.perf_counter() - started,
        )

    field_size = len(DERBY_HORSES) if config.all_horses else config.players
    pairs = partial(paired_span, config.track, field_size, derive_seed(seed, PAIRED_STREAM))
    stages = (Stage("paired races", Plan(pairs, merge_tally), paired, PAIRED_CHUNK, _with_paired),)
    plan = Plan(partial(_engine_span, config, tuple(bots), seed), merge_tally)
    return Planned(plan, CHUNK_GAMES, report, stages=stages if paired else ())
