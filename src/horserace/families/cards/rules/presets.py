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
