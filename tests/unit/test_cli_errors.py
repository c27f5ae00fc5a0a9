"""Every mistake on the command line ends the same way: one line `error: <what is wrong>` (and,
where it helps, `; <what to do>`) on stderr, nothing on stdout, exit code 2, no traceback: an
option out of range, an option that needs another or excludes another, a file that cannot be
read (missing, a folder, not UTF-8, malformed), and click's own usage errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import app

runner = CliRunner()
NO_COLOUR = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": None, "LINES": None}

# (arguments, what the one line must say); FILE stands for a file the test writes
CASES = [
    # numbers in range
    (("play", "classic", "--chips", "0"), "--chips must be at least 1, not 0"),
    (("play", "basic", "--chips", "0"), "--chips must be at least 1, not 0"),
    (("play", "derby", "--money", "0"), "--money must be at least 1, not 0"),
    (("play", "classic", "--speed", "-1"), "--speed must be 0 or more"),
    (("play", "classic", "--seed", "-3"), "--seed must be 0 or more"),
    (("play", "classic", "--theme", "pink"), "--theme must be auto, light or dark, not 'pink'"),
    (("play", "classic", "--players", "13"), "players must be between 2 and 12"),
    (("play", "classic", "--rounds", "0"), "rounds must be between 1 and 10000"),
    (("play", "classic", "--human", "7"), "--human 7: seats are numbered 1 to 6"),
    (("simulate", "classic", "-n", "0"), "--games must be at least 1"),
    (("simulate", "classic", "-n", "5", "--chips", "0"), "--chips must be at least 1"),
    (("simulate", "derby", "-n", "5", "--money", "0"), "--money must be at least 1"),
    # options that need another option
    (("play", "classic", "--trade-window", "after-scratch"), "add --house perry"),
    (("simulate", "classic", "-n", "5", "--trade-window", "after-scratch"), "add --house perry"),
    (("play", "basic", "--takeout", "10"), "--takeout does not apply to book betting"),
    (("simulate", "basic", "-n", "5", "--takeout", "10"), "it needs --betting tote"),
    (("play", "basic", "--betting", "tote", "--book", "FILE"), "it needs --betting book"),
    (("play", "basic", "--auctioneer-out"), "it needs the calcutta preset"),
    (("play", "basic", "--rebid-after-pass"), "it needs the calcutta preset"),
    (("play", "basic", "--betting", "party", "--limit", "5"), "it needs book or tote betting"),
    (("play", "classic", "--house", "husted", "--open-hands"), "Husted"),
    # options that exclude each other
    (("play", "classic", "--companion", "--human", "1"), "leave out --human"),
    (("play", "classic", "--hidden-hands", "--open-hands"), "not both"),
    (("play", "basic", "--companion"), "basic has no companion mode"),
    (("play", "calcutta", "--betting", "book"), "always auctions the horses"),
    # files
    (("play", "classic", "--board", "NOT-UTF8"), "is not UTF-8 text (byte 0); save it as UTF-8"),
    (("simulate", "classic", "-n", "5", "--board", "NOT-UTF8"), "board file"),
    (("play", "classic", "--board", "BAD-TOML"), "not valid TOML"),
    (("play", "classic", "--board", "DIR"), "cannot read board file"),
    (("play", "basic", "--book", "NOT-UTF8"), "odds file"),
    (("play", "derby", "--track", "NOT-UTF8"), "track file"),
    (("play", "classic", "--record", "DIR"), "is a directory: name a file in it"),
    (("play", "classic", "--record", "DIR/no/such.jsonl"), "no such directory"),
    (("replay", "NOT-UTF8"), "record"),
    (("replay", "NOT-RECORD"), "not a horserace-record file"),
    (("play", "classic", "--resume", "NOT-UTF8"), "is not UTF-8 text"),
    (("play", "classic", "--resume", "NOT-RECORD"), "not a horserace-record file"),
    (("play", "classic", "--resume", "BAD-SEATING"), 'seating must be an object with "names"'),
    (("replay", "BAD-SEATING"), "line 1: seating must be an object"),
    (("replay", "BAD-CHANCE"), "chance must be one of seeded, scripted, typed, fair"),
    # click's own usage errors, in the same style
    (("play", "classic", "--chips", "many"), "invalid value for '--chips'"),
    (("play", "classic", "--frob"), "no such option: --frob; see: horserace play classic --help"),
    (("play", "chess"), "no such command 'chess'; see: horserace play --help"),
    (("simulate", "classic"), "missing option '--games'"),
    (("serve", "--port", "70000"), "invalid value for '--port': input should be less than"),
]


def files(folder: Path) -> dict[str, str]:
    (folder / "not-utf8.toml").write_bytes(b"\xff\xfe name = 1\n")
    (folder / "bad.toml").write_text("name = \n", encoding="utf-8")
    (folder / "not-record.jsonl").write_text('{"a": 1}\n', encoding="utf-8")
    header = {"format": "horserace-record", "version": 1, "preset": "classic", "config": {}}
    for name, more in [
        ("bad-seating", {"seed": 1, "chance": "seeded", "seating": {"names": "Ann,Bo"}}),
        ("bad-chance", {"seed": 1, "chance": "dealt"}),
    ]:
        (folder / f"{name}.jsonl").write_text(json.dumps({**header, **more}) + "\n", "utf-8")
    return {
        "NOT-UTF8": str(folder / "not-utf8.toml"),
        "BAD-TOML": str(folder / "bad.toml"),
        "NOT-RECORD": str(folder / "not-record.jsonl"),
        "BAD-SEATING": str(folder / "bad-seating.jsonl"),
        "BAD-CHANCE": str(folder / "bad-chance.jsonl"),
        "DIR": str(folder),
        "FILE": str(folder / "bad.toml"),
    }


@pytest.mark.parametrize(
    ("args", "message"), CASES, ids=lambda v: " ".join(v) if isinstance(v, tuple) else ""
)
def test_each_mistake_is_one_line_and_exit_code_2(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    named = files(tmp_path)
    given = []
    for arg in args:
        for placeholder, path in named.items():
            arg = arg.replace(placeholder, path)
        given.append(arg)
    result = runner.invoke(app, given, env=NO_COLOUR)
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0], lines[0]
    assert "Traceback" not in result.stderr


def test_ctrl_c_in_any_command_is_one_line_and_exit_code_130(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from horserace.drivers.cli import rules_cmd

    def stopped(preset: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(rules_cmd, "rules_markdown", stopped)
    result = runner.invoke(app, ["rules", "classic"], env=NO_COLOUR)
    assert result.exit_code == 130
    assert result.stdout == "" and result.stderr == "interrupted\n"


def with_stdin_closed(args: list[str], state: Path) -> subprocess.CompletedProcess[str]:
    """`horserace ARGS` started as with `<&-`."""
    horserace = str(Path(sys.executable).with_name("horserace"))
    return subprocess.run(
        [horserace, *args],
        capture_output=True,
        text=True,
        env={"XDG_STATE_HOME": str(state), "PATH": "/usr/bin:/bin"},
        timeout=60,
        preexec_fn=lambda: os.close(0),
    )


def test_a_person_cannot_play_with_stdin_closed(tmp_path: Path) -> None:
    """Started with no input at all (`<&-`): one line and exit 2 before anything is played (a
    stopped game's record is left as it was), where it used to be a traceback; a game of bots
    is printed instead of the full screen, which has no keys to read."""
    args = ["play", "advanced", "--players", "4", "--rounds", "1", "--seed", "5", "--plain"]
    person = with_stdin_closed([*args, "--human", "1"], tmp_path)
    assert person.returncode == 2, person.stderr
    assert person.stderr.strip() == (
        "error: stdin is closed, so nobody can answer at the keyboard:"
        " play on a terminal, or pipe the answers in"
    )
    bots = with_stdin_closed([*args, "--speed", "0"], tmp_path)
    assert bots.returncode == 0, bots.stderr
    assert "Final standings" in bots.stdout


@pytest.mark.parametrize("preset", ["advanced", "basic", "derby"])
def test_help_says_every_options_default(preset: str) -> None:
    """`play PRESET --help`: each option says its default (the preset's own, a fresh seed,
    off, ...), where options left to the table said nothing."""
    shown = runner.invoke(app, ["play", preset, "--help"], env={**NO_COLOUR, "COLUMNS": "250"})
    assert shown.exit_code == 0
    rows = [line for line in shown.output.splitlines() if line.startswith("│ --")]
    assert len(rows) > 12
    assert [row for row in rows if "[default:" not in row and "--help" not in row] == []
