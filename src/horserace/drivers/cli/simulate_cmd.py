"""`horserace simulate PRESET`: many seeded games of any preset between bots, its family's
figures with 95% intervals. The options every run shares are here; the rest are the family's
(`Family.simulation()`), and the games run on the one runner (`simulate/runner.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console

from horserace.core.chunks import check_threads
from horserace.core.rng import fresh_seed
from horserace.drivers.cli.common import end_if_stopped, figures_so_far, with_progress
from horserace.families import families
from horserace.families.simulation import Simulation
from horserace.terminal.errors import fail, user_errors
from horserace.terminal.options import REQUIRED, Opt, declared, with_options
from horserace.terminal.pictures import check_picture_path


def register(simulate_app: typer.Typer) -> None:
    """One command per preset of every family that simulates, and one per other simulation a
    family offers (`simulate race`)."""
    for fam in families():
        simulation = fam.simulation()
        named = [] if simulation is None else [(s.name, s.summary, simulation) for s in fam.presets]
        named += [(name, "", other) for name, other in fam.other_simulations().items()]
        for name, summary, each in named:
            help_line = each.help(name, summary)
            command = _command(name, each)
            command.__doc__ = help_line
            simulate_app.command(name, help=help_line)(command)


THREADS = Opt(
    "--threads N",
    int,
    1,
    "Threads of one process for the compiled whole-game kernel (games between bots without"
    " decisions, --engine auto or kernel); not with --workers. The same figures for any number.",
)


def _run_options(counts: str, default: int | None, threads: bool) -> Callable[..., None]:
    """The options of every run; --games (or --races) is required unless there is a default.
    --threads only where a kernel can split its chunks over threads (Classic, Northwoods)."""
    count = REQUIRED if default is None else default
    return declared(
        Opt(f"--{counts} -n", int, count, f"How many {counts} to run."),
        Opt("--seed N", int | None, None, "Table seed.", shown="a fresh one, printed"),
        Opt("--workers -w", int, 1, "Processes to run them in."),
        *((THREADS,) if threads else ()),
        Opt("--json", bool, False, "Print one JSON object.", name="as_json"),
    )


def _command(name: str, simulation: Simulation) -> Callable[..., None]:
    counts = simulation.counts

    def simulate(run: dict[str, Any], *parts: dict[str, Any]) -> None:
        given = {name: value for part in parts for name, value in part.items()}
        games, seed, workers, as_json = run[counts], run["seed"], run["workers"], run["as_json"]
        threads = run.get("threads", 1)
        with user_errors():
            if games < 1:
                fail(f"--{counts} must be at least 1, not {games}")
            if workers < 1:
                fail(f"--workers must be at least 1, not {workers}")
            check_threads(threads, workers)
            setup = simulation.setup(name, given, quiet=as_json)
            if setup.extra.get("plot") is not None:
                check_picture_path(setup.extra["plot"])  # before the run, not after it
            table_seed = fresh_seed() if seed is None else seed

            def work(
                progress: Callable[[int], None] | None,
                stage_progress: Callable[[str, int], Callable[[int], None]] | None,
            ) -> Any:
                from horserace.drivers.simulate.runner import run_simulation

                return run_simulation(
                    simulation,
                    name,
                    setup.options,
                    games,
                    table_seed,
                    workers,
                    progress,
                    threads,
                    stage_progress,
                    **setup.settings,
                )

            with figures_so_far() as stops:
                report = with_progress("simulating", games, not as_json, work)
            simulation.after(report, setup)
        if as_json:
            typer.echo(json.dumps(simulation.to_json(report, setup)))
        else:
            simulation.show(Console(highlight=False), report, setup, seed_given=seed is not None)
        end_if_stopped(stops)

    run_options = _run_options(counts, simulation.games_default, simulation.offers_threads(name))
    return with_options(simulate, run_options, *simulation.options())
