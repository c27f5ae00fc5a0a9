"""Random Classic tables for the equality tests of the Classic kernel: one generator, given each
house rule's options and the choices its tests draw from."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from horserace.components.board import HORSES
from tests.kernels.test_board_game_equality import SHIPPED

# What every table draws from (a list is a choice, its repeats weigh it); a rule's own options
# are added to these or replace them.
COMMON: dict[str, Any] = {
    "rounds": [1, 2, 3],
    "starting_chips": [0, 3, 8, 25, 100],  # short purses: payments and bets run short
    "repeat_scratch": ["move", "move", "chain", "reroll"],
    "race_starts": ["last-scratcher", "after-last-scratch", "dealer-left"],
    "rotate_dealer": [True, True, True, True, False],
    "scratch_values": [(1, 2, 3, 4), (1, 2, 3, 4), (0, 1, 5, 2)],
    "reset": ["pass-left", "pass-left", "gather"],
}
Extras = Sequence[tuple[float, Mapping[str, Any]]]


def classic_table(
    seed: int, bots: Sequence[str], rule: Mapping[str, Any], extras: Extras = ()
) -> tuple[dict[str, Any], list[str]]:
    """A Classic table of 2 to 12 players under `rule` (options; a list is drawn from), with
    each of `extras` (chance, options) added at its chance, and its bots drawn from `bots` seat
    by seat: every repeat rule, race start, reset and dealer, a split payout or the Jockey Pot
    now and then, a shipped board or short random lanes (more races end while the cards in
    hand, the market's or a pairing's first sum still matter)."""
    pick = random.Random(seed)
    players = pick.randint(2, 12)
    drawn = {**COMMON, **rule}
    for chance, options in extras:
        if pick.random() < chance:
            drawn |= options
    table: dict[str, Any] = {"players": players, "first_dealer": pick.randrange(players)}
    for name, value in drawn.items():
        table[name] = pick.choice(value) if isinstance(value, list) else value
    roll = pick.random()
    if roll < 0.15:  # the Jockey Pot is fed by antes
        table |= {"jockey_pot": True, "payout": "split", "ante": table.get("ante") or 1}
    elif roll < 0.35:
        table["payout"] = "split"
    roll = pick.random()
    if roll < 0.2:
        table["board"] = pick.choice(SHIPPED)
    elif roll < 0.5:
        longest = pick.choice([3, 6, 12])
        table["board"] = {
            "name": "random",
            "lanes": {str(h): pick.randint(1, longest) for h in HORSES},
        }
    return table, [pick.choice(bots) for _ in range(players)]
