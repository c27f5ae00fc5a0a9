"""What the lobby's form offers for each preset: its seats, rounds and money as fields with
their bounds, its bot kinds, and the house rules it takes (only the combinations the rules
accept), so the form never offers a table the server would refuse."""

from __future__ import annotations

from functools import cache
from typing import Any

from horserace.core.errors import ConfigError, HorseraceError
from horserace.drivers.server.bots import bot_family
from horserace.families import family
from horserace.families.presets import PRESETS, Preset, get_preset

MOST_SEATS = 20
ROUND_KEYS = ("rounds", "races")
MONEY_KEYS = ("starting_chips", "starting_money")
BETTING = ("book", "tote", "party")  # the card race's betting styles a lobby offers


def _accepts(preset: Preset, options: dict[str, Any]) -> bool:
    try:
        preset.config(options)
    except HorseraceError:
        return False
    return True


def _field(key: str, value: int, low: int, high: int) -> dict[str, Any]:
    return {"key": key, "value": value, "min": low, "max": high}


def describe(preset: Preset) -> dict[str, Any]:
    rules = preset.rules
    options = rules.config_to_dict(preset.config({}))
    seats = [n for n in range(1, MOST_SEATS + 1) if _accepts(preset, {"players": n})]
    fields = {"players": _field("players", options["players"], min(seats), max(seats))}
    for key in ROUND_KEYS:
        if key in options:
            fields["rounds"] = _field(key, options[key], 1, 100)
    for key in MONEY_KEYS:
        if key in options:
            fields["money"] = _field(key, options[key], 1, 100_000)
    betting = options.get("betting")
    styles = [b for b in BETTING if _accepts(preset, {"betting": b})] if betting in BETTING else []
    fam = family(rules.family)
    house = fam.house_rules(preset.defaults, preset.config)
    bots = bot_family(rules.family)
    return {
        "name": preset.name,
        "title": preset.title,
        "summary": preset.summary,
        "family": rules.family,
        "players": rules.players(preset.config({})),
        "bots": list(bots.kinds),
        "options": options,
        "fields": fields,
        "money": options.get("money", fam.money),
        "betting": styles,  # the styles offered (the default first in the options)
        "house_rules": list(house.rules),
        "house_combinations": [list(chosen) for chosen in house.combinations],
    }


@cache
def catalogue() -> list[dict[str, Any]]:
    """Every preset, by name (worked out once: the presets never change while serving)."""
    return [describe(preset) for _, preset in sorted(PRESETS.items())]


@cache
def _fields_of(preset: str) -> tuple[dict[str, Any], ...]:
    return tuple(describe(get_preset(preset))["fields"].values())


def check_fields(preset: str, options: dict[str, Any]) -> None:
    """The lobby's fields hold the server to their bounds: a number the form could not send
    (100,001 chips) is refused, even where the rules themselves would take it."""
    for found in _fields_of(preset):
        value = options.get(found["key"])
        whole = isinstance(value, int) and not isinstance(value, bool)
        if whole and not found["min"] <= value <= found["max"]:
            raise ConfigError(
                f"{found['key']} is from {found['min']} to {found['max']}, not {value}"
            )
