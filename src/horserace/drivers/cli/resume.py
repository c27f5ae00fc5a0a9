"""`horserace play PRESET --resume FILE`: a stopped game goes on where its record ends.

The record says everything the table was (preset, options, seed, who sat where), so the options
that would change the table are refused beside --resume; the seats may be played otherwise
(--human, --bots, --names). The record is replayed and checked first; on a seeded table the dice
and every bot's generator are drawn along, so the game goes on exactly as if never stopped."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from horserace.core.chance import ChanceSource
from horserace.core.errors import ConfigError, RecordError
from horserace.core.record import GameRecord, read_record
from horserace.core.rules import Rules
from horserace.core.types import CHANCE
from horserace.engine import Agent, Game, Step, needs_view, replay
from horserace.families.presets import get_preset

# `play` options that make a table: on a resumed game they come from its record
TABLE_MADE_BY = ("players", "seed", "companion")


@dataclass(frozen=True)
class Resumable:
    """A stopped game's record, checked to be one this command can go on with."""

    path: Path
    record: GameRecord
    config: Any
    seed: int

    @property
    def companion(self) -> bool:
        return self.record.chance == "typed"

    def seats(self, key: str) -> Any:
        """What the record says of the seats (names, bots, humans), None if it does not say."""
        return (self.record.seating or {}).get(key)


def read_resumable(
    path: Path,
    preset: str,
    rules: Rules[Any, Any],
    common: Mapping[str, Any],
    own: Mapping[str, Any],
    own_options: Callable[..., None],
) -> Resumable:
    """The record at `path`, checked against the command (ConfigError/RecordError say why not);
    `own_options` declares the family's options, whose defaults say which ones were given."""
    defaults = {name: p.default for name, p in inspect.signature(own_options).parameters.items()}
    given = [name for name in TABLE_MADE_BY if common[name] not in (None, False)]
    given += [name for name, value in own.items() if value != defaults.get(name)]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ConfigError(f"--resume takes the table from the record; leave out {options}")
    record = read_record(path)
    if record.preset != preset:
        raise ConfigError(
            f"{path} is a game of {record.preset}; resume it with:"
            f" horserace play {record.preset} --resume {path}"
        )
    if record.result is not None:
        raise ConfigError(f"{path} holds a finished game; see it with: horserace replay {path}")
    if record.chance not in ("seeded", "typed") or record.seed is None:
        raise ConfigError(f"{path}: only games played with a seed or typed in can be resumed")
    config = rules.stored_config(record.config)
    return Resumable(path, record, config, record.seed)


def catch_up(
    resumable: Resumable, agents: Mapping[int, Agent], chance: ChanceSource, humans: frozenset[int]
) -> Game:
    """Replay the record (checking every step); the seed's chance and the bots draw along with
    it, so each is where it was when the game stopped."""
    rules = get_preset(resumable.record.preset).rules
    seeded = not resumable.companion

    def follow(step: Step) -> None:
        if step.actor is CHANCE:
            if seeded:
                chance.choose(rules, step.before)
            return
        if not isinstance(step.actor, int) or step.actor in humans:
            return
        agent = agents[step.actor]
        legal = rules.legal_actions(step.before, step.actor)
        view = rules.view(step.before, step.actor) if needs_view(agent, legal) else None
        agent.choose(view, legal)

    report = replay(resumable.record, get_preset, observe=follow)
    if not report.ok or report.game is None:
        raise RecordError(f"{resumable.path} does not replay: {'; '.join(report.problems)}")
    return report.game
