"""Bots: players that see only their seat's view and the legal actions."""

from __future__ import annotations

import random

from horserace.bots.random_bot import RandomBot
from horserace.core.errors import ConfigError

BOT_KINDS = ("random",)


def make_bot(kind: str, seed: int) -> RandomBot:
    """A bot of `kind` with its own generator (so the same seed gives the same game)."""
    if kind == "random":
        return RandomBot(random.Random(seed))
    raise ConfigError(f"unknown bot kind {kind!r}; known: {', '.join(BOT_KINDS)}")


__all__ = ["BOT_KINDS", "RandomBot", "make_bot"]
