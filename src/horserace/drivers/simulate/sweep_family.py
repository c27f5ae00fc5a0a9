"""The sweep's points of the families other than the dice board (the card races, the Derby).

Their axes are the options their `simulate` command takes, read from the options the family
declares (so a sweep takes what `simulate` takes, under the same names: `book` for --book,
`redeal` for --redeal/--no-redeal), and a point's table options and run settings come from
the family's own `Simulation.setup`, so they are checked as `simulate` checks them. A row is
the family's report flattened from its JSON: each mean with its 95% interval (`_low`,
`_high`), each rate with its Wilson interval, the other numbers as they are; the drivers need
not know the figures of a family to tabulate them.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

from horserace.core.errors import ConfigError
from horserace.drivers.simulate.runner import simulation_of
from horserace.families import family_of_preset

LEFT_OUT = ("plot",)  # what `simulate` offers that a sweep does not: it draws its own plot
RUN_KEYS = ("preset", "seed", "config", "bots", "players", "workers", "threads", "steps")
STATS = frozenset(("count", "mean", "std", "ci95"))
RATE = frozenset(("successes", "trials", "rate", "ci95"))
ITEM_NAMES = ("name", "horse", "count")  # what names an item of a list in a report's JSON


@dataclass(frozen=True)
class Axis:
    """One option of a family's `simulate`, as a sweep's axis: the parameter it sets, its type
    (int, bool, str or Path) and its default."""

    parameter: str
    kind: type
    default: Any


@cache
def family_axes(family_name: str, preset: str) -> dict[str, Axis]:
    """The axes a family's presets take, by the name `simulate` gives each option."""
    found: dict[str, Axis] = {}
    for source in simulation_of(preset).options():
        hints = get_type_hints(source, include_extras=True)
        for parameter in inspect.signature(source).parameters.values():
            base, *extras = get_args(hints[parameter.name])
            flags = [getattr(info, "default", None) for info in extras]
            flags += [d for info in extras for d in getattr(info, "param_decls", ())]
            flag = next((f for f in flags if isinstance(f, str) and f.startswith("--")), None)
            name = (flag or parameter.name).split("/")[0].removeprefix("--").replace("-", "_")
            found[name] = Axis(parameter.name, _plain(base), parameter.default)
    return found


def _plain(kind: Any) -> type:
    """`int | None` -> int."""
    if get_origin(kind) in (Union, types.UnionType):
        kind = next(arg for arg in get_args(kind) if arg is not type(None))
    assert isinstance(kind, type)
    return kind


def axes_of(preset: str) -> tuple[str, ...]:
    """Every axis `preset` takes, `preset` first."""
    fam = family_of_preset(preset).name
    return ("preset", *(name for name in family_axes(fam, preset) if name not in LEFT_OUT))


def check_values(preset: str, key: str, values: Sequence[str]) -> None:
    """Each value of axis `key` reads as the type of the option it sets for `preset`."""
    axis = family_axes(family_of_preset(preset).name, preset)[key]
    for text in values:
        given_value(key, axis.kind, text)


def given_value(axis: str, kind: type, text: str) -> Any:
    """A grid value as the option's type: a whole number, true/false, a file, or the text (bot
    kinds joined by + as in the dice board's axis, for the comma of `simulate --bots`)."""
    where = f"grid axis {axis}: "
    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise ConfigError(f"{where}{text!r} is not true or false")
        return text.lower() == "true"
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"{where}{text!r} is not a whole number") from None
    if kind is Path:
        return Path(text)
    return text.replace("+", ",") if axis == "bots" else text


def setup_point(
    preset: str, labels: Sequence[tuple[str, str]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A point's table options and run settings, as `simulate PRESET --OPTION VALUE ...` would
    set them (a ConfigError names what the family refuses)."""
    axes = family_axes(family_of_preset(preset).name, preset)
    given = {axis.parameter: axis.default for axis in axes.values()}
    for key, text in labels:
        if key != "preset":
            axis = axes[key]
            given[axis.parameter] = given_value(key, axis.kind, text)
    setup = simulation_of(preset).setup(preset, given, quiet=True)
    return setup.options, setup.settings


def flat_row(report: Any) -> Iterator[tuple[str, Any]]:
    """The figures of a family's report, flattened from its JSON into named columns."""
    data: dict[str, Any] = report.to_json()
    yield "engine_used", data.get("engine")
    for key, value in data.items():
        if key not in RUN_KEYS and key not in ("engine", "elapsed_seconds"):
            yield from _flat(_word(key), value)
    yield "seconds", data.get("elapsed_seconds")


def _word(key: Any) -> str:
    return str(key).replace(" ", "_")


def _flat(name: str, value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, Mapping):
        keys = set(value)
        if keys >= STATS or keys >= RATE:  # a mean or a rate, with its interval
            yield name, value["mean" if keys >= STATS else "rate"]
            low, high = value["ci95"] or (None, None)
            yield f"{name}_low", low
            yield f"{name}_high", high
            for extra, inner in value.items():
                if extra not in STATS | RATE:
                    yield from _flat(f"{name}_{_word(extra)}", inner)
            return
        for key, inner in value.items():
            yield from _flat(f"{name}_{_word(key)}", inner)
    elif isinstance(value, list):
        yield from _flat_list(name, value)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield name, value


def _flat_list(name: str, items: list[Any]) -> Iterator[tuple[str, Any]]:
    """A list of named items (seats P1..., horses 1..., course counts 3...): an item that is a
    mean or a rate is the column `name_ITEM`; the figures of another, `FIGURE_ITEM` each."""
    for item in items:
        if not isinstance(item, Mapping):
            continue
        label = next((key for key in ITEM_NAMES if key in item), None)
        if label is None:
            continue
        rest = {k: v for k, v in item.items() if k not in (label, "seat", "bot")}
        keys = set(rest)
        if keys >= STATS or keys >= RATE:
            yield from _flat(f"{name}_{_word(item[label])}", rest)
        else:
            for key, inner in rest.items():
                yield from _flat(f"{_word(key)}_{_word(item[label])}", inner)
