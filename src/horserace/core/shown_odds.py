"""Live win chances as a table prints them: each with the digits it has.

A family's live odds may be estimates (the Derby's sampled races): a chance prints to a tenth
of a point only when it is sure to a tenth, else in whole percents while it is refined, and a
quick estimate prints as ~12. The terminal's board, its help and the browser table (board.js,
from the server's `odds_decimals` and `odds_rough`) print them alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


def percent(value: float, rough: bool = False, tenth: bool = True) -> str:
    """A chance in percent to a tenth of a point when it is sure to a tenth (`tenth`), else in
    whole percents (12: within a tenth of a point, refined meanwhile), or `rough`ly (~12: a
    quick estimate, while the precise one is worked out); six columns wide."""
    if value <= 0:
        return "     -"
    if rough:
        return f"~{round(100 * value)}".rjust(6)
    if not tenth:
        return f"{round(100 * value)}".rjust(6)
    if value < 0.0005:
        return "  <0.1"
    return f"{100 * value:6.1f}"


def refining_note(rough: bool, whole: bool) -> str:
    """What the digits say when some are not final: a quick estimate (`rough`), or some chances
    in whole percents (`whole`); "" when every chance prints to a tenth."""
    if rough:
        return "~ odds being refined"
    return "whole % being refined" if whole else ""


@dataclass(frozen=True)
class ShownOdds:
    """Each horse's live chance to win, by its name as the view prints it, with the decimals of
    a percent it is sure to (1: a tenth of a point; 0: whole percents, being refined); `rough`,
    a quick estimate (every decimal 0)."""

    win: Mapping[str, float]
    decimals: Mapping[str, int]
    rough: bool = False

    @classmethod
    def exact(cls, win: Mapping[str, float]) -> ShownOdds:
        """Chances worked out exactly: every one to a tenth."""
        return cls(dict(win), dict.fromkeys(win, 1))

    def text(self, horse: str) -> str:
        """The chance as the board prints it (six columns)."""
        return percent(self.win[horse], self.rough, self.decimals.get(horse, 1) > 0)

    @property
    def note(self) -> str:
        return refining_note(self.rough, any(d == 0 for d in self.decimals.values()))
