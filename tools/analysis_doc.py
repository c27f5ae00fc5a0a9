"""Regenerate docs/analysis.md and its pictures: `python3 tasks.py analysis [--games N]` (which
runs `python -m tools.analysis_doc` from the repository's root); `--rows robertson` plays
again only the bots' rows of that rule and keeps the rest of the page.

Every number and picture in that page comes from this one script, run with fixed seeds, so
the page can be rebuilt and checked at any time. It takes several minutes at full size (the
bots' rows play whole games on the reference engine); `--games` scales those rows down.
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
from horserace.families.board.plots import plot_edges, plot_races, plot_simulation
from horserace.families.board.race_simulation import RACES_ALONE
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.house import house_options
from horserace.families.board.tally import SimulationReport, exact_horse_odds, kernel_spec
from horserace.families.presets import get_preset
from tools.analysis_races import cards_section, derby_section

SEED = 2026
ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "analysis.md"
PICTURES = ROOT / "docs" / "analysis"

# (preset, options shown, options, bots): the decisions' worth, bot against bot
BOT_ROWS: list[tuple[str, str, dict[str, Any], str]] = [
    ("advanced", "(6 players, ante 1, Chain Penalty Scratch)", {}, "ev,random"),
    ("advanced", "", {}, "heuristic,random"),
    ("advanced", "", {}, "ev,heuristic"),
    ("advanced", "--repeat-scratch move", {"repeat_scratch": "move"}, "ev,random"),
    ("advanced", "--house robertson", house_options("robertson"), "ev,random"),
    ("classic", "--house robertson", house_options("robertson"), "ev,random"),
    ("advanced", "--house robertson", house_options("robertson"), "heuristic,random"),
    ("classic", "--house robertson", house_options("robertson"), "heuristic,random"),
    ("classic", "(6 players)", {}, "ev,random"),
    ("northwoods", "(4 players, cents)", {}, "ev,random"),
    ("classic", "--house perry", house_options("perry"), "ev,random"),
    ("classic", "--house perry", house_options("perry"), "ev,heuristic"),
    ("advanced", "--house perry", house_options("perry"), "ev,random"),
    ("classic", "--house schellenberg", house_options("schellenberg"), "ev,random"),
    ("classic", "--house schellenberg", house_options("schellenberg"), "ev,heuristic"),
    ("classic", "--house husted", house_options("husted"), "ev,random"),
    ("classic", "--house husted", house_options("husted"), "heuristic,random"),
    ("classic", "--house husted", house_options("husted"), "ev,heuristic"),
]


KERNEL_GAMES = 100_000  # games of each row a compiled kernel plays (the engine's: --games)
BOTS_TITLE = "## How much do the choices matter?"


def _edge(report: SimulationReport) -> tuple[float, float, float]:
    """The first kind's edge over the other per game, with its 95% interval."""
    stats = report.bot_edge
    low, high = stats.ci95() or (stats.mean, stats.mean)
    return stats.mean, low, high


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


def on_kernel(preset: str, options: dict[str, Any], bots: str) -> bool:
    """Whether a compiled kernel plays this row's games (the engine's very games, proven equal
    by the kernels' tests)."""
    config = get_preset(preset).config(options)
    assert isinstance(config, BoardConfig)
    return kernel_spec(config, tuple(bots.split(","))) is not None


def _row_start(preset: str, shown: str, bots: str) -> str:
    """The start of a bots' row of the page's table: its rules and its bots."""
    label = f"`{preset}{' ' + shown if shown.startswith('--') else ''}`"
    note = f" {shown}" if shown.startswith("(") else ""
    return f"| {label}{note} | {bots.replace(',', ' vs ')} |"


def _row_on_page(start: str) -> tuple[str, tuple[float, float, float, float, float], int]:
    """A row as the page holds it: its line, its figures (gains, edge, interval) and the games
    a kernel played of it (0: the engine played it)."""
    line = next(
        line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith(start)
    )
    cells = [cell.strip() for cell in line[len(start) :].split("|")]
    low, high = cells[3].split(" to ")
    figures = (float(cells[0]), float(cells[1]), float(cells[2]), float(low), float(high))
    kernel_games = int(cells[4].split()[0].replace(",", "")) if "kernel)" in cells[4] else 0
    return line, figures, kernel_games


