"""The tote, the party prizes and the Calcutta on scripted decks, with the chips worked out by
hand from RULINGS.md §2 (and components/tote.py's documented pool rules)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from horserace.components.french_deck import parse_card
from horserace.core.errors import IllegalAction
from horserace.core.record import parse_record
from horserace.core.types import CHANCE
from horserace.drivers.server.jsonable import to_jsonable
from horserace.engine import replay
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.calcutta import LeftTheBidding, pool_shares
from horserace.families.cards.rules.state import CardsPhase
from horserace.families.presets import get_preset
from tests.unit.test_cards_support import CUT, chips, events, new_table, of_suit, run, scripted

C, D, H, S = range(4)
COURSE = ["2C", "9H", "KD", "5S", "7H", "JC", "3D"]  # clubs 2, diamonds 2, hearts 2, spades 1
S_H_D = [*of_suit("S", 8, COURSE), *of_suit("H", 8, COURSE), *of_suit("D", 8, COURSE)]


def test_tote_pools_pay_whole_chips_rounded_down_the_odd_chips_to_the_bank() -> None:
    options = {"players": 3, "races": 1, "betting": "tote", "takeout": 10}
    tickets = [
        "win 6 S",  # P2
        "board 1 H",  # P2 (3 chips: win, place and show on hearts)
        "done",
        "win 4 H",  # P3
        "place 5 D",  # P3
        "done",
        "win 5 S",  # P1
        "show 2 C",  # P1
        "done",
    ]
    game, steps = scripted("basic", options, [*COURSE, *tickets, *S_H_D])
    settled = {e.pool: e for e in events(steps, ev.PoolSettled)}
    # win: 6 + 1 + 4 + 5 = 16, takeout 1, net 15; spades staked 11: profit 4 split 6:5 is
    # 2.18 and 1.82 -> 2 and 1 rounded down, the odd chip to the bank
    assert (settled["win"].total, settled["win"].kept) == (16, 2)
    # place: 1 on H, 5 on D -> S, H placed: only hearts' ticket wins the net pool
    assert (settled["place"].total, settled["place"].kept) == (6, 0)
    # show: 1 on H, 2 on C -> S, H, D: hearts' ticket takes the net pool
    assert (settled["show"].total, settled["show"].kept) == (3, 0)
    paid = {(p.target, p.reason): p.amount for p in events(steps, ev.Payment) if p.source < -1}
    assert paid[(1, "win ticket")] == 6 + 2 and paid[(0, "win ticket")] == 5 + 1
    assert paid[(1, "place ticket")] == 6 and paid[(1, "show ticket")] == 3
    assert paid[(-3, "win takeout")] == 1 and paid[(-3, "win odd chips")] == 1
    assert chips(game) == (100 - 7 + 6, 100 - 9 + 8 + 6 + 3, 100 - 9)
    assert game.state.ledger.balance(3) == 0 and game.state.ledger.balance(4) == 2


def test_the_bank_makes_up_a_minus_pool_so_no_winning_ticket_loses() -> None:
    options = {"players": 3, "races": 1, "betting": "tote", "takeout": 50}
    tickets = [
        *("win 6 S", "done"),  # P2
        *("win 1 H", "place 2 H", "done"),  # P3
        *("place 4 S", "done"),  # P1
    ]
    game, steps = scripted("basic", options, [*COURSE, *tickets, *S_H_D[:16]])  # S, H place
    settled = {e.pool: e for e in events(steps, ev.PoolSettled)}
    # win: 7, takeout 3, net 4 for spades' 6: P2 gets the 4 and the bank makes up 2
    # place: 6, takeout 3, net 3 for the 6 on spades and hearts: 2 and 1, the bank adds 2 and 1
    assert [(e.total, e.kept) for e in settled.values()] == [(7, 3 - 2), (6, 3 - 3)]
    made_up = [(p.target, p.amount, p.reason) for p in events(steps, ev.Payment) if p.source == -3]
    assert made_up == [  # the tickets in the order they were bought
        (1, 2, "win minus pool"),
        (2, 1, "place minus pool"),
        (0, 2, "place minus pool"),
    ]
    assert chips(game) == (100, 100, 99)  # P3's losing win ticket is its only loss
    assert game.state.ledger.balance(3) == 0 and game.state.ledger.balance(4) == 1


def test_tote_limit_counts_board_as_three_stakes() -> None:
    game = new_table("basic", players=3, betting="tote", bet_limit=5)
    run(game, [*COURSE, "board 1 S"])
    with pytest.raises(IllegalAction, match="costs 3"):
        game.rules.apply(game.state, game.rules.parse_action(game.state, "board 1 H"))
    assert game.rules.parse_action(game.state, "ex 2 hc").text == "exacta 2 H C"
    assert game.rules.parse_action(game.state, "tri 1 HCD").text == "trifecta 1 H C D"


def test_party_prizes_come_from_the_bank() -> None:
    options = {"players": 4, "races": 1, "betting": "party"}
    picks = ["pick H", "pick S", "pick C", "H"]  # P2, P3, P4, P1 (the dealer picks last)
    game, steps = scripted("basic", options, [*COURSE, *picks, *S_H_D])
    assert game.state.places == 3
    assert events(steps, ev.RaceOver)[0].order == (S, H, D, C)
    # spades 1st: P3 25; hearts 2nd: P2 and P1 20 each; diamonds 3rd: nobody; clubs: nothing
    assert chips(game) == (120, 120, 125, 100)
    assert game.state.ledger.balance(5) == 4 * 25 - 65


def test_calcutta_sells_longshots_first_and_keeps_an_unsold_share() -> None:
    options = {"players": 3, "races": 2}
    auction = [
        *("bid 3", "pass", "pass"),  # clubs (2 on the course): P2 for 3
        *("pass", "bid 2", "pass"),  # diamonds: P3 for 2 (P1 passed: out of its bidding)
        *("pass", "pass", "pass"),  # hearts: unsold
        *("bid 4", "bid 5", "pass", "pass"),  # spades (1 on the course, the favourite): P3 for 5
    ]
    game, steps = scripted("calcutta", options, [*CUT, *COURSE, *auction])
    lots = [e.suit for e in events(steps, ev.LotOpened)]
    assert lots == [C, D, H, S]
    sorted_course = ("2C", "JC", "3D", "KD", "7H", "9H", "5S")
    assert events(steps, ev.CourseSorted) == [
        ev.CourseSorted(tuple(map(parse_card, sorted_course)))
    ]
    assert game.state.course == tuple(map(parse_card, sorted_course))
    sold = [(e.suit, e.seat, e.price) for e in events(steps, ev.HorseSold)]
    assert sold == [(C, 1, 3), (D, 2, 2), (H, None, 0), (S, 2, 5)]
    assert game.state.auction.owners == (1, 2, None, 2) and game.state.auction.horse is None
    assert game.state.phase is CardsPhase.RACE and game.state.places == 2
    # the record says "nobody" with seat -1, as records always have; the table page gets null
    unsold = next(e for e in events(steps, ev.HorseSold) if e.seat is None)
    assert unsold.to_json() == {"type": "horse-sold", "suit": H, "seat": -1, "price": 0}
    assert replay(parse_record("\n".join(game.record().lines())), get_preset).ok
    view = to_jsonable(game.rules.view(game.state, None))
    assert isinstance(view, dict) and isinstance(view["auction"], dict)
    assert view["auction"]["owners"] == [1, 2, None, 2]
    hearts_then_spades = [*of_suit("H", 8, COURSE), *of_suit("S", 8, COURSE)]
    run(game, hearts_then_spades, steps)
    # pool 10 = 3 x 3 + 1: 1st 7 (stays: hearts was unsold), 2nd 3 to P3 (spades)
    assert pool_shares(10) == (7, 3)
    assert events(steps, ev.PoolSettled)[0] == ev.PoolSettled("the pool", 10, 0, 7)
    assert chips(game) == (150, 147, 150 - 7 + 3)
    assert game.state.ledger.balance(3) == 7 and game.state.race == 2


def test_calcutta_remainder_of_two_gives_one_chip_each() -> None:
    options = {"players": 3, "races": 1}
    auction = [
        *("bid 3", "pass", "pass"),  # clubs: P2 3
        *("pass", "bid 3", "pass"),  # diamonds: P3 3
        *("pass", "pass", "bid 4"),  # hearts: P1 4 (both others passed: sold at once)
        *("bid 1", "pass", "pass"),  # spades: P2 1
    ]
    game, steps = scripted("calcutta", options, [*CUT, *COURSE, *auction])
    run(game, [*of_suit("D", 8, COURSE), *of_suit("C", 8, COURSE)], steps)
    assert pool_shares(11) == (7, 4)
    assert chips(game) == (150 - 4, 150 - 4 + 4, 150 - 3 + 7)
    assert game.state.ledger.balance(3) == 0


def test_a_calcutta_pass_leaves_the_bidding_on_that_horse() -> None:
    """Clubs: P2 passes, P3 bids 2, P1 bids 6; P2 is not asked again, P3 passes: P1 buys
    clubs for 6. P2's bid out of its turn is refused by the rule, not by the turn order."""
    options = {"players": 3, "races": 1}
    game, steps = scripted("calcutta", options, [*CUT, *COURSE, "pass", "bid 2", "bid 6"])
    assert game.actor == 2  # P3; P2 (seat 1) passed and is skipped
    with pytest.raises(LeftTheBidding, match=r"seat 2 passed on .* leaves the bidding"):
        game.act(1, game.rules.parse_action(game.state, "bid 9"))
    run(game, ["pass"], steps)
    assert [(e.suit, e.seat, e.price) for e in events(steps, ev.HorseSold)] == [(C, 0, 6)]
    assert chips(game) == (144, 150, 150) and game.state.ledger.balance(3) == 6
    assert game.state.auction.horse == D and game.actor == 1  # a new horse: P2 bids again


