"""Advanced Mode, Robertson's four dice and Northwoods, scripted move by move with exact chips.

Card powers are tested from hand-built mid-game states (the shortest way to an exact
situation); the deck table and the draft from real deals.
"""

from __future__ import annotations

from typing import Any

import pytest

from horserace.components.cards import ACE, JOKER, KING, NO_CARDS, counts, total
from horserace.core.chance import SeededChance
from horserace.core.errors import IllegalAction
from horserace.core.events import Event, redact
from horserace.core.ledger import Ledger
from horserace.core.types import CHANCE
from horserace.engine import Game, Step, play
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.records import Racing
from horserace.families.board.rules.state import BoardState, Phase
from tests.board_positions import arrange
from tests.helpers import bots_for, dice_for, new_game


def act(game: Game, *texts: str) -> list[Event]:
    """Apply texts in order, each for whoever moves now (a seat or chance); sure chance steps
    (paying out, the next round) follow on their own, as every driver plays them."""
    events: list[Event] = []
    for text in texts:
        actor = game.actor
        action = game.rules.parse_action(game.state, text)
        step: Step = game.apply(action) if actor is CHANCE else game.act(actor, action)  # type: ignore[arg-type]
        events.extend(step.events)
        while game.actor is CHANCE and game.rules.forced_chance(game.state) is not None:
            events.extend(game.apply(game.rules.forced_chance(game.state)).events)  # type: ignore[arg-type]
    return events


def race_state(
    game: Game,
    hands: dict[int, dict[int, int]],
    *,
    lines: tuple[int, int, int, int] = (3, 5, 9, 11),
    positions: dict[int, int] | None = None,
    chips: int = 50,
    roller: int = 0,
) -> None:
    """Put `game` in the race phase with these hands, scratches, positions and empty pots."""
    state: BoardState = game.state
    n = state.config.players
    full = [counts(hands.get(seat, {})) for seat in range(n)]
    at = [0] * 11
    for horse, position in (positions or {}).items():
        at[horse - 2] = position
    ledger = Ledger.open(state.ledger.labels, [chips] * n + [0] * (len(state.ledger.labels) - n))
    game.state = arrange(
        state,
        phase=Phase.RACE,
        roller=roller,
        hands=tuple(full),
        packets=(NO_CARDS,) * n,
        lines=lines,
        positions=tuple(at),
        ledger=ledger,
    )


def phase_of(game: Game) -> Phase:
    return game.state.phase  # type: ignore[no-any-return]


def chips(game: Game) -> list[int]:
    return list(game.state.ledger.balances)


# --- the deck table and the draft -------------------------------------------------------------

DECK_TABLE = {  # players: (suits, jokers, cards per player, stub), from the source's table
    4: (2, 1, 6, 3),
    5: (2, 2, 5, 3),
    6: (3, 2, 6, 5),
    7: (3, 2, 5, 6),
    8: (4, 2, 6, 6),
    9: (4, 2, 6, 0),
    10: (4, 2, 5, 4),
    11: (5, 2, 6, 1),
    12: (5, 2, 5, 7),
}


@pytest.mark.parametrize("players", sorted(DECK_TABLE))
def test_deck_table_deal_and_draft_keep_every_card(players: int) -> None:
    suits, jokers, each, stub = DECK_TABLE[players]
    game = new_game({"players": players}, preset="advanced", seed=players)
    deck = game.state.deck
    assert deck[JOKER] == jokers and all(deck[rank] == suits for rank in range(ACE, KING + 1))
    assert total(deck) == 13 * suits + jokers
    bots = bots_for(players, players)
    chance = SeededChance(players)
    while game.state.phase in (Phase.DEAL, Phase.DRAFT):
        actor = game.actor
        if actor is CHANCE:
            game.apply(chance.choose(game.rules, game.state))
        else:
            assert isinstance(actor, int)
            legal = game.rules.legal_actions(game.state, actor)
            game.act(actor, bots[actor].choose(game.rules.view(game.state, actor), legal))
    state = game.state
    assert [total(hand) for hand in state.hands] == [each] * players
    assert total(state.deck) == stub
    assert all(total(packet) == 0 for packet in state.packets)
    kept = [sum(hand[rank] for hand in state.hands) + state.deck[rank] for rank in range(14)]
    assert kept == list(deck)  # the draft neither loses nor invents a card


