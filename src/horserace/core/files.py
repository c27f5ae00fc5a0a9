"""Files a person names on the command line (a board, a track, a price list, a record): read as
UTF-8 text, and every way that can fail is one readable error naming the file."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from horserace.core.errors import ConfigError, HorseraceError


def read_text(path: str | Path, what: str, error: type[HorseraceError] = ConfigError) -> str:
    """The file's text; a missing, unreadable or non-UTF-8 file raises `error` naming it."""
    file = Path(path)
    try:
        return file.read_text(encoding="utf-8")
    except OSError as problem:
        raise error(f"cannot read {what} {file}: {problem.strerror}") from None
    except UnicodeDecodeError as problem:
        raise error(
            f"{what} {file} is not UTF-8 text (byte {problem.start}); save it as UTF-8"
        ) from None


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A TOML file's tables; a file that cannot be read or parsed raises ConfigError."""
    return parse_toml(read_text(path, what), f"{what} {path}")


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text's tables; text that is not TOML raises a ConfigError naming `source`."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise ConfigError(f"{source}: not valid TOML ({problem})") from None


def state_directory() -> Path:
    """Where horserace keeps what it makes for the user on its own (interrupted games' records,
    a server's signing key): XDG_STATE_HOME/horserace, else ~/.local/state/horserace."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "horserace"
