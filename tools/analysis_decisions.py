"""The bots' section of docs/analysis.md, "How much do the choices matter?", written from the
results `tools/decisions_grid.py` keeps in docs/analysis/decisions.json: a table at 6 players,
one by player count, their pictures and the reading. Nothing is played here; a row the file
does not hold yet is shown as not yet played."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from horserace.families.board.plots import plot_edges, plot_edges_by_players
from tools.decisions_grid import BOTS, GAMES, PLAYERS, RESULTS, RULES, SEED, Row, grid, load

TITLE = "## How much do the choices matter?"
NOT_PLAYED = "not yet played"
KEEP = "\0"  # a space the reading's lines are not broken at
# the 6-player table's groups, top to bottom: (preset, rule, other options)
GROUPS: list[tuple[str, str, tuple[tuple[str, Any], ...]]] = [
    ("advanced", "", ()),
    ("advanced", "", (("repeat_scratch", "move"),)),
    ("advanced", "robertson", ()),
    ("advanced", "perry", ()),
    ("classic", "", ()),
    ("northwoods", "", ()),
    ("classic", "robertson", ()),
    ("classic", "perry", ()),
    ("classic", "schellenberg", ()),
    ("classic", "husted", ()),
]


def _rules(row: Row) -> str:
    """The row's preset and options as `simulate` takes them, without players and bots."""
    return row.key.split(" --players ")[0]


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def _interval(held: dict[str, Any]) -> str:
    return f"{_signed(held['low'])} to {_signed(held['high'])}"


def _main_rows() -> list[Row]:
    """The grid's rows at 6 players (Northwoods: its 4), in the page's order."""
    rows = [row for row in grid() if row.players == 6 or row.preset == "northwoods"]
    order = {(preset, rule, extra): index for index, (preset, rule, extra) in enumerate(GROUPS)}
    return sorted(
        rows, key=lambda row: (order[row.preset, row.rule, row.extra], BOTS.index(row.bots))
    )


def _table_line(row: Row, held: dict[str, Any] | None) -> str:
    note = {"northwoods": " (4 players, cents)", "classic": " (no decision)"}.get(row.preset, "")
    start = f"| `{_rules(row)}`{note if not row.rule else ''} | {row.bots.replace(',', ' vs ')} |"
    if held is None:
        return f"{start} {NOT_PLAYED} | | | | | |"
    first, second = row.bots.split(",")
    cpu = "(not recorded)*" if held["cpu_seconds"] is None else f"{held['cpu_seconds']:,.0f}"
    return (
        f"{start} {_signed(held['gains'][first])} | {_signed(held['gains'][second])} |"
        f" {_signed(held['edge'])} | {_interval(held)} |"
        f" {held['games']:,} ({held['kernel']} kernel) | {cpu} |"
    )


