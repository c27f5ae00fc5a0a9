"""The rules of each preset as written for players (Markdown shipped in its family's package,
`families/NAME/texts/PRESET.md`): what `horserace rules` prints and the table page's rules
panel shows."""

from __future__ import annotations

import re
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


_COMMAND_LINE = re.compile(r"`--|`horserace |horserace rules|TOML|`src/|table option|\.toml")
_CODE_ASIDE = re.compile(r"\s*\([^()]*`[^()]*\)")  # "(option `--x`)", "(`wager 2`)"


def plain_rules(text: str) -> str:
    """A rules document for people at a table, not at a command line: the sections of
    options, the code blocks, and every sentence or aside naming a flag, a file or a command
    are left out; what remains is the game itself, in the document's own words."""
    lines: list[str] = []
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code:
            if _continues(lines[-1] if lines else "", line):
                lines[-1] += " " + line.strip()  # a paragraph or list item, as one line
            else:
                lines.append(line)
    kept: list[str] = []
    skip_level = 0  # inside a section of options: its heading's level
    for line in lines:
        heading = re.match(r"(#+)\s+(.*)", line)
        if heading:
            level = len(heading.group(1))
            if skip_level and level > skip_level:
                continue
            named = _CODE_ASIDE.sub("", heading.group(2)).lower()
            skip_level = level if "option" in named or "command" in named else 0
            if not skip_level:
                kept.append(_CODE_ASIDE.sub("", line).replace("`", ""))
            continue
        if skip_level:
            continue
        if line.startswith("|"):
            if not _COMMAND_LINE.search(line):
                kept.append(line.replace("`", ""))
            continue
        said = _plain_sentences(line)
        if said is not None:
            kept.append(said)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip() + "\n"


def _continues(before: str, line: str) -> bool:
    """Whether `line` goes on with the paragraph or list item of the line `before`."""
    starts = ("#", "|")
    if not before.strip() or before.startswith(starts) or not line.strip():
        return False
    return not line.startswith(starts) and not re.match(r"\s*(?:[-*]|\d+\.)\s", line)


def _plain_sentences(line: str) -> str | None:
    """A line without its command-line sentences and asides; None when nothing is left."""
    if not line.strip():
        return ""
    item = re.match(r"(\s*(?:[-*]|\d+\.)\s+)(.*)", line)
    lead, body = (item.group(1), item.group(2)) if item else ("", line)
    sentences = re.split(r"(?<=[.!?:])\s+(?=[A-Z*(])", body)
    asides_out = (_CODE_ASIDE.sub("", sentence) for sentence in sentences)
    plain = [sentence for sentence in asides_out if not _COMMAND_LINE.search(sentence)]
    words = " ".join(s for s in plain if s.strip()).replace("`", "")
    return lead + words if words.strip() else None
