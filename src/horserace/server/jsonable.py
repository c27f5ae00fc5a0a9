"""One JSON encoder for everything that leaves the core: views, configs, events, results.

Views are frozen dataclasses holding tuples, enums, frozensets and nested dataclasses; the
browser wants plain objects, lists and numbers. Fields are read one level at a time (never
`dataclasses.asdict`, which deep-copies), and properties are left out: only what the family
chose to put in its view goes on the wire.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]


def to_jsonable(value: Any) -> JSON:
    """Dataclasses -> objects, enums -> their values, tuples/lists -> lists, frozensets and sets
    -> sorted lists, mappings -> objects with text keys, Fractions -> "n/d" text."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {_key(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return [to_jsonable(item) for item in sorted(value)]
    if isinstance(value, tuple | list):
        return [to_jsonable(item) for item in value]
    raise TypeError(f"cannot put a {type(value).__name__} on the wire")


def _key(key: object) -> str:
    if isinstance(key, enum.Enum):
        return str(key.value)
    if isinstance(key, str | int):
        return str(key)
    raise TypeError(f"a JSON object key must be text or a number, not {type(key).__name__}")
