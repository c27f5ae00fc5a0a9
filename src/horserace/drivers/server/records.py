"""The records the server publishes, and the check anyone can run on one (`horserace verify`
and the table page's link): signature, hash chain, table, seed, options, every action and
event, every draw of the dice and the final standings."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from horserace.core.errors import HorseraceError
from horserace.core.record import GameRecord, parse_record
from horserace.core.types import CHANCE, is_whole_number
from horserace.drivers.server.fair import (
    FAIR,
    FairChance,
    commitment_problems,
    fair_key,
    seed_hash,
    seed_matches,
    verify_record,
)
from horserace.drivers.server.signing import (
    CHAIN,
    CHAIN_START,
    SIGNATURE,
    ServerKey,
    link,
    signature_valid,
)
from horserace.engine import Step, replay
from horserace.families.presets import get_preset

MAX_RECORD_CHARS = 64 * 1024 * 1024


def published_lines(
    record: GameRecord,
    key: ServerKey,
    table: str,
    player_seeds: Mapping[int, str],
    commitments: Mapping[int, str],
    chat: Sequence[Mapping[str, Any]] = (),
) -> list[str]:
    """The record as the server publishes it: the header names the table, the seed's hash,
    the players' commitments and revealed seeds and the server's public key; every line is
    chained; the last signed."""
    rows = [json.loads(line) for line in record.lines()]
    assert record.seed is not None
    rows[0].update(
        {
            "table": table,
            "seed_hash": seed_hash(record.seed),
            "player_seeds": {str(seat): seed for seat, seed in sorted(player_seeds.items())},
            "commitments": {str(seat): hashed for seat, hashed in sorted(commitments.items())},
            "server_key": key.public_hex,
        }
    )
    if chat:  # the table's chat, kept with the record (and covered by its signature)
        rows[0]["chat"] = [dict(line) for line in chat]
    return [json.dumps(row, sort_keys=True) for row in key.sign(rows)]


@dataclass(frozen=True)
class RecordCheck:
    """What checking a published record found; `problems` is empty when all of it holds."""

    problems: tuple[str, ...]
    steps: int = 0
    draws: int = 0
    table: str | None = None
    server_key: str | None = None
    readable: bool = True  # false: the text is not a record at all

    @property
    def verified(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "problems": list(self.problems)}

    @classmethod
    def from_dict(cls, found: Mapping[str, Any]) -> RecordCheck:
        return cls(**{**found, "problems": tuple(found["problems"])})


@dataclass(frozen=True)
class Archive:
    """A finished table as it is published: its record's text and what checking it found."""

    record: str
    check: RecordCheck


class _Mismatch(Exception):
    pass


def check_published(
    text: str,
    *,
    server_key: str | None = None,
    table: str | None = None,
    published_hash: str | None = None,
) -> RecordCheck:
    """Check a record's text. `server_key` (hex), `table` and `published_hash` (the seed hash
    the lobby showed before play), when given, must be the record's own."""
    if len(text) > MAX_RECORD_CHARS:
        return RecordCheck(("the file is larger than any record",), readable=False)
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            return RecordCheck((f"line {number}: not a JSON line of a record",), readable=False)
        if not isinstance(row, dict):
            return RecordCheck((f"line {number}: not a JSON object",), readable=False)
        rows.append(row)
    if not rows:
        return RecordCheck(("the record is empty",), readable=False)
    header = rows[0]
    if header.get("chance") != FAIR or CHAIN not in header:
        return _unsigned(text, header, published_hash)
    previous = CHAIN_START
    for number, row in enumerate(rows, start=1):
        previous = link(previous, row)
        if row.get(CHAIN) != previous:
            return RecordCheck(
                (f"line {number}: the hash chain breaks (a line was changed, added or removed)",)
            )
    last = rows[-1]
    if "result" not in last or not isinstance(last.get(SIGNATURE), str):
        return RecordCheck(("the record is cut short: its last line is not the signed result",))
    key = header.get("server_key")
    found_table = header.get("table")
    if not isinstance(key, str) or not isinstance(found_table, str):
        return RecordCheck(("the header names no server key or table",))
    if server_key is not None and key.lower() != server_key.strip().lower():
        return RecordCheck(("the record is signed with another server's key",), table=found_table)
    if not signature_valid(key, previous, len(rows), last[SIGNATURE]):
        return RecordCheck(("the signature does not match the record",), table=found_table)
    if table is not None and found_table != table:
        return RecordCheck(
            (f"the record is of table {found_table}, not {table}",), table=found_table
        )
    seed = header.get("seed")
    hashed = header.get("seed_hash")
    if type(seed) is not int or seed < 0 or not isinstance(hashed, str):
        return RecordCheck(("the header lacks the seed or its hash",), table=found_table)
    if not seed_matches(seed, hashed):
        return RecordCheck(("the seed does not hash to the seed hash in the header",))
    if published_hash is not None and not seed_matches(seed, published_hash):
        return RecordCheck(("the seed does not hash to the published SHA-256",), table=found_table)
    seeds = _by_seat(header.get("player_seeds"))
    commitments = _by_seat(header.get("commitments", {}))
    if seeds is None or commitments is None:
        return RecordCheck(("the header's player seeds are not seat -> text",), table=found_table)
    unfair = commitment_problems(seeds, commitments)
    if unfair:
        return RecordCheck(tuple(unfair), table=found_table)
    try:
        record = parse_record(text)
        preset = get_preset(record.preset)
        config = preset.rules.stored_config(record.config)
    except HorseraceError as error:
        return RecordCheck((str(error),), table=found_table)
    if preset.rules.config_to_dict(config) != record.config:
        return RecordCheck(("the options are not the table's (not as the server writes them)",))
    chance = FairChance(fair_key(seed, seeds))
    rules = preset.rules

    def redraw(step: Step) -> None:
        if step.actor is CHANCE:
            expected = chance.choose(rules, step.before)
            if expected.text != step.action.text:
                raise _Mismatch(f"step {step.index}: the dice give {expected.text!r} here")

    try:
        report = replay(record, get_preset, observe=redraw)
    except _Mismatch as mismatch:
        return RecordCheck((str(mismatch),), table=found_table, server_key=key)
    return RecordCheck(
        report.problems,
        steps=report.steps_checked,
        draws=chance.draws,
        table=found_table,
        server_key=key,
    )


def _by_seat(found: object) -> dict[int, str] | None:
    """A header's seat -> text map (the players' seeds or commitments); None if it is not."""
    if not isinstance(found, dict) or not all(
        isinstance(k, str) and is_whole_number(k) and isinstance(v, str) for k, v in found.items()
    ):
        return None
    return {int(k): v for k, v in found.items()}


def _unsigned(text: str, header: dict[str, Any], published_hash: str | None) -> RecordCheck:
    """A record from before signed records (Mersenne Twister dice drawn from the seed): only
    the dice can be checked, and the report says it is not signed."""
    if header.get("chance") != "seeded":
        chance = header.get("chance")
        return RecordCheck((f"this record's chance was {chance}, not drawn from a seed",))
    try:
        record = parse_record(text)
    except HorseraceError as error:
        return RecordCheck((str(error),))
    verdict = verify_record(record, published_hash)
    unsigned = (
        "the record is not signed (not one a server published, or an older server's):"
        " its dice follow from the seed"
    )
    if verdict.verified:
        unsigned += ", but nothing shows that it is whole or which table it is"
    return RecordCheck((*verdict.problems, unsigned), steps=verdict.steps, draws=verdict.draws)
