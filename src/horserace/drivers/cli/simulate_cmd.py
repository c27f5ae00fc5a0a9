"""`horserace simulate PRESET`: many seeded games of any preset between bots, its family's
figures with 95% intervals. The options every run shares are here; the rest are the family's
(`Family.simulation()`), and the games run on the one runner (`simulate/runner.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console

from horserace.core.rng import fresh_seed
from horserace.drivers.cli.common import end_if_stopped, figures_so_far, with_progress
from horserace.families import families
from horserace.families.simulation import Simulation
from horserace.terminal.errors import fail, user_errors
from horserace.terminal.options import REQUIRED, Opt, declared, with_options


def register(simulate_app: typer.Typer) -> None:
    """One command per preset of every family that simulates."""
    for fam in families():
        simulation = fam.simulation()
        if simulation is None:
            continue
        for spec in fam.presets:
            help_line = simulation.help(spec.name, spec.summary)
            command = _command(spec.name, simulation)
            command.__doc__ = help_line
            simulate_app.command(spec.name, help=help_line)(command)


def _run_options(default_games: int | None) -> Callable[..., None]:
    """The options of every run; --games is required unless the family has a default."""
    games = REQUIRED if default_games is None else default_games
    return declared(
        Opt("--games -n", int, games, "How many games to play."),
        Opt("--seed N", int | None, None, "Table seed (drawn if omitted)."),
        Opt("--workers -w", int, 1, "Processes to play games in."),
        Opt("--json", bool, False, "Print one JSON object.", name="as_json"),
    )


def _command(preset: str, simulation: Simulation) -> Callable[..., None]:
    def simulate(run: dict[str, Any], *parts: dict[str, Any]) -> None:
        given = {name: value for part in parts for name, value in part.items()}
        games, seed, workers, as_json = run["games"], run["seed"], run["workers"], run["as_json"]
        with user_errors():
            if games < 1:
                fail(f"--games must be at least 1, not {games}")
            if workers < 1:
                fail(f"--workers must be at least 1, not {workers}")
            setup = simulation.setup(preset, given, quiet=as_json)
            table_seed = fresh_seed() if seed is None else seed

            def work(progress: Callable[[int], None] | None) -> Any:
                from horserace.drivers.simulate.runner import simulate_games

                return simulate_games(
                    preset,
                    setup.options,
                    games,
                    table_seed,
                    workers=workers,
                    progress=progress,
                    **setup.settings,
                )

            with figures_so_far():
                report = with_progress("simulating", games, not as_json, work)
            simulation.after(report, setup)
        if as_json:
            typer.echo(json.dumps(simulation.to_json(report, setup)))
        else:
            simulation.show(Console(highlight=False), report, setup, seed_given=seed is not None)
        end_if_stopped(report.games, games, "games")

    return with_options(simulate, _run_options(simulation.games_default), *simulation.options())
