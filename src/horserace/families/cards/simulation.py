"""`horserace simulate basic|scarne|calcutta`: whole card-race games on the compiled kernel
when every seat bets blind (kernels/card_race.py), else through the reference engine with the
card bots; the figures with 95% intervals beside the exact odds.

On the engine, game i of a run with seed S is the single game seeded
`derive_seed(S, GAME_STREAM, i)` (its bots seeded from that with BOT_STREAM); on the kernel,
game i draws from stream i of the run's kernel seed. Either way games are tallied in fixed
chunks merged in index order, so the report does not depend on the number of worker
processes. Beside the figures, the report carries what theory says: the chance that a horse
showing c course cards wins (over every legal course), and for the dealer's book the exact edge
of the bets actually made.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.core.chunks import Plan, Planned, RunReport, check_engine, check_run
from horserace.core.errors import ConfigError
from horserace.core.stats import Proportion, RunningStats, counts_by_value, merge_tally
from horserace.core.words import counted
from horserace.families.simulation import Setup, Simulation
from horserace.terminal.options import Opt, declared

if TYPE_CHECKING:
    from rich.console import Console

    from horserace.families.cards.rules.config import CardsConfig
    from horserace.families.cards.tally import CardsTally

__all__ = [
    "CHUNK_GAMES",
    "KERNEL_BOT",
    "KERNEL_CHUNK_GAMES",
    "SIMULATION",
    "CardsReport",
    "plan_cards",
]

CHUNK_GAMES = 8
KERNEL_CHUNK_GAMES = 5_000
KERNEL_BOT = "blind"  # every seat backs a random horse: the compiled kernel plays it


@dataclass(frozen=True, kw_only=True)
class CardsReport(RunReport):
    """What a card-race simulation found."""

    race_cards: RunningStats
    card_counts: tuple[int, ...]  # races of each length in course cards, 0 up to the longest
    wins_by_count: dict[int, Proportion]  # a horse showing c course cards won
    exact_by_count: dict[int, float]
    bet_return: RunningStats  # book: the bettor's return per chip, per bet
    bet_edge: RunningStats  # book: the exact edge of each bet when it was made
    takeout: int
    pool: RunningStats
    seat_chips: tuple[RunningStats, ...]
    unclaimed: RunningStats

    def to_json(self) -> dict[str, Any]:
        return {
            **self.run_json(bots=list(self.bots)),
            "race_cards": self.race_cards.to_json(),
            "win_by_course_count": [
                {"count": count, **wins.to_json(), "exact": self.exact_by_count.get(count)}
                for count, wins in self.wins_by_count.items()
            ],
            "book": {
                "bets": self.bet_return.count,
                "bettor_return_per_chip": self.bet_return.to_json(),
                "exact_edge_of_bets_made": self.bet_edge.to_json(),
            },
            "takeout": self.takeout,
            "pool": self.pool.to_json(),
            "seats": [
                {"seat": seat, "name": f"P{seat + 1}", "bot": self.bots[seat], **chips.to_json()}
                for seat, chips in enumerate(self.seat_chips)
            ],
            "unclaimed": self.unclaimed.to_json(),
        }


def plan_cards(
    preset_name: str,
    options: Mapping[str, Any],
    games: int,
    seed: int,
    workers: int,
    *,
    bots: Sequence[str] = ("value",),
    engine: str = "auto",
) -> Planned[CardsTally]:
    """`games` seeded games of a card-race preset, ready to run. `bots` gives the seats' kinds
    in turn (P1 the first, and round again). `engine`: "auto" (the compiled kernel when every
    seat bets blind and the table is one it plays: book, tote or party), "kernel" or
    "reference". Bad options raise ConfigError before any game."""
    from horserace.families import checked_bot_kinds
    from horserace.families.cards.odds.book import win_by_count
    from horserace.families.cards.rules.rules import CardsRules
    from horserace.families.cards.tally import engine_span
    from horserace.families.cards.tally_kernel import kernel_span
    from horserace.families.presets import get_preset

    preset = get_preset(preset_name)
    if not isinstance(preset.rules, CardsRules):
        raise ConfigError(f"{preset_name!r} is not a card-race preset")
    config: CardsConfig = preset.config(options)
    check_run(games, seed, workers)
    check_engine(engine)
    named = checked_bot_kinds(bots, "cards")
    kinds = tuple(named[seat % len(named)] for seat in range(config.players))
    kernel = engine != "reference" and set(kinds) == {KERNEL_BOT} and _kernel_plays(config)
    if engine == "kernel" and not kernel:
        raise ConfigError(
            f"the compiled kernel plays tables where every seat bets {KERNEL_BOT} (--bots"
            f" {KERNEL_BOT}) at the book, the tote or a party; use --engine reference"
        )

    def report(total: CardsTally, workers: int, started: float) -> CardsReport:
        exact: dict[int, float] = {}
        if not config.faltering:
            exact = {c: float(p) for c, p in win_by_count(config).items()}
        return CardsReport(
            preset=preset_name,
            seed=seed,
            config=preset.rules.config_to_dict(config),
            bots=kinds,
            games=total.games,
            races=total.races,
            steps=total.steps,
            race_cards=total.race_cards,
            card_counts=counts_by_value(total.card_counts),
            wins_by_count={
                c: Proportion(total.wins.get(c, 0), total.starts[c]) for c in sorted(total.starts)
            },
            exact_by_count=exact,
            bet_return=total.bet_return,
            bet_edge=total.bet_edge,
            takeout=total.takeout,
            pool=total.pool,
            seat_chips=tuple(total.seat_chips),
            unclaimed=total.unclaimed,
            engine="kernel" if kernel else "reference",
            workers=workers,
            elapsed_seconds=time.perf_counter() - started,
        )

    if kernel:
        return Planned(
            Plan(partial(kernel_span, config, seed), merge_tally), KERNEL_CHUNK_GAMES, report
        )
    plan = Plan(partial(engine_span, preset_name, config, kinds, seed), merge_tally)
    return Planned(plan, CHUNK_GAMES, report)


# The card race's own options of `simulate` besides the table's.
simulate_options = declared(
    Opt("--players N", int | None, None, "Seats (3-12)."),
    Opt(
        "--bots KINDS",
        str | None,
        None,
        "Bot kinds by seat, e.g. value,favourite,random (blind: every seat backs a random"
        " horse; the compiled kernel plays it).",
        shown="blind; value,favourite,random at a Calcutta",
    ),
    Opt(
        "--engine",
        str,
        "auto",
        "auto: the compiled kernel when every seat bets blind (book, tote, party),"
        " else the rules engine; kernel; reference: always the rules engine.",
    ),
    Opt(
        "--plot FILE.png",
        Path | None,
        None,
        "Draw win rates beside the exact odds, chips per seat, race lengths.",
        shown="no drawing",
    ),
)


class CardsSimulation(Simulation):
    def options(self) -> tuple[Callable[..., None], ...]:
        from horserace.families.cards.terminal import cards_options

        return (simulate_options, cards_options)

    def setup(self, preset: str, given: Mapping[str, Any], *, quiet: bool) -> Setup:
        from horserace.families import bot_kinds_of
        from horserace.families.cards.terminal import DEFAULT_BOTS, say_why_the_tote, table_options

        options = table_options(preset, given["players"], given)
        if not quiet:
            say_why_the_tote(preset, given)
        chosen = given["bots"] if given["bots"] is not None else KERNEL_BOT
        if given["bots"] is None and "calcutta" in (preset, options.get("betting")):
            chosen = DEFAULT_BOTS
        settings = {"bots": bot_kinds_of(chosen, "cards"), "engine": given["engine"]}
        return Setup(options, settings, {"plot": given["plot"]})

    def planner(self) -> Callable[..., Planned[Any]]:
        return plan_cards

    def show(self, console: Console, report: Any, setup: Setup, *, seed_given: bool) -> None:
        print_simulation(console, report, seed_given=seed_given)

    def draw(self, report: Any, setup: Setup, path: Path) -> None:
        from horserace.families.cards.plots import plot_simulation

        plot_simulation(report, path)


SIMULATION = CardsSimulation()


def print_simulation(console: Console, report: CardsReport, *, seed_given: bool) -> None:
    from rich.table import Table

    config = report.config
    note = "" if seed_given else " (drawn; pass --seed to repeat this run)"
    console.print(
        f"{report.preset}: {counted(report.games, 'game')}, {counted(report.races, 'race')};"
        f" {config['players']} players, betting {config['betting']}; seed {report.seed}{note}",
        markup=False,
        soft_wrap=True,
    )
    console.print(f"bots: {', '.join(report.bots)}; {report.engine} engine", markup=False)
    wins = Table(
        title="Winners by the horse's course cards: simulated vs exact", title_justify="left"
    )
    for name in ("course cards", "starts", "wins", "win %", "95% CI (Wilson)", "exact %"):
        wins.add_column(name, justify="right")
    for count, tally in report.wins_by_count.items():
        low, high = tally.wilson95()
        exact = report.exact_by_count.get(count)
        wins.add_row(
            str(count),
            str(tally.trials),
            str(tally.successes),
            f"{100 * tally.rate:.2f}%",
            f"{100 * low:.2f}% – {100 * high:.2f}%",
            "-" if exact is None else f"{100 * exact:.2f}%",
        )
    console.print(wins)
    figures = Table(title="Per race and per game", title_justify="left")
    for name in ("figure", "mean", "std dev", "95% CI", "n"):
        figures.add_column(name, justify="right" if name != "figure" else "left")
    rows = [("cards turned per race", report.race_cards)]
    if report.bet_return.count:
        rows += [
            ("book: bettor's return per chip", report.bet_return),
            ("book: exact edge of the bets made", report.bet_edge),
        ]
    if report.pool.count:
        rows.append(("pool per race", report.pool))
    rows.append(("chips not held by a player, at the end", report.unclaimed))
    for label, stats in rows:
        figures.add_row(label, *_mean_cells(stats))
    console.print(figures)
    if report.takeout:
        kept = f"kept by the bank (takeout and odd chips, less minus pools): {report.takeout} chips"
        console.print(kept, markup=False)
    seats = Table(title="Final chips per seat", title_justify="left")
    for name in ("seat", "bot", "mean", "std dev", "95% CI", "games"):
        seats.add_column(name, justify="right" if name not in ("seat", "bot") else "left")
    for seat, stats in enumerate(report.seat_chips):
        seats.add_row(f"P{seat + 1}", report.bots[seat], *_mean_cells(stats))
    console.print(seats)
    console.print(
        f"{report.elapsed_seconds:.2f} s, {counted(report.workers, 'worker')}",
        style="dim",
        markup=False,
    )


def _mean_cells(stats: RunningStats) -> list[str]:
    interval = stats.ci95()
    return [
        f"{stats.mean:.3f}" if stats.count else "-",
        f"{stats.std:.3f}" if stats.count > 1 else "-",
        f"{interval[0]:.3f} – {interval[1]:.3f}" if interval else "-",
        str(stats.count),
    ]


def _kernel_plays(config: CardsConfig) -> bool:
    from horserace.kernels.card_race import card_spec  # loads numba

    return card_spec(config) is not None