def _bots_row(
    preset: str, shown: str, options: dict[str, Any], bots: str, games: int, kernel_games: int
) -> tuple[str, tuple[float, float, float], int]:
    """One bots' row played: its figures' cells, its edge and interval, and the games a kernel
    played of it (0: the engine played it)."""
    kernel = on_kernel(preset, options, bots)
    report = _timed(
        f"{preset} {shown} {bots}",
        lambda: simulate_games(
            preset,
            options,
            kernel_games if kernel else games,
            SEED,
            workers=2,
            bots=tuple(bots.split(",")),
            engine="auto" if kernel else "reference",
        ),
    )
    first, second = bots.split(",")
    gain, other = report.bot_results[first].mean, report.bot_results[second].mean
    edge, low, high = _edge(report)
    played = f"{report.games:,} ({report.kernel} kernel)" if report.kernel else f"{games:,}"
    cells = (
        f"{_signed(gain)} | {_signed(other)} | {_signed(edge)} | {_signed(low)} to"
        f" {_signed(high)} | {played} |"
    )
    return cells, (edge, low, high), report.games if kernel else 0


def _fewer_note(rows: list[str]) -> str:
    """Which kernel rows played another number of games, and how many, if any."""
    return f" (but {'; '.join(rows)})" if rows else ""


