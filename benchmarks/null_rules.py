"""The play loop's own floor: rules that take the same turns as real Classic games and do nothing.

`ShadowRules` follows the sequence of actors (seats and chance) that real Classic games went
through, one step at a time, but its `apply` only counts: no state, no money, no events. Played
by the same bots and the same seeded chance through `engine.play`, it measures what the generic
step interface (whose turn, legal actions, the agent's choice, the chance draw, verify and apply,
the record's step) costs before any rule runs. The engine can never be faster than this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from horserace.components.dice import ALL_ROLLS
from horserace.core.actions import Action
from horserace.core.chance import SeededChance, lookup_table
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.rules import Result, Rules
from horserace.core.types import TERMINAL, Actor, parse_actor
from horserace.drivers.bots import make_bot
from horserace.engine import Game, play
from horserace.families.board.rules.actions import ROLL
from horserace.families.presets import get_preset

ROLL_WEIGHTS = tuple(2 if roll.low != roll.high else 1 for roll in ALL_ROLLS)
ROLL_TABLE = lookup_table(ALL_ROLLS, ROLL_WEIGHTS)


def actors_of_games(options: Mapping[str, Any], seeds: Sequence[int]) -> list[tuple[Actor, ...]]:
    """Whose turn each step of real Classic games was, random bots at every seat."""
    preset = get_preset("classic")
    config = preset.config(dict(options))
    games = []
    for seed in seeds:
        game = Game("classic", preset.rules, config, seed=seed, chance_mode="seeded")
        bots = {
            seat: make_bot("random", seed * 64 + seat, "board") for seat in range(config.players)
        }
        play(game, bots, SeededChance(seed))
        games.append(tuple(parse_actor(step.actor) for step in game.steps))
    return games


class ShadowRules(Rules[Any, Any]):  # no config, a step count for a state
    """Made for one game's actor sequence; the state is how many steps have been taken."""

    family = "shadow"

    def __init__(self, actors: tuple[Actor, ...]) -> None:
        self._actors = actors

    def make_config(self, options: Mapping[str, Any]) -> None:
        return None

    def config_to_dict(self, config: None) -> dict[str, Any]:
        return {}

    def players(self, config: None) -> int:
        return 6

    def initial_state(self, config: None) -> int:
        return 0

    def actor(self, state: int) -> Actor:
        return self._actors[state] if state < len(self._actors) else TERMINAL

    def legal_actions(self, state: int, seat: int) -> Sequence[Action]:
        return (ROLL,)

    def chance_weights(self, state: int) -> tuple[Sequence[Action], Sequence[int]]:
        return ALL_ROLLS, ROLL_WEIGHTS

    def chance_table(self, state: int) -> Sequence[Action] | None:
        return ROLL_TABLE

    def verify(self, state: int, action: Action) -> None:
        return None

    def apply(self, state: int, action: Action) -> tuple[int, tuple[Event, ...]]:
        return state + 1, ()

    def parse_action(self, state: int, text: str) -> Action:
        raise NotImplementedError("shadow games are never parsed")

    def view(self, state: int, seat: int | None) -> Any:
        return None

    def ledger(self, state: int) -> Ledger:
        raise NotImplementedError("shadow games hold no money")

    def standings(self, state: int) -> Result:
        raise NotImplementedError("shadow games have no result")


def play_shadow(actors: tuple[Actor, ...], seed: int) -> int:
    """One shadow game through the real play loop, bots and chance as the engine's benchmark
    gives them; returns its number of steps."""
    game = Game("shadow", ShadowRules(actors), None, seed=seed, chance_mode="seeded")
    bots = {seat: make_bot("random", seed * 64 + seat, "board") for seat in range(6)}
    play(game, bots, SeededChance(seed))
    return len(game.steps)
