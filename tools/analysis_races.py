"""The Derby's and the card race's sections of docs/analysis.md (see `analysis_doc.py`, which
calls these with its seed and writes the page): whole games between bots, the pictures
`simulate --plot` draws, and what the figures say."""

from __future__ import annotations

from pathlib import Path

from horserace.drivers.simulate.runner import simulate_games
from horserace.families.cards.plots import plot_simulation as plot_cards
from horserace.families.derby.plots import plot_simulation as plot_derby


def _percent(rate: float) -> str:
    return f"{100 * rate:.2f}%"


def derby_section(games: int, paired: int, seed: int, pictures: Path) -> str:
    """Derby games of 8 between bots: every horse's share of wins beside 1 in 8, and how often
    mud and accelerators decide the winner (the same races re-run on paved tracks)."""
    report = simulate_games(
        "derby", {"players": 8}, games, seed, bots=("ev", "random"), paired=paired, workers=2
    )
    plot_derby(report, pictures / "derby.png")
    runs = zip(report.horse_places, report.horse_runs, strict=True)
    wins = [places[0] for places, count in runs if count]
    lowest = min(wins, key=lambda p: p.rate)
    highest = max(wins, key=lambda p: p.rate)
    holding = sum(1 for p in wins if p.wilson95()[0] <= 1 / 8 <= p.wilson95()[1])
    pairs = report.paired
    changed = "\n".join(
        f"| {name} | {_percent(pairs.winner_changed[name].rate)} |"
        f" {_percent(pairs.podium_changed[name].rate)} | {pairs.mean_turns[name]:.1f} |"
        for name in pairs.winner_changed
    )
    money = ", ".join(f"{m.mean:.1f}" for m in report.seat_money)
    return f"""## The Derby: equal horses, and what the track decides

{games:,} games of the Derby (8 players, 3 races each, $8 to start; the EV bot in seats 1, 3,
5 and 7, random bots between), on the rules engine:

```sh
.venv/bin/horserace simulate derby --games {games} --players 8 --bots ev,random \\
  --paired {paired} --seed {seed} --workers 2 --plot derby.png
```

From the start line every horse has the same chance, 1 in 8 ({_percent(1 / 8)}): the
shares of the {len(wins)} horses the bots chose over the {report.races:,} races lie between
{_percent(lowest.rate)} and {_percent(highest.rate)}, and {holding} of their {len(wins)} 95%
intervals hold 1 in 8 (about 95% of them should). A race lasts {report.turns.mean:.1f} turns
on average. The seats end with (dollars, in seat order) {money}.

How much mud and accelerators decide: {pairs.races:,} races of 8 on the compiled race kernel,
each run again on the same dice with the mud, the accelerators or both paved over (a race
on the track takes {pairs.mean_turns["track"]:.1f} turns):

| paved over | winner differs | podium differs | turns a race |
|---|---|---|---|
{changed}

![The Derby: wins beside 1 in 8, money per seat, race length](analysis/derby.png)
"""


def cards_section(games: int, seed: int, pictures: Path) -> str:
    """Basic card races at the book, every seat betting blind on the compiled kernel: wins by
    the course cards of a horse's suit beside the exact chance, and the book's edge."""
    report = simulate_games("basic", {}, games, seed, bots=("blind",), workers=2)
    plot_cards(report, pictures / "cards.png")
    edge = report.bet_edge.mean
    rows = "\n".join(
        f"| {count} | {p.trials:,} | {_percent(p.rate)} | {_percent(p.wilson95()[0])} to"
        f" {_percent(p.wilson95()[1])} | {_percent(report.exact_by_count[count])} |"
        for count, p in report.wins_by_count.items()
    )
    return f"""## The card race: the course decides before the start

{games:,} games of Basic (4 players, {report.races // games} races a game, the book's
prices), every seat backing a random horse, on the compiled card-race kernel:

```sh
.venv/bin/horserace simulate basic --games {games} --seed {seed} --workers 2 --plot cards.png
```

A horse whose suit shows on the course's cards has fewer of its cards left to run with, so
the course dealt before the race sets the odds; each row is every horse that started with
that many course cards of its suit:

| course cards | starts | won | 95% interval | exact |
|---|---|---|---|---|
{rows}

A race turns {report.race_cards.mean:.1f} cards on average. A blind bettor's return is
{report.bet_return.mean:+.3f} a chip per bet; the book's exact edge on the bets made is
{edge:+.3f} a chip ({"the prices favour the bettors" if edge < 0 else "the book keeps it"}).

![Card races: wins by course cards beside the exact chance, chips, race length](analysis/cards.png)
"""
