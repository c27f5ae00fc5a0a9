"""The Advanced whole-game kernel against the reference engine, with its bots: on the tape of
the engine's game (dealt ranks, dice sums, and every pick a seat made among several legal
actions) the kernel plays the same game seat by seat and chip by chip. A random bot's pick is
read from the tape, so the kernel must offer the same legal actions in the same order; the
heuristic bot's pick is the kernel's own, and must be the engine's. Random tables of 4 to 12
players, short purses, every repeat rule, race start, payout, ante and board, with and without
the draft and the Jockey Pot."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import horserace.kernels.advanced_game as advanced_game
from horserace.components.board import HORSES
from horserace.core.chunks import Span
from horserace.families.board.tally import _kernel_span
from horserace.kernels.advanced_game import AdvancedSpec, bot_kinds, replay_tape
from horserace.kernels.advanced_numbers import CHOICE, SPAN, choice_entry
from horserace.kernels.board_numbers import GameOutcomes
from tests.kernels.advanced_tape import DecidedGame, decided_game
from tests.kernels.test_board_game_equality import SHIPPED, table_places

BATCHES, SEEDS_PER_BATCH = 4, 60  # tables of random and heuristic bots (about 5 s a batch)
EV_BATCHES, EV_SEEDS = 4, 25  # tables with EV bots at about half the seats (about 5 s)
PLAIN_BOTS, EV_BOTS = ("random", "heuristic"), ("random", "heuristic", "ev", "ev")


def advanced_table(
    seed: int, bots: tuple[str, ...] = PLAIN_BOTS
) -> tuple[dict[str, Any], list[str]]:
    """A varied Advanced table and its bots, drawn from `bots` seat by seat."""
    pick = random.Random(seed)
    players = pick.randint(4, 12)
    options: dict[str, Any] = {
        "players": players,
        "rounds": pick.randint(1, 3),
        "starting_chips": pick.choice([0, 4, 10, 25, 100]),
        "ante": pick.choice([1, 1, 2, 3]),
        "repeat_scratch": pick.choice(["chain", "chain", "move", "reroll"]),
        "race_starts": pick.choice(["last-scratcher", "after-last-scratch", "dealer-left"]),
        "rotate_dealer": pick.random() < 0.8,
        "first_dealer": pick.randrange(players),
        "draft": pick.random() < 0.85,
        "scratch_values": pick.choice([(1, 2, 3, 4), (1, 2, 3, 4), (0, 1, 5, 2)]),
        "open_hands": pick.random() < 0.25,  # the EV bot then counts the others' cards
    }
    if pick.random() < 0.2:  # no Jockey Pot: a split or a share of the Main Pot
        options |= {"jockey_pot": False, "payout": pick.choice(["split", "share"])}
    roll = pick.random()
    if roll < 0.2:
        options["board"] = pick.choice(SHIPPED)
    elif roll < 0.55:  # short lanes, mostly: more Jokers carry a horse across the line
        longest = pick.choice([4, 6, 12])
        lanes = {str(h): pick.randint(1, longest) for h in HORSES}
        options["board"] = {"name": "random", "lanes": lanes}
    kinds = [pick.choice(bots) for _ in range(players)]
    return options, kinds


def kernel_matches(played: DecidedGame, kinds: list[str], monkeypatch: Any) -> GameOutcomes:
    """The kernel's game on the engine's tape is the engine's game."""
    spec = AdvancedSpec.from_config(played.config)
    assert spec is not None
    mix = bot_kinds(kinds)
    assert mix is not None
    outcomes, used = replay_tape(spec, mix, played.tape)
    assert used == len(played.tape)
    assert outcomes.chips[0].tolist() == played.chips
    assert int(outcomes.pot_left[0]) == sum(played.pots)
    assert outcomes.winner[0].tolist() == played.winners
    assert outcomes.rolls[0].tolist() == played.rolls
    assert outcomes.paid[0].tolist() == played.paid
    assert table_places(played.chips, [0] * spec.players) == played.places
    # the simulation's report reads the winners off the kernel's rows as the engine ranks them
    monkeypatch.setattr(advanced_game, "run_games", lambda *args, **kwargs: outcomes)
    tally = _kernel_span(spec, 0, tuple(kinds), Span(0, 1))
    assert list(tally.seat_wins) == [int(place == 1) for place in played.places]
    return outcomes


def batch_matches(seeds: range, bots: tuple[str, ...], monkeypatch: Any) -> Counter[str]:
    """Every table of the batch played alike by the engine and the kernel; what they did."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        options, kinds = advanced_table(seed, bots)
        played = decided_game("advanced", options, seed, kinds)
        kernel_matches(played, kinds, monkeypatch)
        seen += played.seen
        seen["choices"] += played.choices
    return seen


@pytest.mark.parametrize("batch", range(BATCHES))
def test_the_advanced_kernel_plays_the_engines_game_with_the_same_decisions(
    batch: int, monkeypatch: Any
) -> None:
    first = batch * SEEDS_PER_BATCH
    seen = batch_matches(range(first, first + SEEDS_PER_BATCH), PLAIN_BOTS, monkeypatch)
    # the batch really plays the decisions: picks, Aces, Kings (doubled too) and Jokers
    assert seen["choices"] > 2_000
    assert min(seen[name] for name in ("AcePlayed", "KingPlayed", "JokerPlayed")) > 120
    assert min(seen[name] for name in ("KingDoubled", "JokerBack", "JokerWon")) > 0


@pytest.mark.parametrize("batch", range(EV_BATCHES))
def test_the_ev_bots_decide_as_the_engines_do(batch: int, monkeypatch: Any) -> None:
    """The EV bot's every pick (the draft by the hand's worth, an Ace against the penalty it
    would save later, a King towards the neighbour with fewer cards, the Joker move that leaves
    the hand worth the most, by the race's exact odds) is the engine's EV bot's."""
    first = 10_000 + batch * EV_SEEDS
    seen = batch_matches(range(first, first + EV_SEEDS), EV_BOTS, monkeypatch)
    assert seen["choices"] > 600
    assert min(seen[name] for name in ("AcePlayed", "KingPlayed", "JokerPlayed")) > 60


def test_a_heuristic_bot_that_answers_otherwise_is_caught() -> None:
    """The tape holds the engine's heuristic picks: a kernel bot deciding otherwise is an
    error, not a game that happens to end alike (here the engine's picks are moved on)."""
    for seed in range(50):
        table, _ = advanced_table(seed)
        kinds = ["heuristic"] * table["players"]
        played = decided_game("advanced", table, seed, kinds)
        if played.choices:
            break
    spec = AdvancedSpec.from_config(played.config)
    assert spec is not None
    mix = bot_kinds(kinds)
    assert mix is not None
    replay_tape(spec, mix, played.tape)  # as played: equal
    tape = list(played.tape)
    first = next(at for at, entry in enumerate(tape) if entry >= CHOICE)
    options, index = divmod(tape[first] - CHOICE, SPAN)
    tape[first] = choice_entry(options, (index + 1) % options)
    with pytest.raises(ValueError, match="another action"):
        replay_tape(spec, mix, tape)
