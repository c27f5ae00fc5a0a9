"""The dice board game (Classic, Advanced, Northwoods and the house rules): its FAMILY.

Its rules stay in `horserace.families.board.rules` for now; this package holds what the drivers ask
of the family."""

from __future__ import annotations

from horserace.families.board.family import FAMILY

__all__ = ["FAMILY"]
