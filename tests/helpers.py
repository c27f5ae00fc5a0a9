"""Shared test helpers: scripted and seeded games, deal scripts, dice for a horse.

Scripts hold chance outcomes only (deals and dice); the seats' "roll" comes from random bots,
so a scripted game is fully determined by its script.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from horserace.components.board import HORSES
from horserace.core.chance import ScriptedChance, SeededChance
from horserace.core.events import Event
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.core.types import CHANCE
from horserace.drivers.bots import make_bot
from horserace.engine import Agent, Game, Step, play
from horserace.families.presets import get_preset

DECK_RANKS: tuple[int, ...] = HORSES  # 2..10, J = 11, Q = 12
CARDS_PER_RANK = 4  # per deck: four suits
CARDS_PER_DECK = CARDS_PER_RANK * len(DECK_RANKS)  # 44


def decks_for(players: int) -> int:
    """RULINGS §1: one deck for four or fewer players, two above."""
    return 1 if players <= 4 else 2


def bots_for(players: int, seed: int) -> dict[int, Agent]:
    return {
        seat: make_bot("random", derive_seed(seed, BOT_STREAM, seat), "board")
        for seat in range(players)
    }


def new_game(
    options: Mapping[str, Any], *, preset: str = "classic", seed: int | None = None
) -> Game:
    chosen = get_preset(preset)
    mode = "scripted" if seed is None else "seeded"
    return Game(preset, chosen.rules, chosen.config(options), seed=seed, chance_mode=mode)


def scripted_game(
    options: Mapping[str, Any],
    script: Iterable[str],
    *,
    observe: Callable[[Step], None] | None = None,
    steps: list[Step] | None = None,
) -> Game:
    """Play with `script` as the chance source until the game ends or the script is used up.

    It stops right after the last scripted outcome, so `game.actor` is whoever moves next.
    Every applied Step is appended to `steps` (when given) so tests can read the events.
    """
    game = new_game(options)
    chance = ScriptedChance(script)
    bots = bots_for(game.rules.players(game.config), 0)
    while not game.over and (chance.remaining or _forced(game)):
        actor = game.actor
        if actor is CHANCE:
            action = chance.choose(game.rules, game.state)
        else:
            assert isinstance(actor, int)
            legal = game.rules.legal_actions(game.state, actor)
            action = bots[actor].choose(game.rules.view(game.state, actor), legal)
        step = game.apply(action)
        if steps is not None:
            steps.append(step)
        if observe is not None:
            observe(step)
    if chance.remaining:
        raise AssertionError(f"the game ended with {chance.remaining} script entries unused")
    return game


def _forced(game: Game) -> bool:
    """A sure chance step (paying out, the next round) is next: the script needs no entry."""
    return game.actor is CHANCE and game.rules.forced_chance(game.state) is not None


def random_game(
    options: Mapping[str, Any],
    seed: int,
    *,
    preset: str = "classic",
    observe: Callable[[Step], None] | None = None,
    max_steps: int = 200_000,
) -> Game:
    """A whole seeded game between random bots."""
    game = new_game(options, preset=preset, seed=seed)
    players = game.rules.players(game.config)
    play(game, bots_for(players, seed), SeededChance(seed), observe=observe, max_steps=max_steps)
    return game


def deal_script(hands: Sequence[Sequence[int]], dealer: int) -> list[str]:
    """'deal R' texts, one card at a time round the table starting at the dealer's left."""
    players = len(hands)
    size = len(hands[0])
    if any(len(hand) != size for hand in hands):
        raise ValueError("every hand in a deal has the same size")
    order = [(dealer + offset) % players for offset in range(1, players + 1)]
    return [f"deal {rank_word(hands[seat][index])}" for index in range(size) for seat in order]


def rank_word(rank: int) -> str:
    return {11: "J", 12: "Q"}.get(rank, str(rank))


def fill_hands(
    players: int,
    fixed: Mapping[int, Sequence[int]] | None = None,
    *,
    stub: Sequence[int] = (),
) -> list[list[int]]:
    """Complete hands: seat s starts with fixed[s]; the stub is kept back; the rest of the deck
    is handed out rank by rank (lowest first), seat by seat, until every hand is full."""
    decks = decks_for(players)
    size = CARDS_PER_DECK * decks // players
    left = {rank: CARDS_PER_RANK * decks for rank in DECK_RANKS}
    hands: list[list[int]] = [list((fixed or {}).get(seat, ())) for seat in range(players)]
    for rank in [*stub, *(r for hand in hands for r in hand)]:
        left[rank] -= 1
        if left[rank] < 0:
            raise ValueError(f"the deck has only {CARDS_PER_RANK * decks} cards of rank {rank}")
    if len(stub) != CARDS_PER_DECK * decks - size * players:
        raise ValueError(
            f"the stub of {players} players has {CARDS_PER_DECK * decks % players} cards"
        )
    pool = [rank for rank in DECK_RANKS for _ in range(left[rank])]
    for hand in hands:
        if len(hand) > size:
            raise ValueError(f"a hand holds {size} cards")
        while len(hand) < size:
            hand.append(pool.pop(0))
    return hands


def dice_for(horse: int) -> str:
    """A roll of two dice whose sum names `horse`, low die first."""
    if not 2 <= horse <= 12:
        raise ValueError(f"no two dice sum to {horse}")
    low = max(1, horse - 6)
    return f"{low}+{horse - low}"


def rolls(*horses: int) -> list[str]:
    return [dice_for(horse) for horse in horses]


def events_of(steps: Iterable[Step], kind: type[Event]) -> list[Any]:
    """Every event of class `kind` in the steps, in order."""
    return [event for step in steps for event in step.events if isinstance(event, kind)]


def count(hand: Sequence[int], rank: int) -> int:
    return sum(1 for card in hand if card == rank)
