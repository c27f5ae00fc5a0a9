"""Which bots can sit at a table of each family, and a fresh bot for every decision.

A bot is rebuilt for each move from the table seed, the seat and the step number, so a table
resumed after a restart makes the same bot choices it would have made without one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from horserace.bots import make_bot
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Agent
from horserace.families import check_bot_kind, family


@dataclass(frozen=True)
class BotFamily:
    kinds: tuple[str, ...]
    standin: str  # plays for a person who has dropped, until they come back
    make: Callable[[str, int], Agent]
    check: Callable[[str], str]


def bot_family(name: str) -> BotFamily:
    """The bots of a rules family (`Rules.family`), as its FAMILY lists them."""
    fam = family(name)
    return BotFamily(
        kinds=fam.bot_kinds,
        standin=fam.standin_bot,
        make=lambda kind, seed: make_bot(kind, seed, name),
        check=lambda kind: check_bot_kind(fam, kind),
    )


def bot_for_move(bots: BotFamily, kind: str, table_seed: int, seat: int, step: int) -> Agent:
    return bots.make(kind, derive_seed(table_seed, BOT_STREAM, seat, step))
