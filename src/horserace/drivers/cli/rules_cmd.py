"""`horserace rules PRESET`: the rules as this project implements them."""

from __future__ import annotations

import typer
from rich.console import Console

from horserace.families.texts import rules_markdown
from horserace.terminal.errors import user_errors


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules_command(
        preset: str = typer.Argument("classic", help="A preset name, e.g. classic."),
        raw: bool = typer.Option(
            False,
            "--markdown",
            help="Print the Markdown source as it is.",
            show_default="off: drawn for the terminal",
        ),
    ) -> None:
        """Print the rules of a preset as implemented, with every table option that changes them."""
        with user_errors():
            text = rules_markdown(preset)
        console = Console()
        if raw or not console.is_terminal:
            typer.echo(text, nl=False)
        else:
            from rich.markdown import Markdown  # only a terminal gets the formatted page

            console.print(Markdown(text))