def test_a_table_may_let_a_seat_bid_again_after_a_new_bid() -> None:
    options = {"players": 3, "races": 1, "pass_leaves": False}
    game, steps = scripted("calcutta", options, [*CUT, *COURSE, "pass", "bid 2", "bid 6"])
    assert game.actor == 1  # P2 passed before the bids: asked again
    run(game, ["bid 9", "pass", "pass"], steps)
    assert [(e.suit, e.seat, e.price) for e in events(steps, ev.HorseSold)] == [(C, 1, 9)]
    assert chips(game) == (150, 141, 150)


def test_calcutta_auctioneer_stays_out_when_the_table_says_so() -> None:
    game = new_table("calcutta", players=3, dealer_bids=False)
    steps = run(game, [*CUT, *COURSE, "pass", "pass"])
    assert events(steps, ev.HorseSold) == [ev.HorseSold(C, None, 0)]
    assert game.actor == 1  # the auctioneer (seat 0) is never asked
    with pytest.raises(IllegalAction, match="at least 1"):
        game.rules.apply(game.state, game.rules.parse_action(game.state, "bid 0"))


@pytest.mark.parametrize(("pool", "shares"), [(0, (0, 0)), (9, (6, 3)), (10, (7, 3)), (11, (7, 4))])
def test_pool_shares_follow_the_seed(pool: int, shares: tuple[int, int]) -> None:
    assert pool_shares(pool) == shares


