"""Seeds: one table seed, split into independent streams with numpy's SeedSequence."""

from __future__ import annotations

import secrets

import numpy as np


def derive_seed(seed: int, *path: int) -> int:
    """A 64-bit seed for the stream at `path` under `seed` (same inputs, same stream)."""
    sequence = np.random.SeedSequence(seed, spawn_key=tuple(path))
    low, high = (int(word) for word in sequence.generate_state(2, dtype=np.uint32))
    return (high << 32) | low


def fresh_seed() -> int:
    """A new table seed when the user gave none (recorded, so the game still replays)."""
    return secrets.randbits(63)


BOT_STREAM = 1
GAME_STREAM = 2
ANSWER_STREAM = 3  # the server's pauses before an answer it makes for a person, per seat
