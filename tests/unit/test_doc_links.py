"""Every link from the README and the docs to a file of the repository leads to a file: the
rules pages under docs/rules/ are links to the texts `horserace rules` prints, and a text that
moves must not leave them pointing at nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _local_links(page: Path) -> list[str]:
    return [t for t in LINK.findall(page.read_text()) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_local_link_of_a_page_leads_to_a_file(page: Path) -> None:
    assert page.exists(), f"{page.relative_to(ROOT)} is a link to nothing"
    missing = [t for t in _local_links(page) if not (page.parent / t).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to missing {missing}"


def test_the_rules_pages_are_the_texts_the_rules_command_prints() -> None:
    from horserace.families import preset_specs
    from horserace.families.texts import rules_markdown

    pages = sorted((ROOT / "docs" / "rules").glob("*.md"))
    assert [page.stem for page in pages] == sorted(preset_specs())
    for page in pages:
        assert page.read_text() == rules_markdown(page.stem)


def test_the_server_pages_usage_names_every_serve_option() -> None:
    """The synopsis at the top of docs/server.md lists each option `serve` takes, and a number
    it shows is the option's default: an option added to the command shows there too."""
    from horserace.drivers.cli.app import COMMANDS

    serve = COMMANDS["serve"][1]()
    usage = (ROOT / "docs" / "server.md").read_text().split("```")[1]
    for option in serve.params:
        name = option.opts[0]
        if name == "--help":
            continue
        assert f"[{name}" in usage, f"docs/server.md's usage leaves out {name}"
        shown = re.search(rf"\[{name} (\d+(?:\.\d+)?)\]", usage)
        if shown is not None:
            assert float(shown[1]) == option.default, f"{name}'s default is {option.default}"


def test_the_server_pages_table_of_modules_names_every_module() -> None:
    """The table "How the server is built" in docs/server.md names each module of the
    server's package, so a newcomer finds every file there."""
    package = ROOT / "src" / "horserace" / "drivers" / "server"
    page = (ROOT / "docs" / "server.md").read_text()
    modules = sorted(path.name for path in package.glob("*.py") if path.name != "__init__.py")
    missing = [name for name in modules if f"`{name}`" not in page]
    assert not missing, f"docs/server.md's table of modules leaves out {missing}"
