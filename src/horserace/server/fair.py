"""Fair dice you can check: a table's seed is committed to by its SHA-256 before play and
revealed after, so anyone can replay the record from the seed and confirm every roll."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from horserace.core.record import GameRecord
from horserace.engine import replay
from horserace.rules.registry import get_preset


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


@dataclass(frozen=True)
class Verdict:
    """What checking a record's dice found; `problems` is empty when every draw matched."""

    problems: tuple[str, ...]
    draws: int  # chance outcomes checked against the seed
    steps: int

    @property
    def verified(self) -> bool:
        return not self.problems


def verify_record(record: GameRecord, published: str | None = None) -> Verdict:
    """The seed must hash to the published SHA-256 (when given), and replaying the record from
    that seed must draw every roll and card it holds."""
    if record.chance != "seeded" or record.seed is None:
        return Verdict((f"this record's chance was {record.chance}, not drawn from a seed",), 0, 0)
    if published is not None and not seed_matches(record.seed, published):
        return Verdict(("the seed does not hash to the published SHA-256",), 0, 0)
    report = replay(record, get_preset)
    draws = sum(1 for step in record.steps[: report.steps_checked] if step.actor == "chance")
    return Verdict(report.problems, draws, report.steps_checked)
