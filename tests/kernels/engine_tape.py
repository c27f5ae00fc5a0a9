"""Play a board game on the reference engine and read back what a kernel must reproduce:
the chance tape (dealt ranks and dice sums, in order) and the game's figures."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from horserace.components.cards import parse_rank
from horserace.core.chance import SeededChance
from horserace.engine import play
from horserace.families.presets import get_preset
from tests.helpers import bots_for, new_game


@dataclass(frozen=True)
class EngineGame:
    config: dict[str, Any]
    tape: list[int]
    chips: list[int]  # final chips per seat
    pot: int  # left in the pot
    winners: list[int]  # per race
    rolls: list[int]  # race rolls per race
    paid: list[int]  # chips paid into the pot per round
    out_round: list[int]  # per seat: the round it went out in, 0 = still in
    places: list[int]  # per seat: its place in the engine's result


def engine_game(preset: str, options: Mapping[str, Any], seed: int) -> EngineGame:
    game = new_game(options, preset=preset, seed=seed)
    players = game.rules.players(game.config)
    play(game, bots_for(players, seed), SeededChance(seed))
    tape: list[int] = []
    winners: list[int] = []
    rolls: list[int] = []
    paid: list[int] = []
    out_round = [0] * players
    paid_now, round_number = 0, 1
    for step in game.steps:
        if step.actor == "chance" and step.action not in ("payout", "next-round"):
            text = step.action  # paying out and the next round are sure steps, not chance
            if text.startswith("deal "):
                tape.append(parse_rank(text[5:], range(2, 13)))
            else:
                low, high = text.split("+")
                tape.append(int(low) + int(high))
        for event in step.events:
            kind = event["type"]
            if kind == "chips-paid":
                paid_now += event["paid"]
            elif kind == "race-won":
                winners.append(event["horse"])
                rolls.append(event["rolls"])
                paid.append(paid_now)
                paid_now = 0
            elif kind == "player-out":
                out_round[event["seat"]] = round_number
            elif kind == "round-started":
                round_number = event["round"]
    balances = game.rules.ledger(game.state).balances
    result = game.rules.result(game.state)
    places = [0] * players
    for standing in result.standings:
        places[standing.seat] = standing.place
    return EngineGame(
        config=get_preset(preset).rules.config_to_dict(game.config),
        tape=tape,
        chips=list(balances[:players]),
        pot=balances[players],
        winners=winners,
        rolls=rolls,
        paid=paid,
        out_round=out_round,
        places=places,
    )
