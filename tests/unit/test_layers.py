"""The architecture holds: import-linter finds no upward import and no sibling import cycle
(the contracts in pyproject.toml), and docs/architecture.md shows the layers it checks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def _contract(contract_id: str) -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    found: dict[str, object] = next(c for c in contracts if c["id"] == contract_id)
    return found


def test_no_upward_import_and_no_cycle() -> None:
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert code == 0, "import-linter found a broken contract (run `lint-imports` to see it)"


def test_the_architecture_document_draws_the_checked_layers() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    assert block is not None
    drawn = [" | ".join(part.strip() for part in line.split("|")) for line in block[1].splitlines()]
    assert drawn == _contract("layers")["layers"]


def test_every_family_is_in_the_contracts_that_list_the_families() -> None:
    from horserace.families import FAMILY_PACKAGES

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in config["tool"]["importlinter"]["contracts"]:
        for key in ("containers", "modules", "forbidden_modules"):
            listed = set(contract.get(key, ()))
            if any(package in listed for package in FAMILY_PACKAGES.values()):
                missing = set(FAMILY_PACKAGES.values()) - listed
                assert not missing, f"add {sorted(missing)} to {key} of contract {contract['id']}"
