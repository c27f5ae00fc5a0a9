"""The rules of each preset as written for players (Markdown shipped with the package): what
`horserace rules` prints and the table page's rules panel shows."""

from __future__ import annotations

from importlib import resources

from horserace.core.errors import ConfigError
from horserace.rules.registry import PRESETS


def rules_markdown(preset: str) -> str:
    if preset not in PRESETS:
        raise ConfigError(f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}")
    return resources.files("horserace").joinpath("data", "rules", f"{preset}.md").read_text("utf-8")
