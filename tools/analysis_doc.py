"""Regenerate docs/analysis.md and its pictures: `python3 tasks.py analysis [--scale S]` (which
runs `python -m tools.analysis_doc` from the repository's root); `--decisions` writes again
only the bots' section, from the rows `tools/decisions_grid.py` has played, and keeps the rest.

Every number and picture in that page comes from this script, run with fixed seeds, so the
page can be rebuilt and checked at any time; the bots' rows, hours of CPU in all, are played
apart by `tools/decisions_grid.py` and read from its results file.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.drivers.cli.plots import plot_sweep
from horserace.drivers.simulate.runner import run_simulation, simulate_games
from horserace.drivers.simulate.sweep import Sweep, expand, parse_grid
from horserace.families.board.odds.designer import Evaluator, design
from horserace.families.board.pictures import plot_boards
from horserace.families.board.plots import plot_races, plot_simulation
from horserace.families.board.race_simulation import RACES_ALONE
from horserace.families.board.tally import exact_horse_odds
from tools.analysis_decisions import TITLE, decisions_section
from tools.analysis_races import cards_section, derby_section

SEED = 2026
ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "analysis.md"
PICTURES = ROOT / "docs" / "analysis"


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def _timed(label: str, work: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = work()
    print(f"{label}: {time.perf_counter() - started:.1f} s", flush=True)
    return result


def luck_section(games: int) -> str:
    report = _timed(
        "classic on the kernel",
        lambda: simulate_games("classic", {"players": 6}, games, SEED, workers=2),
    )
    exact = exact_horse_odds("classic", {"players": 6})
    plot_simulation(report, exact, "chips", PICTURES / "classic.png")
    rows = "\n".join(
        f"| {h} | {100 * p.rate:.3f}% | {100 * p.wilson95()[0]:.3f}% to"
        f" {100 * p.wilson95()[1]:.3f}% | {100 * exact[h]:.3f}% |"
        for h, p in report.horse_wins.items()
    )
    length = report.race_length
    return f"""## Luck alone: Classic on the compiled kernel

{games:,} games of Classic (6 players, 8 rounds, {report.races:,} races) on the whole-game
kernel, each horse's share of the races beside its exact chance to win a round (scratch phase
included):

```sh
.venv/bin/horserace simulate classic --games {games} --players 6 --seed {SEED} --workers 2
```

| horse | won | 95% interval | exact |
|---|---|---|---|
{rows}

A race lasts {length.mean:.2f} rolls on average (exact: {exact_length():.2f}); each round
{report.paid_per_round.mean:.1f} chips go into the pot, and {report.pot_left.mean:.2f} are
left in it when the game ends.

![Classic: win rates beside the exact odds, money per seat, race length](analysis/classic.png)
"""


def exact_length() -> float:
    from horserace.families.board.odds.race import round_odds

    remaining = {h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}
    return round_odds(remaining, 4).expected_rolls


def race_section(races: int) -> str:
    report = _timed(
        "races alone",
        lambda: run_simulation(RACES_ALONE, "race", {}, races, SEED, 2, scratched=[3, 5, 7, 9]),
    )
    plot_races(report, PICTURES / "races.png")
    lines = "\n".join(
        f"| {k + 1} | {h} | {stats.mean:.3f} | {report.exact_lines[k]:.3f} |"
        f" {(k + 1) * stats.mean:.2f} |"
        for k, (h, stats) in enumerate(zip(report.scratched, report.lines, strict=True))
    )
    return f"""## Races alone: what a scratch line costs

{races:,} races from the gate with horses 3, 5, 7 and 9 on scratch lines 1 to 4 (the exact
table kernel):

```sh
.venv/bin/horserace simulate race --races {races} --scratched 3,5,7,9 --seed {SEED} --workers 2
```

| line | horse | rolls naming it per race | exact | chips per race (line value x rolls) |
|---|---|---|---|---|
{lines}

A race from there lasts {report.length.mean:.2f} rolls (exact {report.exact_length:.2f}); the
roller pays {report.chips.mean:.2f} chips per race at Classic's 1-4 a line. The middle line
costs the most: horse 7 is the likeliest roll.

![Races alone: winners beside the exact odds, rolls per line, race length](analysis/races.png)
"""


def sweep_section(games: int) -> str:
    grid = parse_grid(["players=2,4,6,8,10,12", "rounds=4,8"])
    points = expand("classic", grid, games, SEED)
    outcomes = _timed("sweep", lambda: Sweep().run_local(points, 2))
    plot_sweep(outcomes, PICTURES / "sweep.png")
    rows = []
    for outcome in outcomes:
        report = outcome.report
        assert report is not None, outcome.error
        rows.append(
            f"| {outcome.point.name} | {report.paid_per_round.mean:.1f} |"
            f" {report.pot_left.mean:.2f} | {report.seat_chips[0].mean:.1f} |"
        )
    table = "\n".join(rows)
    return f"""## More players, more rounds: a sweep

Classic with 2 to 12 players and 4 or 8 rounds, {games:,} games a point:

```sh
.venv/bin/horserace sweep classic -g players=2,4,6,8,10,12 -g rounds=4,8 --games {games} \\
  --seed {SEED} --workers 2 --out sweep.csv --plot sweep.png
```

| point | chips into the pot per round | left in the pot at the end | seat 1's final chips |
|---|---|---|---|
{table}

