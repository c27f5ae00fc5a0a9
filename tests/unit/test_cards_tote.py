"""The pari-mutuel pools and the English auction as generic components, with hand-worked
numbers: every payout rounded down, the odd chips and the takeout to the house, which makes up
a minus pool so that no winning ticket returns less than its stake."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from horserace.components.auction import bid, open_lot, pass_turn
from horserace.components.tote import Ticket, settle_pool, shares_by_weight
from horserace.core.errors import IllegalAction


def test_shares_by_weight_round_down() -> None:
    assert shares_by_weight(3, [6, 5]) == [1, 1]
    assert shares_by_weight(10, [1, 1, 1]) == [3, 3, 3]
    assert shares_by_weight(0, [0, 0]) == [0, 0]
    with pytest.raises(ValueError):
        shares_by_weight(1, [0, 0])


def test_win_pool_pays_the_net_pool_by_stake_rounded_down() -> None:
    tickets = [Ticket(1, ("S",), 6), Ticket(2, ("H",), 4), Ticket(0, ("S",), 5)]
    result = settle_pool(tickets, [("S",)], takeout_percent=10)
    assert (result.total, result.takeout) == (15, 1)
    # net 14; winners staked 11: stakes back, profit 3 by 6:5 -> 1 and 1, 1 odd chip
    assert result.payouts == (7, 0, 6) and result.odd_chips == 1
    assert result.from_house == (0, 0, 0) and result.house_keeps == 2


def test_place_pool_splits_the_profit_between_the_placed_horses() -> None:
    tickets = [Ticket(0, ("S",), 10), Ticket(1, ("H",), 5), Ticket(2, ("D",), 5)]
    result = settle_pool(tickets, [("S",), ("H",)], takeout_percent=0)
    # profit 5 between two horses: 2 each, the fifth chip to the house
    assert result.payouts == (12, 7, 0) and result.odd_chips == 1


def test_the_place_pool_of_fourteen_pays_seven_and_six() -> None:
    """A basic table's place pool (seed 58514, race 3): diamonds 1st, hearts 2nd; profit 9
    between the two horses is 4 each, the ninth chip to the house (not to diamonds' ticket)."""
    tickets = [
        Ticket(4, ("D",), 3),
        Ticket(4, ("S",), 1),
        Ticket(3, ("S",), 1),
        Ticket(5, ("S",), 7),
        Ticket(8, ("H",), 2),
    ]
    result = settle_pool(tickets, [("D",), ("H",)], takeout_percent=0)
    assert result.payouts == (7, 0, 0, 0, 6) and result.odd_chips == 1


def test_show_pool_with_one_placed_horse_unbacked() -> None:
    tickets = [Ticket(0, ("S",), 4), Ticket(1, ("C",), 6), Ticket(2, ("D",), 2)]
    result = settle_pool(tickets, [("S",), ("H",), ("D",)], takeout_percent=0)
    assert result.payouts == (7, 0, 5)  # profit 6 between spades and diamonds: 3 each


def test_nobody_holding_the_winner_gets_the_net_pool_back_by_stake() -> None:
    tickets = [Ticket(0, ("S", "H"), 3), Ticket(1, ("H", "S"), 1)]
    result = settle_pool(tickets, [("C", "D")], takeout_percent=20)
    assert result.refunded and result.takeout == 0 and result.payouts == (3, 1)
    tickets = [Ticket(0, ("S",), 7), Ticket(1, ("H",), 3)]
    refund = settle_pool(tickets, [("C",)], takeout_percent=25)  # net 8: 5.6 and 2.4
    assert refund.refunded and refund.payouts == (5, 2) and refund.odd_chips == 1


def test_a_minus_pool_is_made_up_by_the_house() -> None:
    tickets = [Ticket(0, ("S",), 10), Ticket(1, ("H",), 1)]
    result = settle_pool(tickets, [("S",)], takeout_percent=50)
    assert result.takeout == 5 and result.from_pool == (6, 0) and result.from_house == (4, 0)
    assert result.payouts == (10, 0) and result.house_keeps == 1


def test_a_minus_place_pool_makes_every_winning_stake_whole() -> None:
    tickets = [Ticket(0, ("S",), 5), Ticket(1, ("H",), 2), Ticket(2, ("S",), 2)]
    result = settle_pool(tickets, [("S",), ("H",)], takeout_percent=50)
    # total 9, takeout 4, net 5 for 9 staked on the placed horses: 2, 1 and 1 from the pool
    assert result.from_pool == (2, 1, 1) and result.from_house == (3, 1, 1)
    assert result.payouts == (5, 2, 2) and result.odd_chips == 1 and result.house_keeps == 0


@settings(max_examples=200, deadline=None)
@given(
    stakes=st.lists(st.tuples(st.integers(0, 3), st.integers(1, 50)), min_size=1, max_size=12),
    winners=st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True),
    takeout=st.integers(0, 50),
)
def test_every_pool_pays_its_net_rounded_down_and_never_less_than_a_winning_stake(
    stakes: list[tuple[int, int]], winners: list[int], takeout: int
) -> None:
    tickets = [Ticket(seat, (horse,), stake) for seat, (horse, stake) in enumerate(stakes)]
    result = settle_pool(tickets, [(w,) for w in winners], takeout)
    assert result.total == sum(stake for _, stake in stakes)
    assert result.takeout == result.total * takeout // 100
    assert 0 <= result.odd_chips < len(tickets)
    assert sum(result.from_pool) + result.odd_chips == result.total - result.takeout
    assert result.house_keeps >= 0
    assert all(p >= 0 for p in result.from_pool + result.from_house)
    losers = [i for i, (horse, _) in enumerate(stakes) if horse not in winners]
    if result.refunded:
        assert not any(result.from_house)
    else:
        assert all(result.payouts[i] == 0 for i in losers)
        for i, (horse, stake) in enumerate(stakes):
            if horse in winners:
                assert result.payouts[i] >= stake
                assert result.from_house[i] == 0 or result.payouts[i] == stake


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