def test_draft_picks_are_hidden_and_packets_pass_left() -> None:
    game = new_game({"players": 4}, preset="advanced", seed=11)
    chance = SeededChance(11)
    while game.state.phase is Phase.DEAL:
        game.apply(chance.choose(game.rules, game.state))
    before = game.state.packets
    assert game.actor == 1  # picks start at the dealer's left
    picks: list[Event] = []
    for seat in (1, 2, 3, 0):
        keep = game.rules.legal_actions(game.state, seat)[0]
        assert all(not game.rules.legal_actions(game.state, s) for s in range(4) if s != seat)
        picks.extend(game.act(seat, keep).events)
    after = game.state.packets
    for seat in range(4):  # seat s now holds what seat s - 1 had, less the card it kept
        assert total(after[seat]) == total(before[(seat - 1) % 4]) - 1
    seen_by_2 = redact(picks, 2)
    assert [type(e).__name__ for e in seen_by_2].count("CardKept") == 1
    public = [e for e in redact(picks, None) if not isinstance(e, ev.PacketsPassed)]
    assert len(public) == 4 and all(isinstance(e, ev.CardKeptFaceDown) for e in public)
    view = game.rules.view(game.state, 2)
    assert view.hands[1] is None and view.hands[2] is not None and view.packet == after[2]


# --- penalties and response cards -----------------------------------------------------------


def test_king_chain_doubles_twice_then_an_ace_cancels() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {0: {KING: 1}, 1: {KING: 1}, 2: {KING: 1}, 3: {ACE: 1}})
    events = act(game, "roll", dice_for(5))  # horse 5 stands on line 2: owes 2 x ante 1
    assert events[-1] == ev.PenaltyOwed(0, 2, "rolled scratched horse 5 on line 2")
    assert game.rules.legal_actions(game.state, 0) == tuple(
        game.rules.parse_action(game.state, t) for t in ("pay", "king left", "king right")
    )
    events = act(game, "king left", "king left", "king left")
    kings = [e for e in events if isinstance(e, ev.KingPlayed)]
    assert [(k.seat, k.target, k.amount, k.doubled) for k in kings] == [
        (0, 1, 2, False),
        (1, 2, 4, True),
        (2, 3, 8, True),
    ]
    assert game.actor == 3 and game.rules.view(game.state, None).pending.amount == 8
    events = act(game, "ace")
    assert ev.AcePlayed(3, 8) in events
    assert chips(game) == [50, 50, 50, 50, 0, 0]  # nobody paid anything
    assert game.state.discards[KING] == 3 and game.state.discards[ACE] == 1
    assert game.actor == 0  # the roller is asked about a Joker, holding one or not
    assert [a.text for a in game.rules.legal_actions(game.state, 0)] == ["pass"]
    act(game, "pass")
    assert game.actor == 1  # the next roller


def test_king_passed_right_is_paid_by_a_neighbour_without_answers() -> None:
    game = new_game({"players": 4, "ante": 3}, preset="advanced")
    race_state(game, {0: {KING: 1}}, chips=5, roller=0)
    act(game, "roll", dice_for(11), "king right")  # line 4 x ante 3 = 12, to seat 3
    assert game.actor == 3  # asked too, though it holds nothing to answer with
    act(game, "pay")
    assert chips(game) == [5, 5, 5, 0, 5, 0]  # seat 3 pays all it has: 5 of 12


def test_scratch_penalties_resolve_in_seat_order_from_the_roller() -> None:
    game = new_game({"players": 4, "ante": 2}, preset="advanced")
    race_state(game, {0: {7: 1}, 1: {7: 1, ACE: 1}, 3: {7: 2}}, lines=(0, 0, 0, 0), roller=3)
    game.state = arrange(game.state, phase=Phase.SCRATCH, roller=3)
    act(game, "roll", dice_for(7))  # first scratch: position 1 x ante 2 per card
    asked = []
    for answer in ("pay", "pay", "ace"):  # seat 3 (roller), seat 0, then seat 1 with its Ace
        asked.append(game.actor)
        act(game, answer)
    assert asked == [3, 0, 1]
    assert chips(game) == [48, 50, 50, 46, 6, 0]


