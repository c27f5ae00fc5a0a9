"""Bots for the dice board game that decide well: a rule-of-thumb bot and an expected-chips bot.

Both see only their seat's view. The EV bot values a hand by the exact win odds of the race
from the current state (odds.race) times the part of the pot each card would collect, and
scores every legal action by the change it makes to that value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from horserace.components.board import HORSES
from horserace.components.cards import ACE, JOKER, KING, RANKS, RankCounts, count_of
from horserace.components.dice import two_dice_sum_probabilities
from horserace.core.actions import Action
from horserace.odds.race import race_odds, scratch_phase_odds
from horserace.rules.board.config import SCRATCH_LINES
from horserace.rules.board.dealing import deck_for
from horserace.rules.board.model import (
    ACCEPT,
    DECLINE,
    Answer,
    BoardView,
    Buy,
    Keep,
    Offer,
    Pair,
    Pass,
    Pay,
    Phase,
    PlayJoker,
    PlayKing,
)

DICE = {h: float(p) for h, p in two_dice_sum_probabilities().items()}
KING_KEPT = 0.75  # share of a penalty a King is expected to keep away (it may come back)


@lru_cache(maxsize=64)
def _scratch_odds(
    slots: tuple[int, ...],
    positions: tuple[int, ...],
    scratched: tuple[int, ...],
    left: int,
    distinct: bool,
) -> tuple[tuple[int, float], ...]:
    remaining = {h: slots[h - 2] + 1 - positions[h - 2] for h in HORSES if h not in scratched}
    if left:
        win = scratch_phase_odds(remaining, scratched, left, reroll_repeats=distinct)
    else:
        win = race_odds(remaining).win
    return tuple(sorted(win.items()))


def win_odds(view: BoardView, positions: tuple[int, ...] | None = None) -> dict[int, float]:
    """Each horse's chance to win from this view (scratched horses absent or 0)."""
    positions = positions if positions is not None else view.positions
    scratched = tuple(sorted(h for h in view.lines if h))
    distinct = view.config.repeat_scratch != "move"
    left = 0
    if view.phase in (Phase.DEAL, Phase.DRAFT):
        left = SCRATCH_LINES
    elif view.phase is Phase.SCRATCH:
        done = len(scratched) if distinct else _rolls_done(view)
        left = SCRATCH_LINES - done
    for horse in HORSES:
        if positions[horse - 2] >= view.board.advances_to_finish(horse):
            return {horse: 1.0}
    return dict(_scratch_odds(view.board.slots, positions, scratched, left, distinct))


def _rolls_done(view: BoardView) -> int:
    return max((index + 1 for index, horse in enumerate(view.lines) if horse), default=0)


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
        running = {
            h: view.board.advances_to_finish(h) - view.positions[h - 2]
            for h in HORSES
            if h not in view.lines
        }
        rolls = race_odds(running).expected_rolls
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


def _with(hand: RankCounts, rank: int, delta: int) -> RankCounts:
    return (*hand[:rank], hand[rank] + delta, *hand[rank + 1 :])


def _own_hand(view: BoardView) -> RankCounts:
    assert view.seat is not None
    hand = view.hands[view.seat]
    assert hand is not None
    return hand