Five players and more play with two decks, so twice the cards of each scratched horse are in
the hands and the pot fills faster; the race itself (its length, who wins) does not depend on
the table. More rounds change little per round: the hands passed left carry no memory of luck.

![Sweep: race length, chips paid per round and win rates per point](analysis/sweep.png)

The card races (basic, scarne, calcutta) and the Derby sweep too, each on the options of its
own `simulate` (`horserace simulate basic --help`, `simulate derby --help`): `betting`,
`course_length`, `faltering`, `book` ... for the cards, `money`, `races`, `track`, `paired` ...
for the Derby; `bots` joins a seat's kinds with `+` as for the board. An axis a preset does not
take is refused before anything runs, naming the preset and the axes it takes, so presets of
several families share a grid (`-g preset=classic,basic,derby -g players=4,6`) only over the
axes they all take. Each row holds its family's report flattened: every mean with `_low` and
`_high` (the cards' `race_cards`, `book_bettor_return_per_chip`, `unclaimed`; the Derby's
`turns_per_race`, `wagered_per_race`, `bank_gain_per_game`), every rate with its Wilson
interval (`win_H`, `place_H`, `show_H` of the Derby's horses, `win_by_course_count_C` of the
cards beside its `_exact`), each seat's final money (`seats_P1` ...); a column another family's
point lacks is blank. The terminal shows a table per family: for the cards the cards turned
per race, the bettor's return per chip at the book and what the bank kept per race; for the
Derby the turns and dollars wagered per race, the bank's gain per game and the favourite. The
plot of such a sweep draws what every family has: the race length (rolls, cards turned or
turns) and each seat's final money over its starting stake.
"""


def design_section() -> str:
    evaluator = Evaluator("equal")
    found = _timed("design", lambda: design(evaluator, DEFAULT_BOARD.slots, high=30))
    printed = evaluator.figures(DEFAULT_BOARD.slots)
    plot_boards({"printed": printed, "fair": found}, PICTURES / "boards.png")
    bound = round(printed.expected_rolls, 1)
    bounded = Evaluator("short", max_rolls=bound)
    short = _timed("short design", lambda: design(bounded, DEFAULT_BOARD.slots, high=30))
    rows = "\n".join(
        f"| {h} | {printed.slots[i]} | {100 * printed.win[h]:.2f}% | {found.slots[i]} |"
        f" {100 * found.win[h]:.2f}% |"
        for i, h in enumerate(HORSES)
    )
    return f"""## A fair board

The designer searches lane lengths for equal chances to win a round (scratch phase included),
every figure exact:

```sh
.venv/bin/horserace design board --objective equal --out fair.toml --plot boards.png
```

| horse | printed slots | chance | fair slots | chance |
|---|---|---|---|---|
{rows}

The largest gap between two horses falls from {100 * printed.gap:.2f} to
{100 * found.gap:.2f} points (the score the designer lowers, the root mean square distance
of the chances from an equal share, from {100 * evaluator.measure(printed):.3f} to
{100 * evaluator.measure(found):.3f}), and a race lasts {found.expected_rolls:.2f} rolls
instead of {printed.expected_rolls:.2f}. The printed board favours 2 and 12 (their lanes are
too short for how rarely they are scratched); the fair board lengthens every lane, 2 and 12
the most ({printed.slots[0]} to {found.slots[0]} slots, against {printed.slots[5]} to
{found.slots[5]} for 7): longer lanes balance the chances more finely, at the price of a
longer race. Bounded by the printed board's race length
(`--objective short --max-rolls {bound:g}`), the designer finds lanes
{", ".join(map(str, short.slots[:6]))} (horses 2 to 7, mirrored), a race of
{short.expected_rolls:.2f} rolls and a largest gap of {100 * short.gap:.2f} points.

![The printed and the fair board: lanes and chances](analysis/boards.png)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="size of the kernel runs")
    parser.add_argument(
        "--decisions",
        action="store_true",
        help="write only the bots' section, from docs/analysis/decisions.json (nothing played)",
    )
    args = parser.parse_args()
    PICTURES.mkdir(parents=True, exist_ok=True)
    if args.decisions:
        page = DOC.read_text(encoding="utf-8")
        start = page.index(TITLE)
        end = page.index("\n## ", start) + 1
        section = decisions_section(PICTURES)
        DOC.write_text(page[:start] + section + "\n" + page[end:], encoding="utf-8")
        print(f"wrote the bots' section of {DOC}", flush=True)
        return
    sections = [
        luck_section(int(200_000 * args.scale)),
        race_section(int(4_000_000 * args.scale)),
        sweep_section(int(20_000 * args.scale)),
        design_section(),
        decisions_section(PICTURES),
        derby_section(int(600 * args.scale), int(20_000 * args.scale), SEED, PICTURES),
        cards_section(int(100_000 * args.scale), SEED, PICTURES),
    ]
    intro = f"""# Analysis: what the numbers say

Written by `python3 tasks.py analysis` (`tools/analysis_doc.py`) with seed {SEED};
every figure and picture below comes from that one run. The commands shown reproduce each
part on its own.
"""
    DOC.write_text("\n".join([intro, *sections]), encoding="utf-8")
    print(f"wrote {DOC} and {PICTURES}/", flush=True)


if __name__ == "__main__":
    main()
