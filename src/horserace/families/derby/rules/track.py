"""The Derby track as data: spaces, zones with their movement values, mud, accelerators, finish.

The seed's pictures of the mat are lost, so the layout is a TOML file (see
`families/derby/tracks/derby.toml` for the documented default reconstruction). Every problem in
a file becomes one ConfigError that names the file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from horserace.core.errors import ConfigError
from horserace.core.files import parse_toml, read_text
from horserace.core.options import check_whole
from horserace.core.types import is_whole_number

MAX_FINISH = 200
MAX_ZONE_MOVES = 20
MAX_DIE_FACES = 100


@dataclass(frozen=True)
class Zone:
    """Spaces `first`..`last`: a horse that starts its turn here moves `moves` per zone die."""

    name: str
    first: int
    last: int
    moves: int


@dataclass(frozen=True)
class DerbyTrack:
    """A race from the start line (space 0) to the finish (space `finish`).

    Zones cover spaces 0..finish-1 without gaps; a horse on or past the finish (a tie running
    on) moves by the last zone's value. Mud and accelerator spaces lie strictly between the
    start and the finish, never on the same space.
    """

    name: str
    finish: int
    zones: tuple[Zone, ...]
    mud: frozenset[int]
    accelerators: frozenset[int]
    mud_shoe: int = 1  # faces of the mud die showing a horseshoe
    mud_blank: int = 1  # faces showing a mud splat
    accelerator_faces: tuple[int, ...] = (1, 2, 3)
    labels: tuple[tuple[int, str], ...] = ()  # landmarks drawn under the track (space, text)
    description: str = ""

    def __post_init__(self) -> None:
        check_whole("finish", self.finish, 2, MAX_FINISH)
        if not self.name.strip():
            raise ConfigError("name: a track needs a non-empty name")
        if not self.zones:
            raise ConfigError("zones: a track needs at least one zone")
        expected = 0
        for index, zone in enumerate(self.zones, start=1):
            where = f"zone {index} ({zone.name})"
            check_whole(f"{where} first", zone.first, 0, self.finish - 1)
            check_whole(f"{where} last", zone.last, 0, self.finish - 1)
            check_whole(f"{where} moves", zone.moves, 1, MAX_ZONE_MOVES)
            if zone.first != expected:
                raise ConfigError(
                    f"{where}: starts at space {zone.first}, but the zones must cover every"
                    f" space from 0 to {self.finish - 1} in order, so it must start at {expected}"
                )
            if zone.last < zone.first:
                raise ConfigError(f"{where}: last space {zone.last} is before its first")
            expected = zone.last + 1
        if expected != self.finish:
            raise ConfigError(
                f"zones end at space {expected - 1}; they must reach space {self.finish - 1},"
                f" the last space before the finish"
            )
        for label, spaces in (("mud", self.mud), ("accelerators", self.accelerators)):
            for space in sorted(spaces):
                check_whole(f"{label} space", space, 1, self.finish - 1)
        both = sorted(self.mud & self.accelerators)
        if both:
            raise ConfigError(f"space {both[0]} cannot be both mud and an accelerator")
        check_whole("mud_die.shoe", self.mud_shoe, 1, MAX_DIE_FACES)
        check_whole("mud_die.blank", self.mud_blank, 0, MAX_DIE_FACES)
        if not self.accelerator_faces or len(self.accelerator_faces) > MAX_DIE_FACES:
            raise ConfigError(f"accelerator_die: 1 to {MAX_DIE_FACES} faces")
        for face in self.accelerator_faces:
            check_whole("accelerator_die face", face, 1, MAX_ZONE_MOVES)
        for space, text in self.labels:
            check_whole("label space", space, 0, self.finish)
            if not isinstance(text, str):
                raise ConfigError(f"label of space {space} must be text")

    # --- lookups used by the rules and the kernels --------------------------------------
    def zone_at(self, space: int) -> Zone:
        """The zone of a space; on or past the finish, the last zone."""
        return self.zones[self._zone_index[min(space, self.finish - 1)]]

    def zone_moves(self, space: int) -> int:
        return self.zone_at(space).moves

    @cached_property
    def _zone_index(self) -> tuple[int, ...]:
        index: list[int] = []
        for number, zone in enumerate(self.zones):
            index += [number] * (zone.last - zone.first + 1)
        return tuple(index)

    def is_mud(self, space: int) -> bool:
        return space in self.mud

    def is_accelerator(self, space: int) -> bool:
        return space in self.accelerators

    def label(self, space: int) -> str | None:
        return dict(self.labels).get(space)

    @property
    def accelerator_weights(self) -> dict[int, int]:
        """Bonus -> number of faces showing it (1, 2, 3 once each by default)."""
        weights: dict[int, int] = {}
        for face in self.accelerator_faces:
            weights[face] = weights.get(face, 0) + 1
        return dict(sorted(weights.items()))

    def without(self, *, mud: bool = False, accelerators: bool = False) -> DerbyTrack:
        """The same track with its mud and/or accelerator spaces paved over (for comparisons)."""
        return DerbyTrack(
            name=self.name,
            finish=self.finish,
            zones=self.zones,
            mud=frozenset() if mud else self.mud,
            accelerators=frozenset() if accelerators else self.accelerators,
            mud_shoe=self.mud_shoe,
            mud_blank=self.mud_blank,
            accelerator_faces=self.accelerator_faces,
            labels=self.labels,
            description=self.description,
        )

    # --- plain data -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The TOML file's structure as plain data; `DerbyTrack.from_mapping` reads it back."""
        return {
            "name": self.name,
            "description": self.description,
            "finish": self.finish,
            "mud": sorted(self.mud),
            "accelerators": sorted(self.accelerators),
            "mud_die": {"shoe": self.mud_shoe, "blank": self.mud_blank},
            "accelerator_die": {"faces": list(self.accelerator_faces)},
            "zones": [
                {"name": z.name, "first": z.first, "last": z.last, "moves": z.moves}
                for z in self.zones
            ],
            "labels": {str(space): text for space, text in self.labels},
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "track") -> DerbyTrack:
        """Build and validate; every error names `source` and the offending field."""
        try:
            return _from_mapping(data)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None


