"""What a hand of the dice board game is worth to one seat, judged from its view alone: the
exact win odds of the race times the part of the pot each card would collect, and the
expected penalties and prices the bots weigh against it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from horserace.components.board import HORSES
from horserace.components.cards import ACE, JOKER, KING, RANKS, RankCounts, count_of
from horserace.components.dice import two_dice_sum_probabilities
from horserace.core.actions import Action
from horserace.families.board.odds.race import race_odds
from horserace.families.board.odds.view import view_odds
from horserace.families.board.rules.config import SCRATCH_LINES
from horserace.families.board.rules.phases.deal import deck_for
from horserace.families.board.rules.state import Phase
from horserace.families.board.rules.view import BoardView

DICE = {h: float(p) for h, p in two_dice_sum_probabilities().items()}

TIE = 1e-9  # worths closer than this are equal: the first legal action among them is taken


def first_best(actions: Sequence[Action], worths: Sequence[float]) -> Action:
    """The first action whose worth is within TIE of the best. Worths equal in exact arithmetic
    (horses alike on a mirrored board) come out of float sums a few ulps apart; so the choice
    does not turn on rounding, and the compiled kernels' EV bot, whose odds agree with these
    to 1e-12, chooses alike."""
    top = max(worths)
    return next(action for action, worth in zip(actions, worths, strict=True) if worth >= top - TIE)


KING_KEPT = 0.75  # share of a penalty a King is expected to keep away (it may come back)


def own_hand(view: BoardView) -> RankCounts:
    """The hand of the seat the view is for (a seat's view always shows its own)."""
    assert view.seat is not None
    hand = view.hands[view.seat]
    assert hand is not None
    return hand


def rolls_to_go(view: BoardView) -> float:
    """The race rolls still expected, from the running horses' slots to go."""
    running = {
        h: view.board.advances_to_finish(h) - view.positions[h - 2]
        for h in HORSES
        if h not in view.lines
    }
    return race_odds(running).expected_rolls


def penalty_per_line(view: BoardView, line: int) -> int:
    return view.config.scratch_values[line - 1] * view.config.penalty_unit


def mean_penalty(view: BoardView) -> float:
    return sum(penalty_per_line(view, line) for line in range(1, SCRATCH_LINES + 1)) / SCRATCH_LINES


class HandValuer:
    """What a hand is worth to one seat at settlement, estimated from its view alone."""

    def __init__(self, view: BoardView) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        composition = deck_for(view.config)
        others = [
            size
            for seat, size in enumerate(view.hand_sizes)
            if seat != self.seat and not view.out[seat]
        ]
        held_elsewhere = sum(others)
        unseen_pool = held_elsewhere + view.undealt
        self.in_hands = held_elsewhere / unseen_pool if unseen_pool else 0.0
        self.unseen = {
            rank: max(0, count_of(composition, rank) - count_of(view.discards, rank))
            for rank in RANKS
        }
        self.pot = self._expected_pot()

    def _expected_pot(self) -> float:
        """The Main Pot now plus the penalties still expected before the race ends."""
        view = self.view
        if view.phase is not Phase.RACE:
            return view.pot + mean_penalty(view) * len(view.chips)
        rolls = rolls_to_go(view)
        waste = sum(
            DICE[h] * penalty_per_line(view, line + 1) for line, h in enumerate(view.lines) if h
        )
        return view.pot + rolls * waste

    def others_holding(self, horse: int, mine: int) -> float:
        view = self.view
        known = [
            hand for seat, hand in enumerate(view.hands) if seat != self.seat and hand is not None
        ]
        if known and len(known) == sum(1 for s in range(len(view.hands)) if s != self.seat):
            return float(sum(count_of(hand, horse) for hand in known))
        return max(0.0, self.unseen[horse] - mine) * self.in_hands

    def payout(self, horse: int, hand: RankCounts) -> float:
        """Chips `hand` collects if `horse` wins."""
        mine = count_of(hand, horse)
        if not mine:
            return 0.0
        config = self.view.config
        if config.payout == "share":
            return mine * (self.pot // (4 * config.decks))
        return self.pot * mine / (mine + self.others_holding(horse, mine))

    def value(self, hand: RankCounts, odds: dict[int, float]) -> float:
        return sum(p * self.payout(h, hand) for h, p in odds.items())


POWERS = (ACE, KING, JOKER)


def card_worth(view: BoardView, rank: int) -> float:
    """A rough value of one card in anyone's hand: a power's use, or the horse's chance to win
    times an even share of the pot among the cards of its rank."""
    if rank == ACE:
        return mean_penalty(view)
    if rank == KING:
        return mean_penalty(view) * KING_KEPT
    if rank == JOKER:
        return float(view.config.penalty_unit)
    odds = view_odds(view)
    copies = max(1, count_of(deck_for(view.config), rank))
    return odds.get(rank, 0.0) * max(view.pot, mean_penalty(view) * len(view.chips)) / copies


def market_price_of(view: BoardView) -> int:
    line = max((index + 1 for index, horse in enumerate(view.lines) if horse), default=0)
    return penalty_per_line(view, line) if line else 0


def expected_future_penalty(view: BoardView) -> float:
    """What an Ace kept now is expected to cancel later: an average penalty, times the chance
    that one more comes this seat's way before the race ends."""
    if view.phase is not Phase.RACE:
        return mean_penalty(view)
    seats = sum(1 for out in view.out if not out)
    my_rolls = rolls_to_go(view) / seats
    waste = sum(DICE[h] for h in view.lines if h)
    another = 1 - (1 - waste) ** my_rolls
    return float(another * mean_penalty(view))


@lru_cache(maxsize=1)
def _scratch_chances() -> dict[int, float]:
    """P(a horse is among the four scratched), when repeats are rolled again."""
    chance = dict.fromkeys(HORSES, 0.0)

    def walk(scratched: tuple[int, ...], weight: float) -> None:
        if len(scratched) == SCRATCH_LINES:
            for horse in scratched:
                chance[horse] += weight
            return
        free = [h for h in HORSES if h not in scratched]
        total_p = sum(DICE[h] for h in free)
        for horse in free:
            walk((*scratched, horse), weight * DICE[horse] / total_p)

    walk((), 1.0)
    return chance


def scratch_risk(horse: int) -> float:
    return _scratch_chances()[horse]
