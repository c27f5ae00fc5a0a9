"""The card race (basic, Scarne, Calcutta and its betting styles): its FAMILY."""

from __future__ import annotations

from horserace.families.cards.family import FAMILY

__all__ = ["FAMILY"]
