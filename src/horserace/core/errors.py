"""The error hierarchy: every error a user can cause is a ValueError with a readable reason."""

from __future__ import annotations


class HorseraceError(ValueError):
    """Base of every error the project raises on purpose."""


class ConfigError(HorseraceError):
    """A table option or data file that cannot describe a game (13 players, a lane of 0)."""


class InvalidAction(HorseraceError):
    """Text or data that is not an action at all (malformed)."""


class IllegalAction(HorseraceError):
    """A well-formed action that the rules do not allow in this state."""


class RecordError(HorseraceError):
    """A game record that cannot be read or does not replay to what it claims."""
