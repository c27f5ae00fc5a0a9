"""The command line loads a subcommand only when it runs: `horserace --help` and `horserace
rules` import no engine, no server and no numpy, and the help lines the top level prints
without loading a command are the commands' own."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from horserace.drivers.cli.app import COMMANDS, app

HEAVY = ("numpy", "numba", "fastapi", "psycopg", "uvicorn", "matplotlib", "dask", "textual")
PROBE = """
import json, sys
from horserace.drivers.cli.app import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules_after(*arguments: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return set(loaded)


@pytest.mark.parametrize("arguments", [("--help",), ("rules", "classic", "--markdown")])
def test_help_and_rules_import_no_engine_server_or_numpy(arguments: tuple[str, ...]) -> None:
    loaded = _modules_after(*arguments)
    assert not {name.split(".")[0] for name in loaded} & set(HEAVY)
    assert not {
        name
        for name in loaded
        if name.startswith(
            ("horserace.engine", "horserace.drivers.server", "horserace.drivers.bots")
        )
        or name == "horserace.families.presets"
        or re.match(r"horserace\.families\.\w+\.(rules|odds|sampled_odds)\b", name)
    }


def test_the_top_level_help_lists_every_command_with_its_own_help_line() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name, (line, build) in COMMANDS.items():
        assert name in result.output
        command = build()
        own = " ".join((command.help or "").split())
        assert own.startswith(line.rstrip(".")), name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_command_offers_shell_completion_the_program_does_not_install(name: str) -> None:
    result = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "completion" not in result.output