KNOWN_KEYS = frozenset(
    {
        "name",
        "description",
        "finish",
        "mud",
        "accelerators",
        "mud_die",
        "accelerator_die",
        "zones",
        "labels",
    }
)


def _from_mapping(data: Mapping[str, Any]) -> DerbyTrack:
    if not isinstance(data, Mapping):
        raise ConfigError("a track is a table of fields")
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(
            f"unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(KNOWN_KEYS))}"
        )
    for required in ("name", "finish", "zones"):
        if required not in data:
            raise ConfigError(f"missing field {required!r}")
    name = data["name"]
    if not isinstance(name, str):
        raise ConfigError("name must be text")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ConfigError("description must be text")
    zones_data = data["zones"]
    if not isinstance(zones_data, Sequence) or isinstance(zones_data, str):
        raise ConfigError("zones must be a list of [[zones]] tables")
    zones = tuple(_zone(index, entry) for index, entry in enumerate(zones_data, start=1))
    mud_die = _table(data, "mud_die", {"shoe", "blank"})
    accel_die = _table(data, "accelerator_die", {"faces"})
    faces = accel_die.get("faces", [1, 2, 3])
    if not isinstance(faces, Sequence) or isinstance(faces, str):
        raise ConfigError("accelerator_die.faces must be a list of whole numbers")
    labels_data = data.get("labels", {})
    if not isinstance(labels_data, Mapping):
        raise ConfigError("labels must be a table mapping spaces to text")
    labels = tuple(sorted((_space_key(key), text) for key, text in labels_data.items()))
    return DerbyTrack(
        name=name,
        description=description,
        finish=data["finish"],
        zones=zones,
        mud=_spaces(data, "mud"),
        accelerators=_spaces(data, "accelerators"),
        mud_shoe=mud_die.get("shoe", 1),
        mud_blank=mud_die.get("blank", 1),
        accelerator_faces=tuple(faces),
        labels=labels,
    )


def _zone(index: int, entry: object) -> Zone:
    if not isinstance(entry, Mapping):
        raise ConfigError(f"zone {index} must be a table with first, last and moves")
    unknown = sorted(set(entry) - {"name", "first", "last", "moves"})
    if unknown:
        raise ConfigError(f"zone {index}: unknown field(s) {', '.join(unknown)}")
    missing = [key for key in ("first", "last", "moves") if key not in entry]
    if missing:
        raise ConfigError(f"zone {index}: missing {', '.join(missing)}")
    name = entry.get("name", f"zone {index}")
    if not isinstance(name, str):
        raise ConfigError(f"zone {index}: name must be text")
    return Zone(name=name, first=entry["first"], last=entry["last"], moves=entry["moves"])


def _table(data: Mapping[str, Any], key: str, known: set[str]) -> Mapping[str, Any]:
    table = data.get(key, {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"{key} must be a table")
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{key}: unknown field(s) {', '.join(unknown)}")
    return table


def _spaces(data: Mapping[str, Any], key: str) -> frozenset[int]:
    values = data.get(key, [])
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise ConfigError(f"{key} must be a list of spaces")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key}: a space is a whole number, not {value!r}")
    if len(set(values)) != len(values):
        raise ConfigError(f"{key}: a space is listed twice")
    return frozenset(values)


def _space_key(key: object) -> int:
    text = str(key)
    if not is_whole_number(text):
        raise ConfigError(f"labels: {text!r} is not a space number")
    return int(text)


def parse_track(text: str, source: str = "track") -> DerbyTrack:
    return DerbyTrack.from_mapping(parse_toml(text, source), source=source)


def load_track(path: str | Path) -> DerbyTrack:
    """Read a track file; every problem becomes a one-line ConfigError naming the file."""
    return parse_track(read_text(path, "track file"), source=str(path))


def packaged_track(name: str) -> DerbyTrack:
    """A track shipped with the family, `families/derby/tracks/NAME.toml` ('derby', 'sprint')."""
    folder = resources.files("horserace.families.derby").joinpath("tracks")
    file = folder.joinpath(f"{name}.toml")
    if not file.is_file():
        known = sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))
        raise ConfigError(f"no packaged track {name!r}; known: {', '.join(known)}")
    return parse_track(file.read_text("utf-8"), source=f"track {name}")


def resolve_track(value: object) -> DerbyTrack:
    """A config's track option: a DerbyTrack, a packaged name, or a table read from a record."""
    if isinstance(value, DerbyTrack):
        return value
    if isinstance(value, str):
        return packaged_track(value)
    if isinstance(value, Mapping):
        return DerbyTrack.from_mapping(value)
    raise ConfigError("track must be a track table or the name of a packaged track")


DEFAULT_TRACK = packaged_track("derby")
