"""Draws the layers of the package from its imports as they are: docs/architecture/layers.png.

Each box is a part of the tree (the core, the components, each family, each driver), on the row
of its layer in the "layers" import contract (pyproject.toml), highest first; each arrow is one
part importing another, read from the code (grimp, the import graph import-linter checks). An
arrow that points up is drawn in orange: only the kernels do that, reading a family's rules and
odds, as the contract allows. The arrows are also written as text (layers.txt beside the
picture); tests/unit/test_layers.py checks that text against the code, so a new kind of import
between parts shows as a failing test until the picture is drawn again:

    python3 tasks.py layers
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "architecture" / "layers.png"
ARROWS = PICTURE.with_suffix(".txt")
FAMILIES = "horserace.families"


def rows() -> list[list[str]]:
    """The parts on each row, highest first: the layers contract's modules, the families'
    layer split into the registry and one part per family package."""
    from horserace.families import FAMILY_PACKAGES

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers: list[str] = next(c for c in contracts if c["id"] == "layers")["layers"]
    found = []
    for layer in layers:
        parts = [part.strip() for part in layer.split("|")]
        if parts == [FAMILIES]:
            parts = [*sorted(FAMILY_PACKAGES.values()), FAMILIES]
        found.append(parts)
    return found


def part_of(module: str, parts: list[str]) -> str | None:
    """The most specific part holding `module` (None: the package's own face)."""
    holding = [p for p in parts if module == p or module.startswith(p + ".")]
    return max(holding, key=len, default=None)


def arrows() -> list[tuple[str, str]]:
    """Every (importer, imported) pair of parts, as the code imports today, sorted."""
    import grimp

    parts = [part for row in rows() for part in row]
    graph = grimp.build_graph("horserace")
    found: set[tuple[str, str]] = set()
    for module in graph.modules:
        here = part_of(module, parts)
        for imported in graph.find_modules_directly_imported_by(module):
            there = part_of(imported, parts)
            if here is not None and there is not None and here != there:
                found.add((here, there))
    return sorted(found)


def label(part: str) -> str:
    name = part.removeprefix("horserace.").replace(".", "/")
    return "families/ (registry)" if part == FAMILIES else name


def arrows_text(pairs: list[tuple[str, str]]) -> str:
    head = "# Which part imports which (tools/layers_picture.py; python3 tasks.py layers)\n"
    return head + "".join(f"{label(a)} -> {label(b)}\n" for a, b in pairs)


def draw(pairs: list[tuple[str, str]], path: Path) -> None:
    """Boxes on their rows, arrows from importer to imported (orange where one points up)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    layout = rows()
    where: dict[str, tuple[float, float]] = {}
    for depth, row in enumerate(layout):
        for k, part in enumerate(row):
            where[part] = ((k + 1) / (len(row) + 1), 1 - (depth + 0.5) / len(layout))
    figure, axes = pyplot.subplots(figsize=(12, 9))
    axes.set_axis_off()
    width, height = 0.17, 0.045
    ground = layout[-1][0]  # every part imports the core: it is drawn as the ground, no arrows
    for a, b in pairs:
        if b == ground:
            continue
        (xa, ya), (xb, yb) = where[a], where[b]
        up = yb > ya + 1e-9
        level = abs(yb - ya) < 1e-9
        start = (xa, ya - height / 2) if not up and not level else (xa, ya + height / 2)
        end = (xb, yb + height / 2) if not up and not level else (xb, yb - height / 2)
        if level:
            start, end = (xa, ya - height / 2), (xb, yb - height / 2)
        arrow = FancyArrowPatch(
            start,
            end,
            arrowstyle="-|>",
            mutation_scale=10,
            linewidth=1.6 if up else 0.8,
            color="#d35400" if up else "#2c3e50",
            alpha=0.9 if up else 0.55,
            connectionstyle=f"arc3,rad={0.5 if level else (0.25 if up else 0.08)}",
            zorder=1,
        )
        axes.add_patch(arrow)
    for part, (x, y) in where.items():
        wide = 0.9 if part == ground else width
        box = FancyBboxPatch(
            (x - wide / 2, y - height / 2),
            wide,
            height,
            boxstyle="round,pad=0.006",
            facecolor="#dfe9f3" if not part.startswith("horserace.drivers") else "#f3e3d3",
            edgecolor="#34495e",
            zorder=2,
        )
        axes.add_patch(box)
        name = label(part) + (": every part imports it" if part == ground else "")
        axes.text(x, y, name, ha="center", va="center", fontsize=10, zorder=3)
    axes.set_title(
        "horserace: the layers, highest first; an arrow is an import between parts\n"
        "(orange: upward, only the kernels reading a family's rules and odds)",
        fontsize=11,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)


def main() -> None:
    pairs = arrows()
    draw(pairs, PICTURE)
    ARROWS.write_text(arrows_text(pairs), encoding="utf-8")
    print(f"{PICTURE.relative_to(ROOT)}: {len(pairs)} arrows; {ARROWS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
