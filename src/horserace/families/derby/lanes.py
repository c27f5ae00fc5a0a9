"""A Derby horse's lane and the track's header over the lanes, drawn a cell a space where the
width allows, else scaled to the cells there are (a cell then stands for a few spaces, marked
mud or accelerator if one of them is, and the token sits in the cell of its horse's space)."""

from __future__ import annotations

from functools import lru_cache

from rich.text import Text

from horserace.families.derby.rules.model import DerbyView
from horserace.families.derby.rules.race import RaceState
from horserace.families.derby.rules.silks import silk
from horserace.families.derby.rules.track import DerbyTrack

TOKEN = "●"
ZONE_STYLES = ("grey62", "grey46", "grey30", "grey54")
MUD, MUD_STYLE = "≈", "orange4"
ACCEL, ACCEL_STYLE = "»", "bold yellow"
HOUSE_STYLE = "grey70"
FINISH, FINISH_STYLE = "┃", "bold white"
LEAST_LANE = 6  # cells of a lane, however narrow the screen

__all__ = [
    "ACCEL",
    "ACCEL_STYLE",
    "HOUSE_STYLE",
    "LEAST_LANE",
    "MUD",
    "MUD_STYLE",
    "TOKEN",
    "ZONE_STYLES",
    "horse_style",
    "lane",
    "track_header",
]


def horse_style(view: DerbyView, horse: int) -> str:
    owner = view.owner(horse)
    chosen = None if owner is None else view.silks[owner]
    return HOUSE_STYLE if chosen is None else silk(chosen).colour


def full_width(track: DerbyTrack) -> int:
    """The cells of a lane with a cell for every space (the finish's last)."""
    return track.finish + 1


def span(track: DerbyTrack, cells: int, cell: int) -> range:
    """The spaces of the track one cell stands for, when `cells` cells (the finish's last)
    draw the whole lane."""
    finish = track.finish
    return range(cell * finish // (cells - 1), (cell + 1) * finish // (cells - 1))


def track_header(track: DerbyTrack, cells: int | None = None) -> Text:
    """Zone numbers over the cells, F over the finish (`cells` None: a cell a space)."""
    cells = full_width(track) if cells is None else min(cells, full_width(track))
    line = Text(no_wrap=True, overflow="crop")
    for cell in range(cells - 1):
        zone = track.zones.index(track.zone_at(span(track, cells, cell).start))
        line.append(str(zone + 1)[-1], style=ZONE_STYLES[zone % len(ZONE_STYLES)])
    return line.append("F", style="bold")


def lane(view: DerbyView, race: RaceState | None, horse: int, cells: int | None = None) -> Text:
    """The horse's lane in `cells` cells (None: a cell a space), the finish the last: its token
    in the cell of its space (past the line: on the finish), on mud's colour while it is stuck,
    none while it is scratched."""
    track = view.track
    cells = full_width(track) if cells is None else min(cells, full_width(track))
    position = race.position(horse) if race is not None else 0
    at = cells - 1 if position >= track.finish else position * (cells - 1) // track.finish
    stuck = f" on {MUD_STYLE}" if race is not None and horse in race.stuck else ""
    scratched = horse in view.scratched
    row = Text(no_wrap=True, overflow="crop")
    for cell, (glyph, style) in enumerate(_ground(track, cells)):
        if cell == at and not scratched:
            row.append(TOKEN, style=f"bold {horse_style(view, horse)}{stuck}")
            continue
        row.append(glyph, style="dim" if scratched else style)
    return row


@lru_cache(maxsize=64)
def _ground(track: DerbyTrack, cells: int) -> tuple[tuple[str, str], ...]:
    """Each cell of a lane with no horse on it, the finish the last: the same under every
    horse, worked out once for a track and a width (a board draws it for every horse, at the
    few widths it is measured at)."""
    ground = [_glyph(track, span(track, cells, cell)) for cell in range(cells - 1)]
    return (*ground, (FINISH, FINISH_STYLE))


def _glyph(track: DerbyTrack, spaces: range) -> tuple[str, str]:
    if any(track.is_mud(space) for space in spaces):
        return MUD, MUD_STYLE
    if any(track.is_accelerator(space) for space in spaces):
        return ACCEL, ACCEL_STYLE
    zone = track.zones.index(track.zone_at(spaces.start))
    return "·", ZONE_STYLES[zone % len(ZONE_STYLES)]
