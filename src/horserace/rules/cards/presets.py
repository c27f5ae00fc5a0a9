"""The card race's named presets: default table options over one rule family (CardsRules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

BASIC: Mapping[str, Any] = {}  # CardsConfig's own defaults are the basic game
SCARNE: Mapping[str, Any] = {"course_length": 6, "need": 6, "redeal": False}
CALCUTTA: Mapping[str, Any] = {
    "betting": "calcutta",
    "players": 6,
    "races": 6,
    "starting_chips": 150,
    "cut_for_deal": True,
}

SUMMARY_BASIC = "The card race: four aces race on a 7-card course, the dealer makes a book"
SUMMARY_SCARNE = "The card race as in Scarne: a 6-card course, reach the end to win, no redeal"
SUMMARY_CALCUTTA = "The card race with a Calcutta auction: buy horses, 1st and 2nd share the pool"
