"""The Derby track file: the packaged tracks load, round-trip, and bad files get clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from horserace.core.errors import ConfigError
from horserace.families.derby.rules.track import (
    DEFAULT_TRACK,
    DerbyTrack,
    load_track,
    packaged_track,
    parse_track,
    resolve_track,
)

GOOD = """
name = "tiny"
finish = 6
mud = [4]
accelerators = [2]
[[zones]]
first = 0
last = 2
moves = 2
[[zones]]
name = "home"
first = 3
last = 5
moves = 1
"""


def test_the_default_track_is_the_documented_reconstruction() -> None:
    track = DEFAULT_TRACK
    assert track.name == "derby"
    assert track.finish == 29
    assert [(z.first, z.last, z.moves) for z in track.zones] == [(0, 8, 3), (9, 18, 2), (19, 28, 1)]
    assert sorted(track.mud) == [5, 14, 24]
    assert sorted(track.accelerators) == [2, 11, 21]
    assert (track.mud_shoe, track.mud_blank) == (1, 1)
    assert track.accelerator_weights == {1: 1, 2: 1, 3: 1}
    assert track.label(23) == "start line (2nd pass)"


def test_packaged_tracks_round_trip_through_plain_data() -> None:
    for name in ("derby", "sprint"):
        track = packaged_track(name)
        assert DerbyTrack.from_mapping(track.to_dict()) == track
        assert resolve_track(name) == track
        assert resolve_track(track.to_dict()) == track


def test_a_small_file_loads_with_defaults_for_the_dice(tmp_path: Path) -> None:
    file = tmp_path / "tiny.toml"
    file.write_text(GOOD, encoding="utf-8")
    track = load_track(file)
    assert track.zones[0].name == "zone 1" and track.zones[1].name == "home"
    assert [track.zone_moves(s) for s in range(8)] == [2, 2, 2, 1, 1, 1, 1, 1]
    assert track.accelerator_faces == (1, 2, 3) and track.mud_shoe == track.mud_blank == 1


def test_paving_over_the_specials() -> None:
    plain = DEFAULT_TRACK.without(mud=True, accelerators=True)
    assert not plain.mud and not plain.accelerators and plain.zones == DEFAULT_TRACK.zones
    assert DEFAULT_TRACK.without(mud=True).accelerators == DEFAULT_TRACK.accelerators


def edit(**changes: Any) -> str:
    """GOOD with some top-level lines replaced (None drops the key)."""
    lines = []
    for line in GOOD.strip().splitlines():
        key = line.split("=")[0].strip()
        if line.startswith("[[zones]]"):
            lines.append(line)
            continue
        if key in changes and not line.startswith(" ") and lines.count("[[zones]]") == 0:
            if changes[key] is not None:
                lines.append(f"{key} = {changes[key]}")
            continue
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "not valid TOML"),
        (edit(finish=None), "missing field 'finish'"),
        (edit(finish=1), "finish must be between 2"),
        (edit(finish='"29"'), "finish must be a whole number"),
        (edit(mud="[6]"), "mud space must be between 1 and 5"),
        (edit(mud="[0]"), "mud space must be between 1 and 5"),
        (edit(mud="[2]"), "space 2 cannot be both mud and an accelerator"),
        (edit(mud="[3, 3]"), "listed twice"),
        (edit(accelerators='"2"'), "accelerators must be a list"),
        (edit(name=None), "missing field 'name'"),
        ("speed = 3\n" + GOOD, "unknown field(s) speed"),
        (GOOD.replace("first = 3", "first = 4"), "must start at 3"),
        (GOOD.replace("last = 5", "last = 4"), "must reach space 5"),
        (GOOD.replace("moves = 1", "moves = 0"), "moves must be between 1"),
        (GOOD.replace("last = 2", "last = 9"), "last must be between 0 and 5"),
        (GOOD.replace('name = "home"', "colour = 3"), "zone 2: unknown field(s) colour"),
        (GOOD.replace('name = "home"\n', "").replace("moves = 1", ""), "zone 2: missing moves"),
        ('name = "x"\nfinish = 5\nzones = []', "at least one zone"),
        (GOOD + "\n[mud_die]\nshoe = 0\n", "mud_die.shoe must be between 1"),
        (GOOD + "\n[mud_die]\nsides = 6\n", "mud_die: unknown field(s) sides"),
        (GOOD + "\n[accelerator_die]\nfaces = []\n", "accelerator_die: 1 to"),
        (GOOD + "\n[accelerator_die]\nfaces = [0, 1]\n", "face must be between 1"),
        (GOOD + '\n[labels]\nstart = "x"\n', "not a space number"),
    ],
)
def test_bad_files_name_the_file_and_the_problem(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_track(text, source="bad.toml")
    assert str(caught.value).startswith("bad.toml: ")
    assert message in str(caught.value)


def test_a_missing_file_and_an_unknown_packaged_name(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read track file"):
        load_track(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="known: derby, sprint"):
        packaged_track("nope")
    with pytest.raises(ConfigError, match="track must be"):
        resolve_track(3)
