"""Husted decisions for the board bots: betting, the draw, and the face cards in the race.

The EV side reasons from the same hand valuation as the other board decisions: a chip wagered
comes back through the pot only as the shares of this seat's winning cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from horserace.components.cards import ACE, JOKER, KING, RANKS, RankCounts, count_of
from horserace.core.actions import Action
from horserace.families.board.bot_values import HandValuer, first_best, own_hand
from horserace.families.board.odds.view import view_odds as win_odds
from horserace.families.board.rules.actions import (
    JACK,
    QUEEN,
    Check,
    Discard,
    Fold,
    Meet,
    Power,
    Wager,
)
from horserace.families.board.rules.phases.deal import deck_for
from horserace.families.board.rules.state import Phase
from horserace.families.board.rules.view import BoardView

DEAD = (ACE, JOKER)  # in Husted's deck these match no horse and have no power


def is_husted_choice(view: BoardView, legal: Sequence[Action]) -> bool:
    first = legal[0]
    return (
        view.phase in (Phase.BETTING, Phase.DRAW)
        or any(isinstance(a, Power) for a in legal)
        or (isinstance(first, Check | Meet | Discard))
    )


def chip_return(view: BoardView, hand: RankCounts) -> float:
    """What one chip added to the pot brings back to this hand: its winning cards' shares."""
    odds = win_odds(view)
    per_card = 1 / (4 * view.config.decks)
    return sum(p * count_of(hand, h) * per_card for h, p in odds.items())


def ev_husted(view: BoardView, legal: Sequence[Action]) -> Action:
    hand = own_hand(view)
    first = legal[0]
    if isinstance(first, Fold):  # short of the wager: folding is all there is
        return first
    if isinstance(first, Check | Meet):
        players_in = sum(1 for s, f in enumerate(view.folded) if not f and not view.out[s])
        back = chip_return(view, hand)
        wagers = [a for a in legal if isinstance(a, Wager)]
        if wagers and back * players_in > 1:  # each chip drawn into the pot pays us more than 1
            return max(wagers, key=lambda a: a.amount)
        if isinstance(first, Check):
            return first
        assert view.seat is not None
        owe = view.bet_level - view.round_bets[view.seat]
        value = HandValuer(view).value(hand, win_odds(view))
        fold = next(a for a in legal if isinstance(a, Fold))
        return first if value + back * owe >= owe else fold
    if isinstance(first, Discard):
        return _best_draw(view, legal, hand)
    return _best_power(view, legal, hand)


def _card_values(view: BoardView, hand: RankCounts) -> dict[int, float]:
    """Marginal value of one more card of each rank, for this hand."""
    valuer, odds = HandValuer(view), win_odds(view)
    base = valuer.value(hand, odds)
    values = {rank: 0.0 for rank in range(14)}
    for rank in RANKS:
        bigger = (*hand[:rank], hand[rank] + 1, *hand[rank + 1 :])
        values[rank] = valuer.value(bigger, odds) - base
    values[KING] = values[QUEEN] + 1.0  # a King blocks twice where a Queen blocks once
    values[JACK] += 1.0
    values[QUEEN] += 1.0
    return values


def _best_draw(view: BoardView, legal: Sequence[Action], hand: RankCounts) -> Action:
    values = _card_values(view, hand)
    unseen = deck_for(view.config)
    weights = {
        r: max(0, count_of(unseen, r) - count_of(view.discards, r) - count_of(hand, r))
        for r in range(14)
    }
    total = sum(weights.values()) or 1
    draw_value = sum(values[r] * w for r, w in weights.items()) / total

    def gain(action: Action) -> float:
        assert isinstance(action, Discard)
        return sum(draw_value - values[r] for r in action.ranks)

    return first_best(legal, [gain(action) for action in legal])


def _best_power(view: BoardView, legal: Sequence[Action], hand: RankCounts) -> Action:
    valuer = HandValuer(view)
    base = valuer.value(hand, win_odds(view))
    gains = []
    for action in legal:
        if not isinstance(action, Power):
            gains.append(0.0)  # passing keeps the hand as it is
            continue
        positions = list(view.positions)
        slots = 1 if action.card in (JACK, QUEEN) else 2
        positions[action.horse - 2] = max(0, positions[action.horse - 2] - slots)
        cost = {JACK: 0, QUEEN: 1, KING: 2}[action.card]
        gains.append(valuer.value(hand, win_odds(view, tuple(positions))) - base - cost - 1.0)
    return first_best(legal, gains)


def heuristic_husted(view: BoardView, legal: Sequence[Action]) -> Action:
    """Meet or check, never raise; throw away dead aces and jokers; hold back the leader."""
    hand = own_hand(view)
    first = legal[0]
    if isinstance(first, Check | Meet | Fold):  # a lone fold: short of the wager
        return first
    if isinstance(first, Discard):
        dead = [
            a for a in legal if isinstance(a, Discard) and a.ranks and set(a.ranks) <= set(DEAD)
        ]
        return max(dead, key=lambda a: len(a.ranks)) if dead else first
    running = [h for h in range(2, 13) if h not in view.lines and not count_of(hand, h)]
    leader = max(
        running,
        key=lambda h: view.positions[h - 2] / view.board.advances_to_finish(h),
        default=None,
    )
    for card in (JACK, QUEEN, KING):
        for action in legal:
            if isinstance(action, Power) and action.card == card and action.horse == leader:
                return action
    return first
