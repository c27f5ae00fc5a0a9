"""A game record: preset, config, seed and every action (chance included) with its events.

Stored as JSON lines so a long game can be read, diffed and appended to line by line. Each
step's events are written by `Event.to_json`; a seat of -1 there (`events.NO_SEAT`) means
nobody, such as a horse nobody bought at the Calcutta.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from horserace.core.errors import RecordError
from horserace.core.files import read_text

FORMAT = "horserace-record"
VERSION = 1
# how chance actions were produced: drawn from the seed, given by a test's script, typed in from
# a real board, or drawn by a server's committed-and-revealed fair chance
CHANCE_MODES = ("seeded", "scripted", "typed", "fair")


@dataclass(frozen=True)
class RecordedStep:
    actor: str
    action: str
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class GameRecord:
    preset: str
    config: dict[str, Any]
    seed: int | None
    chance: str  # one of CHANCE_MODES
    steps: tuple[RecordedStep, ...] = ()
    result: dict[str, Any] | None = field(default=None)
    # who sat where (names, bot kinds, the seats at the keyboard), so a stopped game can be
    # resumed as it was; left out of the header when unknown, as in older records
    seating: dict[str, Any] | None = None

    def lines(self) -> Iterator[str]:
        header = {
            "format": FORMAT,
            "version": VERSION,
            "preset": self.preset,
            "config": self.config,
            "seed": self.seed,
            "chance": self.chance,
        }
        if self.seating is not None:
            header["seating"] = self.seating
        yield json.dumps(header, sort_keys=True)
        for index, step in enumerate(self.steps):
            yield step_line(index, step)
        if self.result is not None:
            yield result_line(self.result)

    def write(self, path: str | Path) -> None:
        """Write the whole record or nothing: a resumed game rewrites the file it was read from,
        and a write cut short (a full disk, a second Ctrl-C) must not cost the game so far."""
        target = Path(path)
        partial = target.with_name(f".{target.name}.partial")
        try:
            partial.write_text("".join(line + "\n" for line in self.lines()), encoding="utf-8")
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)


class StepLike(Protocol):
    """A step as a record writes it (a recorded step, or one played just now)."""

    @property
    def actor(self) -> str: ...
    @property
    def action(self) -> str: ...
    @property
    def events(self) -> tuple[dict[str, Any], ...]: ...


def step_line(index: int, step: StepLike) -> str:
    row = {"step": index, "actor": step.actor, "action": step.action}
    return json.dumps({**row, "events": list(step.events)}, sort_keys=True)


def result_line(result: dict[str, Any]) -> str:
    return json.dumps({"result": result}, sort_keys=True)


class Journal:
    """A record kept on disk as the game goes: the record so far is written whole, then each
    step (an undo line too) and at last the result are appended, a line at a time in one write
    each, so that a game stopped in any way (a closed terminal, a kill, a crash) leaves a record
    of every step played. A write that fails is kept in `error` and ends the writing."""

    def __init__(self, path: str | Path, record: GameRecord) -> None:
        self.path = Path(path)
        self.error: OSError | None = None
        self.steps = len(record.steps)
        self.finished = record.result is not None
        self._fd: int | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            record.write(self.path)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as error:
            self.error = error

    def step(self, step: StepLike) -> None:
        self._write(step_line(self.steps, step))
        self.steps += 1

    def result(self, result: dict[str, Any]) -> None:
        self._write(result_line(result))
        self.finished = True

    def _write(self, line: str) -> None:
        if self._fd is None:
            return
        try:
            data = (line + "\n").encode("utf-8")
            while data:  # a regular file takes the whole line at once
                data = data[os.write(self._fd, data) :]
        except OSError as error:
            self.error = error
            self.close()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _require(condition: bool, line_number: int, message: str) -> None:
    if not condition:
        raise RecordError(f"line {line_number}: {message}")


def _seating_ok(seating: object) -> bool:
    """Who sat where, as `horserace play` writes it; each part may be left out."""
    if not isinstance(seating, dict):
        return False
    texts = all(
        isinstance(seating.get(key, []), list)
        and all(isinstance(v, str) for v in seating.get(key, []))
        for key in ("names", "bots")
    )
    humans = seating.get("humans", [])
    return texts and isinstance(humans, list) and all(type(seat) is int for seat in humans)


def parse_record(text: str, source: str = "record") -> GameRecord:
    """Read JSON lines; any damage becomes a RecordError naming the line."""
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"{source} line {number}: not JSON ({error.msg})") from None
        _require(isinstance(row, dict), number, "each line must be a JSON object")
        rows.append((number, row))
    _require(bool(rows), 1, f"{source} is empty")
    number, header = rows[0]
    _require(header.get("format") == FORMAT, number, f"not a {FORMAT} file")
    _require(
        header.get("version") == VERSION, number, f"unsupported version {header.get('version')}"
    )
    preset, config, seed, chance = (header.get(k) for k in ("preset", "config", "seed", "chance"))
    _require(isinstance(preset, str), number, "header lacks the preset name")
    _require(isinstance(config, dict), number, "header lacks the config object")
    _require(seed is None or type(seed) is int, number, "seed must be a whole number or null")
    _require(chance in CHANCE_MODES, number, f"chance must be one of {', '.join(CHANCE_MODES)}")
    seating = header.get("seating")
    _require(
        seating is None or _seating_ok(seating),
        number,
        'seating must be an object with "names" and "bots" (lists of text)'
        ' and "humans" (a list of seat numbers)',
    )
    steps: list[RecordedStep] = []
    result: dict[str, Any] | None = None
    for number, row in rows[1:]:
        _require(result is None, number, "nothing may follow the result line")
        if "result" in row:
            _require(isinstance(row["result"], dict), number, "result must be an object")
            result = row["result"]
            continue
        _require(row.get("step") == len(steps), number, f"expected step {len(steps)}")
        actor, action, events = row.get("actor"), row.get("action"), row.get("events")
        _require(isinstance(actor, str) and isinstance(action, str), number, "bad actor/action")
        _require(isinstance(events, list), number, "events must be a list")
        steps.append(RecordedStep(str(actor), str(action), tuple(events)))  # type: ignore[arg-type]
    return GameRecord(
        str(preset),
        dict(config),  # type: ignore[arg-type]
        seed,
        str(chance),
        tuple(steps),
        result,
        seating,
    )


def read_record(path: str | Path) -> GameRecord:
    return parse_record(read_text(path, "record", RecordError), source=str(path))
