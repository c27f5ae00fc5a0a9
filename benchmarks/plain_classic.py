"""Classic as one plain Python loop: the yardstick the reference engine's speed is measured by.

The same rules as the `classic` preset (standard board, "move" repeat scratch, pass-left reset,
share payout), written with lists and ints only: no states, actions, events, views or record.
It is never used to play; it only shows how fast the rules themselves can run in Python, and a
unit test checks that it plays the same game as the engine (chips, race lengths, winners).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

LANE_SLOTS = (2, 5, 7, 10, 13, 14, 13, 10, 7, 5, 2)  # horses 2..12, as printed on the board
FINISH = (0, 0, *(slots + 1 for slots in LANE_SLOTS))  # FINISH[horse]: advances to win
HORSES = range(2, 13)
TWO_DICE = tuple(a + b for a in range(1, 7) for b in range(1, 7))  # 36 equally likely throws
SCRATCH_ROLLS = 4


@dataclass
class PlainGame:
    """What one game left behind: final chips, the pot carried out, and each race's figures."""

    chips: list[int]
    pot: int
    winners: list[int] = field(default_factory=list)  # the winning horse of each round
    race_rolls: list[int] = field(default_factory=list)  # race rolls of each round (all rolls)
    paid_in: list[int] = field(default_factory=list)  # chips paid into the pot, each round
    paid_out: int = 0  # every chip paid out of the pot to holders of winning cards


def play_classic(
    rng: random.Random, players: int = 6, rounds: int = 8, chips: int = 100
) -> PlainGame:
    """Play one whole game of Classic with `rng` as the only source of chance."""
    decks = 1 if players <= 4 else 2
    game = PlainGame([chips] * players, 0)
    money = game.chips
    hands = [[0] * 13 for _ in range(players)]  # hands[seat][rank]: cards held
    to_shuffle = [rank for rank in HORSES for _ in range(4 * decks)]
    dealer = 0

    def pay(seat: int, owed: int) -> None:
        paid = owed if owed <= money[seat] else money[seat]  # short: all you hold
        money[seat] -= paid
        game.pot += paid
        game.paid_in[-1] += paid

    for _ in range(rounds):
        game.paid_in.append(0)
        # the deal: whole turns round from the dealer's left; the rest is the stub
        rng.shuffle(to_shuffle)
        dealt = len(to_shuffle) // players * players
        for index in range(dealt):
            hands[(dealer + 1 + index) % players][to_shuffle[index]] += 1
        stub = to_shuffle[dealt:]
        discards: list[int] = []

        # the scratch phase: roll k by seat dealer + k puts the horse on line k
        line_of = [0] * 13
        given_up: list[list[tuple[int, int]]] = [[] for _ in range(13)]  # (seat, cards)
        roller = (dealer + 1) % players
        for line in range(1, SCRATCH_ROLLS + 1):
            horse = TWO_DICE[int(rng.random() * 36)]
            if line_of[horse]:  # moves to this line: its former holders pay again
                for seat, cards in given_up[horse]:
                    pay(seat, line * cards)
            else:
                for seat in range(players):
                    cards = hands[seat][horse]
                    if cards:
                        hands[seat][horse] = 0
                        discards.extend([horse] * cards)
                        given_up[horse].append((seat, cards))
                        pay(seat, line * cards)
            line_of[horse] = line
            roller = (roller + 1) % players

        # the race: from the seat after the last scratch roller until a horse finishes
        positions = [0] * 13
        rolls = 0
        while True:
            horse = TWO_DICE[int(rng.random() * 36)]
            rolls += 1
            if line_of[horse]:
                pay(roller, line_of[horse])
            else:
                positions[horse] += 1
                if positions[horse] >= FINISH[horse]:
                    break
            roller = (roller + 1) % players
        game.winners.append(horse)
        game.race_rolls.append(rolls)

        # the payout: one share per winning card; the rest stays in the pot
        share = game.pot // (4 * decks)
        for seat in range(players):
            won = share * hands[seat][horse]
            money[seat] += won
            game.pot -= won
            game.paid_out += won

        # reset: hands pass left, discards and stub are the next deal, the dealer moves left
        hands = [hands[seat - 1] for seat in range(players)]
        to_shuffle = discards + stub
        dealer = (dealer + 1) % players
    return game