def test_chain_scratch_repeat_costs_only_the_roller_and_last_scratcher_starts() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {1: {6: 2}}, lines=(0, 0, 0, 0), roller=1)
    game.state = arrange(game.state, phase=Phase.SCRATCH, roller=1)
    act(game, "roll", dice_for(6), "pay")  # seat 1: horse 6 to position 1, 2 x 6: pays 2
    events = act(game, "roll", dice_for(6))  # seat 2 rolls 6 again: only seat 2 pays line 1
    assert events[-1] == ev.PenaltyOwed(2, 1, "rolled scratched horse 6 on line 1")  # as a race
    act(game, "pay")  # roll names it (it said "(position 1)")
    act(game, "roll", dice_for(8), "roll", dice_for(9))  # seats 3, 0: positions 2, 3
    assert phase_of(game) is Phase.SCRATCH
    act(game, "roll", dice_for(10))  # seat 1 scratches the fourth horse
    assert game.state.lines == (6, 8, 9, 10)
    assert phase_of(game) is Phase.RACE and game.actor == 1  # the last scratcher rolls first
    assert chips(game)[:4] == [50, 48, 49, 50]


# --- the Joker, settlement and the Jockey Pot ------------------------------------------------


def test_joker_finishes_a_horse_and_its_player_takes_the_jockey_pot() -> None:
    game = new_game({"players": 4, "ante": 1}, preset="advanced")
    race_state(
        game,
        {0: {2: 1}, 1: {JOKER: 2, KING: 1}, 2: {2: 2}, 3: {ACE: 1}},
        positions={2: 2},
        roller=1,
    )
    pots = [40, 40, 40, 40, 10, 8]  # main pot 10, jockey pot 8
    game.state = arrange(game.state, chips=pots)
    act(game, "roll", dice_for(7))
    assert game.actor == 1  # the roller may now play a Joker
    legal = {a.text for a in game.rules.legal_actions(game.state, 1)}
    assert {"pass", "joker 2 forward", "joker 2 back", "joker 7 back"} <= legal
    assert "joker 5 forward" not in legal and "joker 4 back" not in legal  # 5 scratched, 4 at gate
    events = act(game, "joker 2 forward")
    assert ev.JokerPlayed(1, 2, True) in events
    won = next(e for e in events if isinstance(e, ev.PotShared))
    # Settlement: seat 1 pays 2 for its King and 4 for the Joker it still holds; seat 3 pays 3
    # for its Ace: main pot 10 + 9 = 19, three 2s held: 6 each, remainder 1 to the jockey pot.
    assert (won.horse, won.pot, won.share) == (2, 19, 6)
    assert ev.JockeyPotWon(1, 9) in events
    assert chips(game)[:4] == [46, 40 - 6 + 9, 52, 37]
    assert game.state.round == 2 and sum(chips(game)) == sum(pots)


def test_no_joker_after_the_dice_win_the_race() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {2: {JOKER: 1, 12: 1}}, positions={12: 2}, roller=2)
    events = act(game, "roll", dice_for(12))
    won = next(e for e in events if isinstance(e, ev.RaceWon))
    assert won.horse == 12
    assert ev.JockeyPotWon(2, 0) in events  # the roller moved it across (empty jockey pot)
    fee = next(e for e in events if isinstance(e, ev.ChipsPaid) and e.reason.endswith("joker"))
    assert (fee.seat, fee.owed) == (2, 4)


def test_passing_a_joker_keeps_it() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {0: {JOKER: 1}})
    act(game, "roll", dice_for(7), "pass")
    assert game.state.hands[0][JOKER] == 1 and game.actor == 1
    with pytest.raises(IllegalAction, match="not allowed now"):
        game.act(1, game.rules.parse_action(game.state, "joker 7 forward"))


# --- Robertson's four dice -------------------------------------------------------------------


def test_robertson_offers_the_three_pairings_in_either_order() -> None:
    game = new_game({"players": 3, "robertson": True}, preset="classic")
    race_state(game, {}, lines=(3, 4, 8, 12), positions={11: 5})
    act(game, "roll", "6+1+5+4")
    assert game.rules.view(game.state, None).four_dice == (1, 4, 5, 6)
    legal = [a.text for a in game.rules.legal_actions(game.state, 0)]
    assert legal == [
        f"pair {a} {b}" for a, b in [(5, 11), (6, 10), (7, 9), (9, 7), (10, 6), (11, 5)]
    ]
    events = act(game, "pair 11 5")  # 11 finishes on the first sum: 5 never moves
    assert next(e for e in events if isinstance(e, ev.RaceWon)).horse == 11
    assert game.state.round == 2


def test_robertson_sums_resolve_in_the_chosen_order() -> None:
    game = new_game({"players": 3, "robertson": True}, preset="classic")
    race_state(game, {}, lines=(3, 0, 0, 0))
    events = act(game, "roll", "1+2+3+4", "pair 3 7")  # 1+2 = horse 3 (line 1), 3+4 = horse 7
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ChipsPaid") < kinds.index("HorseAdvanced")
    assert chips(game)[:3] == [49, 50, 50] and game.state.position(7) == 1


