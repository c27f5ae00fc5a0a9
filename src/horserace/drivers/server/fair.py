"""Fair dice you can check: a table's seed is committed to by its SHA-256 before play and
revealed after; the dice come from a cryptographic generator keyed by that seed and the seeds
the seated players add before play, so anyone can redraw every roll from the record."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from horserace.core.actions import Action
from horserace.core.chance import outcome_at
from horserace.core.errors import RecordError
from horserace.core.record import GameRecord
from horserace.core.rules import Rules
from horserace.engine import replay
from horserace.families.presets import get_preset


def seed_text(seed: int) -> str:
    """The exact text that is hashed: the seed in decimal, no sign, no padding."""
    if type(seed) is not int or seed < 0:
        raise RecordError(f"a table seed is a whole number >= 0, not {seed!r}: check the record")
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


FAIR = "fair"  # the chance mode of a table whose draws come from `FairChance`
SERVER_SEED_BITS = 256  # nobody can search the seeds for one with the published hash


def server_seed() -> int:
    """A new table's seed: 256 bits from the operating system's generator."""
    return secrets.randbits(SERVER_SEED_BITS)


MAX_PLAYER_SEED = 64  # characters of a player's contributed seed
PLAYER_SEEDS = "player_seeds"  # where a table's settings keep the revealed seeds
COMMITMENTS = "commitments"  # ... the players' commitments (SHA-256 of each seed)
REVEALING = "revealing"  # ... whether the reveals are still awaited
REVEAL_SECONDS = 30.0  # how long reveals are awaited once play is to start


def commitment_of(seed: str) -> str:
    """A player's commitment: SHA-256 of the seed's text, as 64 lower-case hex digits."""
    return hashlib.sha256(seed.encode()).hexdigest()


def commitment_problems(seeds: Mapping[int, str], commitments: Mapping[int, str]) -> list[str]:
    """Every revealed seed must have been committed to, and hash to its commitment."""
    problems = []
    for seat, seed in sorted(seeds.items()):
        committed = commitments.get(seat)
        if committed is None:
            problems.append(f"seat {seat + 1}'s seed was not committed to before play")
        elif not hmac.compare_digest(commitment_of(seed), committed):
            problems.append(f"seat {seat + 1}'s seed does not hash to its commitment")
    return problems


def fair_key(server_seed: int, player_seeds: Mapping[int, str]) -> bytes:
    """The dice's key: HMAC-SHA256 keyed by the server's seed (committed to by its hash
    before anyone could add a seed) over every seated player's seed, in seat order. Nobody
    can aim the dice: the server fixed its seed before seeing the players', and a player
    cannot know the server's seed when choosing theirs."""
    players = json.dumps(
        {str(seat): seed for seat, seed in sorted(player_seeds.items())},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hmac.new(seed_text(server_seed).encode(), players.encode(), hashlib.sha256).digest()


class FairChance:
    """Chance outcomes from HMAC-SHA256 in counter mode under the table's key (a
    cryptographic generator: past draws say nothing about the next). Draw `n` uses blocks
    HMAC(key, "n:attempt") until one falls below the largest multiple of the total weight
    under 2^256, so every outcome has exactly its weight's share."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.draws = 0

    def below(self, total: int) -> int:
        if total <= 0:
            raise ValueError("nothing to draw from")
        limit = (1 << 256) // total * total
        for attempt in range(1_000):
            block = hmac.new(self.key, f"{self.draws}:{attempt}".encode(), hashlib.sha256)
            number = int.from_bytes(block.digest(), "big")
            if number < limit:
                self.draws += 1
                return number % total
        raise AssertionError("unreachable: each attempt fails with probability < 1/2")

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        outcomes, weights = rules.chance_weights(state)
        return outcome_at(self.below(sum(weights)), outcomes, weights)
