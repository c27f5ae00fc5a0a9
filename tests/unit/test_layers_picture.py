"""docs/architecture.md shows a picture of the imports between the parts of the package as the
code has them (tools/layers_picture.py draws it; its arrows are kept as text beside it)."""

from __future__ import annotations

from pathlib import Path

from tools.layers_picture import ARROWS, PICTURE, arrows, arrows_text, rows

ROOT = Path(__file__).resolve().parents[2]


def test_the_picture_of_the_layers_draws_the_imports_of_today() -> None:
    document = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert PICTURE.is_file() and "architecture/layers.png" in document
    drawn = ARROWS.read_text(encoding="utf-8")
    assert drawn == arrows_text(arrows()), "the imports changed: run `python3 tasks.py layers`"


def test_only_the_kernels_import_upward() -> None:
    depth = {part: k for k, row in enumerate(rows()) for part in row}
    upward = {(a, b) for a, b in arrows() if depth[b] < depth[a]}
    assert upward and {a for a, _ in upward} == {"horserace.kernels"}