def test_calcutta_cuts_for_the_first_deal_and_a_tie_cuts_again() -> None:
    game = new_table("calcutta", players=3)
    first, phase = game.actor, game.state.phase
    assert phase is CardsPhase.CUT and first is CHANCE
    steps = run(game, ["9C", "KD", "KH", "4S", "2D"])  # P2 and P3 tie on kings, then 4 beats 2
    cut = [e for step in steps for e in step.events]
    assert [e.kind for e in cut] == ["card-cut"] * 3 + ["cut-tied"] + ["card-cut"] * 2 + [
        "dealer-cut"
    ]
    assert ev.CutTied((1, 2)) in cut and ev.DealerCut(1, parse_card("4S")) in cut
    assert "P2 cut the highest card (4S) and deals first" in [
        e.describe(["P1", "P2", "P3"]) for e in cut
    ]
    assert game.state.phase is CardsPhase.COURSE and game.state.dealer == 1
    assert len(game.state.deck) == 48  # the cut cards went back: a whole pack for the course
    view = game.rules.view(game.state, None)
    assert view.cut == tuple(map(parse_card, ("9C", "4S", "2D")))
    run(game, COURSE)
    assert game.actor == 2  # the auction opens at the dealer's left


def test_a_record_where_a_passed_seat_bids_again_does_not_replay_under_the_rule() -> None:
    options = {"players": 3, "races": 1, "pass_leaves": False}
    game, _ = scripted("calcutta", options, [*CUT, *COURSE, "pass", "bid 2", "bid 6", "bid 9"])
    record = game.record()
    strict = replace(record, config={**record.config, "pass_leaves": True})
    report = replay(strict, get_preset)
    assert not report.ok and "seat 2 passed on clubs" in report.problems[0].lower()
    assert report.steps_checked == len(record.steps) - 1  # the rebid, and nothing before it
    assert replay(record, get_preset).ok


def test_a_record_written_before_the_pass_rule_replays_as_it_was_played() -> None:
    options = {"players": 3, "races": 1, "pass_leaves": False}
    game, _ = scripted("calcutta", options, [*CUT, *COURSE, "pass", "bid 2", "bid 6", "bid 9"])
    record = game.record()
    older = replace(record, config={k: v for k, v in record.config.items() if k != "pass_leaves"})
    assert replay(older, get_preset).ok  # no pass_leaves in the header: a rebid was allowed
    assert get_preset("calcutta").rules.make_config({}).pass_leaves  # new tables: the rule
