"""The dice board: eleven lanes (horses 2..12) whose lengths are data, loadable from TOML."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from horserace.core.errors import ConfigError
from horserace.core.files import read_toml

HORSES: tuple[int, ...] = tuple(range(2, 13))
MAX_SLOTS = 99


@dataclass(frozen=True)
class Board:
    """Slots per lane as printed; a horse wins on entering the finish slot after the last one."""

    name: str
    slots: tuple[int, ...]  # slots[h - 2] for horse h

    def __post_init__(self) -> None:
        if len(self.slots) != len(HORSES):
            raise ConfigError(
                f"a board has {len(HORSES)} lanes (horses 2..12), not {len(self.slots)}"
            )
        for horse, count in zip(HORSES, self.slots, strict=True):
            if isinstance(count, bool) or not isinstance(count, int):
                raise ConfigError(f"lane {horse}: slot count must be a whole number, not {count!r}")
            if not 1 <= count <= MAX_SLOTS:
                raise ConfigError(f"lane {horse}: a lane has 1 to {MAX_SLOTS} slots, not {count}")

    def slots_of(self, horse: int) -> int:
        return self.slots[horse - 2]

    def advances_to_finish(self, horse: int) -> int:
        """Advances from the gate until the horse enters its finish slot (slots + 1)."""
        return self.slots[horse - 2] + 1

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "lanes": {str(h): n for h, n in zip(HORSES, self.slots, strict=True)},
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str = "board") -> Board:
        lanes = data.get("lanes")
        if not isinstance(lanes, Mapping):
            raise ConfigError(
                f"{source}: needs a [lanes] table mapping horses 2..12 to slot counts"
            )
        unknown = sorted(str(k) for k in lanes if str(k) not in {str(h) for h in HORSES})
        if unknown:
            raise ConfigError(f"{source}: unknown lane(s) {', '.join(unknown)}; horses are 2..12")
        missing = [h for h in HORSES if str(h) not in {str(k) for k in lanes}]
        if missing:
            raise ConfigError(f"{source}: missing lane(s) {', '.join(map(str, missing))}")
        by_key = {str(k): v for k, v in lanes.items()}
        name = data.get("name", source)
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"{source}: 'name' must be a non-empty string")
        slots = tuple(by_key[str(h)] for h in HORSES)
        try:
            return cls(name=name, slots=slots)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None


def load_board(path: str | Path) -> Board:
    """Read a board file; every problem becomes a one-line ConfigError naming the file."""
    return Board.from_mapping(read_toml(path, "board file"), source=str(path))


DEFAULT_BOARD = Board(name="standard", slots=(2, 5, 7, 10, 13, 14, 13, 10, 7, 5, 2))
