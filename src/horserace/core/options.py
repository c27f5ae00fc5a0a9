"""Checks every family's table options share: whole numbers in a range, one of a few words,
no unknown option (files are read by core/files.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from horserace.core.errors import ConfigError


def check_whole(name: str, value: object, low: int, high: int) -> None:
    """`value` is an int (not a bool) from `low` to `high`, or a ConfigError says what it is."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {value}")


def check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def check_flags(config: Any) -> None:
    """Every field a config declares `bool` holds True or False (a file may say 1 or "yes")."""
    for field in fields(config):
        if field.type in ("bool", bool) and not isinstance(getattr(config, field.name), bool):
            raise ConfigError(f"{field.name} must be true or false")


def whole_text(text: str, what: str) -> int:
    """Typed text -> int; anything else is a ConfigError that shows what was typed."""
    try:
        return int(text.strip())
    except ValueError:
        raise ConfigError(f"{what} must be a whole number, not {text.strip()!r}") from None


def known_options(options: Mapping[str, Any], config_type: type) -> dict[str, Any]:
    """A copy of `options` once every key is a field of the config dataclass `config_type`."""
    known = {f.name for f in fields(config_type)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ConfigError(
            f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return dict(options)


def plain_options(config: Any) -> dict[str, Any]:
    """A config dataclass as plain data for a record: every field, a nested table (a board, a
    price list, a track) by its `to_dict`, a tuple as a list."""
    data: dict[str, Any] = {}
    for spec in fields(config):
        value = getattr(config, spec.name)
        if hasattr(value, "to_dict"):
            value = value.to_dict()
        elif isinstance(value, tuple):
            value = list(value)
        data[spec.name] = value
    return data
