"""The registry of game families: the one place that names them.

Each family is a package under `horserace.families` whose `FAMILY` object tells the drivers
everything they need (presets, bots, live odds, rules). The packages are imported only when
first asked for, so a command that lists presets does not load any family's rules.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from horserace.core.errors import ConfigError
from horserace.families.family import Family, PresetSpec

if TYPE_CHECKING:
    from horserace.engine import Agent

# Adding a family: one package with a FAMILY object, one line here.
FAMILY_PACKAGES: Mapping[str, str] = {
    "board": "horserace.families.board",
    "derby": "horserace.families.derby",
    "cards": "horserace.families.cards",
}


@cache
def family(name: str) -> Family:
    """The family called `name` (its package imported on first use)."""
    package = FAMILY_PACKAGES.get(name)
    if package is None:
        known = ", ".join(FAMILY_PACKAGES)
        raise ConfigError(f"unknown game family {name!r}; known: {known}")
    found: Family = importlib.import_module(package).FAMILY
    return found


def families() -> tuple[Family, ...]:
    return tuple(family(name) for name in FAMILY_PACKAGES)


def preset_specs() -> dict[str, tuple[Family, PresetSpec]]:
    """Every preset by name, with the family that registers it."""
    return {spec.name: (fam, spec) for fam in families() for spec in fam.presets}


def family_of_preset(preset: str) -> Family:
    found = preset_specs().get(preset)
    if found is None:
        known = ", ".join(sorted(preset_specs()))
        raise ConfigError(f"unknown preset {preset!r}; known: {known}")
    return found[0]


def check_bot_kind(fam: Family, kind: str) -> str:
    if kind not in fam.bot_kinds:
        known = ", ".join(fam.bot_kinds)
        raise ConfigError(f"unknown bot kind {kind!r} for the {fam.name} family; known: {known}")
    return kind


def make_bot(kind: str, seed: int, family_name: str) -> Agent:
    """A bot of `kind` for a table of the family `family_name`, with its own generator seeded
    by `seed` (so the same seed gives the same game)."""
    fam = family(family_name)
    return fam.new_bot(check_bot_kind(fam, kind), random.Random(seed))


def checked_bot_kinds(kinds: Sequence[str], family_name: str) -> tuple[str, ...]:
    """The bot kinds named (at least one), each checked against the family's bots."""
    fam = family(family_name)
    if not kinds:
        raise ConfigError("--bots needs at least one bot kind, e.g. --bots random")
    return tuple(check_bot_kind(fam, kind) for kind in kinds)


def parse_bots(text: str, players: int, family_name: str) -> list[str]:
    """'ev,random' -> one kind per seat; a shorter list is repeated round the table."""
    kinds = checked_bot_kinds(_words(text.lower()), family_name)
    if len(kinds) > players:
        raise ConfigError(f"{len(kinds)} bots for {players} seats: name at most one per seat")
    return [kinds[seat % len(kinds)] for seat in range(players)]


def bot_kinds_of(text: str, family_name: str) -> tuple[str, ...]:
    """'value,random' -> the kinds named, each checked against the family's bots."""
    return checked_bot_kinds(_words(text), family_name)


def _words(text: str) -> list[str]:
    return [word.strip() for word in text.split(",") if word.strip()]


__all__ = [
    "FAMILY_PACKAGES",
    "Family",
    "PresetSpec",
    "bot_kinds_of",
    "check_bot_kind",
    "checked_bot_kinds",
    "families",
    "family",
    "family_of_preset",
    "make_bot",
    "parse_bots",
]