def _by_players(results: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The table of every rule and pairing by player count, and the picture's figures."""
    counts = sorted(PLAYERS)
    head = " | ".join(f"{n} players" for n in counts)
    lines = [f"| preset and rules | bots | {head} |", "|---|---|" + "---|" * len(counts)]
    panels: dict[str, dict[str, dict[int, tuple[float, float, float]]]] = {}
    for preset, rule in RULES:
        for bots in BOTS:
            cells = []
            panel = panels.setdefault(bots.replace(",", " over "), {})
            drawn = panel.setdefault(f"{preset} {rule}".strip(), {})
            for players in counts:
                held = results.get(Row(preset, rule, players, bots).key)
                if held is None:
                    cells.append(NOT_PLAYED)
                    continue
                cells.append(f"{_signed(held['edge'])} ({_interval(held)})")
                drawn[players] = (held["edge"], held["low"], held["high"])
            house = f" --house {rule}" if rule else ""
            lines.append(
                f"| `{preset}{house}` | {bots.replace(',', ' vs ')} | {' | '.join(cells)} |"
            )
    return "\n".join(lines), panels


class _Figures:
    """The edges the reading quotes, each as the page prints it or as not yet played."""

    def __init__(self, results: dict[str, dict[str, Any]]) -> None:
        self.results = results

    def held(self, preset: str, rule: str, bots: str, players: int = 6) -> dict[str, Any] | None:
        return self.results.get(Row(preset, rule, players, bots).key)

    def __call__(self, preset: str, rule: str, bots: str, players: int = 6) -> str:
        held = self.held(preset, rule, bots, players)
        shown = (
            f"({NOT_PLAYED})" if held is None else f"{_signed(held['edge'])} ({_interval(held)})"
        )
        return shown.replace(" ", KEEP)  # one figure is never split across lines


def decisions_section(pictures: Path, path: Path = RESULTS) -> str:
    """The whole section, its two pictures drawn into `pictures`."""
    results = load(path)
    rows = _main_rows()
    table = "\n".join(_table_line(row, results.get(row.key)) for row in rows)
    played = [(row, results[row.key]) for row in rows if row.key in results]
    plot_edges(
        [f"{_rules(row)}: {row.bots.replace(',', ' vs ')}" for row, _ in played],
        [held["edge"] for _, held in played],
        [(held["low"], held["high"]) for _, held in played],
        pictures / "decisions.png",
    )
    players_table, panels = _by_players(results)
    plot_edges_by_players(panels, sorted(PLAYERS), pictures / "decisions_players.png")
    in_chips = [held for held in results.values() if held["preset"] != "northwoods"]
    widest = max(((held["high"] - held["low"]) / 2 for held in in_chips), default=0.0)
    done = sum(1 for row in grid() if row.key in results)
    copied = sum(1 for held in results.values() if held.get("source"))
    cpu = sum(held["cpu_seconds"] or 0 for held in results.values())
    fig = _Figures(results)
    luck = [fig.held("classic", "", "ev,random"), fig.held("northwoods", "", "ev,random", 4)]
    missed = [
        name
        for name, held in zip(("Classic", "Northwoods"), luck, strict=True)
        if held is not None and (held["low"] > 0 or held["high"] < 0)
    ]
    luck_note = (
        "each edge's interval that is played holds zero, as it should"
        if not missed
        else f"the {' and '.join(missed)} edge's interval misses zero: with no decision to make"
        " this is chance, which a 95% interval allows one row in twenty"
    )
    reading = _reading(fig, luck_note)
    progress = textwrap.fill(
        f"The grid is {len(grid())} rows (each house rule, pairing and player count); {done} are"
        f" played ({cpu / 3600:.1f} CPU hours recorded)"
        + (
            f", {copied} of them (marked *) copied from this page as it stood before the file"
            " existed, their CPU time not recorded."
            if copied
            else "."
        ),
        96,
    )
    return f"""{TITLE}

Advanced Mode and the house rules add decisions. The bots measure what those are worth: each
row plays {GAMES:,} whole games on a compiled kernel (8 rounds, 100 starting chips; Northwoods
$2.00 each), the two bot kinds alternating round the table and the seats rotated one place per
game. A kind's gain is its mean chips won (final minus starting) per seat and game. Chips left
in the pot at the end belong to nobody and lower every seat's gain alike, so the figure to
read is the edge: per game, the first kind's mean gain minus the second's, with the 95%
interval over games. The kernels play the engine's very games, decisions included (their tests
compare them chip by chip and pick by pick); every edge in chips played so far is known to
within ±{widest:.2f}.

The rows are played one at a time by `tools/decisions_grid.py`, which keeps each finished row
(its games, seed, kernel, gains, edge and interval, CPU seconds and the commit it was played
at) in `docs/analysis/decisions.json`; this section is written from that file alone.
{progress} A row's key is its `simulate` command:

```sh
nice -n 19 .venv/bin/python -m tools.decisions_grid run    # the rows not yet played, in turn
.venv/bin/python -m tools.decisions_grid status            # what is played
.venv/bin/horserace simulate advanced --house robertson --players 6 --bots ev,random \\
  --games {GAMES} --seed {SEED} --workers 2                 # one row on its own
```

At 6 players (Northwoods 4):

| preset and rules | bots | first's gain | second's gain | edge | edge's 95% CI | games | CPU s |
|---|---|---|---|---|---|---|---|
{table}

![The edge of each row played at 6 players with its 95% interval](analysis/decisions.png)

By player count, each cell the edge and its 95% interval in chips a game:

{players_table}

![The edge of each rule and pairing by player count](analysis/decisions_players.png)

{reading}

The bots see only their own seat's view (`src/horserace/families/board/bots.py`).
"""


def _reading(fig: _Figures, luck_note: str) -> str:
    """The reading under the tables: the edges each decision is worth, by house rule."""
    bullets = [
        f"**Advanced Mode**: the EV bot over random play {fig('advanced', '', 'ev,random')};"
        " the rule-of-thumb heuristic bot over random"
        f" {fig('advanced', '', 'heuristic,random')}; looking ahead with the exact race odds"
        f" over the heuristic {fig('advanced', '', 'ev,heuristic')}.",
        "**Robertson's four dice** (the roller pairs them): in Advanced Mode the EV bot over"
        f" random {fig('advanced', 'robertson', 'ev,random')}, the heuristic over random"
        f" {fig('advanced', 'robertson', 'heuristic,random')}, the EV bot over the heuristic"
        f" {fig('advanced', 'robertson', 'ev,heuristic')}; in Classic"
        f" {fig('classic', 'robertson', 'ev,random')},"
        f" {fig('classic', 'robertson', 'heuristic,random')} and"
        f" {fig('classic', 'robertson', 'ev,heuristic')}.",
        "**Perry's trading window**: in Classic the EV bot over random traders"
        f" {fig('classic', 'perry', 'ev,random')} and over the heuristic bot, which never"
        f" offers, {fig('classic', 'perry', 'ev,heuristic')}; in Advanced Mode"
        f" {fig('advanced', 'perry', 'ev,random')} and"
        f" {fig('advanced', 'perry', 'ev,heuristic')}.",
        "**Schellenberg's market and Husted's betting punish careless play**: the EV bot over"
        f" random bots {fig('classic', 'schellenberg', 'ev,random')} and"
        f" {fig('classic', 'husted', 'ev,random')}, over the heuristic bot (which never buys"
        f" and never raises) {fig('classic', 'schellenberg', 'ev,heuristic')} and"
        f" {fig('classic', 'husted', 'ev,heuristic')}.",
        "**Classic and Northwoods have no decisions**: every bot only rolls, so those rows"
        f" measure luck alone; {luck_note}. Both kinds' gains there are below zero by the"
        " chips left in the pot.",
    ]
    wrapped = "\n".join(
        textwrap.fill(bullet, 96, initial_indent="- ", subsequent_indent="  ") for bullet in bullets
    )
    return (
        "Reading it (each figure an edge in chips a game with its 95% interval; 100 starting\n"
        f"chips, 8 rounds, 6 players):\n\n{wrapped.replace(KEEP, ' ')}"
    )
