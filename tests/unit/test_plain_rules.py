"""The rules a table page shows are the rules documents without their command line: no flag,
file, command or code block is left, and the game itself still is (every heading about the
game, the sentences that say who wins)."""

from __future__ import annotations

import re

import pytest

from horserace.families.presets import PRESETS
from horserace.families.texts import plain_rules, rules_markdown


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_command_line_is_left(preset: str) -> None:
    whole = rules_markdown(preset)
    plain = plain_rules(whole)
    assert "--" in whole.replace("|---", "")  # there was command-line text to leave out
    for gone in ("`", "```", "--board", "--house", "horserace ", "TOML", ".toml"):
        assert gone not in plain.replace("|---", ""), (preset, gone)
    prose = re.sub(r"```.*?```", "", whole, flags=re.S)
    sections = re.findall(r"^## ([^(\n]*)", prose, re.M)
    about_game = [h.strip() for h in sections if not re.search("option|command", h, re.I)]
    assert all(f"## {h}" in plain for h in about_game), about_game
    assert len(plain) > len(whole) // 3


def test_a_sentence_keeps_its_words_when_an_aside_goes() -> None:
    plain = plain_rules(rules_markdown("classic"))
    assert "After the agreed number of rounds the player with the most chips wins" in plain
    assert "Hands lie face up." in plain
    assert "option" not in plain.lower().split("## house rule")[0]
