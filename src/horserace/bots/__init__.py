"""Bots: players that see only their seat's view and the legal actions. Each family lists its
bots (`Family.bot_kinds`); this is the one factory that makes any of them."""

from __future__ import annotations

import random

from horserace.core.errors import ConfigError
from horserace.engine import Agent
from horserace.families import check_bot_kind, family


def make_bot(kind: str, seed: int, family_name: str = "board") -> Agent:
    """A bot of `kind` for a table of the family `family_name`, with its own generator seeded
    by `seed` (so the same seed gives the same game)."""
    fam = family(family_name)
    return fam.new_bot(check_bot_kind(fam, kind), random.Random(seed))


def parse_bots(text: str, players: int, family_name: str = "board") -> list[str]:
    """'ev,random' -> one kind per seat; a shorter list is repeated round the table."""
    fam = family(family_name)
    kinds = [word.strip().lower() for word in text.split(",") if word.strip()]
    if not kinds:
        raise ConfigError("--bots needs at least one bot kind, e.g. --bots random")
    for kind in kinds:
        check_bot_kind(fam, kind)
    if len(kinds) > players:
        raise ConfigError(f"{len(kinds)} bots for {players} seats: name at most one per seat")
    return [kinds[seat % len(kinds)] for seat in range(players)]


def bot_kinds_of(text: str, family_name: str) -> tuple[str, ...]:
    """'value,random' -> the kinds named, each checked against the family's bots."""
    fam = family(family_name)
    kinds = tuple(word.strip() for word in text.split(",") if word.strip())
    if not kinds:
        raise ConfigError("--bots needs at least one bot kind, e.g. --bots random")
    return tuple(check_bot_kind(fam, kind) for kind in kinds)


__all__ = ["bot_kinds_of", "make_bot", "parse_bots"]