class EvBot:
    """Chooses the legal action with the most expected chips for its own seat."""

    kind = "ev"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng  # kept for the Agent shape; choices are deterministic

    def choose(self, view: BoardView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, Keep):
            return self._keep(view, legal)
        if isinstance(first, Answer):
            return self._answer_offer(view, legal)
        if view.offer is None and any(isinstance(a, Offer) for a in legal):
            return self._offer(view, legal)
        if any(isinstance(a, Buy) for a in legal):
            return self._buy(view, legal)
        if isinstance(first, Pay):
            return self._answer(view, legal)
        if isinstance(first, Pass):
            return self._joker(view, legal)
        if isinstance(first, Pair):
            return self._pair(view, legal)
        return first

    def _keep(self, view: BoardView, legal: Sequence[Action]) -> Action:
        valuer = HandValuer(view)
        odds = win_odds(view)
        hand = _own_hand(view)
        base = valuer.value(hand, odds)
        unit = view.config.penalty_unit

        def worth(action: Action) -> float:
            assert isinstance(action, Keep)
            rank = action.rank
            if rank == ACE:
                return mean_penalty(view)  # cancels about one average penalty
            if rank == KING:
                return mean_penalty(view) * KING_KEPT  # passed on, unless it comes back doubled
            if rank == JOKER:
                return float(unit)  # a nudge worth about an ante, and no 4A fee once used
            gain = valuer.value(_with(hand, rank, 1), odds) - base
            risk = scratch_risk(rank) * (1 - sum(1 for h in view.lines if h) / SCRATCH_LINES)
            return gain - risk * mean_penalty(view)

        return max(legal, key=worth)

    def _gain(self, view: BoardView, give: int, given: int, take: int, taken: int) -> float:
        """Change in this seat's expected chips if it gives `given` × `give` and gets
        `taken` × `take`: horse cards by the pot they would collect, powers card by card."""
        valuer, odds, hand = HandValuer(view), win_odds(view), _own_hand(view)
        after = _with(_with(hand, give, -given), take, taken)

        def worth(cards: RankCounts) -> float:
            powers = sum(cards[rank] * card_worth(view, rank) for rank in POWERS)
            return valuer.value(cards, odds) + powers

        return worth(after) - worth(hand)

    def _buy(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """Buy the market card whose swap gains more than the price, or pass."""
        price = market_price_of(view)
        best: Action = legal[0]
        best_gain = 0.0
        for action in legal:
            if isinstance(action, Buy):
                gain = self._gain(view, action.give, 1, action.take, 1) - price
                if gain > best_gain:
                    best, best_gain = action, gain
        return best

    def _answer_offer(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """Accept exactly when the trade raises this seat's expected chips."""
        offer = view.offer
        assert offer is not None
        if ACCEPT in legal and self._gain(view, offer.take, 1, offer.give, offer.count) > 0:
            return ACCEPT
        return DECLINE

    def _offer(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """The offer that gains this seat the most, among those the target should value too
        (judged card by card); otherwise pass."""
        best: Action = legal[0]
        best_gain = 0.0
        seen: dict[tuple[int, int, int], float] = {}
        for action in legal:
            if not isinstance(action, Offer):
                continue
            key = (action.give, action.count, action.take)
            if key not in seen:
                seen[key] = self._gain(view, action.give, action.count, action.take, 1)
            their_gain = action.count * card_worth(view, action.give) - card_worth(
                view, action.take
            )
            if seen[key] > best_gain and their_gain > 0:
                best, best_gain = action, seen[key]
        return best

    def _answer(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """Spend an Ace now when the penalty is worth more than the one it could cancel later
        (its 3A fee is escaped either way once it is used); a King passes the penalty towards
        the neighbour holding the fewest cards, the least likely to send it back doubled."""
        assert view.pending is not None
        owed = view.pending.amount
        texts = {action.text: action for action in legal}
        if "ace" in texts and owed >= expected_future_penalty(view):
            return texts["ace"]
        kings = [a for a in legal if isinstance(a, PlayKing)]
        if kings and owed >= view.config.penalty_unit:
            return min(kings, key=lambda king: _neighbour_cards(view, king.left))
        return texts["pay"]

    def _joker(self, view: BoardView, legal: Sequence[Action]) -> Action:
        valuer = HandValuer(view)
        hand = _with(_own_hand(view), JOKER, -1)  # a played Joker escapes its 4A fee
        fee = 4 * view.config.penalty_unit
        keep = valuer.value(_own_hand(view), win_odds(view)) - fee + view.config.penalty_unit
        best: Action = legal[0]
        best_value = keep
        for action in legal:
            if not isinstance(action, PlayJoker):
                continue
            positions = list(view.positions)
            positions[action.horse - 2] += 1 if action.forward else -1
            odds = win_odds(view, tuple(positions))
            value = valuer.value(hand, odds)
            if len(odds) == 1 and action.forward:  # it finishes the race: the Jockey Pot is ours
                value += view.jockey
            if value > best_value:
                best, best_value = action, value
        return best

    def _pair(self, view: BoardView, legal: Sequence[Action]) -> Action:
        valuer = HandValuer(view)
        hand = _own_hand(view)

        def worth(action: Action) -> float:
            assert isinstance(action, Pair)
            positions = list(view.positions)
            cost = 0.0
            for horse in (action.first, action.second):
                line = next((i + 1 for i, h in enumerate(view.lines) if h == horse), 0)
                if line:
                    cost += penalty_per_line(view, line)
                    continue
                positions[horse - 2] += 1
                if positions[horse - 2] >= view.board.advances_to_finish(horse):
                    break  # the race ends on this sum
            return valuer.value(hand, win_odds(view, tuple(positions))) - cost

        return max(legal, key=worth)


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
    odds = win_odds(view)
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
    running = {
        h: view.board.advances_to_finish(h) - view.positions[h - 2]
        for h in HORSES
        if h not in view.lines
    }
    seats = sum(1 for out in view.out if not out)
    my_rolls = race_odds(running).expected_rolls / seats
    waste = sum(DICE[h] for h in view.lines if h)
    another = 1 - (1 - waste) ** my_rolls
    return float(another * mean_penalty(view))


def _neighbour_cards(view: BoardView, left: bool) -> int:
    assert view.seat is not None
    n = len(view.chips)
    step = 1 if left else -1
    seat = (view.seat + step) % n
    while view.out[seat]:
        seat = (seat + step) % n
    return view.hand_sizes[seat]


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


class HeuristicBot:
    """Rules of thumb: keep powers and the likeliest horses, answer big penalties, push your own."""

    kind = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: BoardView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        hand = _own_hand(view)
        if isinstance(first, Keep):
            order = {ACE: 0, KING: 1, 2: 2, 12: 2, 3: 3, 11: 3, 4: 4, 10: 4, JOKER: 5}
            return min(legal, key=lambda a: order.get(a.rank, 6) if isinstance(a, Keep) else 9)
        if isinstance(first, Answer):
            offer = view.offer
            good = offer is not None and offer.count >= 2 and offer.take not in POWERS
            return ACCEPT if good and ACCEPT in legal else DECLINE
        if view.offer is None and any(isinstance(a, Offer | Buy) for a in legal):
            return first  # rules of thumb neither start trades nor buy from the market
        if isinstance(first, Pay):
            assert view.pending is not None
            texts = {action.text: action for action in legal}
            if "ace" in texts and view.pending.amount >= 2 * view.config.penalty_unit:
                return texts["ace"]
            if "king left" in texts:
                return texts["king left"]
            return texts["pay"]
        if isinstance(first, Pass):
            forwards = [a for a in legal if isinstance(a, PlayJoker) and a.forward]
            mine = [a for a in forwards if count_of(hand, a.horse)]
            if mine:
                return max(
                    mine, key=lambda a: (count_of(hand, a.horse), view.positions[a.horse - 2])
                )
            return first
        if isinstance(first, Pair):

            def helps(action: Action) -> int:
                assert isinstance(action, Pair)
                score = 0
                for horse in (action.first, action.second):
                    score += -3 if horse in view.lines else count_of(hand, horse)
                return score

            return max(legal, key=helps)
        return first


__all__ = ["EvBot", "HandValuer", "HeuristicBot", "win_odds"]