def test_robertson_four_dice_probabilities_are_exact() -> None:
    game = new_game({"players": 3, "robertson": True}, preset="classic")
    race_state(game, {})
    game.state = arrange(game.state, record=Racing(0, rolling=True))
    outcomes = game.rules.chance_outcomes(game.state)
    assert len(outcomes) == 126 and sum(p for _, p in outcomes) == 1
    probability = {a.text: p for a, p in outcomes}
    assert probability["1+1+1+1"] * 1296 == 1 and probability["1+2+3+4"] * 1296 == 24
    assert probability["2+2+5+5"] * 1296 == 6


# --- Northwoods -------------------------------------------------------------------------------


def northwoods(**options: Any) -> Game:
    return new_game({"players": 3, **options}, preset="northwoods")


def test_northwoods_deals_all_44_and_the_remainder_is_discarded() -> None:
    game = northwoods()
    chance = SeededChance(5)
    while game.state.phase is Phase.DEAL:
        game.apply(chance.choose(game.rules, game.state))
    assert [total(h) for h in game.state.hands] == [14, 14, 14]
    assert total(game.state.discards) == 2 and total(game.state.deck) == 0


def test_northwoods_scratch_rows_and_rerolled_repeats() -> None:
    game = northwoods()
    race_state(game, {0: {4: 1}, 2: {4: 2}}, lines=(0, 0, 0, 0), chips=200)
    game.state = arrange(game.state, phase=Phase.SCRATCH, roller=1)
    act(game, "roll", dice_for(4))  # first scratch: 20 cents a card
    events = act(game, "roll", dice_for(4))  # a repeat is rolled again by the same seat
    assert ev.RepeatRerolled(2, 4) in events and game.actor == 2
    act(game, "roll", dice_for(6), "roll", dice_for(8), "roll", dice_for(9))
    assert game.state.lines == (4, 6, 8, 9) and game.state.phase is Phase.RACE
    assert chips(game) == [180, 200, 160, 60]
    assert game.actor == 1  # the dealer's left rolls first in the race


def test_northwoods_short_payer_who_collects_plays_on() -> None:
    game = northwoods(players=2)
    race_state(game, {0: {2: 1}, 1: {12: 1}}, lines=(4, 0, 0, 0), positions={2: 2}, chips=10)
    act(game, "roll", dice_for(4))  # seat 0 owes 20 cents, holds 10: pays all it has
    assert chips(game) == [0, 10, 10]
    assert game.actor == 1  # holding nothing, seat 0 still plays through the round
    events = act(game, "roll", dice_for(2))  # seat 1 finishes horse 2; seat 0's card collects
    assert ev.PayoutMade(0, 1, 10) in events
    assert not any(isinstance(e, ev.PlayerOut) for e in events)  # it holds money again
    assert not game.over and game.state.out == (False, False)


def test_northwoods_player_ending_a_round_with_nothing_is_out_and_ranks_last() -> None:
    game = northwoods(players=3, rounds=5)
    race_state(game, {1: {2: 1}}, lines=(4, 0, 0, 0), positions={2: 2}, chips=10, roller=0)
    act(game, "roll", dice_for(4))  # seat 0 owes 20 cents, pays its 10: holds exactly 0
    events = act(game, "roll", dice_for(2))  # seat 1 finishes horse 2 and collects the pot
    assert ev.PlayerOut(0, 1) in events
    assert game.state.out == (True, False, False)
    assert game.state.seats.out == (1, None, None)  # out in round 1
    assert game.state.dealer != 0  # out of the deal, the rolls and the cards from now on
    assert total(game.state.hands[0]) == 0


def test_northwoods_ranking_puts_every_player_still_in_above_those_out() -> None:
    from horserace.families.board.rules.phases.payout import rank_board

    result = rank_board([194, 21, 0, 0, 5], [2, None, 3, 3, None], unclaimed=0)
    assert [(s.seat, s.place) for s in result.standings] == [(1, 1), (4, 2), (2, 3), (3, 3), (0, 5)]
    assert result.winners == (1,)


def test_northwoods_elimination_ends_when_one_player_is_left() -> None:
    game = new_game({"players": 3}, preset="northwoods", seed=3)
    play(game, bots_for(3, 3), SeededChance(3))
    state = game.state
    assert game.over and (sum(not o for o in state.out) <= 1 or state.round == state.config.rounds)
    assert sum(state.ledger.balances) == 600
