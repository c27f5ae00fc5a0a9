"""The 24 jockey silks (cosmetic: a name and the colours a screen draws the horse in)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Silk:
    number: int
    name: str
    colour: str  # a Rich colour name, for the lane and the token
    trim: str  # the second colour, shown beside the name


SILKS: tuple[Silk, ...] = tuple(
    Silk(number, name, colour, trim)
    for number, (name, colour, trim) in enumerate(
        (
            ("Scarlet Star", "red1", "white"),
            ("Royal Blue", "royal_blue1", "gold1"),
            ("Emerald Isle", "green3", "white"),
            ("Golden Crown", "gold1", "dark_red"),
            ("Midnight", "grey70", "deep_sky_blue1"),
            ("Orange Blossom", "dark_orange", "green3"),
            ("Violet Hour", "medium_purple1", "white"),
            ("Rose Garden", "hot_pink", "green3"),
            ("Sky Rider", "deep_sky_blue1", "white"),
            ("Lime Light", "chartreuse1", "black"),
            ("Crimson Tide", "red3", "gold1"),
            ("Teal Wave", "dark_cyan", "white"),
            ("Sunburst", "yellow1", "red1"),
            ("Silver Arrow", "grey85", "red1"),
            ("Chocolate Chip", "orange4", "wheat1"),
            ("Magenta Flash", "magenta1", "black"),
            ("Forest Run", "dark_green", "gold1"),
            ("Ice Queen", "light_cyan1", "royal_blue1"),
            ("Copper Penny", "dark_orange3", "black"),
            ("Lavender Lane", "plum2", "purple"),
            ("Coral Reef", "light_coral", "dark_cyan"),
            ("Navy Anchor", "navy_blue", "white"),
            ("Mint Julep", "pale_green1", "dark_green"),
            ("Harlequin", "yellow3", "magenta1"),
        ),
        start=1,
    )
)
SILK_NUMBERS: tuple[int, ...] = tuple(silk.number for silk in SILKS)


def silk(number: int) -> Silk:
    return SILKS[number - 1]
