"""The named presets: each is a rule family plus default options, as the families register
them (`horserace.families`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from horserace.core.errors import ConfigError
from horserace.core.rules import Rules
from horserace.families import families, family


@dataclass(frozen=True)
class Preset:
    name: str
    summary: str
    rules: Rules[Any, Any]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""  # the game's name in words a newcomer knows

    def config(self, options: Mapping[str, Any]) -> Any:
        """Preset defaults under the user's options, validated by the family."""
        return self.rules.make_config({**self.defaults, **options})

    def table_config(self, options: Mapping[str, Any]) -> Any:
        """A table's config: the preset's defaults, what the house rules the options switch on
        bring in (a ConfigError names an option one of them refuses), the options themselves."""
        return self.config(family(self.rules.family).table_options(self.defaults, options))


def _presets() -> dict[str, Preset]:
    found: dict[str, Preset] = {}
    for fam in families():
        rules = fam.rules()
        for spec in fam.presets:
            defaults = fam.defaults(spec.name)
            title = spec.title or spec.name
            found[spec.name] = Preset(spec.name, spec.summary, rules, defaults, title)
    return found


PRESETS: Mapping[str, Preset] = _presets()


def get_preset(name: str) -> Preset:
    preset = PRESETS.get(name)
    if preset is None:
        raise ConfigError(f"unknown preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return preset
