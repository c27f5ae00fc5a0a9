"""Command-line options declared as tables: one `Opt` a line says a flag, its type, default and
help, and `declared` turns a table into the function whose signature typer reads. `with_options`
joins such declarations (the options every command of a kind shares, then a family's own) into
one command."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Annotated, Any, NamedTuple, get_type_hints

import typer

REQUIRED: Any = inspect.Parameter.empty  # the default of an option that must be given


class Opt(NamedTuple):
    """One option: its flags and the metavar its help shows, as the help shows them ("--games
    -n", "--seed N", "--redeal/--no-redeal"), its type and default, its help, and the
    parameter's name where the first flag's would not do (--json: as_json)."""

    usage: str
    kind: Any
    default: Any
    help: str
    name: str | None = None
    shown: str | None = None  # the default as the help says it, where the value does not

    def parameter(self) -> inspect.Parameter:
        words = self.usage.split()
        flags = [word for word in words if word.startswith("-")]
        metavar = next((word for word in words if not word.startswith("-")), None)
        name = self.name or flags[0].split("/")[0].removeprefix("--").replace("-", "_")
        option = typer.Option(
            *flags, metavar=metavar, help=self.help, show_default=self.default_words()
        )
        return inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=self.default,
            annotation=Annotated[self.kind, option],
        )

    def default_words(self) -> str | bool:
        """What `--help` says of the default: every option says one (None is the table's own,
        from its preset; a flag left out is off; an empty text is none)."""
        if self.shown is not None:
            return self.shown
        if self.default is None:
            return "the preset's"
        if self.default is False:
            return "off"
        if self.default == "":
            return "none"
        return self.default is not REQUIRED


def declared(*options: Opt) -> Callable[..., None]:
    """A function that only declares `options` (its signature is what a command offers)."""

    def declaration(**given: Any) -> None:
        """Options, read by `with_options`."""

    parameters = [option.parameter() for option in options]
    declaration.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    declaration.__annotations__ = {p.name: p.annotation for p in parameters}
    return declaration


def with_options(
    run: Callable[[dict[str, Any], dict[str, Any]], None], *sources: Callable[..., Any]
) -> Callable[..., None]:
    """A command whose options are those of `sources` (functions that only declare options);
    it calls `run` with what was given for each source's options, in order."""
    parameters: list[inspect.Parameter] = []
    hints: dict[str, Any] = {}
    groups: list[tuple[str, ...]] = []
    for source in sources:
        found = get_type_hints(source, include_extras=True)
        own = inspect.signature(source).parameters.values()
        groups.append(tuple(parameter.name for parameter in own))
        for parameter in own:
            hints[parameter.name] = found[parameter.name]
            parameters.append(
                parameter.replace(kind=parameter.KEYWORD_ONLY, annotation=found[parameter.name])
            )

    def command(**given: Any) -> None:
        run(*({name: given[name] for name in group} for group in groups))

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = hints
    return command


def renamed(given: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The options given (those not None) under the table options' names; `names` maps a table
    option to the command-line option that sets it."""
    return {name: given[key] for name, key in names.items() if given[key] is not None}
