"""Bots: players that see only their seat's view and the legal actions."""

from __future__ import annotations

import random

from horserace.bots.board_bots import EvBot, HeuristicBot
from horserace.bots.random_bot import RandomBot
from horserace.core.errors import ConfigError
from horserace.engine import Agent

BOT_KINDS = ("random", "heuristic", "ev")


def make_bot(kind: str, seed: int) -> Agent:
    """A bot of `kind` with its own generator (so the same seed gives the same game).

    `heuristic` and `ev` decide the dice board game's choices; elsewhere use `random`.
    """
    rng = random.Random(seed)
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng)
    if kind == "ev":
        return EvBot(rng)
    raise ConfigError(f"unknown bot kind {kind!r}; known: {', '.join(BOT_KINDS)}")


def parse_bots(text: str, players: int) -> list[str]:
    """'ev,random' -> one kind per seat; a shorter list is repeated round the table."""
    kinds = [word.strip().lower() for word in text.split(",") if word.strip()]
    if not kinds:
        raise ConfigError("--bots needs at least one bot kind")
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise ConfigError(f"unknown bot kind {kind!r}; known: {', '.join(BOT_KINDS)}")
    if len(kinds) > players:
        raise ConfigError(f"{len(kinds)} bots for {players} seats")
    return [kinds[seat % len(kinds)] for seat in range(players)]


__all__ = ["BOT_KINDS", "EvBot", "HeuristicBot", "RandomBot", "make_bot", "parse_bots"]
