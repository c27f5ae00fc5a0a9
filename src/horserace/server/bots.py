"""Which bots can sit at a table of each family, and a fresh bot for every decision.

A bot is rebuilt for each move from the table seed, the seat and the step number, so a table
resumed after a restart makes the same bot choices it would have made without one.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from horserace.bots import BOT_KINDS, make_bot
from horserace.bots.derby_bots import DERBY_BOT_KINDS, make_derby_bot
from horserace.bots.random_bot import RandomBot
from horserace.core.errors import ConfigError
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Agent


@dataclass(frozen=True)
class BotFamily:
    kinds: tuple[str, ...]
    standin: str  # plays for a person who has dropped, until they come back
    make: Callable[[str, int], Agent]

    def check(self, kind: str) -> str:
        if kind not in self.kinds:
            raise ConfigError(f"unknown bot kind {kind!r}; known here: {', '.join(self.kinds)}")
        return kind


def _random_bot(kind: str, seed: int) -> Agent:
    return RandomBot(random.Random(seed))


RANDOM_ONLY = BotFamily(("random",), "random", _random_bot)


def _optional(module: str, kinds: str, factory: str, standin: str) -> BotFamily | None:
    """A family whose bots may not be installed yet: it then gets random bots."""
    try:
        found: Any = importlib.import_module(module)
    except ImportError:
        return None
    names = tuple(getattr(found, kinds, ()))
    make = getattr(found, factory, None)
    if not names or make is None:
        return None
    return BotFamily(names, standin if standin in names else names[0], make)


def bot_family(family: str) -> BotFamily:
    """The bots of a rules family (`Rules.family`); random bots for a family with none."""
    if family == "board":
        return BotFamily(tuple(BOT_KINDS), "heuristic", make_bot)
    if family == "derby":
        return BotFamily(tuple(DERBY_BOT_KINDS), "ev", make_derby_bot)
    if family == "cards":
        found = _optional("horserace.bots.cards_bots", "CARDS_BOT_KINDS", "make_cards_bot", "value")
        return found or RANDOM_ONLY
    return RANDOM_ONLY


def bot_for_move(bots: BotFamily, kind: str, table_seed: int, seat: int, step: int) -> Agent:
    return bots.make(kind, derive_seed(table_seed, BOT_STREAM, seat, step))
