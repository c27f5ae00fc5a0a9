"""The pari-mutuel pools and the English auction as generic components, with hand-worked
numbers: every pool returns exactly its total less the takeout."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horserace.components.auction import bid, open_lot, pass_turn
from horserace.components.tote import Ticket, settle_pool, split_by_weight
from horserace.core.errors import IllegalAction


def test_split_by_weight_uses_the_largest_remainder_earlier_first() -> None:
    assert split_by_weight(3, [6, 5]) == [2, 1]
    assert split_by_weight(10, [1, 1, 1]) == [4, 3, 3]
    assert split_by_weight(0, [0, 0]) == [0, 0]
    with pytest.raises(ValueError):
        split_by_weight(1, [0, 0])


def test_win_pool_pays_the_net_pool_by_stake() -> None:
    tickets = [Ticket(1, ("S",), 6), Ticket(2, ("H",), 4), Ticket(0, ("S",), 5)]
    result = settle_pool(tickets, [("S",)], takeout_percent=10)
    assert (result.total, result.takeout) == (15, 1)
    # net 14; winners staked 11: stakes back, profit 3 split 6:5 -> 2 and 1
    assert result.payouts == (8, 0, 6)


def test_place_pool_splits_the_profit_between_the_placed_horses() -> None:
    tickets = [Ticket(0, ("S",), 10), Ticket(1, ("H",), 5), Ticket(2, ("D",), 5)]
    result = settle_pool(tickets, [("S",), ("H",)], takeout_percent=0)
    assert result.payouts == (13, 7, 0)  # profit 5: 3 to spades' tickets, 2 to hearts'


def test_show_pool_with_one_placed_horse_unbacked() -> None:
    tickets = [Ticket(0, ("S",), 4), Ticket(1, ("C",), 6), Ticket(2, ("D",), 2)]
    result = settle_pool(tickets, [("S",), ("H",), ("D",)], takeout_percent=0)
    assert result.payouts == (7, 0, 5)  # profit 6 between spades and diamonds: 3 each


def test_nobody_holding_the_winner_gets_the_net_pool_back_by_stake() -> None:
    tickets = [Ticket(0, ("S", "H"), 3), Ticket(1, ("H", "S"), 1)]
    result = settle_pool(tickets, [("C", "D")], takeout_percent=20)
    assert result.refunded and result.takeout == 0 and result.payouts == (3, 1)


def test_a_takeout_bigger_than_the_losers_leaves_the_winners_short() -> None:
    tickets = [Ticket(0, ("S",), 10), Ticket(1, ("H",), 1)]
    result = settle_pool(tickets, [("S",)], takeout_percent=50)
    assert result.takeout == 5 and result.payouts == (6, 0)


@settings(max_examples=200, deadline=None)
@given(
    stakes=st.lists(st.tuples(st.integers(0, 3), st.integers(1, 50)), min_size=1, max_size=12),
    winners=st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True),
    takeout=st.integers(0, 50),
)
def test_every_pool_returns_exactly_its_total_less_the_takeout(
    stakes: list[tuple[int, int]], winners: list[int], takeout: int
) -> None:
    tickets = [Ticket(seat, (horse,), stake) for seat, (horse, stake) in enumerate(stakes)]
    result = settle_pool(tickets, [(w,) for w in winners], takeout)
    assert result.total == sum(stake for _, stake in stakes)
    assert result.takeout == result.total * takeout // 100
    assert sum(result.payouts) == result.total - result.takeout
    assert all(p >= 0 for p in result.payouts)
    losers = [i for i, (horse, _) in enumerate(stakes) if horse not in winners]
    if not result.refunded:
        assert all(result.payouts[i] == 0 for i in losers)


def test_an_english_auction_closes_when_everyone_else_has_passed() -> None:
    lot = open_lot([1, 2, 0], purses=(3, 10, 10))
    assert lot.turn == 1
    lot = bid(lot, 1, 2)
    assert lot.turn == 2
    with pytest.raises(IllegalAction, match="at least 3"):
        bid(lot, 2, 2)
    lot = bid(lot, 2, 3)
    assert lot.turn == 1  # seat 0 holds only 3: it cannot outbid and is skipped
    lot = pass_turn(lot, 1)
    assert lot.closed and lot.sold and (lot.leader, lot.high) == (2, 3)


def test_a_lot_nobody_can_or_will_buy_is_unsold() -> None:
    assert open_lot([0, 1], purses=(0, 0)).closed
    lot = open_lot([0, 1], purses=(5, 5))
    lot = pass_turn(pass_turn(lot, 0), 1)
    assert lot.closed and not lot.sold and lot.leader is None
