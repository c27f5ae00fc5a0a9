"""Plain Python loops of a card race and a Derby race: the baselines the kernels' speed is
measured against in the same run (benchmarks/bench_kernels.py).

Each is the obvious loop a person would write with `random` and lists, no tricks, and each does
a little less than its kernel (no bets, no payout; Derby ties placed by position at once), so
the ratios they give are if anything too low.
"""

from __future__ import annotations

import random

SUITS, JOKER = 4, 4


def plain_card_race(
    rng: random.Random, ranks: int = 12, length: int = 7, need: int = 8, redeal_at: int = 5
) -> tuple[int, int]:
    """Deal a course (again while a suit holds `redeal_at` links), then turn cards until a horse
    has moved `need` links or none can: (winner, cards turned)."""
    while True:
        deck = [suit for suit in range(SUITS) for _ in range(ranks)]
        rng.shuffle(deck)
        course, deck = deck[:length], deck[length:]
        if max(course.count(suit) for suit in range(SUITS)) < redeal_at:
            break
    positions = [0] * SUITS
    left = [deck.count(suit) for suit in range(SUITS)]
    turned = 0
    while deck:
        if not any(positions[s] + left[s] >= need for s in range(SUITS)):
            break
        suit = deck.pop()
        left[suit] -= 1
        turned += 1
        positions[suit] += 1
        if positions[suit] >= need:
            return suit, turned
    best = max(positions)
    return positions.index(best), turned


def plain_derby_race(
    rng: random.Random,
    runners: list[int],
    finish: int,
    zone: list[int],
    mud: set[int],
    accelerators: set[int],
) -> tuple[list[int], int]:
    """Six d20s a turn: singles move 1 (a double 2), zone dice by the zone; the mud holds a
    horse until a horseshoe (one try per space), an accelerator adds 1-3. Returns the first
    three past the finish (farthest first) and the turns."""
    position = dict.fromkeys(runners, 0)
    stuck: set[int] = set()
    placed: list[int] = []
    turns = 0

    def move(horse: int, spaces: int, bonus: bool = True) -> None:
        if horse in stuck:
            for attempt in range(1, spaces + 1):
                if rng.random() < 0.5:
                    stuck.discard(horse)
                    move(horse, spaces - attempt + 1)
                    return
            return
        position[horse] += spaces
        spot = min(position[horse], finish)
        if spot in mud:
            stuck.add(horse)
        elif bonus and spot in accelerators:
            move(horse, rng.randint(1, 3), bonus=False)

    while len(placed) < min(3, len(runners)):
        turns += 1
        dice = [rng.randint(1, 20) for _ in range(6)]
        moving = [h for h in runners if h not in placed]
        moves: list[tuple[int, int]] = []
        if dice[0] == dice[1]:
            moves.append((dice[0], 2))
        else:
            moves += [(dice[0], 1), (dice[1], 1)]
        for horse in dict.fromkeys(dice[2:]):
            moves.append((horse, dice[2:].count(horse) * zone[min(position.get(horse, 0), finish)]))
        for horse, spaces in moves:
            if horse in moving:
                move(horse, spaces)
        crossed = [h for h in moving if position[h] >= finish]
        placed += sorted(crossed, key=lambda h: -position[h])
    return placed[:3], turns
