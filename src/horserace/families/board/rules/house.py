"""The dice board game's house rules by name, as the command line and the table's form offer them.

A house rule is a bundle of options: some it only defaults (Husted's ante of 1, which the user
may raise), some it fixes because the rule is made of them (Husted's hidden hands). A request
that switches a house rule on and contradicts one of its fixed options is refused, so a table
never runs a rule other than the one it names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from horserace.core.errors import ConfigError, HorseraceError


@dataclass(frozen=True)
class HouseRule:
    name: str
    title: str
    summary: str
    switch: Mapping[str, Any]  # the options that say the rule is on (one of them is enough)
    fixed: Mapping[str, Any] = field(default_factory=dict)  # part of the rule: never overridden
    defaults: Mapping[str, Any] = field(default_factory=dict)  # under the user's own options


HOUSE_RULES: Mapping[str, HouseRule] = {
    rule.name: rule
    for rule in (
        HouseRule(
            "robertson",
            "Robertson",
            "Race rolls are four dice; the roller pairs them into two moves.",
            {"robertson": True},
        ),
        HouseRule(
            "perry",
            "Perry",
            "A trading window after the scratches: swap cards by offer and answer.",
            {"trade_window": "after-scratch"},
        ),
        HouseRule(
            "schellenberg",
            "Schellenberg",
            "An extra face-up hand, the market, to buy from after a race roll.",
            {"market": True},
        ),
        HouseRule(
            "husted",
            "Husted",
            "Hidden hands with A, K and jokers; two betting rounds, a draw, J/Q/K powers.",
            {"husted": True},
            fixed={"open_hands": False},
            defaults={"ante": 1},
        ),
    )
}


def house_options(text: str | None) -> dict[str, Any]:
    """'robertson,husted' -> the options those rules switch on; unknown names are errors."""
    options: dict[str, Any] = {}
    for word in (text or "").split(","):
        name = word.strip().lower()
        if not name:
            continue
        rule = HOUSE_RULES.get(name)
        if rule is None:
            raise ConfigError(f"unknown house rule {name!r}; known: {', '.join(HOUSE_RULES)}")
        options.update({**rule.defaults, **rule.switch, **rule.fixed})
    return options


def _on(rule: HouseRule, options: Mapping[str, Any]) -> bool:
    return any(options.get(key) == value for key, value in rule.switch.items())


def with_house_rules(defaults: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """A table's options from a preset's defaults and a request: each house rule the request
    switches on brings its defaults (under the request's own options) and its fixed options;
    a request that contradicts a fixed option is refused with the reason."""
    merged = {**defaults, **options}
    result = dict(merged)
    for rule in HOUSE_RULES.values():
        if not _on(rule, merged):
            continue
        for key, value in rule.defaults.items():
            if key not in options:
                result[key] = value
        for key, value in rule.fixed.items():
            if key in options and options[key] != value:
                raise ConfigError(
                    f"the {rule.title} house rule needs {key} = {_word(value)}; "
                    f"a table with {rule.title} and {key} = {_word(options[key])} is not offered"
                )
            result[key] = value
    return result


def _word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def valid_combinations(
    defaults: Mapping[str, Any], check: Any, names: Iterable[str] = HOUSE_RULES
) -> list[list[str]]:
    """Every set of house rules (the empty set included) whose options `check` accepts for a
    preset's defaults; a form offers only these."""
    offered = list(names)
    found: list[list[str]] = []
    for size in range(len(offered) + 1):
        for chosen in combinations(offered, size):
            options = house_options(",".join(chosen))
            try:
                check(with_house_rules(defaults, options))
            except HorseraceError:
                continue
            found.append(list(chosen))
    return found
