"""Derby Challenge (seed 004, RULINGS §3): up to 20 players, a track defined as data."""

from horserace.families.derby.rules.model import DerbyConfig, DerbyPhase, DerbyState, DerbyView
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.track import (
    DEFAULT_TRACK,
    DerbyTrack,
    load_track,
    packaged_track,
)

__all__ = [
    "DEFAULT_TRACK",
    "DerbyConfig",
    "DerbyPhase",
    "DerbyRules",
    "DerbyState",
    "DerbyTrack",
    "DerbyView",
    "load_track",
    "packaged_track",
]