def bots_section(games: int, replay: str | None = None, kernel_games: int = KERNEL_GAMES) -> str:
    """The bots' rows, each played (or, with `replay`, only the rows whose rules name it and
    those the page lacks; the others as the page holds them); a kernel plays `kernel_games`."""
    rows = []
    labels: list[str] = []
    edges: list[float] = []  # in BOT_ROWS order
    intervals: list[tuple[float, float]] = []
    widest = 0.0  # the widest half interval of a kernel row in chips
    fewer: list[str] = []  # kernel rows of other than KERNEL_GAMES games
    page = DOC.read_text(encoding="utf-8")  # a row the page lacks is played whatever `replay`
    for preset, shown, options, bots in BOT_ROWS:
        start = _row_start(preset, shown, bots)
        if replay is not None and replay not in shown and start in page:
            line, (_, _, edge, low, high), kernel = _row_on_page(start)
            rows.append(line)
        else:
            line, (edge, low, high), kernel = _bots_row(
                preset, shown, options, bots, games, kernel_games
            )
            rows.append(f"{start} {line}")
        if kernel and preset != "northwoods":  # (Northwoods counts cents, not chips)
            widest = max(widest, (high - low) / 2)
        if kernel and kernel != KERNEL_GAMES:
            fewer.append(f"`{preset} {shown}` {bots.replace(',', ' vs ')}: {kernel:,}")
        edges.append(edge)
        intervals.append((low, high))
        cents = " (cents)" if preset == "northwoods" else ""
        rules = f" {shown}" if shown.startswith("--") else cents
        labels.append(f"{preset}{rules}: {bots.replace(',', ' vs ')}")
    plot_edges(labels, edges, intervals, PICTURES / "decisions.png")
    table = "\n".join(rows)

    def at(preset: str, rule: str, bots: str) -> int:
        """The row of a preset, house rule ('' none) and bots."""
        return next(
            index
            for index, (name, shown, _, played) in enumerate(BOT_ROWS)
            if (name, played) == (preset, bots)
            and (shown == f"--house {rule}" if rule else not shown.startswith("--"))
        )

    ev_adv, heur_adv = (
        edges[at("advanced", "", "ev,random")],
        edges[at("advanced", "", "heuristic,random")],
    )
    ev_heur = edges[at("advanced", "", "ev,heuristic")]
    rob = {
        (preset, bots): edges[at(preset, "robertson", bots)]
        for preset in ("classic", "advanced")
        for bots in ("ev,random", "heuristic,random")
    }
    perry, perry_h = (
        edges[at("classic", "perry", "ev,random")],
        edges[at("classic", "perry", "ev,heuristic")],
    )
    market = edges[at("classic", "schellenberg", "ev,random")]
    market_h = edges[at("classic", "schellenberg", "ev,heuristic")]
    husted, husted_h = (
        edges[at("classic", "husted", "ev,random")],
        edges[at("classic", "husted", "ev,heuristic")],
    )
    # Classic and Northwoods: no decisions at all
    luck = [intervals[at("classic", "", "ev,random")], intervals[at("northwoods", "", "ev,random")]]
    missed = [
        name
        for name, (low, high) in zip(("Classic", "Northwoods"), luck, strict=True)
        if low > 0 or high < 0
    ]
    luck_note = (
        "both edges' intervals hold zero, as they should"
        if not missed
        else f"the {' and '.join(missed)} edge's interval misses zero: with no decision to make"
        " this is chance, which a 95% interval allows one row in twenty"
    )
    return f"""{BOTS_TITLE}

Advanced Mode and the house rules add decisions. The bots measure what those are worth: each
line plays whole games (8 rounds, 100 starting chips; Northwoods 4 players, $2.00 each), the
bot kinds alternating round the table and the seats rotated one place per game. A kind's gain
is its mean chips won (final minus starting) per seat and game. Chips left in the pot at the
end belong to nobody and lower every seat's gain alike, so the figure to read is the edge: per
game, the first kind's mean gain minus the second's, with the 95% interval over games.

Where a compiled kernel plays the games (the rows that name one: Advanced Mode and Classic
with the house rules the kernels compile, their random, heuristic and EV bots compiled too;
plain Classic and Northwoods, where no bot has anything to choose), a row is
{KERNEL_GAMES:,} games{_fewer_note(fewer)}: the kernels play the engine's very games, decisions
included (their tests compare them chip by chip and pick by pick), and every such row's edge
in chips is known to within ±{widest:.2f}. The other house rules' rows play {games:,} games on
the reference engine.

```sh
.venv/bin/horserace simulate advanced --games {KERNEL_GAMES} --bots ev,random --seed {SEED} \\
  --workers 2
.venv/bin/horserace simulate classic --house perry --games {games} --bots ev,random \\
  --seed {SEED} --workers 2 --engine reference
```

| preset and rules | bots | first's gain | second's gain | edge | edge's 95% CI | games |
|---|---|---|---|---|---|---|
{table}

![The edge of each row with its 95% interval](analysis/decisions.png)

Reading it:

- **In Advanced Mode the EV bot's edge over random play is {ev_adv:.1f} chips a game** (from
  100 starting chips, over 8 rounds); the rule-of-thumb heuristic bot's is already
  {heur_adv:.1f}. Looking ahead with the exact race odds is an edge of {ev_heur:.2f} over the
  heuristic.
- **Robertson's four dice are the biggest lever**: choosing the pairing is an edge of
  {rob["classic", "ev,random"]:.1f} chips a game for the EV bot over random pairings in Classic
  and, with the Advanced choices, {rob["advanced", "ev,random"]:.1f}; the heuristic's rule of
  thumb (pair for the horses one holds, away from scratched ones) takes
  {rob["classic", "heuristic,random"]:.1f} and {rob["advanced", "heuristic,random"]:.1f}.
- **Classic and Northwoods have no decisions**: every bot only rolls, so those rows measure
  luck alone; {luck_note}. Both kinds' gains there are below zero by the chips left in the
  pot.
- **Perry's trading window** is an edge of {perry:+.1f} chips a game for the EV bot over
  random traders in Classic, and {perry_h:+.1f} over the heuristic bot, which never offers:
  the gain is taken from careless traders.
- **Schellenberg's market and Husted's betting punish careless play**: the EV bot's edge over
  random bots is {market:.0f} and {husted:.0f} chips a game, over the heuristic bot (which
  never buys and never raises) {market_h:+.1f} and {husted_h:+.1f}.

The bots see only their own seat's view (`src/horserace/families/board/bots.py`).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per bots' row")
    parser.add_argument("--scale", type=float, default=1.0, help="size of the kernel runs")
    parser.add_argument(
        "--rows",
        help="play again only the bots' rows whose rules name this (e.g. robertson); the rest"
        " of the page stays as it is",
    )
    parser.add_argument(
        "--kernel-games",
        type=int,
        default=KERNEL_GAMES,
        help="games of each row --rows plays on a kernel (the page says so beside the rows)",
    )
    args = parser.parse_args()
    PICTURES.mkdir(parents=True, exist_ok=True)
    if args.rows:
        page = DOC.read_text(encoding="utf-8")
        start = page.index(BOTS_TITLE)
        end = page.index("\n## ", start) + 1
        section = bots_section(args.games, args.rows, args.kernel_games)
        DOC.write_text(page[:start] + section + "\n" + page[end:], encoding="utf-8")
        print(f"wrote the bots' section of {DOC}", flush=True)
        return
    sections = [
        luck_section(int(200_000 * args.scale)),
        race_section(int(4_000_000 * args.scale)),
        sweep_section(int(20_000 * args.scale)),
        design_section(),
        bots_section(args.games),
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
