"""`horserace rules PRESET`: the rules as this project implements them."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markdown import Markdown

from horserace.cli.common import fail
from horserace.rules.registry import PRESETS
from horserace.rules.texts import rules_markdown


def rules_text(preset: str) -> str:
    """The rules document shipped with the package (docs/rules/ links to the same files)."""
    if preset not in PRESETS:
        fail(f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}")
    return rules_markdown(preset)


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules_command(
        preset: str = typer.Argument("classic", help="A preset name, e.g. classic."),
        raw: bool = typer.Option(False, "--markdown", help="Print the Markdown source as it is."),
    ) -> None:
        """Print the rules of a preset as implemented, with every table option that changes them."""
        text = rules_text(preset)
        console = Console()
        if raw or not console.is_terminal:
            typer.echo(text, nl=False)
        else:
            console.print(Markdown(text))
