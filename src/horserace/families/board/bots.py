"""Bots for the dice board game that decide well: a rule-of-thumb bot and an expected-chips bot.

Both see only their seat's view. The EV bot values a hand by the exact win odds of the race
from the current state (odds.race) times the part of the pot each card would collect, and
scores every legal action by the change it makes to that value.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from horserace.components.cards import ACE, JOKER, KING, RankCounts, count_of
from horserace.core.actions import Action
from horserace.families.board import husted_bots as _husted
from horserace.families.board.bot_values import (
    KING_KEPT,
    POWERS,
    HandValuer,
    card_worth,
    expected_future_penalty,
    first_best,
    market_price_of,
    mean_penalty,
    own_hand,
    penalty_per_line,
    scratch_risk,
)
from horserace.families.board.odds.view import view_odds as win_odds
from horserace.families.board.rules.actions import (
    ACCEPT,
    DECLINE,
    Answer,
    Buy,
    Keep,
    Offer,
    Pair,
    Pass,
    Pay,
    PlayJoker,
    PlayKing,
)
from horserace.families.board.rules.config import SCRATCH_LINES
from horserace.families.board.rules.view import BoardView


def _with(hand: RankCounts, rank: int, delta: int) -> RankCounts:
    return (*hand[:rank], hand[rank] + delta, *hand[rank + 1 :])


class _BoardBot:
    """What every board bot does alike: it takes the only legal action without a thought, and
    plays Husted's betting by its own rule (`husted`); the rest is its `decide`."""

    husted: Callable[[BoardView, Sequence[Action]], Action]

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng  # kept for the Agent shape; choices are deterministic

    def choose(self, view: BoardView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.config.husted and _husted.is_husted_choice(view, legal):
            return self.husted(view, legal)
        return self.decide(view, legal, legal[0])

    def decide(self, view: BoardView, legal: Sequence[Action], first: Action) -> Action:
        raise NotImplementedError


class EvBot(_BoardBot):
    """Chooses the legal action with the most expected chips for its own seat."""

    kind = "ev"
    husted = staticmethod(_husted.ev_husted)

    def decide(self, view: BoardView, legal: Sequence[Action], first: Action) -> Action:
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
        hand = own_hand(view)
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

        return first_best(legal, [worth(action) for action in legal])

    def _buy(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """The buy whose swap gains the most over its price, or pass (a gain of nothing): the
        first within TIE of the best, so the compiled bot, whose odds agree to 1e-12, buys
        alike where two swaps are worth the same (horses alike on a mirrored board)."""
        price = market_price_of(view)
        swaps = Swaps(view)

        def gain(action: Action) -> float:
            if not isinstance(action, Buy):
                return 0.0
            return swaps.gain((action.give,), (action.take,)) - price

        return first_best(legal, [gain(action) for action in legal])

    def _answer_offer(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """Accept exactly when the trade raises this seat's expected chips."""
        offer = view.offer
        assert offer is not None
        if ACCEPT in legal and Swaps(view).gain(offer.take, offer.give) > 0:
            return ACCEPT
        return DECLINE

    def _offer(self, view: BoardView, legal: Sequence[Action]) -> Action:
        """The offer that gains this seat the most, among those the target should value too
        (judged card by card); otherwise pass. Only cards for cards: a gift is never best."""
        swaps = Swaps(view)
        best: Action = legal[0]
        best_gain = 0.0
        seen: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        for action in legal:
            if not isinstance(action, Offer) or not action.take or not action.give:
                continue
            key = (action.give, action.take)
            if key not in seen:
                seen[key] = swaps.gain(action.give, action.take)
            their_gain = sum(map(swaps.worth_of, action.give)) - sum(
                map(swaps.worth_of, action.take)
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
        hand = _with(own_hand(view), JOKER, -1)  # a played Joker escapes its 4A fee
        fee = 4 * view.config.penalty_unit
        keep = valuer.value(own_hand(view), win_odds(view)) - fee + view.config.penalty_unit

        def worth(action: Action) -> float:
            if not isinstance(action, PlayJoker):
                return keep  # pass
            positions = list(view.positions)
            positions[action.horse - 2] += 1 if action.forward else -1
            odds = win_odds(view, tuple(positions))
            value = valuer.value(hand, odds)
            if len(odds) == 1 and action.forward:  # it finishes the race: the Jockey Pot is ours
                value += view.jockey
            return value

        return first_best(legal, [worth(action) for action in legal])

    def _pair(self, view: BoardView, legal: Sequence[Action]) -> Action:
        valuer = HandValuer(view)
        hand = own_hand(view)

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

        return first_best(legal, [worth(action) for action in legal])


class Swaps:
    """Prices card swaps (trades, market buys) for one decision: the valuation and each
    card's worth are worked out once, not once per candidate swap."""

    def __init__(self, view: BoardView) -> None:
        self.valuer, self.odds, self.hand = HandValuer(view), win_odds(view), own_hand(view)
        self._view = view
        self._worths: dict[int, float] = {}

    def worth_of(self, rank: int) -> float:
        if rank not in self._worths:
            self._worths[rank] = card_worth(self._view, rank)
        return self._worths[rank]

    def _hand_worth(self, cards: RankCounts) -> float:
        powers = sum(cards[rank] * self.worth_of(rank) for rank in POWERS)
        return self.valuer.value(cards, self.odds) + powers

    def gain(self, give: Sequence[int], take: Sequence[int]) -> float:
        """Change in expected chips if the seat gives the cards `give` and gets `take`:
        horse cards by the pot they would collect, powers card by card."""
        after = self.hand
        for rank in give:
            after = _with(after, rank, -1)
        for rank in take:
            after = _with(after, rank, 1)
        return self._hand_worth(after) - self._hand_worth(self.hand)


def _neighbour_cards(view: BoardView, left: bool) -> int:
    assert view.seat is not None
    n = len(view.chips)
    step = 1 if left else -1
    seat = (view.seat + step) % n
    while view.out[seat]:
        seat = (seat + step) % n
    return view.hand_sizes[seat]


class HeuristicBot(_BoardBot):
    """Rules of thumb: keep powers and the likeliest horses, answer big penalties, push your own."""

    kind = "heuristic"
    husted = staticmethod(_husted.heuristic_husted)

    def decide(self, view: BoardView, legal: Sequence[Action], first: Action) -> Action:
        hand = own_hand(view)
        if isinstance(first, Keep):
            order = {ACE: 0, KING: 1, 2: 2, 12: 2, 3: 3, 11: 3, 4: 4, 10: 4, JOKER: 5}
            return min(legal, key=lambda a: order.get(a.rank, 6) if isinstance(a, Keep) else 9)
        if isinstance(first, Answer):
            offer = view.offer
            good = (
                offer is not None
                and len(offer.give) > len(offer.take)
                and not any(rank in POWERS for rank in offer.take)
            )
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


__all__ = ["EvBot", "HeuristicBot"]
