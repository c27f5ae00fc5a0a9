"""One JSON encoder for everything that leaves the core: views, configs, events, results.

Views are frozen dataclasses holding tuples, enums, frozensets and nested dataclasses; the
browser wants plain objects, lists and numbers. The JSON made is shared, never changed
afterwards: whoever receives it only encodes it. Fields are read one level at a time (never
`dataclasses.asdict`, which deep-copies), and properties are left out: only what the family
chose to put in its view goes on the wire.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]


PLAIN: frozenset[type] = frozenset({type(None), bool, int, float, str})  # JSON as they are
Converter = Callable[[Any], JSON]
_CONVERTERS: dict[type, Converter] = {}  # one per type met, so a value costs one lookup


def to_jsonable(value: Any) -> JSON:
    """Dataclasses -> objects, enums -> their values, tuples/lists -> lists, frozensets and sets
    -> sorted lists, mappings -> objects with text keys, Fractions -> "n/d" text."""
    kind = type(value)
    if kind in PLAIN:
        return value  # type: ignore[no-any-return]
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _CONVERTERS[kind] = _converter(kind)
    return convert(value)


def _items(values: Any) -> list[JSON]:
    return [item if type(item) in PLAIN else to_jsonable(item) for item in values]


def _converter(kind: type) -> Converter:
    """How values of `kind` go on the wire (worked out once per type)."""
    if issubclass(kind, enum.Enum):
        return lambda value: to_jsonable(value.value)
    if issubclass(kind, bool | str):
        return lambda value: value
    if issubclass(kind, int):
        return int
    if issubclass(kind, float):
        return float
    if issubclass(kind, Fraction):
        return lambda value: f"{value.numerator}/{value.denominator}"
    if dataclasses.is_dataclass(kind):
        names = tuple(field.name for field in dataclasses.fields(kind))

        def fields(value: Any) -> JSON:
            found = {}
            for name in names:
                item = getattr(value, name)
                found[name] = item if type(item) in PLAIN else to_jsonable(item)
            return found

        frozen = getattr(kind, "__dataclass_params__", None)
        return _remembered(fields) if frozen is not None and frozen.frozen else fields
    if issubclass(kind, Mapping):
        return lambda value: {_key(k): to_jsonable(v) for k, v in value.items()}
    if issubclass(kind, frozenset | set):
        return lambda value: _items(sorted(value))
    if issubclass(kind, tuple | list):
        return _items

    def refuse(value: Any) -> JSON:
        raise TypeError(f"cannot put a {kind.__name__} on the wire")

    return refuse


REMEMBERED = 512  # frozen values per type whose JSON is kept


def _remembered(convert: Converter) -> Converter:
    """A frozen value (a table's config, its board) is met again and again, the same object
    in view after view: its JSON is worked out once and shared (nothing changes it later)."""
    kept: dict[int, tuple[Any, JSON]] = {}

    def remembered(value: Any) -> JSON:
        found = kept.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        if len(kept) >= REMEMBERED:
            kept.clear()
        made = convert(value)
        kept[id(value)] = (value, made)  # holding the value keeps its id from being reused
        return made

    return remembered


def _key(key: object) -> str:
    if isinstance(key, enum.Enum):
        return str(key.value)
    if isinstance(key, str | int):
        return str(key)
    raise TypeError(f"a JSON object key must be text or a number, not {type(key).__name__}")
