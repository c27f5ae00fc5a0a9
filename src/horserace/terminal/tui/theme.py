"""Light or dark: the theme the table opens in (`--theme`), and the filter that keeps every
colour the boards use (horses', suits', silks') readable on either background."""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from horserace.terminal.tui.background import is_light

THEMES = {"dark": "textual-dark", "light": "textual-light"}
MIN_CONTRAST = 3.0  # a foreground this close to the background is darkened or lightened


def theme_name(choice: str) -> str:
    """`dark`, `light`, or `auto`: the terminal's own background (`background.is_light`: as the
    terminal answers, else as COLORFGBG says, else dark)."""
    if choice in THEMES:
        return THEMES[choice]
    return THEMES["light" if is_light() else "dark"]


@lru_cache(4096)
def readable(style: Style, background: Color) -> Style:
    """`style` with its foreground moved away from its background (its own, else `background`):
    darker on a light one, lighter on a dark one, until the two contrast."""
    if style.color is None or style.color.is_default or style.reverse:
        return style
    if style.bgcolor is not None and not style.bgcolor.is_default:
        background = Color.from_rich_color(style.bgcolor)
    colour = Color.from_rich_color(style.color)
    if _contrast(colour, background) >= MIN_CONTRAST:
        return style
    light = _luminance(background) > 0.5
    moved = colour
    for step in range(1, 10):
        moved = colour.darken(step / 10) if light else colour.lighten(step / 10)
        if _contrast(moved, background) >= MIN_CONTRAST:
            break
    return style + Style(color=moved.rich_color)


def _contrast(one: Color, two: Color) -> float:
    high, low = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


class Contrast(LineFilter):
    """Every foreground too close to the theme's background made readable (the background a
    filter is handed is the widget's own, often transparent)."""

    def __init__(self) -> None:
        super().__init__()
        self.background = Color(0, 0, 0)

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, readable(style, self.background), control)
            if style is not None
            else Segment(text, style, control)
            for text, style, control in segments
        ]
