"""The rules of each preset as written for players (Markdown shipped in its family's package,
`families/NAME/texts/PRESET.md`): what `horserace rules` prints and the table page's rules
panel shows."""

from __future__ import annotations

from importlib import resources

from horserace.core.errors import ConfigError
from horserace.families import FAMILY_PACKAGES, preset_specs


def rules_markdown(preset: str) -> str:
    """The rules document of `preset`; a ConfigError that lists the presets for any other name."""
    known = preset_specs()
    if preset not in known:
        raise ConfigError(f"unknown preset {preset!r}; known: {', '.join(sorted(known))}")
    package = FAMILY_PACKAGES[known[preset][0].name]
    return resources.files(package).joinpath("texts", f"{preset}.md").read_text("utf-8")
