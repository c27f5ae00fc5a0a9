"""Pictures drawn headless (matplotlib's Agg backend) into PNG, SVG or PDF files.

matplotlib is imported inside each function, so only a command asked for a picture pays for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from horserace.core.errors import ConfigError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def figure(panels: int, width: float = 5.0) -> tuple[Figure, list[Axes]]:
    """A figure of `panels` side by side."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(1, panels, figsize=(width * panels, 4.0), squeeze=False)
    return figure, list(axes[0])


def save(figure: Figure, path: Path) -> None:
    """Write the figure where `--plot` says (a ConfigError for a bad name or folder)."""
    from matplotlib import pyplot

    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ConfigError(f"--plot {path}: name a .png, .svg or .pdf file")
    if not path.parent.is_dir():
        raise ConfigError(f"--plot {path}: no such directory {path.parent}")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
