"""Fair dice you can check: a table's seed is committed to by its SHA-256 before play and
revealed after, so anyone can replay the record from the seed and confirm every roll."""

from __future__ import annotations

import hashlib
import hmac


def seed_text(seed: int) -> str:
    """The exact text that is hashed: the seed in decimal, no sign, no padding."""
    if type(seed) is not int or seed < 0:
        raise ValueError("a table seed is a whole number >= 0")
    return str(seed)


def seed_hash(seed: int) -> str:
    """SHA-256 of the seed's decimal text, as 64 lower-case hex digits (shown in the lobby)."""
    return hashlib.sha256(seed_text(seed).encode("ascii")).hexdigest()


def seed_matches(seed: int, published: str) -> bool:
    """Whether `seed` is the one whose hash was published (case and spaces forgiven)."""
    return hmac.compare_digest(seed_hash(seed), published.strip().lower())
