"""Every command's --help reads whole on an 80-column terminal: nothing cut off with an
ellipsis, a flag shows no value to type, an option names what it takes in capitals (N, FILE,
SECONDS...) and a number's range in words, and a long description wraps as paragraphs."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import COMMANDS, app
from horserace.terminal.help_style import placeholder, reflowed
from tests.terminal.test_help_defaults import commands

NARROW = {"COLUMNS": "80", "LINES": None, "FORCE_COLOR": None, "TTY_COMPATIBLE": None}


def _help(path: list[str]) -> str:
    shown = CliRunner().invoke(app, [*path, "--help"], env=NARROW)
    assert shown.exit_code == 0, shown.output
    return shown.output


@pytest.mark.parametrize("name", ["", *COMMANDS], ids=lambda name: name or "horserace")
def test_every_help_reads_whole_at_80_columns(name: str) -> None:
    walked = commands(COMMANDS[name][1](), (name,)) if name else [("", None)]
    for path, _ in walked:
        _reads_whole(_help(path.split()))


def _reads_whole(shown: str) -> None:
    assert "…" not in shown  # no default, path or name cut off
    option_rows = [line for line in shown.splitlines() if re.match(r"│ (\* +)?--?\w", line)]
    assert option_rows and not [row for row in option_rows if "<" in row]  # <bool>, <int>...
    assert not re.search(r"\[x?[<>]=|<=x", shown)  # a range in words, not [0<=x<=65535]


def test_a_long_description_wraps_as_paragraphs_not_as_its_source_lines() -> None:
    shown = _help(["replay"])
    text = [line.strip() for line in shown.split("╭")[0].splitlines()]
    paragraph = text[text.index(next(t for t in text if t.startswith("On a terminal"))) :]
    lines = paragraph[: paragraph.index("")]
    assert len(lines) >= 2 and all(len(line) > 60 for line in lines[:-1])
    assert "g goes to a race" in " ".join(lines)  # the source broke the line after "goes"


def test_flags_and_ranges_still_parse_and_are_checked() -> None:
    runner = CliRunner()
    refused = runner.invoke(app, ["serve", "--port", "70000"], env=NARROW)
    assert refused.exit_code == 2 and "65535" in refused.output
    assert "Port to listen on (0 to 65535)." in " ".join(_help(["serve"]).split())
    said = " ".join(_help(["serve"]).split()) + " ".join(_help(["verify"]).split())
    for named in ("--trusted-proxies ADDRESSES", "--key HEX", "--seed-hash HEX", "--table ID"):
        assert named in said, named  # as README.md and docs/server.md write them
    betting = " ".join(_help(["play", "basic"]).split())  # each style the option takes
    assert "--betting STYLE book, tote, party or calcutta" in betting, betting
    replay = runner.invoke(app, ["replay", "--help"], env={**NARROW, "COLUMNS": "300"}).output
    assert "the verdict and the final standings, no play-back" in replay  # what --check prints
    for odds in (["odds"], ["odds", "cards"]):  # the table shows no fraction, --json does
        wide = runner.invoke(app, [*odds, "--help"], env={**NARROW, "COLUMNS": "300"}).output
        assert "fractions, which --json prints; the table rounds them" in wide, odds
    shown = runner.invoke(app, ["rules", "classic", "--markdown"], env=NARROW)
    assert shown.exit_code == 0 and shown.output.startswith("#")


def test_the_style_pieces() -> None:
    assert [placeholder(shown) for shown in ("<int>", "<float range>", "<str>", "<path>")] == [
        "N",
        "NUMBER",
        "TEXT",
        "PATH",
    ]
    assert placeholder("<auto|light>") == "auto|light"
    assert reflowed("One\n    line.\n\n    Two\n    lines.") == "One line.\n\nTwo lines."
    assert reflowed("\bKept\nas is.") == "\bKept\nas is."
