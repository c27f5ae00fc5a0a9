"""Pictures of the dice board: boards side by side with their exact chances, and the odds
of a position with how far each horse stands along its lane."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from horserace.components.board import HORSES
from horserace.terminal.pictures import figure as new_figure
from horserace.terminal.pictures import mark_out, save

if TYPE_CHECKING:
    from horserace.components.board import Board
    from horserace.families.board.odds.designer import BoardFigures


def plot_boards(
    boards: Mapping[str, BoardFigures], path: Path, max_rolls: float | None = None
) -> None:
    """Boards side by side: their lanes, and each horse's exact chance to win a round against
    an equal share (dashed); the legends, under the panels, give each board's race length and
    largest gap."""
    figure, (lanes, chances) = new_figure(2)
    width = 0.8 / len(boards)
    for index, (name, figures) in enumerate(boards.items()):
        horses = [h + (index - (len(boards) - 1) / 2) * width for h in figures.win]
        label = f"{name}: {figures.expected_rolls:.1f} rolls, gap {100 * figures.gap:.2f} points"
        lanes.bar(horses, figures.slots, width=width, label=label)
        chances.bar(horses, [100 * p for p in figures.win.values()], width=width, label=name)
    share = 100 / len(HORSES)
    chances.axhline(
        share, color="black", linestyle="--", linewidth=1, label=f"equal share, {share:.2f}%"
    )
    bound = "" if max_rolls is None else f" (designed for at most {max_rolls:g} rolls)"
    for axes, title in ((lanes, "slots per lane"), (chances, "chance to win a round (%)")):
        axes.set_xticks(list(range(2, 13)))
        axes.set_xlabel("horse")
        axes.set_title(title + (bound if axes is lanes else ""))
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), fontsize="small", ncol=3)
    save(figure, path)


def plot_odds(
    board: Board, advanced: Mapping[int, int], win: Mapping[int, float], rolls: float, path: Path
) -> None:
    """Each running horse's exact chance to win, and how far along its lane it stands; the
    horses not in `win` are scratched and named so in both panels."""
    figure, (chances, lanes) = new_figure(2)
    horses = list(win)
    every = list(range(2, 13))
    out = [h for h in every if h not in win]
    chances.bar(horses, [100 * win[h] for h in horses], color="#c0392b")
    mark_out(chances, out)
    chances.set_xticks(every)
    chances.set_xlabel("horse")
    chances.set_ylabel("chance to win (%)")
    chances.set_title(f"exact odds, {rolls:.1f} rolls expected")
    running = [h for h in every if h in win]
    lanes.bar(running, [board.slots_of(h) for h in running], color="#dddddd", label="lane")
    lanes.bar(running, [advanced.get(h, 0) for h in running], color="#7aa6c2", label="advanced")
    if out:
        slots = [board.slots_of(h) for h in out]
        lanes.bar(out, slots, color="white", edgecolor="#aaaaaa", hatch="//", label="scratched")
    lanes.set_xticks(every)
    lanes.set_xlabel("horse")
    lanes.set_ylabel("slots")
    lanes.set_title(f"positions, {board.name} board")
    lanes.legend(fontsize="small")
    save(figure, path)
