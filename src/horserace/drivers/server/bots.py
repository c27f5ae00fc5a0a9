"""Which bots can sit at a table of each family, and a fresh bot for every decision.

A bot is rebuilt for each move from the table seed, the seat and the step number, so a table
resumed after a restart makes the same bot choices it would have made without one. The move's
seed is a keyed BLAKE2b hash of the seat and step (under a microsecond; numpy's SeedSequence,
which the command line's bots use once per game, took 50 us, a bot move on the server each).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from horserace.drivers.bots import make_bot
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
    return bots.make(kind, bot_seed(table_seed, seat, step))


def bot_seed(table_seed: int, seat: int, step: int) -> int:
    """A 64-bit seed for one bot move, keyed by the table's seed (which nobody sees before the
    end, so nobody can foresee a bot's choices)."""
    key = hashlib.blake2b(b"%d" % table_seed, digest_size=32, person=b"horserace-bots").digest()
    move = hashlib.blake2b(b"%d:%d" % (seat, step), key=key, digest_size=8)
    return int.from_bytes(move.digest(), "big")
