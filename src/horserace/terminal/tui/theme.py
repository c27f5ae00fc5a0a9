"""Light or dark: the theme the table opens in (`--theme`), and the filter that keeps the
boards' colours, chosen for a dark background, readable on a light one."""

from __future__ import annotations

import os
from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

THEMES = {"dark": "textual-dark", "light": "textual-light"}
MIN_CONTRAST = 3.0  # a foreground this close to the background is darkened


def theme_name(choice: str) -> str:
    """`dark`, `light`, or `auto`: the terminal's own background as COLORFGBG tells it
    (`fg;bg`, a bg of 7 or 15 is light); dark when the terminal says nothing."""
    if choice in THEMES:
        return THEMES[choice]
    background = os.environ.get("COLORFGBG", "").split(";")[-1]
    return THEMES["light" if background in ("7", "15") else "dark"]


@lru_cache(1024)
def _darkened(style: Style, background: Color) -> Style:
    if style.color is None or style.bgcolor is not None:
        return style
    colour = Color.from_rich_color(style.color)
    contrast = _contrast(colour, background)
    if contrast >= MIN_CONTRAST:
        return style
    for step in range(1, 9):
        darker = colour.darken(step / 10)
        if _contrast(darker, background) >= MIN_CONTRAST:
            break
    return style + Style(color=darker.rich_color)


def _contrast(one: Color, two: Color) -> float:
    high, low = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


class LightContrast(LineFilter):
    """Darkens any foreground colour too faint against a light background."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, _darkened(style, background), control)
            if style is not None
            else Segment(text, style, control)
            for text, style, control in segments
        ]
